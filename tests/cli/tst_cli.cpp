#include "clisuite.h"
#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/queue.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

class TestCli : public CliSuite
{
    Q_OBJECT

private slots:
    void pushListRescheduleWorkStats()
    {
        CliRun r = delayq({"push", "mail", "first", "--in", "1h", "--id", "t1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("created t1 due "));
        // Global options after the subcommand work as well as before it.
        r = delayq({"push", "mail", "second", "--in", "2h", "--id", "t2", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("status").toString(), QStringLiteral("created"));

        QStringList order = ids(delayq({"--json", "ls", "mail"}));
        QCOMPARE(order, QStringList({"t1", "t2"}));

        r = delayq({"reschedule", "mail", "t2", "--now"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("rescheduled t2\n"));
        order = ids(delayq({"--json", "ls", "mail"}));
        QCOMPARE(order, QStringList({"t2", "t1"}));

        const QString log = m_dir.filePath("work.log");
        r = delayq({"work", "mail", "--max-tasks", "1", "--log", log, "--quiet"});
        QCOMPARE(r.exitCode, 0);
        const auto lines = readLines(log);
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0].value("id").toString(), QStringLiteral("t2"));
        QCOMPARE(lines[0].value("outcome").toString(), QStringLiteral("acked"));
        QCOMPARE(lines[0].value("attempt").toInt(), 1);
        QVERIFY(lines[0].contains("lateness"));
        QVERIFY(lines[0].contains("due"));
        QVERIFY(lines[0].contains("started"));

        r = delayq({"stats", "mail", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject stats = json(r).object();
        QCOMPARE(stats.value("pending").toInt(), 1);
        QCOMPARE(stats.value("active").toInt(), 0);
        QCOMPARE(stats.value("counters").toObject().value("pushed").toInt(), 2);
        QCOMPARE(stats.value("counters").toObject().value("acked").toInt(), 1);
        QVERIFY(stats.value("next_due").toDouble() > 0);

        r = delayq({"queues"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("mail"));
    }

    // The outside check's case: a worker holds every task while `reshard --shards 3` runs.
    // The reshard waits for them (it used to report "0 tasks moved" and leave most of them
    // outside their home for good), and once they are handed back it moves them; then a push
    // of an id that exists answers exists (exit 1), as the help says.
    void reshardWaitsForTasksAWorkerHolds()
    {
        for (int i = 0; i < 20; ++i)
            QCOMPARE(delayq({"push", "held", "v1", "--id", "h" + QString::number(i)}).exitCode, 0);
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue queue(connection, "held");
        const auto claimed = queue.claim(20, 60'000, "holder");
        QCOMPARE(claimed.tasks.size(), size_t(20));

        CliRun r = delayq({"reshard", "held", "--shards", "3", "--steps", "40"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("stopped after 40 steps"), r.out.constData());
        for (const auto& t : claimed.tasks)
            queue.nack(t.id, t.token, "not now", 0);
        r = delayq({"reshard", "held", "--shards", "3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("resharded held to 3 shards: "), r.out.constData());
        QVERIFY2(!r.out.contains(": 0 tasks moved"), r.out.constData());

        for (int i = 0; i < 20; ++i) {
            r = delayq({"push", "held", "v2", "--id", "h" + QString::number(i)});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.out.startsWith("exists "), r.out.constData());
        }
        r = delayq({"work", "held", "--until-empty", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(queue.stats()["acked"], 20LL);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList{} << 2 << "no command";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << 2 << "unknown command";
        QTest::newRow("unknown option")
            << QStringList{"ls", "mail", "--bogus"} << 2 << "unknown option";
        QTest::newRow("duration without unit")
            << QStringList{"push", "mail", "x", "--in", "5"} << 2 << "unit";
        QTest::newRow("in and at")
            << QStringList{"push", "mail", "x", "--in", "5s", "--at", "2030-01-01T00:00:00Z"} << 2
            << "cannot be used together";
        QTest::newRow("bad time") << QStringList{"push", "mail", "x", "--at", "2030-02-30T00:00"}
                                  << 2 << "invalid time";
        QTest::newRow("bad queue name") << QStringList{"push", "a b", "x"} << 2 << "queue";
        QTest::newRow("bad backoff")
            << QStringList{"push", "mail", "x", "--backoff", "5s,,x"} << 2 << "backoff";
        QTest::newRow("purge without yes") << QStringList{"purge", "mail"} << 2 << "--yes";
        QTest::newRow("reschedule without when")
            << QStringList{"reschedule", "mail", "keep"} << 2 << "--in";
        QTest::newRow("requeue ids and all")
            << QStringList{"requeue", "mail", "x", "--all"} << 2 << "not both";
        QTest::newRow("bad handler")
            << QStringList{"work", "mail", "--handler", "fail:2"} << 2 << "fail:P";
        QTest::newRow("existing id")
            << QStringList{"push", "mail", "y", "--id", "keep"} << 1 << "exists";
        QTest::newRow("show missing") << QStringList{"show", "mail", "nope"} << 1 << "not found";
        QTest::newRow("cancel missing")
            << QStringList{"cancel", "mail", "nope", "gone"} << 1 << "2 of 2";
        QTest::newRow("read-only push")
            << QStringList{"--read-only", "push", "mail", "x"} << 1 << "read-only";
        QTest::newRow("bench on a non-empty db") << QStringList{"bench"} << 1 << "--force";
        QTest::newRow("bench with no queue")
            << QStringList{"bench", "--queues", "0"} << 2 << "--queues must be a whole number";
        QTest::newRow("bench with 17 queues")
            << QStringList{"bench", "--queues", "17"} << 2 << "from 1 to 16";
        QTest::newRow("bench with no drain")
            << QStringList{"bench", "--drain-tasks", "0"} << 2 << "--drain-tasks must be";
        QTest::newRow("bench with no memory tasks")
            << QStringList{"bench", "--memory-tasks", "x"} << 2 << "--memory-tasks must be";
        QTest::newRow("bench with batch 0")
            << QStringList{"bench", "--batch", "0"} << 2 << "--batch must be";
        QTest::newRow("unreachable")
            << QStringList{"ls", "mail", "--url", "redis://127.0.0.1:1"} << 3 << "cannot connect";
        QTest::newRow("wrong password")
            << QStringList{"ls", "mail", "--url",
                           QStringLiteral("redis://:wrong@127.0.0.1:%1").arg(m_server.port())}
            << 3 << "authentication";
        QTest::newRow("bad url") << QStringList{"--url", "http://x", "ls", "mail"} << 2
                                 << "invalid Redis URL";
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QCOMPARE(delayq({"push", "mail", "kept", "--id", "keep", "--in", "1h"}).exitCode, 0);
        const QByteArray before = m_server.cli({"DUMP", "dq:{mail}:pending"});
        const QByteArray keysBefore = m_server.cli({"DBSIZE"});

        const CliRun r = delayq(args);
        // One clear line on stderr.
        expectRefusal(r, exitCode, message);
        QCOMPARE(r.err.count('\n'), 1);
        // Refused means nothing changed.
        QCOMPARE(m_server.cli({"DUMP", "dq:{mail}:pending"}), before);
        QCOMPARE(m_server.cli({"DBSIZE"}), keysBefore);
    }

    void helpEverywhere_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("main") << QStringList{"--help"} << "Commands:";
        QTest::newRow("command") << QStringList{"push", "--help"} << "--max-attempts";
        QTest::newRow("before command") << QStringList{"-h", "work"} << "exec:CMD";
        QTest::newRow("help word") << QStringList{"help", "ls"} << "--state";
        QTest::newRow("work's defaults")
            << QStringList{"work", "--help"} << "own consumer or broker connection (default 1,";
    }
    void helpEverywhere()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        // --help never needs Redis: the URL goes nowhere.
        const CliRun r = delayq(QStringList{"--url", "redis://127.0.0.1:1"} + args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(expected.toUtf8()));
    }

    void oldLayoutIsNamedAndUpgraded()
    {
        // A task as an older delayq wrote it: a hash of its own.
        m_server.cli({"HSET", "dq:{legacy}:t:o1", "payload", "hello", "due", "1000", "created",
                      "1000", "attempts", "0", "max_attempts", "5", "state", "pending"});
        m_server.cli({"ZADD", "dq:{legacy}:pending", "1000", "o1"});
        const CliRun refused = delayq({"ls", "legacy"});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("older delayq") &&
                     refused.err.contains("delayq upgrade legacy"),
                 refused.err.constData());
        const CliRun upgraded = delayq({"upgrade", "legacy"});
        QCOMPARE(upgraded.exitCode, 0);
        QVERIFY2(upgraded.out.contains("1 tasks converted"), upgraded.out.constData());
        const CliRun shown = delayq({"show", "legacy", "o1"});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains("hello"), shown.out.constData());
        QVERIFY(delayq({"upgrade", "legacy"}).out.contains("already uses the current layout"));
    }

    void payloadsAreShownSafely()
    {
        const QByteArray payload("evil\x1b[31m\nline\x07\xff", 16);
        QCOMPARE(delayq({"push", "mail", "-", "--id", "p1"}, payload).exitCode, 0);
        const delayq::Keys keys("dq", "mail");
        QVERIFY(m_server.record(keys, "p1").endsWith("|" + payload));
        for (const QStringList& args :
             {QStringList{"ls", "mail"}, QStringList{"show", "mail", "p1"}}) {
            const CliRun r = delayq(args);
            QCOMPARE(r.exitCode, 0);
            QVERIFY(!r.out.contains('\x1b'));
            QVERIFY(!r.out.contains('\x07'));
            QVERIFY(r.out.contains("evil\\x1b[31m\\nline\\x07\\xff"));
        }
        const CliRun j = delayq({"show", "mail", "p1", "--json"});
        const QJsonObject task = json(j).object().value("task").toObject();
        QCOMPARE(QByteArray::fromBase64(task.value("payload_base64").toString().toLatin1()),
                 payload);
    }

    void showSaysOneByteInTheSingular()
    {
        QCOMPARE(delayq({"push", "mail", "x", "--id", "one"}).exitCode, 0);
        const CliRun r = delayq({"show", "mail", "one"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("1 byte\n") && !r.out.contains("1 bytes"), r.out.constData());
        QCOMPARE(delayq({"push", "mail", "xy", "--id", "two"}).exitCode, 0);
        QVERIFY(delayq({"show", "mail", "two"}).out.contains("2 bytes"));
    }

    void execFailureRetriesOnTheBackoffThenDies()
    {
        QCOMPARE(delayq({"push", "mail", "data", "--id", "job", "--max-attempts", "3", "--backoff",
                         "300ms,600ms"})
                     .exitCode,
                 0);
        const QString log = m_dir.filePath("exec.log");
        const QString seen = m_dir.filePath("seen.txt");
        const QString handler =
            QStringLiteral("exec:cat >> '%1'; echo \"$DELAYQ_TASK_ID\" >> '%1'; "
                           "echo 'disk full' >&2; exit 4")
                .arg(seen);
        const CliRun r = delayq(
            {"work", "mail", "--handler", handler, "--until-empty", "--log", log, "--quiet"});
        QCOMPARE(r.exitCode, 0);
        const auto lines = readLines(log);
        QCOMPARE(lines.size(), 3);
        const char* outcomes[] = {"retried", "retried", "dead"};
        const double steps[] = {300, 600};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(lines[i].value("attempt").toInt(), i + 1);
            QCOMPARE(lines[i].value("outcome").toString(), QString(outcomes[i]));
            QCOMPARE(lines[i].value("error").toString(), QStringLiteral("exec: exit 4: disk full"));
        }
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(lines[i + 1].value("due").toDouble(), lines[i].value("retry_at").toDouble());
            // The nack (retry_at minus the step) came between start and finish of the attempt.
            const double nackAt = lines[i].value("retry_at").toDouble() - steps[i];
            QVERIFY2(nackAt >= lines[i].value("started").toDouble() - 20 &&
                         nackAt <= lines[i].value("finished").toDouble() + 20,
                     qPrintable(QString::number(nackAt)));
        }
        // The payload reached the command on stdin, the id in its environment.
        QFile file(seen);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("datajob\ndatajob\ndatajob\n"));
        const CliRun dead = delayq({"ls", "mail", "--state", "dead", "--json"});
        QCOMPARE(ids(dead), QStringList({"job"}));
        QCOMPARE(json(dead)
                     .object()
                     .value("tasks")
                     .toArray()
                     .at(0)
                     .toObject()
                     .value("last_error")
                     .toString(),
                 QStringLiteral("exec: exit 4: disk full"));
    }

    // A death is a moment that passed: "21m 53s ago", never "overdue".
    void deathsReadAsAgo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("pattern");
        QTest::newRow("ls") << QStringList{"ls", "mail", "--state", "dead"}
                            << "\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\s+21m 5\\ds ago\\s+gone";
        QTest::newRow("show") << QStringList{"show", "mail", "gone"}
                              << "died\\s+\\S+ \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\(21m 5\\ds ago\\)";
        QTest::newRow("find") << QStringList{"find", "mail", "disk", "--in", "error"}
                              << "\\d{3}\\s+21m 5\\ds ago\\s+gone";
    }
    void deathsReadAsAgo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, pattern);
        QCOMPARE(delayq({"push", "mail", "data", "--id", "gone", "--max-attempts", "1"}).exitCode,
                 0);
        QCOMPARE(delayq({"work", "mail", "--handler", "exec:echo 'disk full' >&2; exit 4",
                         "--until-empty", "--quiet"})
                     .exitCode,
                 0);
        // It died 21 minutes 53 seconds before the server's now.
        const qint64 now = m_server.cli({"TIME"}).split('\n').first().trimmed().toLongLong() * 1000;
        m_server.cli({"ZADD", "dq:{mail}:dead", "XX", QString::number(now - 1'313'000), "gone"});
        const CliRun r = delayq(args);
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QRegularExpression(pattern)), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("overdue")), qPrintable(out));
    }

    void ctrlCFinishesTheTaskInHand()
    {
        QCOMPARE(delayq({"push", "mail", "x", "--id", "slow"}).exitCode, 0);
        const auto p = m_cli.start({"work", "mail", "--handler", "sleep:800", "--json"});
        QVERIFY(p->waitForStarted());
        QTRY_COMPARE(m_server.cli({"ZCARD", "dq:{mail}:active"}).trimmed(), QByteArray("1"));
        ::kill(static_cast<pid_t>(p->processId()), SIGINT);
        QVERIFY(p->waitForFinished(15000));
        QCOMPARE(p->exitCode(), 0);
        const QByteArray out = p->readAllStandardOutput();
        QVERIFY2(out.contains("\"outcome\":\"acked\""), out.constData());
        const delayq::Keys keys("dq", "mail");
        QCOMPARE(m_server.record(keys, "slow"), QByteArray());
    }

    // A worker claims 5 tasks under a 2 s lease and is SIGKILLed. Once the leases ran out,
    // stats, ls and show say they wait for a reap, and `work --until-empty` reaps and runs them
    // rather than take the empty pending set for an empty queue.
    void untilEmptyRunsTheTasksOfAKilledWorker()
    {
        for (int i = 0; i < 5; ++i)
            QCOMPARE(delayq({"push", "mail", "x", "--id", QStringLiteral("t%1").arg(i)}).exitCode,
                     0);
        const auto p = m_cli.start({"work", "mail", "--handler", "sleep:60000", "--batch", "5",
                                    "--lease", "2s", "--quiet"});
        QVERIFY(p->waitForStarted());
        QTRY_COMPARE(m_server.cli({"ZCARD", "dq:{mail}:active"}).trimmed(), QByteArray("5"));
        ::kill(static_cast<pid_t>(p->processId()), SIGKILL);
        QVERIFY(p->waitForFinished(5000));

        QTRY_VERIFY_WITH_TIMEOUT(
            delayq({"stats", "mail"})
                .out.contains("active          5 (5 leases expired, waiting for "
                              "a reap)\n"),
            10000);
        QCOMPARE(json(delayq({"stats", "mail", "--json"})).object().value("leases_expired").toInt(),
                 5);
        CliRun r = delayq({"ls", "mail", "--state", "active"});
        QCOMPARE(r.out.count("expired"), 6);
        QVERIFY2(r.out.contains(", waiting for a reap"), r.out.constData());
        QVERIFY2(r.out.contains("5 of 5 active tasks, 5 shown with an expired lease\n"),
                 r.out.constData());
        const QJsonArray tasks = json(delayq({"ls", "mail", "--state", "active", "--json"}))
                                     .object()
                                     .value("tasks")
                                     .toArray();
        QCOMPARE(tasks.size(), 5);
        for (const QJsonValue& t : tasks)
            QCOMPARE(t.toObject().value("lease_expired").toBool(), true);
        r = delayq({"show", "mail", "t0"});
        QVERIFY2(QRegularExpression(
                     "\nlease until +\\S+ \\S+ \\(expired( \\S+ ago)?, waiting for a reap\\)\n")
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());

        const QString log = m_dir.filePath("after-kill.log");
        r = delayq({"work", "mail", "--until-empty", "--log", log});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("reaped 5"), r.err.constData());
        const auto lines = readLines(log);
        QCOMPARE(lines.size(), 5);
        for (const auto& line : lines) {
            QCOMPARE(line.value("outcome").toString(), QStringLiteral("acked"));
            QCOMPARE(line.value("attempt").toInt(), 2);
        }
        QCOMPARE(m_server.cli({"ZCARD", "dq:{mail}:active"}).trimmed(), QByteArray("0"));
        QCOMPARE(m_server.cli({"ZCARD", "dq:{mail}:pending"}).trimmed(), QByteArray("0"));
    }

    void benchRunsAndReportsRatios()
    {
        const CliRun r = delayq({"bench", "--json", "--tasks", "500", "--single-tasks", "50",
                                 "--duration", "300ms", "--rate", "200", "--seed-tasks", "100",
                                 "--drain-tasks", "300", "--memory-tasks", "1000"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QVERIFY(o.value("push_batched_per_s").toDouble() > 0);
        const QJsonObject ours = o.value("ours").toObject();
        QVERIFY(ours.value("claim_per_s").toDouble() > 0);
        QCOMPARE(ours.value("lateness_ms").toObject().value("count").toInt(), 60);
        QCOMPARE(o.value("seeds").toArray().size(), 2);
        QCOMPARE(o.value("ratios").toArray().size(), 2);
        // Redis CPU per task of every phase, and memory per task beyond the payload.
        QVERIFY(o.value("push_batched_cpu_us_per_task").toDouble() > 0);
        QVERIFY(o.value("push_single_cpu_us_per_task").toDouble() > 0);
        QCOMPARE(ours.value("drain").toObject().value("tasks").toInt(), 300);
        QVERIFY(ours.value("drain").toObject().value("per_s").toDouble() > 0);
        QVERIFY(ours.value("drain").toObject().value("cpu_us_per_task").toDouble() > 0);
        QJsonArray designs = o.value("seeds").toArray();
        designs.append(ours);
        QCOMPARE(designs.size(), 3);
        for (const QJsonValue& v : designs) {
            const QJsonObject d = v.toObject();
            const QString name = d.value("kind").toString();
            QVERIFY2(d.value("claim_cpu_us_per_task").toDouble() > 0, qPrintable(name));
            QVERIFY2(d.value("lateness_cpu_us_per_task").toDouble() > 0, qPrintable(name));
            const QJsonObject memory = d.value("memory").toObject();
            QCOMPARE(memory.value("tasks").toInt(), 1000);
            QCOMPARE(memory.value("payload_bytes").toInt(), 18);
            QVERIFY2(memory.value("bytes_per_task").toDouble() > 18, qPrintable(name));
            QVERIFY2(memory.value("bytes_per_task_over_payload").toDouble() > 0, qPrintable(name));
            // Every design drains the same backlog, timed from its due moment to its last task.
            QVERIFY2(d.value("drain").toObject().value("per_s").toDouble() > 0, qPrintable(name));
        }
        QVERIFY(
            o.value("ratios").toArray()[1].toObject().value("drain_ours_over_theirs").toDouble() >
            0);
        // It cleans up after itself.
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
    }

    // The claim+ack, drain and lateness phases run with `delayq work`'s batch unless --batch
    // says otherwise: the bench measures what a user gets without tuning.
    void benchUsesTheWorkersBatch_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("batch"); // 0: whatever `delayq work` runs with by default
        QTest::addColumn<QString>("from");
        QTest::newRow("worker default") << QStringList{} << 0 << "worker default";
        QTest::newRow("--batch 7") << QStringList{"--batch", "7"} << 7 << "--batch";
    }
    void benchUsesTheWorkersBatch()
    {
        QFETCH(QStringList, extra);
        QFETCH(int, batch);
        QFETCH(QString, from);
        if (batch == 0) {
            const CliRun w = delayq({"work", "idle", "--until-empty"});
            QCOMPARE(w.exitCode, 0);
            const QRegularExpressionMatch m = QRegularExpression("batch (\\d+)").match(w.err);
            QVERIFY2(m.hasMatch(), w.err.constData());
            batch = m.captured(1).toInt();
            m_server.cli({"FLUSHALL"}); // bench wants an empty database
        }
        const CliRun r =
            delayq(QStringList{"bench", "--json", "--tasks", "200", "--single-tasks", "20",
                               "--duration", "100ms", "--rate", "100", "--drain-tasks", "100",
                               "--memory-tasks", "100", "--skip-seeds"} +
                   extra);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject settings = json(r).object().value("settings").toObject();
        QCOMPARE(settings.value("batch").toInt(), batch);
        QCOMPARE(settings.value("batch_from").toString(), from);
        QVERIFY2(r.err.contains(QByteArray("claim+ack: 200 tasks, 2 threads, batch ") +
                                QByteArray::number(batch)),
                 r.err.constData());
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
    }

    // --queues 3 on one server: three queues on that server, the default 2 threads raised to
    // one a queue, the tasks split over them.
    void benchSpreadsQueues()
    {
        const CliRun r = delayq({"bench", "--json", "--queues", "3", "--tasks", "600",
                                 "--single-tasks", "30", "--duration", "100ms", "--rate", "200",
                                 "--drain-tasks", "100", "--memory-tasks", "100", "--skip-seeds"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QCOMPARE(o.value("settings").toObject().value("queues").toInt(), 3);
        QCOMPARE(o.value("masters").toInt(), 1);
        const QJsonArray queues = o.value("queues").toArray();
        QCOMPARE(queues.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject q = queues[i].toObject();
            QCOMPARE(q.value("name").toString(), QStringLiteral("bench-%1").arg(i));
            QCOMPARE(q.value("node").toString(), queues[0].toObject().value("node").toString());
            QCOMPARE(q.value("threads").toInt(), 1);
            QCOMPARE(q.value("tasks").toInt(), 200);
        }
        QVERIFY(o.value("ours").toObject().value("claim_per_s").toDouble() > 0);
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
    }

private:
    static QStringList ids(const CliRun& r)
    {
        QStringList out;
        for (const auto& t : json(r).object().value("tasks").toArray())
            out << t.toObject().value("id").toString();
        return out;
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
