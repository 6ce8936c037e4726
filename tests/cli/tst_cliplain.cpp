#include "clisuite.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

// `delayq --plain` and `delayq migrate` end to end, on keys filled the way the seed designs
// fill them: member = the message, score = due time in ms or in s.
class TestCliPlain : public CliSuite
{
    Q_OBJECT

private slots:
    void lsRecognisesTheSeedShapes_data()
    {
        const QString uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
        QTest::addColumn<QByteArray>("member");
        QTest::addColumn<bool>("seconds");
        QTest::addColumn<QStringList>("columns");
        QTest::addColumn<QStringList>("cells");
        QTest::newRow("json with a uuid, ms")
            << QStringLiteral(R"({"id":"%1","msg":"send the invoice"})").arg(uuid).toUtf8() << false
            << QStringList{"ID", "MSG"} << QStringList{uuid, "send the invoice"};
        QTest::newRow("numeric id, ms")
            << QByteArray("1234567") << false << QStringList{"MEMBER"} << QStringList{"1234567"};
        QTest::newRow("json task, s")
            << QByteArray(R"({"data":{"order":42},"times":3,"timestamp":1700000000})") << true
            << QStringList{"DATA", "TIMES"} << QStringList{R"({"order":42})", "3"};
    }
    void lsRecognisesTheSeedShapes()
    {
        QFETCH(QByteArray, member);
        QFETCH(bool, seconds);
        QFETCH(QStringList, columns);
        QFETCH(QStringList, cells);
        const qint64 dueS = QDateTime::currentSecsSinceEpoch() + 3600;
        m_server.cli({"ZADD", "seed", QString::number(seconds ? dueS : dueS * 1000),
                      QString::fromUtf8(member)});

        CliRun r = delayq({"ls", "--plain", "seed"});
        QCOMPARE(r.exitCode, 0);
        for (const auto& c : columns + cells)
            QVERIFY2(r.out.contains(c.toUtf8()), r.out.constData());
        QVERIFY(r.out.contains("in 59m") || r.out.contains("in 1h"));
        QVERIFY(r.out.contains(seconds ? "scores in s)" : "scores in ms)"));

        r = delayq({"--json", "ls", "--plain", "seed"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QCOMPARE(o.value("score_unit").toString(), QString(seconds ? "s" : "ms"));
        QCOMPARE(o.value("total").toInt(), 1);
        const QJsonObject m = o.value("members").toArray().at(0).toObject();
        QCOMPARE(QByteArray::fromBase64(m.value("member_base64").toString().toLatin1()), member);
        QCOMPARE(static_cast<qint64>(m.value("due").toDouble()), dueS * 1000);
    }

    void statsCountsDueMembers()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        m_server.cli({"ZADD", "q", QString::number(now - 5000), "a", QString::number(now - 1000),
                      "b", QString::number(now + 600000), "c"});
        const CliRun r = delayq({"--json", "stats", "--plain", "q"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QCOMPARE(o.value("total").toInt(), 3);
        QCOMPARE(o.value("due_now").toInt(), 2);
        QCOMPARE(static_cast<qint64>(o.value("next_due").toDouble()), now - 5000);
    }

    void pushCancelRescheduleReportEachMember()
    {
        const QByteArray binary("bin\x01\xff", 5);
        // From stdin, one per line, bytes kept exactly.
        CliRun r = delayq({"push", "--plain", "q", "-", "--in", "1h"}, "plain\n" + binary + "\n");
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("added: bin\\x01\\xff"), r.out.constData()); // escaped
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("2"));
        const QByteArray scoreBefore = m_server.cli({"ZSCORE", "q", "plain"});

        // An identical member is reported, and keeps its due time.
        r = delayq({"--json", "push", "--plain", "q", "plain", "new", "--in", "5s"});
        QCOMPARE(r.exitCode, 1);
        QJsonArray results = json(r).object().value("results").toArray();
        QCOMPARE(results.at(0).toObject().value("status").toString(),
                 QStringLiteral("already there (its due time is left alone)"));
        QCOMPARE(results.at(1).toObject().value("status").toString(), QStringLiteral("added"));
        QCOMPARE(m_server.cli({"ZSCORE", "q", "plain"}), scoreBefore);

        // ls --json gives the binary member back byte for byte.
        r = delayq({"--json", "ls", "--plain", "q"});
        QSet<QByteArray> listed;
        for (const auto& m : json(r).object().value("members").toArray())
            listed << QByteArray::fromBase64(
                m.toObject().value("member_base64").toString().toLatin1());
        QCOMPARE(listed, (QSet<QByteArray>{"plain", "new", binary}));

        r = delayq({"reschedule", "--plain", "q", "new", "gone", "--at", "2030-01-01T00:00:00Z"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("rescheduled: new"));
        QVERIFY(r.out.contains("no longer there: gone"));
        QCOMPARE(m_server.cli({"ZSCORE", "q", "new"}).trimmed(), QByteArray("1893456000000"));
        QCOMPARE(m_server.cli({"ZSCORE", "q", "gone"}).trimmed(), QByteArray()); // not added

        r = delayq({"cancel", "--plain", "q", "-"}, binary + "\ngone\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("cancelled: bin\\x01\\xff"));
        QVERIFY(r.out.contains("no longer there: gone"));
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("2"));
        QCOMPARE(delayq({"cancel", "--plain", "q", "plain", "new"}).exitCode, 0);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("ls on a string")
            << QStringList{"ls", "--plain", "text"} << 1 << "not a sorted set";
        QTest::newRow("push on a string")
            << QStringList{"push", "--plain", "text", "x"} << 1 << "not a sorted set";
        QTest::newRow("work on a string")
            << QStringList{"work", "--plain", "text", "--until-empty"} << 1 << "not a sorted set";
        QTest::newRow("migrate a string")
            << QStringList{"migrate", "text", "native"} << 1 << "not a sorted set";
        QTest::newRow("forward to a string")
            << QStringList{"work", "--plain", "q", "--forward-to", "text", "--until-empty"} << 1
            << "not a list";
        QTest::newRow("no members")
            << QStringList{"push", "--plain", "q"} << 2 << "missing arguments";
        QTest::newRow("plain on purge")
            << QStringList{"purge", "--plain", "q", "--yes"} << 2 << "--plain applies";
        QTest::newRow("max attempts on a pop consumer")
            << QStringList{"work", "--plain", "q", "--max-attempts", "3", "--until-empty"} << 2
            << "--max-attempts applies to a forwarder";
        QTest::newRow("bad unit") << QStringList{"ls", "--plain", "q", "--score-unit", "h"} << 2
                                  << "ms or s";
        QTest::newRow("forward without plain")
            << QStringList{"work", "mail", "--forward-to", "l"} << 2 << "--plain";
        QTest::newRow("read-only push")
            << QStringList{"--read-only", "push", "--plain", "q", "x"} << 1 << "read-only";
        QTest::newRow("reschedule without when")
            << QStringList{"reschedule", "--plain", "q", "keep"} << 2 << "--in";
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        m_server.cli({"SET", "text", "not a queue"});
        m_server.cli({"ZADD", "q", "1893456000000", "keep"});
        const QByteArray before = m_server.cli({"DUMP", "q"});
        const QByteArray keysBefore = m_server.cli({"DBSIZE"});

        const CliRun r = delayq(args);
        expectRefusal(r, exitCode, message);
        QCOMPARE(m_server.cli({"DUMP", "q"}), before);
        QCOMPARE(m_server.cli({"DBSIZE"}), keysBefore);
        QCOMPARE(m_server.cli({"GET", "text"}).trimmed(), QByteArray("not a queue"));
    }

    void twoWorkersNeverShareAMember()
    {
        const int n = 400;
        fill("q", n, 0);
        auto a = m_cli.start({"work", "--plain", "q", "--batch", "5", "--handler", "sleep:1",
                              "--until-empty", "--quiet", "--log", m_dir.filePath("a.log")});
        auto b = m_cli.start({"work", "--plain", "q", "--batch", "5", "--handler", "sleep:1",
                              "--until-empty", "--quiet", "--log", m_dir.filePath("b.log")});
        QVERIFY(CliRunner::finished(*a));
        QVERIFY(CliRunner::finished(*b));

        QMap<QString, int> seen;
        for (const QString& log : QStringList{"a.log", "b.log"})
            for (const auto& line : readLines(m_dir.filePath(log))) {
                QCOMPARE(line.value("outcome").toString(), QStringLiteral("acked"));
                ++seen[line.value("id").toString()];
            }
        QCOMPARE(seen.size(), n);
        for (auto it = seen.begin(); it != seen.end(); ++it)
            QVERIFY2(it.value() == 1, qPrintable(it.key()));
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("0"));
    }

    void forwardToMovesEachDueMemberOnce()
    {
        const int n = 300;
        fill("q", n - 20, 0);
        fill("q", 20, 700, n - 20); // due shortly: waited for, not dropped by --until-empty
        QStringList args{"work", "--plain",       "q",      "--forward-to", "broker", "--batch",
                         "7",    "--until-empty", "--quiet"};
        auto a = m_cli.start(args);
        auto b = m_cli.start(args);
        QVERIFY(CliRunner::finished(*a));
        QVERIFY(CliRunner::finished(*b));

        const QList<QByteArray> forwarded =
            m_server.cli({"LRANGE", "broker", "0", "-1"}).trimmed().split('\n');
        QCOMPARE(forwarded.size(), n);
        QCOMPARE(QSet<QByteArray>(forwarded.begin(), forwarded.end()).size(), n);
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("0"));
    }

