#include "clisuite.h"

#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/queuereader.h>

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <memory>

using namespace delayq;

// delayq export and import end to end (docs/cli.md, "Export and import"): round trips that
// give back every task byte for byte, refusals with line numbers, idempotence, replace, and
// the same for plain sorted sets.
class TestCliExportImport : public CliSuite
{
    Q_OBJECT

private slots:
    // 50,000 pending tasks (every seventh payload binary), dead ones with errors and pending ones
    // retried once, exported in windows of 1,000, purged, imported in batches, exported again.
    void roundTripGivesBackEveryTaskByteForByte()
    {
        Queue queue(*m_conn, "big");
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        std::vector<PushRequest> failing;
        for (int i = 0; i < 300; ++i) {
            PushRequest r;
            r.id = "fail-" + std::to_string(i);
            r.payload = "to fail \"" + std::to_string(i) + "\"\n";
            r.dueAtMs = now - 1000;
            r.maxAttempts = i < 200 ? 1 : 3; // the first 200 die, the others are retried
            r.backoff = i % 2 ? "1s,5s" : "";
            failing.push_back(r);
        }
        queue.pushBatch(failing);
        const ClaimResult claimed = queue.claim(1000, 60000, "test");
        QCOMPARE(claimed.tasks.size(), size_t(300));
        for (const auto& t : claimed.tasks)
            queue.nack(t.id, t.token, "broke on \xff byte " + t.id, 3600000);

        std::vector<PushRequest> requests;
        for (int i = 0; i < 50000; ++i) {
            PushRequest r;
            r.id = "task-" + std::to_string(i);
            r.payload = i % 7 == 0 ? binaryPayload(i) : "{\"n\":" + std::to_string(i) + ",\"é\":1}";
            r.dueAtMs = now + 3600000 + i % 5000;
            requests.push_back(std::move(r));
        }
        queue.pushBatch(requests);

        const CliRun first = delayq({"export", "big", "--step", "1000"});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.out.count('\n'), 50300);
        QVERIFY(first.out.contains("\"payload_encoding\":\"base64\""));
        QVERIFY(first.out.contains("\"state\":\"dead\""));

        QCOMPARE(delayq({"purge", "big", "--yes"}).exitCode, 0);
        QCOMPARE(queue.size(TaskSet::Pending) + queue.size(TaskSet::Dead), 0);

        m_server.cli({"CONFIG", "RESETSTAT"});
        const CliRun imported = delayq({"--json", "import", "big"}, first.out);
        QVERIFY2(imported.exitCode == 0, imported.err.left(2000).constData());
        QCOMPARE(json(imported).object().value("created").toInt(), 50300);
        QCOMPARE(queue.size(TaskSet::Dead), 200);
        // Bounded batches: one script call per 100 tasks.
        QCOMPARE(scriptCalls(), 503);

