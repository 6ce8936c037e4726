#include "redissuite.h"
#include "transport/sha1.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/plainfailures.h>
#include <delayq/plainkeys.h>
#include <delayq/plainqueue.h>
#include <delayq/queue.h>

#include <QSet>
#include <QTest>

#include <set>
#include <thread>

using namespace delayq;

namespace {

long long nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

class TestPlainQueue : public RedisSuite
{
    Q_OBJECT

protected:
    void initTest() override
    {
        m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
    }
    void cleanupTest() override { m_conn.reset(); }

private slots:
    void sha1KnownValues()
    {
        QCOMPARE(sha1Hex(""), std::string("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
        QCOMPARE(sha1Hex("abc"), std::string("a9993e364706816aba3e25717850c26c9cd0d89d"));
        // 56 bytes: the padding spills into a second block.
        QCOMPARE(sha1Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                 std::string("84983e441c3bd26ebaae4aa1f95129e5e54670f1"));
    }

    // The three shapes the seed designs write, and the unit each uses.
    void detectsUnitAndLists_data()
    {
        QTest::addColumn<QString>("member");
        QTest::addColumn<bool>("seconds");
        QTest::newRow("json id/msg, ms")
            << R"({"id":"3f1c9a52-8d1e-4c7b-9a0e-2b5f7d9e1a11","msg":"cancel order 42"})" << false;
        QTest::newRow("numeric id, ms") << "1234567" << false;
        QTest::newRow("json task, s")
            << R"({"data":"mail 7","times":0,"timestamp":1700000000})" << true;
    }
    void detectsUnitAndLists()
    {
        QFETCH(QString, member);
        QFETCH(bool, seconds);
        const long long due = nowMs() - 5000;
        const QString score = seconds ? QString::number(due / 1000) : QString::number(due);
        m_server.cli({"ZADD", "orders:delay", score, member});
        m_server.cli({"ZADD", "orders:delay",
                      seconds ? QString::number(due / 1000 + 3600) : QString::number(due + 3600000),
                      "later"});
        PlainQueue q(*m_conn, "orders:delay");
        QCOMPARE(q.unit() == PlainQueue::ScoreUnit::Seconds, seconds);
        QCOMPARE(q.size(), 2LL);
        QCOMPARE(q.dueNow(), 1LL);
        auto page = q.page(0, 10);
        QCOMPARE(page.size(), size_t(2));
        QCOMPARE(QString::fromStdString(page[0].member), member);
        QVERIFY(std::llabs(page[0].dueMs - due) < 1000);
        auto buckets = q.histogram(due - 1000, due + 7200000, 12);
        long long sum = 0;
        for (long long b : buckets)
            sum += b;
        QCOMPARE(sum, 2LL);
        QCOMPARE(q.rankOfTime(due + 1000), 1LL);
    }

    void wrongTypeRefused()
    {
        m_server.cli({"SET", "notaqueue", "x"});
        try {
            PlainQueue q(*m_conn, "notaqueue");
            QFAIL("a string key was accepted as a plain queue");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::WrongType);
        }
    }

    void pushCancelRescheduleReportWhatWasThere()
    {
        PlainQueue q(*m_conn, "dq-plain", PlainQueue::ScoreUnit::Milliseconds);
        const long long due = nowMs() + 60000;
        auto added = q.push({"a", std::string("b\0c", 3)}, due);
        QCOMPARE(added, (std::vector<bool>{true, true}));
        // An identical member is reported, and its due time is not silently moved.
        QCOMPARE(q.push({"a"}, due + 99999), std::vector<bool>{false});
        QCOMPARE(m_server.cli({"ZSCORE", "dq-plain", "a"}).trimmed(), QByteArray::number(due));

        QCOMPARE(q.reschedule({"a", "gone"}, due + 1000), (std::vector<bool>{true, false}));
        QCOMPARE(m_server.cli({"ZSCORE", "dq-plain", "a"}).trimmed(),
                 QByteArray::number(due + 1000));
        QCOMPARE(m_server.cli({"ZSCORE", "dq-plain", "gone"}).trimmed(), QByteArray());

        QCOMPARE(q.cancel({std::string("b\0c", 3), "gone"}), (std::vector<bool>{true, false}));
        QCOMPARE(q.size(), 1LL);
    }

    void secondsScoresKeepTheirUnit()
    {
        PlainQueue q(*m_conn, "py-delay", PlainQueue::ScoreUnit::Seconds);
        q.push({"job"}, 1700000000500);
        QCOMPARE(m_server.cli({"ZSCORE", "py-delay", "job"}).trimmed(), QByteArray("1700000000.5"));
        QCOMPARE(q.page(0, 1).front().dueMs, 1700000000500LL);
    }

    void popTakesOnlyDueMembersAndForwards()
    {
        PlainQueue q(*m_conn, "q", PlainQueue::ScoreUnit::Milliseconds);
        const long long now = nowMs();
        q.push({"due1", "due2"}, now - 10);
        q.push({"later"}, now + 3600000);
        auto popped = q.pop(10, "broker:list");
        QCOMPARE(popped.members.size(), size_t(2));
        QVERIFY(popped.nextDue.has_value());
        QVERIFY(std::llabs(*popped.nextDue - (now + 3600000)) < 2);
        QCOMPARE(m_server.cli({"LLEN", "broker:list"}).trimmed(), QByteArray("2"));
        QCOMPARE(q.pop(10, "broker:list").members.size(), size_t(0));
        QCOMPARE(m_server.cli({"LLEN", "broker:list"}).trimmed(), QByteArray("2"));
        QCOMPARE(q.size(), 1LL);
    }

    void twoConsumersNeverShareAMember()
    {
        const int total = 6000;
        {
            PlainQueue q(*m_conn, "shared", PlainQueue::ScoreUnit::Milliseconds);
            std::vector<std::string> members;
            for (int i = 0; i < total; ++i)
                members.push_back("m" + std::to_string(i));
            q.push(members, nowMs() - 1000);
        }
        std::vector<std::string> got[2];
        std::vector<std::thread> threads;
        for (int t = 0; t < 2; ++t)
            threads.emplace_back([&, t] {
                Connection c(ConnectionOptions::fromUrl(m_server.unixUrl()));
                PlainQueue q(c, "shared", PlainQueue::ScoreUnit::Milliseconds);
                for (;;) {
                    auto r = q.pop(50, "out");
                    if (r.members.empty())
                        break;
                    for (auto& m : r.members)
                        got[t].push_back(m.member);
                }
            });
        for (auto& th : threads)
            th.join();
        std::set<std::string> all(got[0].begin(), got[0].end());
        all.insert(got[1].begin(), got[1].end());
        QCOMPARE(got[0].size() + got[1].size(), size_t(total));
        QCOMPARE(all.size(), size_t(total));
        QCOMPARE(m_server.cli({"LLEN", "out"}).trimmed(), QByteArray::number(total));
    }

    void scanFindsSubstringsInSteps()
    {
        PlainQueue q(*m_conn, "big", PlainQueue::ScoreUnit::Milliseconds);
        std::vector<std::string> members;
        for (int i = 0; i < 3000; ++i)
            members.push_back("{\"order\":" + std::to_string(i) + ",\"tag\":\"" +
                              (i % 100 == 7 ? "needle*" : "hay") + "\"}");
        q.push(members, nowMs());
        std::string cursor = "0";
        size_t found = 0;
        int steps = 0;
        do {
            auto r = q.scan(cursor, "needle*", 200);
            cursor = r.cursor;
            found += r.matches.size();
            ++steps;
        } while (cursor != "0" && steps < 1000);
        QCOMPARE(found, size_t(30));
        QVERIFY(steps > 1); // bounded steps, not one call over the whole key
    }

    void migrateInterruptedAndRerunMovesEachMemberOnce()
    {
        PlainQueue q(*m_conn, "legacy", PlainQueue::ScoreUnit::Milliseconds);
        std::vector<std::string> members;
        for (int i = 0; i < 1200; ++i)
            members.push_back("{\"id\":" + std::to_string(i) + "}");
        const long long due = nowMs() + 60000;
        q.push(members, due);

        auto first = q.migrateTo("native", "dq", 500, 100); // stopped half way
        QCOMPARE(first.moved, 500LL);
        QCOMPARE(first.remaining, 700LL);

        // A crash between the push and the removal: the task exists, the member stayed.
        Queue native(*m_conn, "native");
        PushRequest r;
        r.id = "plain-" + sha1Hex(members[900]);
        r.payload = members[900];
        r.dueAtMs = due;
        native.push(r);

        auto second = q.migrateTo("native", "dq", 0, 100);
        QCOMPARE(second.moved, 699LL);
        QCOMPARE(second.skipped, 1LL);
        QCOMPARE(second.remaining, 0LL);
        QCOMPARE(native.counts().pending, 1200LL);
        std::set<std::string> payloads;
        for (const auto& t : native.page(TaskSet::Pending, 0, 2000)) {
            payloads.insert(t.payload);
            QCOMPARE(t.due, due);
        }
        QCOMPARE(payloads.size(), size_t(1200));
    }

    void discoverFindsDelayQueuesOnly()
    {
        const long long now = nowMs();
        m_server.cli({"ZADD", "orders:delay", QString::number(now), "x"});
        m_server.cli({"ZADD", "py:delay", QString::number(now / 1000), "y"});
        m_server.cli({"ZADD", "leaderboard", "42", "player"});
        Queue native(*m_conn, "nativeq");
        native.push(PushRequest{});
        // delayq's own parked set beside a plain key holds ms times too: not a queue.
        m_server.cli({"ZADD", "dq:plain:{orders:delay}:parked", QString::number(now), "x"});
        std::string cursor = "0";
        std::map<std::string, PlainQueue::ScoreUnit> found;
        int steps = 0;
        do {
            for (const auto& c : PlainQueue::discover(*m_conn, cursor, "dq", 100))
                found[c.key] = c.unit;
        } while (cursor != "0" && ++steps < 1000);
        QCOMPARE(found.size(), size_t(2));
        QVERIFY(found["orders:delay"] == PlainQueue::ScoreUnit::Milliseconds);
        QVERIFY(found["py:delay"] == PlainQueue::ScoreUnit::Seconds);
    }

    // An empty key cannot tell its unit: unitKnown() says so (a worker then refuses it);
    // a given unit or one score is enough.
    void unitIsKnownFromAScoreOrWhenGiven()
    {
        QVERIFY(!PlainQueue(*m_conn, "empty").unitKnown());
        QVERIFY(PlainQueue(*m_conn, "empty", PlainQueue::ScoreUnit::Seconds).unitKnown());
        QVERIFY(!PlainQueue::unitFromScores(*m_conn, "empty").has_value());
        m_server.cli({"ZADD", "s", QString::number(nowMs() / 1000 + 1800), "later"});
        PlainQueue s(*m_conn, "s");
        QVERIFY(s.unitKnown());
        QVERIFY(s.unit() == PlainQueue::ScoreUnit::Seconds);
    }

    // delayq's keys beside a plain key share one tag: the key's name, or its SHA1 when a
    // brace in it would end or empty the tag; the slots agree (CLUSTER KEYSLOT is the
    // server's own rule, answered without cluster mode).
    void plainKeysShareOneSlot_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("hashed");
        QTest::newRow("plain name") << "orders:delay" << false;
        QTest::newRow("a brace closes first") << "}odd{key}" << true;
        QTest::newRow("a hash tag of its own") << "{shop}:delay" << true;
        QTest::newRow("long") << QString(201, 'k') << true;
    }
    void plainKeysShareOneSlot()
    {
        QFETCH(QString, key);
        QFETCH(bool, hashed);
        const PlainKeys keys("dq", key.toStdString());
        QCOMPARE(keys.tag() == key.toStdString(), !hashed);
        if (hashed)
            QCOMPARE(keys.tag(), "#sha1:" + sha1Hex(key.toStdString()));
        QSet<QByteArray> keySlots;
        for (const std::string& k :
             {keys.workers(), keys.workerRecords(), keys.failures(), keys.parked()})
            keySlots.insert(
                m_server.cli({"CLUSTER", "KEYSLOT", QString::fromStdString(k)}).trimmed());
        QCOMPARE(keySlots.size(), 1);
        QVERIFY_THROWS_EXCEPTION(Error, PlainKeys("dq", ""));
        QVERIFY_THROWS_EXCEPTION(Error, PlainKeys("bad prefix", "k"));
    }