    // A delivery target leases members in place (at least once) rather than popping them,
    // and the summary says which of the two the worker did.
    void summarySaysLeasedWithATarget_data()
    {
        QTest::addColumn<QStringList>("how");
        QTest::addColumn<QString>("summary");
        QTest::newRow("a pipe target: leased")
            << QStringList{"--forward-to", acker()} << "leased 4, acked 4,";
        QTest::newRow("a handler: popped")
            << QStringList{"--handler", "ack"} << "popped 4, acked 4,";
    }
    void summarySaysLeasedWithATarget()
    {
        QFETCH(QStringList, how);
        QFETCH(QString, summary);
        fill("q", 4, 0);
        CliRun r = delayq(QStringList{"work", "--plain", "q", "--until-empty", "--quiet"} + how);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(summary.toUtf8()), r.err.constData());
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("0"));
    }

    // An empty key cannot say its score unit: a worker refuses it (exit 2, naming the cause
    // and --score-unit) before it takes anything, rather than read a time in s as ms.
    void emptyKeyWithoutAUnitIsRefused_data()
    {
        QTest::addColumn<QStringList>("how");
        QTest::newRow("forward to a target")
            << QStringList{"--forward-to", "amqp://guest:guest@127.0.0.1:1/?exchange=e"};
        QTest::newRow("pop with a handler") << QStringList{"--handler", "ack"};
        QTest::newRow("pop onto a list") << QStringList{"--forward-to", "broker"};
    }
    void emptyKeyWithoutAUnitIsRefused()
    {
        QFETCH(QStringList, how);
        const CliRun r = delayq(QStringList{"work", "--plain", "k", "--until-empty"} + how);
        expectUsageError(r, "is empty, so its scores cannot say whether due times are in s or ms");
        QVERIFY2(r.err.contains("--score-unit s or --score-unit ms"), r.err.constData());
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
    }

    // The outside check's reproduction: DEL k; a forwarder on k; ZADD k <now + 1800 s in s>.
    // With --score-unit s the member waits its 30 minutes while one due now is delivered.
    void aSecondsScoreOnAnEmptyKeyIsNotDeliveredEarly()
    {
        m_server.cli({"DEL", "k"});
        const QString log = m_dir.filePath("unit.log");
        const QByteArray later = QByteArray::number(QDateTime::currentSecsSinceEpoch() + 1800);
        // Without --score-unit: the worker refuses the empty key at once, so the member pushed
        // next stays where the producer put it. (A push that beats the worker's first look
        // tells it the unit: s, below 1e11.)
        const CliRun refused = delayq({"work", "--plain", "k", "--forward-to", acker(), "--poll",
                                       "50ms", "--quiet", "--log", log});
        m_server.cli({"ZADD", "k", QString::fromLatin1(later), "cancel-unpaid-order-42"});
        expectUsageError(refused, "--score-unit s or --score-unit ms");
        QVERIFY(!QFile::exists(log) || readLines(log).isEmpty());
        QCOMPARE(m_server.cli({"ZSCORE", "k", "cancel-unpaid-order-42"}).trimmed(), later);

        m_server.cli({"DEL", "k"});
        auto worker = m_cli.start({"--score-unit", "s", "work", "--plain", "k", "--forward-to",
                                   acker(), "--poll", "50ms", "--quiet", "--log", log});
        QVERIFY(worker->waitForStarted());
        const qint64 nowS = QDateTime::currentSecsSinceEpoch();
        m_server.cli({"ZADD", "k", QString::fromLatin1(later), "cancel-unpaid-order-42",
                      QString::number(nowS - 1), "due-now"});
        // The member due now goes through, so the worker ran and looked at the key...
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(log) && readLines(log).size() == 1, 20000);
        QCOMPARE(readLines(log).front().value("id").toString(), QStringLiteral("due-now"));
        // ...and a few more polls leave the one due in 30 minutes at its own score.
        QTest::qWait(300);
        worker->terminate();
        QVERIFY(CliRunner::finished(*worker));
        QCOMPARE(readLines(log).size(), 1);
        QCOMPARE(m_server.cli({"ZSCORE", "k", "cancel-unpaid-order-42"}).trimmed(), later);
    }

    // A forwarder's failed deliveries are where an operator looks: attempts and the last
    // error in ls and show, the member parked after --max-attempts, and requeue / rm-dead
    // --plain to act on it.
    void parkedMembersAreShownRequeuedAndDeleted()
    {
        const QString nacker = "pipe:python3 -c 'import sys, json\n"
                               "for line in sys.stdin:\n"
                               "    print(json.dumps({\"id\": json.loads(line)[\"id\"], "
                               "\"retry_in_ms\": 0, \"error\": \"NO_ROUTE order.x\"}), "
                               "flush=True)'";
        m_server.cli({"ZADD", "q", "1000", "a", "1001", "b"});
        CliRun r = delayq({"work", "--plain", "q", "--forward-to", nacker, "--max-attempts", "2",
                           "--max-tasks", "4", "--quiet", "--log", m_dir.filePath("park.log")});
        QCOMPARE(r.exitCode, 0);
        const auto lines = readLines(m_dir.filePath("park.log"));
        QCOMPARE(lines.size(), 4);
        QMap<QString, QStringList> seen;
        for (const auto& line : lines)
            seen[line.value("id").toString()] << QString::number(line.value("attempt").toInt()) +
                                                     " " + line.value("outcome").toString();
        QCOMPARE(seen.value("a"), (QStringList{"1 retried", "2 dead"}));
        QCOMPARE(seen.value("b"), (QStringList{"1 retried", "2 dead"}));
        QCOMPARE(m_server.cli({"EXISTS", "q"}).trimmed(), QByteArray("0"));

        r = delayq({"--json", "ls", "--plain", "q", "--parked"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = json(r).object();
        QCOMPARE(o.value("parked_total").toInt(), 2);
        const QJsonObject first = o.value("parked").toArray().at(0).toObject();
        QCOMPARE(first.value("attempts").toInt(), 2);
        QCOMPARE(first.value("last_error").toString(), QStringLiteral("NO_ROUTE order.x"));
        r = delayq({"ls", "--plain", "q", "--parked"});
        QVERIFY2(r.out.contains("NO_ROUTE order.x") && r.out.contains("2 of 2 parked"),
                 r.out.constData());
        r = delayq({"show", "--plain", "q", "a"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("failed:      2 attempt(s)") && r.out.contains("parked:"),
                 r.out.constData());
        r = delayq({"--json", "stats", "--plain", "q", "--score-unit", "ms"});
        QCOMPARE(json(r).object().value("parked").toInt(), 2);

        // Back into the key due now, its attempts starting again; then the other deleted.
        r = delayq({"requeue", "--plain", "q", "a", "--score-unit", "ms"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("1"));
        r = delayq({"--json", "ls", "--plain", "q"});
        const QJsonObject back = json(r).object().value("members").toArray().at(0).toObject();
        QCOMPARE(back.value("member").toString(), QStringLiteral("a"));
        QVERIFY(!back.contains("attempts"));
        r = delayq({"rm-dead", "--plain", "q", "--all"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("deleted: b"), r.out.constData());
        QCOMPARE(m_server.cli({"EXISTS", "dq:plain:{q}:parked"}).trimmed(), QByteArray("0"));
        QCOMPARE(m_server.cli({"EXISTS", "dq:plain:{q}:failures"}).trimmed(), QByteArray("0"));
        // Not parked: reported, exit 1.
        r = delayq({"rm-dead", "--plain", "q", "a"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("not parked: a"), r.out.constData());

        // A failure that is not yet final shows in ls: attempts and the last error.
        m_server.cli({"HSET", "dq:plain:{q}:failures", "a", "1|1700000000000|HTTP 503"});
        r = delayq({"ls", "--plain", "q"});
        QVERIFY2(r.out.contains("FAILED") && r.out.contains("HTTP 503"), r.out.constData());
        // Cancelled, it takes its record along.
        QCOMPARE(delayq({"cancel", "--plain", "q", "a"}).exitCode, 0);
        QCOMPARE(m_server.cli({"EXISTS", "dq:plain:{q}:failures"}).trimmed(), QByteArray("0"));
    }

    // `delayq workers` lists the consumers of plain keys beside the queues' (every key with
    // one, or the one --plain names), and stats --plain says what they guarantee.
    void plainConsumersAreListedWithTheirGuarantee()
    {
        const QString later = QString::number(QDateTime::currentMSecsSinceEpoch() + 3600000);
        m_server.cli({"ZADD", "fwd", later, "x"});
        m_server.cli({"ZADD", "popped", later, "y"});
        CliRun r = delayq({"stats", "--plain", "fwd"});
        QVERIFY2(r.out.contains("delivery:   no live consumer"), r.out.constData());
        auto forwarder = m_cli.start({"work", "--plain", "fwd", "--forward-to", acker(), "--name",
                                      "fw-1", "--heartbeat", "200ms", "--quiet"});
        auto popper = m_cli.start({"work", "--plain", "popped", "--handler", "ack", "--name",
                                   "pop-1", "--heartbeat", "200ms", "--quiet"});
        QTRY_VERIFY_WITH_TIMEOUT(delayq({"workers"}).out.contains("pop-1") &&
                                     delayq({"workers"}).out.contains("fw-1"),
                                 20000);
        r = delayq({"--json", "workers"});
        QJsonObject fw;
        for (const auto& w : json(r).object().value("workers").toArray())
            if (w.toObject().value("name").toString() == "fw-1")
                fw = w.toObject();
        QCOMPARE(fw.value("queue").toString(), QStringLiteral("fwd"));
        QCOMPARE(fw.value("plain").toBool(), true);
        QCOMPARE(fw.value("handler").toString(), QStringLiteral("lease:pipe"));
        QVERIFY(fw.value("live").toBool());
        r = delayq({"workers", "--plain", "fwd"});
        QVERIFY2(r.out.contains("fwd (plain)") && !r.out.contains("pop-1"), r.out.constData());

        r = delayq({"stats", "--plain", "fwd"});
        QVERIFY2(r.out.contains("delivery:   at least once: 1 forwarder"), r.out.constData());
        r = delayq({"--json", "stats", "--plain", "popped"});
        QCOMPARE(json(r).object().value("delivery").toString(), QStringLiteral("at_most_once"));
        QCOMPARE(json(r).object().value("pop_consumers").toInt(), 1);

        forwarder->terminate();
        popper->terminate();
        QVERIFY(CliRunner::finished(*forwarder));
        QVERIFY(CliRunner::finished(*popper));
        r = delayq({"workers"});
        QVERIFY2(!r.out.contains("fw-1"), r.out.constData()); // left at a clean stop
    }

    void failedMembersAreDroppedUnlessRetried()
    {
        fill("q", 3, 0);
        // --max-tasks: --until-empty would wait for the members it put back.
        CliRun r = delayq({"work", "--plain", "q", "--handler", "fail:1", "--retry-in", "1h",
                           "--max-tasks", "3", "--quiet", "--log", m_dir.filePath("retry.log")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("3")); // back, due in 1h
        for (const auto& line : readLines(m_dir.filePath("retry.log")))
            QCOMPARE(line.value("outcome").toString(), QStringLiteral("retried"));

        m_server.cli({"DEL", "q"});
        fill("q", 3, 0);
        r = delayq({"work", "--plain", "q", "--handler", "fail:1", "--until-empty", "--quiet",
                    "--log", m_dir.filePath("drop.log")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("0"));
        const auto lines = readLines(m_dir.filePath("drop.log"));
        QCOMPARE(lines.size(), 3);
        for (const auto& line : lines)
            QCOMPARE(line.value("outcome").toString(), QStringLiteral("dropped"));
    }

    void migrateInterruptedAndRerunMovesEachMemberOnce()
    {
        // The JSON-task design: scores in seconds.
        const qint64 base = QDateTime::currentSecsSinceEpoch() + 3600;
        const int n = 120;
        QStringList zadd{"ZADD", "legacy"};
        QMap<QString, qint64> due;
        for (int i = 0; i < n; ++i) {
            const QString member =
                QStringLiteral(R"({"data":{"n":%1},"times":0,"timestamp":%2})").arg(i).arg(base);
            zadd << QString::number(base + i) << member;
            due[member] = (base + i) * 1000;
        }
        m_server.cli(zadd);

        CliRun r = delayq({"--json", "migrate", "legacy", "orders", "--limit", "50"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("moved").toInt(), 50);
        QCOMPARE(json(r).object().value("remaining").toInt(), n - 50);
        // As if the run had died after creating tasks but before removing their members.
        QStringList readd{"ZADD", "legacy"};
        for (auto it = due.begin(); it != due.end(); ++it)
            if (it.value() / 1000 - base >= 40 && it.value() / 1000 - base < 50)
                readd << QString::number(it.value() / 1000) << it.key();
        m_server.cli(readd);

        r = delayq({"--json", "migrate", "legacy", "orders"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(json(r).object().value("skipped").toInt() >= 10);
        QCOMPARE(json(r).object().value("remaining").toInt(), 0);
        QCOMPARE(m_server.cli({"EXISTS", "legacy"}).trimmed(), QByteArray("0"));

        r = delayq({"--json", "ls", "orders", "--limit", "1000"});
        const QJsonArray tasks = json(r).object().value("tasks").toArray();
        QCOMPARE(tasks.size(), n);
        QSet<QString> payloads;
        for (const auto& t : tasks) {
            const QJsonObject o = t.toObject();
            payloads << o.value("payload").toString();
            QCOMPARE(static_cast<qint64>(o.value("due").toDouble()),
                     due.value(o.value("payload").toString()));
        }
        QCOMPARE(payloads.size(), n);
    }

private:
    // A pipe consumer that confirms every line.
    static QString acker()
    {
        return "pipe:python3 -c 'import sys, json\n"
               "for line in sys.stdin:\n"
               "    print(json.dumps({\"id\": json.loads(line)[\"id\"], \"ack\": True}), "
               "flush=True)'";
    }

    // n members "prefix+i" (numeric ids, the second seed shape) due in dueInMs, scores in ms.
    void fill(const QString& key, int n, qint64 dueInMs, int first = 0)
    {
        const qint64 due = QDateTime::currentMSecsSinceEpoch() + dueInMs;
        QStringList args{"ZADD", key};
        for (int i = first; i < first + n; ++i)
            args << QString::number(due + i % 10) << QString::number(100000 + i);
        m_server.cli(args);
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCliPlain)
#include "tst_cliplain.moc"
