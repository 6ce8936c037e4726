#include "queuesuite.h"
#include "records/recordreads.h"

#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/queuereader.h>
#include <delayq/recordtable.h>
#include <delayq/script.h>
#include <delayq/taskexport.h>

#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTest>

#include <atomic>
#include <set>
#include <thread>

using namespace delayq;

// Readers outside a script find a task's record with plain HGETs (RecordTable computes what
// lua/buckets.lua does, RecordReads checks the table's state around them): a user of +@read
// alone reads pages, find and export, with no EVAL (docs/design/key-layout.md).
class TestRecordReads : public QueueSuite
{
    Q_OBJECT

    const Keys m_keys{"dq", "orders"};

    // 20,000 distinct ids of the shapes that matter: generated-like (random base 32 and
    // counting), a common suffix, counting numbers, every 1-byte id, 256-byte ids, and ids
    // of bytes >= 0x80. Only bytes a task id may hold (no control characters).
    static std::vector<std::string> variedIds()
    {
        QRandomGenerator random(55);
        std::set<std::string> seen;
        std::vector<std::string> ids;
        auto add = [&](std::string id) {
            if (seen.insert(id).second)
                ids.push_back(std::move(id));
        };
        auto byte = [&] {
            unsigned char c;
            do
                c = static_cast<unsigned char>(random.bounded(0x20, 0x100));
            while (c == 0x7f);
            return static_cast<char>(c);
        };
        static const char kBase32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        for (int i = 0; i < 4000; ++i) {
            std::string id = "01JD";
            for (int k = 0; k < 18; ++k)
                id += kBase32[random.bounded(32)];
            add(id + std::to_string(i));
        }
        for (int i = 0; i < 4000; ++i)
            add("user-" + std::to_string(i) + "-reminder");
        for (int i = 0; i < 2000; ++i)
            add("order-" + std::to_string(i));
        for (int i = 0; i < 2000; ++i)
            add(std::to_string(i));
        for (int c = 0x20; c < 0x100; ++c)
            if (c != 0x7f)
                add(std::string(1, static_cast<char>(c)));
        for (int i = 0; i < 2000; ++i) {
            std::string id;
            for (int k = 0; k < 256; ++k)
                id += byte();
            add(id);
        }
        while (ids.size() < 20'000) {
            std::string id;
            const int length = static_cast<int>(random.bounded(1, 41));
            for (int k = 0; k < length; ++k)
                id += static_cast<char>(random.bounded(0x80, 0x100));
            add(id);
        }
        return ids;
    }

    // lua/buckets.lua's data_key for each id, as the scripts compute it: buckets.lua as
    // read_record.lua is sent, its last line replaced by a loop over ARGV.
    std::vector<std::string> scriptKeys(const std::vector<std::string>& ids)
    {
        const std::string source(scripts::readRecord.source);
        const std::string tail = "return redis.call('HGET', data_key(ARGV[1]), ARGV[1])";
        const size_t at = source.rfind(tail);
        if (at == std::string::npos)
            qFatal("read_record.lua no longer ends in its HGET");
        const std::string body =
            source.substr(0, at) +
            "local out = {}\nfor i = 1, #ARGV do out[i] = data_key(ARGV[i]) end\nreturn out\n";
        std::vector<std::vector<std::string>> calls;
        for (size_t begin = 0; begin < ids.size(); begin += 1000) {
            std::vector<std::string> call = {"EVAL",
                                             body,
                                             "4",
                                             m_keys.pending(),
                                             m_keys.active(),
                                             m_keys.dead(),
                                             m_keys.dataPrefix()};
            for (size_t i = begin; i < std::min(ids.size(), begin + 1000); ++i)
                call.push_back(ids[i]);
            calls.push_back(std::move(call));
        }
        std::vector<std::string> keys;
        for (const Reply& r : m_conn->pipeline(calls)) {
            if (r.isError())
                qFatal("%s", r.str.c_str());
            for (const Reply& key : r.elements)
                keys.push_back(key.str);
        }
        return keys;
    }

    RecordTable tableNow()
    {
        std::vector<std::string> read = {"HMGET", m_keys.dataLayout()};
        for (const auto& field : RecordTable::fields())
            read.push_back(field);
        std::vector<std::optional<std::string>> values;
        for (const Reply& r : m_conn->command(read).elements)
            values.push_back(r.toOptionalString());
        return RecordTable::fromFields(values);
    }