        const CliRun second = delayq({"export", "big", "--step", "777"});
        QCOMPARE(second.exitCode, 0);
        QVERIFY(second.out == first.out);
        // And the bytes themselves, not only their export.
        for (int i : {0, 7, 49994}) {
            const auto found = queue.find("task-" + std::to_string(i));
            QVERIFY(found);
            QCOMPARE(QByteArray::fromStdString(found->second.payload),
                     QByteArray::fromStdString(requests[size_t(i)].payload));
        }
    }

    // A whole-queue export carries the schedules after the tasks; an import adds them (the
    // rule, payload and settings byte for byte), skips them the second time, replaces them
    // under --on-existing replace, and refuses a bad rule by its line number.
    void schedulesTravelWithTheQueue()
    {
        QCOMPARE(delayq({"push", "src", "t", "--id", "t1", "--in", "1h"}).exitCode, 0);
        QCOMPARE(delayq({"schedule", "add", "src", "digest", "--cron", "0 9 * * 1-5", "--tz",
                         "Europe/Berlin", "--max-attempts", "3", "--catch-up", "10m", "-"},
                        QByteArray("\x00\xff"
                                   "bin",
                                   5))
                     .exitCode,
                 0);
        QCOMPARE(delayq({"schedule", "add", "src", "beat", "--every", "30s", "--paused"}).exitCode,
                 0);
        CliRun r = delayq({"export", "src"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("exported 1 tasks and 2 schedules of src"), r.err.constData());
        const QByteArray file = r.out;
        QCOMPARE(delayq({"export", "src", "--state", "pending"}).out.count('\n'), 1); // tasks only
        r = delayq({"--json", "import", "dst"}, file);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("schedules").toInt(), 2);
        const auto shown = [&](const char* queue, const char* name) {
            return json(delayq({"schedule", "show", queue, name, "--json"}))
                .object()
                .value("schedule")
                .toObject();
        };
        for (const char* name : {"digest", "beat"}) {
            QJsonObject a = shown("src", name);
            QJsonObject b = shown("dst", name);
            for (const char* k : {"cron", "zone", "every_ms", "start", "payload", "payload_base64",
                                  "max_attempts", "catch_up_ms", "state", "next_fire"})
                QCOMPARE(b.value(k), a.value(k));
        }
        r = delayq({"--json", "import", "dst"}, file);
        QCOMPARE(json(r).object().value("schedules").toInt(), 0);
        QCOMPARE(json(r).object().value("skipped").toInt(), 3);
        QCOMPARE(delayq({"schedule", "edit", "dst", "digest", "--cron", "0 7 * * *"}).exitCode, 0);
        r = delayq({"--json", "import", "dst", "--on-existing", "replace"}, file);
        QCOMPARE(json(r).object().value("schedules").toInt(), 2);
        QCOMPARE(shown("dst", "digest").value("cron").toString(), QStringLiteral("0 9 * * 1-5"));

        r = delayq({"import", "bad"},
                   "{\"schedule\":\"x\",\"cron\":\"0 25 * * *\"}\n" + line("a", "pending", 5000));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("line 1: cron field hour: '25' is out of range 0-23"),
                 r.err.constData());
        QCOMPARE(m_server.cli({"EXISTS", "dq:{bad}:schedules"}).trimmed(), QByteArray("0"));
    }

    void importTwiceAddsNothing()
    {
        const QByteArray lines = line("a", "pending", 5000) + line("b", "dead", 6000);
        CliRun r = delayq({"--json", "import", "q"}, lines);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("created").toInt(), 2);
        const QByteArray before = delayq({"export", "q"}).out;
        r = delayq({"--json", "import", "q"}, lines);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("created").toInt(), 0);
        QCOMPARE(json(r).object().value("skipped").toInt(), 2);
        QCOMPARE(delayq({"export", "q"}).out, before);
        QCOMPARE(m_server.cli({"ZCARD", "dq:{q}:pending"}).trimmed(), QByteArray("1"));
        QCOMPARE(m_server.cli({"ZCARD", "dq:{q}:dead"}).trimmed(), QByteArray("1"));
    }

    void importRefusesABadLineByItsNumber_data()
    {
        QTest::addColumn<QByteArray>("bad");
        QTest::addColumn<QByteArray>("reason");
        QTest::newRow("malformed json")
            << QByteArray("{\"id\":\"x\",\"due\":") << QByteArray("JSON");
        QTest::newRow("missing id")
            << QByteArray("{\"due\":1,\"payload\":\"p\"}") << QByteArray("\"id\"");
        QTest::newRow("bad base64")
            << QByteArray(
                   "{\"id\":\"x\",\"due\":1,\"payload\":\"a$b=\",\"payload_encoding\":\"base64\"}")
            << QByteArray("base64");
        QTest::newRow("due not a number")
            << QByteArray("{\"id\":\"x\",\"due\":\"soon\",\"payload\":\"\"}")
            << QByteArray("\"due\"");
        QTest::newRow("due negative")
            << QByteArray("{\"id\":\"x\",\"due\":-5,\"payload\":\"\"}") << QByteArray("due time");
        QTest::newRow("unknown state")
            << QByteArray("{\"id\":\"x\",\"state\":\"gone\",\"due\":1,\"payload\":\"\"}")
            << QByteArray("state");
        QTest::newRow("backoff not in the stored form")
            << QByteArray("{\"id\":\"x\",\"due\":1,\"payload\":\"\",\"backoff\":\"5s\"}")
            << QByteArray("backoff");
        QTest::newRow("id with a control character")
            << QByteArray("{\"id\":\"x\\u0001\",\"due\":1,\"payload\":\"\"}") << QByteArray("id");
        QTest::newRow("priority out of range")
            << QByteArray("{\"id\":\"x\",\"due\":1,\"payload\":\"\",\"priority\":10}")
            << QByteArray("\"priority\" must be -9 to 9");
        QTest::newRow("group with a space")
            << QByteArray("{\"id\":\"x\",\"due\":1,\"payload\":\"\",\"group\":\"a b\"}")
            << QByteArray("a group holds letters");
    }
    void importRefusesABadLineByItsNumber()
    {
        QFETCH(QByteArray, bad);
        QFETCH(QByteArray, reason);
        const QByteArray input = line("one", "pending", 1000) + "\n" +
                                 line("two", "pending", 1000) + bad + "\n" +
                                 line("four", "pending", 1000);
        CliRun r = delayq({"import", "q"}, input);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("line 4: ") && r.err.contains(reason), r.err.constData());
        // Before the bad line: in. After it: nothing.
        QCOMPARE(ids(), QByteArrayList({"one", "two"}));

        r = delayq({"import", "q", "--keep-going"}, input);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("line 4: "), r.err.constData());
        QCOMPARE(ids(), QByteArrayList({"four", "one", "two"}));
    }

    void replaceOverwritesButNotAHeldTask()
    {
        Queue queue(*m_conn, "q");
        PushRequest held;
        held.id = "held";
        queue.push(held);
        QCOMPARE(queue.claim(1, 60000, "w").tasks.size(), size_t(1));
        PushRequest old;
        old.id = "r1";
        old.payload = "old";
        old.dueAtMs = 1000;
        old.maxAttempts = 1;
        queue.push(old);
        const auto c = queue.claim(1, 60000, "w").tasks;
        QCOMPARE(c.size(), size_t(1));
        queue.nack(c[0].id, c[0].token, "died"); // r1 is dead now

        const QByteArray lines = line("r1", "pending", 9000, "new") + line("held", "pending", 1);
        CliRun r = delayq({"--json", "import", "q"}, lines);
        QCOMPARE(json(r).object().value("skipped").toInt(), 2);
        QCOMPARE(queue.find("r1")->first, TaskSet::Dead);

        r = delayq({"--json", "import", "q", "--on-existing", "replace"}, lines);
        QCOMPARE(r.exitCode, 1); // the held task is refused
        QVERIFY2(r.err.contains("held"), r.err.constData());
        QCOMPARE(json(r).object().value("replaced").toInt(), 1);
        const auto found = queue.find("r1");
        QCOMPARE(found->first, TaskSet::Pending);
        QCOMPARE(found->second.payload, std::string("new"));
        QCOMPARE(found->second.lastError, std::string("err")); // the file's, not the old one
        QCOMPARE(found->second.due, 9000LL);
        QCOMPARE(queue.find("held")->first, TaskSet::Active);
    }

    // Fair order's tags (push --priority, --group) go into the file and come back with the task,
    // in its state; in fair order a pending one is handed out by its group again.
    void tagsTravelWithTheTask_data()
    {
        QTest::addColumn<int>("priority");
        QTest::addColumn<QString>("group");
        QTest::addColumn<bool>("dead");
        QTest::addColumn<QString>("order"); // of the queue imported into

        QTest::newRow("pending, both") << 5 << "tenant-42" << false << "fair";
        QTest::newRow("pending, priority only") << -3 << "" << false << "fair";
        QTest::newRow("pending, group only") << 0 << "a.b:c@d/e_f-1" << false << "fair";
        QTest::newRow("dead, both") << 2 << "g" << true << "fair";
        // Kept whatever the order, as the tags stay when a queue goes back to due order.
        QTest::newRow("into due order") << 4 << "tenant-7" << false << "due";
        QTest::newRow("none") << 0 << "" << false << "fair";
    }
    void tagsTravelWithTheTask()
    {
        QFETCH(int, priority);
        QFETCH(QString, group);
        QFETCH(bool, dead);
        QFETCH(QString, order);

        Queue from(*m_conn, "from");
        from.setConfig({{"order", "fair"}});
        PushRequest p;
        p.id = "t";
        p.payload = "x";
        p.priority = priority;
        p.group = group.toStdString();
        p.maxAttempts = 1;
        from.push(p);
        if (dead) {
            const auto claimed = from.claim(1, 60000, "w").tasks;
            QCOMPARE(claimed.size(), size_t(1));
            from.nack(claimed[0].id, claimed[0].token, "died");
        }
        const CliRun exported = delayq({"export", "from"});
        QCOMPARE(exported.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(exported.out.trimmed()).object();
        QCOMPARE(o.value("priority").toInt(0), priority);
        QCOMPARE(o.value("group").toString(), group);
        // A task without tags is written as before: no field for them.
        QCOMPARE(o.contains("priority"), priority != 0);
        QCOMPARE(o.contains("group"), !group.isEmpty());

        QCOMPARE(delayq({"config", "to", "order", order}).exitCode, 0);
        const CliRun r = delayq({"import", "to"}, exported.out);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        Queue to(*m_conn, "to");
        const auto found = to.find("t");
        QVERIFY(found);
        QCOMPARE(found->first, dead ? TaskSet::Dead : TaskSet::Pending);
        QCOMPARE(found->second.priority, priority);
        QCOMPARE(QString::fromStdString(found->second.group), group);
        // Exported again, the line is the same.
        QCOMPARE(delayq({"export", "to"}).out, exported.out);
        if (dead) // a requeue keeps them too
            QCOMPARE(delayq({"requeue", "to", "t"}).exitCode, 0);
        // In fair order the task is in its group's turn again: handed out, and by its group.
        if (order == "fair") {
            const GroupLoads loads = to.busyGroups(20);
            QCOMPARE(loads.groups.size(), size_t(1));
            QCOMPARE(QString::fromStdString(loads.groups[0].group), group);
            QCOMPARE(to.claim(1, 60000, "w").tasks.size(), size_t(1));
        }
    }

    // The bound on fair order's groups (docs/design/flow.md, 100,000; push refuses a new group
    // past it with FAIR): an import refuses the same, naming the bound, and writes nothing of
    // the batch that would pass it. Up to the bound, and for groups already there, it imports.
    void importKeepsTheBoundOnGroups()
    {
        QCOMPARE(delayq({"config", "q", "order", "fair"}).exitCode, 0);
        // 99,999 groups with due tasks, as the index counts them (fl:known).
        for (int at = 0; at < 99999; at += 10000) {
            std::vector<std::string> add{"SADD", "dq:{q}:fl:known"};
            for (int i = at; i < std::min(99999, at + 10000); ++i)
                add.push_back("g-" + std::to_string(i));
            m_conn->command(add);
        }
        const qint64 due = QDateTime::currentMSecsSinceEpoch() - 1000;
        auto tagged = [&](const char* id, const char* group) {
            QJsonObject o = QJsonDocument::fromJson(line(id, "pending", due)).object();
            o.insert("group", group);
            return QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n";
        };
        // Two new groups would make 100,001: the batch is refused whole, a dead task in it too.
        CliRun r = delayq({"--json", "import", "q"},
                          tagged("a", "new-1") + line("d", "dead", due) + tagged("b", "new-2"));
        QVERIFY2(r.exitCode == 1, r.err.constData());
        QVERIFY2(r.err.contains("line 1:") && r.err.contains("100000 groups") &&
                     r.err.contains("would add 2 more"),
                 r.err.constData());
        QCOMPARE(json(r).object().value("created").toInt(-1), 0);
        QCOMPARE(json(r).object().value("refused").toInt(-1), 3);
        QCOMPARE(json(r).object().value("complete").toBool(true), false);
        QVERIFY(ids().isEmpty());
        QCOMPARE(m_server.cli({"EXISTS", "dq:{q}:fl:tags"}).trimmed(), QByteArray("0"));
        QCOMPARE(m_server.cli({"SCARD", "dq:{q}:fl:known"}).trimmed(), QByteArray("99999"));
        // One new group makes 100,000, the most: in, and handed out by its group.
        r = delayq({"--json", "import", "q"}, tagged("a", "new-1"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(json(r).object().value("created").toInt(-1), 1);
        // At the bound, a group already there still takes tasks; a new one does not.
        r = delayq({"--json", "import", "q"}, tagged("c", "g-5"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = delayq({"import", "q"}, tagged("e", "new-3"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("100000 groups"), r.err.constData());
        QVERIFY2(r.out.contains("stopped:"), r.out.constData());
        QCOMPARE(ids(), (QByteArrayList{"a", "c"}));
    }

    // A pending task's own start-by time (push --expires-at) is written as "expires_at" and
    // comes back with it: an import used to bring it back with none, to run whenever. A task
    // without one, or a dead one, has no such field.
    void startByTravelsWithTheTask_data()
    {
        QTest::addColumn<bool>("own");
        QTest::addColumn<bool>("dead");
        QTest::newRow("pending with one") << true << false;
        QTest::newRow("pending without") << false << false;
        QTest::newRow("dead with one") << true << true;
    }
    void startByTravelsWithTheTask()
    {
        QFETCH(bool, own);
        QFETCH(bool, dead);
        Queue from(*m_conn, "from");
        PushRequest p;
        p.id = "t";
        p.payload = "x";
        p.maxAttempts = 1;
        const long long startBy = m_conn->serverTimeMs() + 3'600'000;
        if (own)
            p.expiresAtMs = startBy;
        from.push(p);
        if (dead) {
            const auto claimed = from.claim(1, 60000, "w").tasks;
            QCOMPARE(claimed.size(), size_t(1));
            from.nack(claimed[0].id, claimed[0].token, "died");
        }
        const CliRun exported = delayq({"export", "from"});
        QCOMPARE(exported.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(exported.out.trimmed()).object();
        QCOMPARE(o.contains("expires_at"), own && !dead);
        if (own && !dead)
            QCOMPARE(static_cast<long long>(o.value("expires_at").toDouble()), startBy);
        const CliRun r = delayq({"import", "to"}, exported.out);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto found = Queue(*m_conn, "to").find("t");
        QVERIFY(found);
        QCOMPARE(found->second.expiresAt.has_value(), own && !dead);
        if (own && !dead)
            QCOMPARE(*found->second.expiresAt, startBy);
        QCOMPARE(delayq({"export", "to"}).out, exported.out);
    }

    void anActiveTaskComesBackPendingAtItsDueTime()
    {
        Queue queue(*m_conn, "q");
        PushRequest p;
        p.id = "busy";
        p.payload = "work";
        p.dueAtMs = 1234;
        queue.push(p);
        QCOMPARE(queue.claim(1, 60000, "w").tasks.size(), size_t(1));
        const CliRun exported = delayq({"export", "q", "--state", "active"});
        QVERIFY(exported.out.contains("\"state\":\"active\""));
        QVERIFY(exported.err.contains("1 active"));
        QCOMPARE(delayq({"purge", "q", "--yes"}).exitCode, 0);
        const CliRun r = delayq({"import", "q"}, exported.out);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("pending again"));
        const auto found = queue.find("busy");
        QCOMPARE(found->first, TaskSet::Pending);
        QCOMPARE(found->second.due, 1234LL);
        QCOMPARE(found->second.attempts, 1);
    }

    void exportChoosesStateAndMatch()
    {
        delayq({"import", "q"}, line("a", "pending", 1, "apple") + line("b", "pending", 2, "pear") +
                                    line("c", "dead", 3, "apple pie"));
        CliRun r = delayq({"export", "q", "--state", "dead"});
        QCOMPARE(r.out.count('\n'), 1);
        QVERIFY(r.out.contains("\"id\":\"c\""));
        r = delayq({"export", "q", "--match", "apple"});
        QCOMPARE(r.out.count('\n'), 2);
        QVERIFY(!r.out.contains("pear"));
        QCOMPARE(delayq({"export", "q", "--state", "all-of-it"}).exitCode, 2);
    }

    void plainRoundTripKeepsMembersAndScores()
    {
        const QByteArray binary("m\x00\xff\n", 4);
        QStringList args{"ZADD", "legacy"};
        for (int i = 0; i < 2500; ++i)
            args << QString::number(1700000000000LL + i % 100) << QString("member-%1").arg(i);
        m_server.cli(args);
        m_server.cli({"ZADD", "legacy", "1700000000.25", "seconds-with-a-fraction"});
        // redis-cli cannot send a NUL byte: the binary member goes in through an import.
        const QByteArray binLine =
            "{\"member\":\"" + binary.toBase64() + "\",\"member_encoding\":\"base64\",\"score\":5}";
        QCOMPARE(delayq({"--plain", "import", "legacy"}, binLine).exitCode, 0);

        const CliRun first = delayq({"--plain", "export", "legacy", "--step", "300"});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.out.count('\n'), 2502);
        m_server.cli({"DEL", "legacy"});
        CliRun r = delayq({"--json", "--plain", "import", "legacy"}, first.out);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("created").toInt(), 2502);
        QCOMPARE(delayq({"--plain", "export", "legacy"}).out, first.out);
        QCOMPARE(m_server.cli({"ZSCORE", "legacy", "seconds-with-a-fraction"}).trimmed(),
                 QByteArray("1700000000.25"));

        // Skip keeps a member's own score; replace takes the file's.
        const QByteArray moved = "{\"member\":\"member-1\",\"score\":42}";
        r = delayq({"--json", "--plain", "import", "legacy"}, moved);
        QCOMPARE(json(r).object().value("skipped").toInt(), 1);
        QCOMPARE(m_server.cli({"ZSCORE", "legacy", "member-1"}).trimmed(),
                 QByteArray("1700000000001"));
        r = delayq({"--plain", "import", "legacy", "--on-existing", "replace"}, moved);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(m_server.cli({"ZSCORE", "legacy", "member-1"}).trimmed(), QByteArray("42"));
        r = delayq({"--plain", "import", "legacy"}, "{\"member\":\"x\",\"score\":\"soon\"}");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("line 1: ") && r.err.contains("score"), r.err.constData());
    }

    // A worker claims, fails and acks while the export reads: every line is still one whole
    // task, and the file imports.
    void exportOfAChangingQueueGivesWholeLines()
    {
        Queue queue(*m_conn, "busy");
        std::vector<PushRequest> requests(20000);
        for (size_t i = 0; i < requests.size(); ++i) {
            requests[i].id = "t" + std::to_string(i);
            requests[i].payload = std::string(40 + i % 50, 'x');
        }
        queue.pushBatch(requests);
        auto worker = m_cli.start({"work", "busy", "--concurrency", "2", "--handler", "fail:0.5",
                                   "--max-tasks", "8000", "--quiet"});
        const CliRun r = delayq({"export", "busy", "--step", "200"});
        QVERIFY(CliRunner::finished(*worker));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(delayq({"import", "copy"}, r.out).exitCode, 0);
        // A task no worker touched never moved: the export has it, though claims removed
        // tasks ahead of the cursor (many share one due ms) the whole time.
        QSet<QString> exported;
        for (const QByteArray& text : r.out.split('\n'))
            if (!text.isEmpty())
                exported.insert(QJsonDocument::fromJson(text).object().value("id").toString());
        int untouched = 0;
        for (long long offset = 0;; offset += 10000) {
            const auto page = queue.page(TaskSet::Pending, offset, 10000);
            for (const auto& t : page)
                if (t.attempts == 0) {
                    ++untouched;
                    QVERIFY2(exported.contains(QString::fromStdString(t.id)), t.id.c_str());
                }
            if (page.size() < 10000)
                break;
        }
        QVERIFY(untouched > 1000);
        QSet<QByteArray> seen;
        for (const QByteArray& text : r.out.split('\n')) {
            if (text.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(text).object();
            for (const char* field : {"id", "state", "due", "created", "attempts", "max_attempts",
                                      "backoff", "last_error", "payload"})
                QVERIFY2(o.contains(field), text.constData());
            QCOMPARE(o.value("payload").toString().size(),
                     40 + o.value("id").toString().mid(1).toInt() % 50);
            if (o.value("state").toString() != "pending" || o.value("attempts").toInt() > 0)
                QVERIFY2(o.value("attempts").toInt() >= 1, text.constData());
            // Windows never overlap: a task is on two lines only when it changed in between
            // (retried to a later due time), never twice as the same read.
            QVERIFY2(!seen.contains(text), text.constData());
            seen.insert(text);
        }
    }

protected:
    void initTest() override
    {
        m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
    }
    void cleanupTest() override { m_conn.reset(); }

private:
    static std::string binaryPayload(int i)
    {
        std::string p("\x00\xff\xfe|\r\n", 6);
        p += std::to_string(i);
        p.push_back(static_cast<char>(0x80 + i % 64));
        return p;
    }
    static QByteArray line(const char* id, const char* state, qint64 due, const char* payload = "p")
    {
        QJsonObject o{{"id", id},        {"state", state},      {"due", due},
                      {"created", 1000}, {"attempts", 1},       {"max_attempts", 5},
                      {"backoff", ""},   {"last_error", "err"}, {"payload", payload}};
        if (QByteArray(state) == "dead")
            o.insert("died", due + 1);
        return QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n";
    }
    // Every id in the pending and dead sets of queue q, sorted.
    QByteArrayList ids() const
    {
        QByteArrayList out = m_server.cli({"ZRANGE", "dq:{q}:pending", "0", "-1"}).split('\n') +
                             m_server.cli({"ZRANGE", "dq:{q}:dead", "0", "-1"}).split('\n');
        out.removeAll(QByteArray());
        std::sort(out.begin(), out.end());
        return out;
    }
    static int field(const QByteArray& stats, const char* name)
    {
        const qsizetype at = stats.indexOf(name);
        return at < 0 ? 0 : stats.mid(at + qstrlen(name)).split(',').first().toInt();
    }
    // EVALSHA and EVAL calls that ran, since the last CONFIG RESETSTAT.
    int scriptCalls() const
    {
        int calls = 0;
        for (const QByteArray& l : m_server.cli({"INFO", "commandstats"}).split('\n'))
            if (l.startsWith("cmdstat_evalsha:") || l.startsWith("cmdstat_eval:"))
                // A NOSCRIPT reply (the first EVALSHA on this server) is a failed call.
                calls += field(l, "calls=") - field(l, "failed_calls=");
        return calls;
    }
    std::unique_ptr<Connection> m_conn;
};

QTEST_GUILESS_MAIN(TestCliExportImport)
#include "tst_cliexportimport.moc"