    // The failure record: attempts, when, and an error that may hold '|'.
    void failureRecordsRoundTrip()
    {
        PlainFailure f;
        f.member = "m";
        f.attempts = 3;
        f.lastFailedMs = 1700000000123;
        f.lastError = "HTTP 500 | body";
        PlainFailure back;
        QVERIFY(PlainFailures::parseRecord(PlainFailures::recordText(f), back));
        QCOMPARE(back.attempts, 3LL);
        QCOMPARE(back.lastFailedMs, 1700000000123LL);
        QCOMPARE(back.lastError, std::string("HTTP 500 | body"));
        for (const char* bad : {"", "3", "x|1|e", "3|y|e", "-1|1|e"})
            QVERIFY2(!PlainFailures::parseRecord(bad, back), bad);
        f.lastError = std::string(5000, 'e');
        QVERIFY(PlainFailures::parseRecord(PlainFailures::recordText(f), back));
        QCOMPARE(back.lastError.size(), PlainFailures::kErrorBytes);
    }

    void readOnlyRefusesWrites()
    {
        auto options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.readOnly = true;
        Connection ro(options);
        m_server.cli({"ZADD", "k", QString::number(nowMs()), "a"});
        PlainQueue q(ro, "k");
        QCOMPARE(q.size(), 1LL);
        QVERIFY_THROWS_EXCEPTION(Error, q.push({"b"}, nowMs()));
        QVERIFY_THROWS_EXCEPTION(Error, q.cancel({"a"}));
        QVERIFY_THROWS_EXCEPTION(Error, q.pop(1));
        QCOMPARE(q.size(), 1LL);
    }

private:
    std::unique_ptr<Connection> m_conn;
};

QTEST_GUILESS_MAIN(TestPlainQueue)
#include "tst_plainqueue.moc"