    // Which of `keys` holds each id's record (HEXISTS); -1 for none, -2 for more than one.
    std::vector<int> holders(const std::vector<std::string>& ids,
                             const std::vector<std::vector<std::string>>& keys)
    {
        std::vector<std::vector<std::string>> reads;
        for (size_t i = 0; i < ids.size(); ++i)
            for (const auto& key : keys[i])
                reads.push_back({"HEXISTS", key, ids[i]});
        const std::vector<Reply> replies = m_conn->pipeline(reads);
        std::vector<int> out;
        size_t at = 0;
        for (size_t i = 0; i < ids.size(); ++i) {
            int holder = -1;
            for (size_t k = 0; k < keys[i].size(); ++k, ++at)
                if (replies[at].toInteger() == 1)
                    holder = holder == -1 ? static_cast<int>(k) : -2;
            out.push_back(holder);
        }
        return out;
    }

    // Every id's record read by the readers' path (TaskExport::readIds: RecordReads in a
    // MULTI), as id -> payload.
    std::map<std::string, std::string> readAll(Connection& connection,
                                               const std::vector<std::string>& ids)
    {
        Queue queue(connection, "orders");
        std::map<std::string, std::string> out;
        for (size_t begin = 0; begin < ids.size(); begin += 1000) {
            const std::vector<std::string> some(
                ids.begin() + static_cast<long>(begin),
                ids.begin() + static_cast<long>(std::min(ids.size(), begin + 1000)));
            for (const Task& t : TaskExport::readIds(queue, some))
                if (!t.broken)
                    out[t.id] = t.payload;
        }
        return out;
    }

private slots:
    // The C++ bucket of 20,000 ids equals data_key's, for a queue of layout 2 (no table), a
    // table at its start, split part-way at several levels, of one bucket, and during an
    // upgrade (migrated below, inside and at the end of layout 2's buckets).
    void bucketsAreTheScriptsBuckets_data()
    {
        QTest::addColumn<QStringList>("layout"); // HSET field value ...; empty = no table
        QTest::newRow("layout 2") << QStringList{};
        QTest::newRow("new table")
            << QStringList{"base", "64", "level", "0", "split", "0", "load", "32"};
        QTest::newRow("split part-way") << QStringList{"base", "64", "level", "0", "split", "33"};
        QTest::newRow("level 5") << QStringList{"base", "64", "level", "5", "split", "1000"};
        QTest::newRow("one bucket") << QStringList{"base", "1", "level", "0", "split", "0"};
        QTest::newRow("one bucket, level 13")
            << QStringList{"base", "1", "level", "13", "split", "4097"};
        QTest::newRow("upgrade begun")
            << QStringList{"base", "64", "level", "0", "split", "0", "migrated", "0"};
        QTest::newRow("upgrade half way")
            << QStringList{"base", "64", "level", "2", "split", "100", "migrated", "4000"};
        QTest::newRow("upgrade at the last")
            << QStringList{"base", "64", "level", "1", "split", "7", "migrated", "8191"};
        QTest::newRow("upgrade done")
            << QStringList{"base", "64", "level", "1", "split", "7", "migrated", "8192"};
    }
    void bucketsAreTheScriptsBuckets()
    {
        QFETCH(QStringList, layout);
        if (!layout.isEmpty())
            m_server.cli(QStringList{"HSET", QString::fromStdString(m_keys.dataLayout())} + layout);
        const std::vector<std::string> ids = variedIds();
        QCOMPARE(ids.size(), size_t(20'000));
        const std::vector<std::string> expected = scriptKeys(ids);
        QCOMPARE(expected.size(), ids.size());
        const RecordTable table = tableNow();
        QCOMPARE(table.base.has_value(), !layout.isEmpty());
        for (size_t i = 0; i < ids.size(); ++i) {
            const std::vector<std::string> keys = table.keysOf(m_keys, ids[i]);
            // No record anywhere: data_key's HEXISTS of a bucket being moved says the table.
            const bool moving = table.base && table.migrated < RecordTable::kLegacyBuckets &&
                                RecordTable::legacyBucket(ids[i]) == table.migrated;
            QCOMPARE(keys.size(), moving ? size_t(2) : size_t(1));
            if (keys.back() != expected[i])
                QFAIL(qPrintable(QStringLiteral("id #%1 (%2 bytes): %3, the script's %4")
                                     .arg(i)
                                     .arg(ids[i].size())
                                     .arg(QString::fromStdString(keys.back()),
                                          QString::fromStdString(expected[i]))));
        }
    }

    // The hash against Lua's doubles at the edges: the largest bytes, every length 1..256.
    void hashIsExactAtTheEdges()
    {
        std::vector<std::string> ids;
        for (size_t n = 1; n <= 256; ++n) {
            ids.push_back(std::string(n, '\xff'));
            ids.push_back(std::string(n - 1, '\xfe') + '!');
        }
        m_server.cli({"HSET", QString::fromStdString(m_keys.dataLayout()), "base", "1", "level",
                      "30", "split", "1"});
        const std::vector<std::string> expected = scriptKeys(ids);
        const RecordTable table = tableNow();
        for (size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(table.keysOf(m_keys, ids[i]).back(), expected[i]);
    }

    // Where the scripts put 20,000 records as the table splits: after every 2,000 pushed,
    // each record so far is in the bucket RecordTable names, and the readers find them all.
    void recordsAreWhereTheScriptsPutThem()
    {
        const std::vector<std::string> ids = variedIds();
        std::vector<PushRequest> batch;
        size_t checked = 0;
        RecordTable before;
        int growths = 0;
        for (size_t i = 0; i < ids.size(); ++i) {
            batch.push_back(request("p" + std::to_string(i), 0, ids[i]));
            if (batch.size() < 200 && i + 1 < ids.size())
                continue;
            m_queue->pushBatch(batch);
            batch.clear();
            if ((i + 1) % 2000 != 0 && i + 1 < ids.size())
                continue;
            const RecordTable table = tableNow();
            QVERIFY(table.base);
            growths += table == before ? 0 : 1;
            before = table;
            const std::vector<std::string> some(ids.begin(),
                                                ids.begin() + static_cast<long>(i + 1));
            std::vector<std::vector<std::string>> keys;
            for (const auto& id : some)
                keys.push_back(table.keysOf(m_keys, id));
            const std::vector<int> held = holders(some, keys);
            for (size_t k = 0; k < some.size(); ++k)
                QVERIFY2(held[k] == 0, qPrintable(QStringLiteral("id #%1 after %2 pushed: %3")
                                                      .arg(k)
                                                      .arg(i + 1)
                                                      .arg(held[k])));
            checked = i + 1;
        }
        QCOMPARE(checked, ids.size());
        QVERIFY2(growths >= 5, qPrintable(QString::number(growths)));
        QVERIFY(tableNow().level >= 3);
        const auto read = readAll(*m_conn, ids);
        QCOMPARE(read.size(), ids.size());
        for (size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(read.at(ids[i]), "p" + std::to_string(i));
    }

    // A queue of layout 2 upgraded a hundred records a call: after every call each record is
    // in one of the buckets RecordTable names (its legacy bucket, or the table's), the
    // readers find each with its payload, and read_record.lua finds the same. 700 ids share
    // one legacy bucket (a hash table, past 512 entries: HSCAN takes it a part at a time), so
    // it is moved over several calls (both buckets are read then).
    void readsFollowAnUpgrade()
    {
        std::vector<std::string> ids = variedIds();
        ids.resize(2500);
        for (int i = 0; i < 700; ++i)
            ids.push_back("job-" + std::to_string(i) + "-same");
        std::vector<std::vector<std::string>> writes;
        for (size_t i = 0; i < ids.size(); ++i) {
            writes.push_back(
                {"HSET", m_keys.dataPrefix() + std::to_string(RecordTable::legacyBucket(ids[i])),
                 ids[i], "kx0|5||was-" + std::to_string(i)});
            writes.push_back({"ZADD", m_keys.pending(), std::to_string(1000 + i), ids[i]});
        }
        for (const Reply& r : m_conn->pipeline(writes))
            QVERIFY(!r.isError());
        const long long shared = RecordTable::legacyBucket("job-0-same");
        bool sawShared = false;
        UpgradeResult step;
        for (int round = 0; round < 200; ++round) {
            const RecordTable table = tableNow();
            std::vector<std::vector<std::string>> keys;
            for (const auto& id : ids)
                keys.push_back(table.keysOf(m_keys, id));
            const std::vector<int> held = holders(ids, keys);
            for (size_t k = 0; k < ids.size(); ++k)
                QVERIFY2(held[k] >= 0, qPrintable(QStringLiteral("id #%1 at migrated %2: %3")
                                                      .arg(k)
                                                      .arg(table.migrated)
                                                      .arg(held[k])));
            if (table.base && table.migrated == shared) {
                std::set<int> where;
                for (size_t k = 2500; k < ids.size(); ++k)
                    where.insert(held[k]);
                sawShared = sawShared || where.size() == 2;
            }
            const auto read = readAll(*m_conn, ids);
            QCOMPARE(read.size(), ids.size());
            std::vector<std::vector<std::string>> scriptReads;
            for (const auto& id : ids)
                scriptReads.push_back(m_keys.recordRead(id));
            const std::vector<Reply> byScript = m_conn->pipeline(scriptReads);
            for (size_t k = 0; k < ids.size(); ++k) {
                QCOMPARE(read.at(ids[k]), "was-" + std::to_string(k));
                QCOMPARE(byScript[k].str, "kx0|5||was-" + std::to_string(k));
            }
            if (step.finished)
                break;
            step = m_queue->upgrade(100, 1);
        }
        QVERIFY(step.finished);
        QVERIFY2(sawShared, "no read found the shared bucket half moved");
        QCOMPARE(tableNow().migrated, RecordTable::kLegacyBuckets);
    }

    // A user of +@read without +eval (or any script) reads pages, find and export while
    // another connection pushes tasks that split buckets: every read finds every record, and
    // some had to be read again because the table grew under them.
    void aReadRacingSplitsFindsTheRecord()
    {
        std::vector<PushRequest> seed;
        for (int i = 0; i < 300; ++i)
            seed.push_back(request("seed-" + std::to_string(i), 0, "seed-" + std::to_string(i)));
        m_queue->pushBatch(seed);
        m_conn->command({"ACL", "SETUSER", "reader", "on", ">pw", "~*", "&*", "+@read",
                         "+@connection", "+time", "+info", "+multi", "+exec", "-@scripting"});
        auto reader = std::make_unique<Connection>(
            ConnectionOptions::fromUrl(m_server.unixUrl() + "?user=reader&password=pw"));
        QueueReader pages(*reader, "orders");
        QCOMPARE(pages.page(TaskSet::Pending, 0, 300).size(), size_t(300));
        const RecordTable start = tableNow();

        std::atomic<bool> done{false};
        std::string failure;
        std::thread writer([&] {
            try {
                Connection c(ConnectionOptions::fromUrl(m_server.unixUrl()));
                Queue q(c, "orders");
                for (int b = 0; b < 250; ++b) {
                    std::vector<PushRequest> batch;
                    for (int k = 0; k < 200; ++k)
                        batch.push_back(
                            request("later", 3'600'000, "later-" + std::to_string(b * 200 + k)));
                    q.pushBatch(batch);
                }
            } catch (const std::exception& e) {
                failure = e.what();
            }
            done = true;
        });
        // A failed check returns early: the writer still finishes first.
        const auto joinWriter = qScopeGuard([&] {
            if (writer.joinable())
                writer.join();
        });
        const long long rereadsBefore = RecordReads::rereads();
        int rounds = 0;
        std::vector<std::string> seedIds;
        for (int i = 0; i < 300; ++i)
            seedIds.push_back("seed-" + std::to_string(i));
        while (!done) {
            const std::vector<Task> page = pages.page(TaskSet::Pending, 0, 300);
            QCOMPARE(page.size(), size_t(300));
            for (const Task& t : page) {
                QVERIFY2(!t.broken, t.id.c_str());
                QCOMPARE(t.payload, t.id);
            }
            const std::string id = "seed-" + std::to_string(rounds % 300);
            const auto found = pages.find(id);
            QVERIFY2(found && !found->second.broken && found->second.payload == id, id.c_str());
            if (rounds % 5 == 0) {
                const auto read = readAll(*reader, seedIds);
                QCOMPARE(read.size(), size_t(300));
            }
            ++rounds;
        }
        writer.join();
        QVERIFY2(failure.empty(), failure.c_str());
        const RecordTable end = tableNow();
        QVERIFY2(end.level > start.level, qPrintable(QString::number(end.level)));
        const long long rereads = RecordReads::rereads() - rereadsBefore;
        qInfo("%d rounds of reads while 50,000 tasks were pushed (level %lld to %lld); %lld reads "
              "sent again",
              rounds, start.level, end.level, rereads);
        QVERIFY(rounds >= 5);
        QVERIFY(rereads > 0);
        m_conn->command({"ACL", "DELUSER", "reader"});
    }
};

QTEST_GUILESS_MAIN(TestRecordReads)
#include "tst_recordreads.moc"
