#include "clisuite.h"

#include <delayq/connectionoptions.h>
#include <delayq/deliveries.h>
#include <delayq/worker.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

// One line of testconsumer.py's log: which process handled which task.
struct Handled
{
    qint64 pid = 0;
    QString thread;
    QString queue;
    QString id;
    int attempt = 0;
    QByteArray payload;
    quint64 blockedSignals = 0; // SigBlk of /proc/PID/status
};

// pipe:CMD: one consumer process per worker thread, tasks as JSON lines on its stdin, answers
// on its stdout; a consumer that fails, exits, hangs or writes garbage loses no task.
class TestPipeDelivery : public CliSuite
{
    Q_OBJECT

protected:
    void initSuite() override
    {
        // Debian's python3 starts in tens of ms; a version manager's shim on PATH can take
        // ten times that, per consumer start.
        m_python = QStandardPaths::findExecutable("python3", {"/usr/bin"});
        if (m_python.isEmpty())
            m_python = QStandardPaths::findExecutable("python3");
        if (m_python.isEmpty())
            QSKIP("python3 is not installed");
        QVERIFY(m_dir.isValid());
    }

    void initTest() override
    {
        ++m_test;
        m_consumerLog = m_dir.filePath(QString("consumer-%1.log").arg(m_test));
        m_events = m_dir.filePath(QString("events-%1.jsonl").arg(m_test));
        qputenv("PIPE_TEST_LOG", m_consumerLog.toUtf8());
    }

    // Every consumer a test started is gone at its end, also when it failed.
    void cleanupTest() override
    {
        for (const Handled& h : handled())
            QVERIFY2(!alive(h.pid), qPrintable(QString("consumer %1 is still running").arg(h.pid)));
    }

private:
    static bool alive(qint64 pid)
    {
        return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
    }

    QString consumer(const QString& prefix = {}) const
    {
        return "pipe:" + prefix + m_python + " " + PIPE_TEST_CONSUMER;
    }

    void push(const QString& queue, const QByteArray& payload, const QStringList& extra = {})
    {
        const CliRun r =
            delayq(QStringList{"push", queue, "-", "--backoff", "100ms"} + extra, payload);
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    CliRun work(const QString& queue, const QString& handler, const QStringList& extra = {})
    {
        return delayq(QStringList{"work", queue, "--handler", handler, "--until-empty", "--quiet",
                                  "--log", m_events} +
                      extra);
    }

    QList<Handled> handled() const
    {
        QList<Handled> out;
        QFile f(m_consumerLog);
        if (!f.open(QIODevice::ReadOnly))
            return out;
        for (const QByteArray& line : f.readAll().split('\n')) {
            const QList<QByteArray> w = line.split(' ');
            if (w.size() != 7)
                continue;
            out.append({w[0].toLongLong(), QString(w[1]), QString(w[2]), QString(w[3]),
                        w[4].toInt(), w[5] == "-" ? QByteArray() : QByteArray::fromHex(w[5]),
                        w[6].toULongLong(nullptr, 16)});
        }
        return out;
    }

    // The worker's --log, by task id, in the order they happened.
    QMap<QString, QList<QJsonObject>> eventsById() const
    {
        QMap<QString, QList<QJsonObject>> out;
        for (const QJsonObject& e : readLines(m_events))
            out[e.value("id").toString()].append(e);
        return out;
    }

    QJsonObject stats(const QString& queue) const
    {
        return json(delayq({"--json", "stats", queue})).object();
    }

    void expectDrained(const QString& queue, int acked)
    {
        const QJsonObject s = stats(queue);
        QCOMPARE(s.value("pending").toInt(), 0);
        QCOMPARE(s.value("active").toInt(), 0);
        QCOMPARE(s.value("dead").toInt(), 0);
        QCOMPARE(s.value("counters").toObject().value("acked").toInt(), acked);
    }

    QJsonObject onlyTask(const QString& queue, const QString& state) const
    {
        const QJsonObject list = json(delayq({"--json", "ls", queue, "--state", state})).object();
        const QString id = list.value("tasks").toArray().at(0).toObject().value("id").toString();
        return json(delayq({"--json", "show", queue, id})).object().value("task").toObject();
    }

private slots:
    void oneConsumerPerThreadAcksEveryTask_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("tasks");
        QTest::newRow("one thread") << 1 << 40;
        QTest::newRow("three threads") << 3 << 600;
    }
    void oneConsumerPerThreadAcksEveryTask()
    {
        QFETCH(int, threads);
        QFETCH(int, tasks);
        push("q", "ok", {"--count", QString::number(tasks)});

        const CliRun r = work("q", consumer(), {"--concurrency", QString::number(threads)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        expectDrained("q", tasks);

        // Each task went to a consumer once; each thread started one consumer, not one a task.
        const QList<Handled> all = handled();
        QCOMPARE(all.size(), tasks);
        QSet<QString> ids;
        QMap<QString, QSet<qint64>> pidsByThread;
        for (const Handled& h : all) {
            ids.insert(h.id);
            pidsByThread[h.thread].insert(h.pid);
            QCOMPARE(h.queue, QString("q"));
            QCOMPARE(h.payload, QByteArray("ok"));
            // The worker threads block SIGINT and SIGTERM; the consumer must not inherit that
            // (Debian's dash clears its mask itself; a /bin/sh that does not relies on us).
            const quint64 stopSignals = (1ULL << (SIGINT - 1)) | (1ULL << (SIGTERM - 1));
            QCOMPARE(h.blockedSignals & stopSignals, 0ULL);
        }
        QCOMPARE(ids.size(), tasks);
        QVERIFY(pidsByThread.size() <= threads);
        for (auto it = pidsByThread.cbegin(); it != pidsByThread.cend(); ++it)
            QVERIFY2(it.value().size() == 1,
                     qPrintable("thread " + it.key() + " had " +
                                QString::number(it.value().size()) + " consumers"));
    }

    void payloadArrivesByteForByte_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::newRow("text") << QByteArray("ok h\xc3\xa9llo \"quoted\" \\ \n second line\t");
        QTest::newRow("not UTF-8") << QByteArray("ok\x00\xff\xfe\x80", 6);
        QTest::newRow("empty") << QByteArray();
    }
    void payloadArrivesByteForByte()
    {
        QFETCH(QByteArray, payload);
        push("q", payload);
        const CliRun r = work("q", consumer());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<Handled> all = handled();
        QCOMPARE(all.size(), 1);
        QCOMPARE(all[0].payload, payload);
        expectDrained("q", 1);
    }

    void verdicts_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<int>("maxAttempts");
        QTest::addColumn<QStringList>("outcomes");
        QTest::addColumn<QString>("error");
        QTest::addColumn<int>("retryMs"); // the first retry's delay, at least
        QTest::newRow("fail: on the task's backoff")
            << QByteArray("fail:out of stock") << 2 << QStringList{"retried", "dead"}
            << "out of stock" << 100;
        QTest::newRow("retry_in_ms") << QByteArray("retry:1200") << 5
                                     << QStringList{"retried", "acked"} << "not yet" << 1200;
        QTest::newRow("dead at once") << QByteArray("dead:gone for good") << 5
                                      << QStringList{"dead"} << "gone for good" << -1;
    }
    void verdicts()
    {
        QFETCH(QByteArray, payload);
        QFETCH(int, maxAttempts);
        QFETCH(QStringList, outcomes);
        QFETCH(QString, error);
        QFETCH(int, retryMs);
        push("q", payload, {"--max-attempts", QString::number(maxAttempts)});

        const CliRun r = work("q", consumer());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto events = eventsById();
        QCOMPARE(events.size(), 1);
        const QList<QJsonObject> seen = events.first();
        QStringList got;
        for (const QJsonObject& e : seen)
            got << e.value("outcome").toString();
        QCOMPARE(got, outcomes);
        QCOMPARE(seen[0].value("error").toString(), error);
        if (retryMs >= 0) {
            const double delay =
                seen[0].value("retry_at").toDouble() - seen[0].value("finished").toDouble();
            QVERIFY2(delay >= retryMs - 20 && delay < retryMs + 900,
                     qPrintable(QString::number(delay)));
        }
        if (outcomes.last() == "dead") {
            const QJsonObject t = onlyTask("q", "dead");
            QCOMPARE(t.value("last_error").toString(), error);
            QCOMPARE(t.value("attempts").toInt(), outcomes.size());
        } else {
            expectDrained("q", 1);
        }
    }

    // The bad task sits in the middle of one claim: the tasks before it were answered, the
    // one in hand and those after it fail with the reason and are acked by a new consumer.
    void brokenConsumerLosesNothing_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QByteArray>("bad");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("how");
        QTest::newRow("exits") << "" << QByteArray("crash") << "the consumer exited with status 3"
                               << "exited with status 3";
        QTest::newRow("killed by a signal")
            << "exec " << QByteArray("kill") << "the consumer was killed by signal 9 (SIGKILL)"
            << "was killed by signal 9 (SIGKILL)";
        QTest::newRow("hangs") << "" << QByteArray("hang")
                               << "no answer within 2000 ms: the consumer was killed"
                               << "gave no answer within 2000 ms and was killed";
        QTest::newRow("writes garbage")
            << "" << QByteArray("garbage")
            << "the consumer wrote a line that is not an answer (not JSON): this is not json"
            << "wrote a line that is not an answer";
        QTest::newRow("answers a stranger")
            << "" << QByteArray("stranger")
            << "the consumer wrote a line that is not an answer (an id it does not hold): "
               "{\"id\": \"nobody-has-this-id\", \"ack\": true}"
            << "wrote a line that is not an answer";
    }
    void brokenConsumerLosesNothing()
    {
        QFETCH(QString, prefix);
        QFETCH(QByteArray, bad);
        QFETCH(QString, reason);
        QFETCH(QString, how);
        push("q", "ok", {"--count", "5"});
        push("q", bad);
        push("q", "ok", {"--count", "5"});

        // --lease 2s: a consumer that stops answering is killed after 2 s. (Not 1 s: the
        // worker's first renewal of a claim can come up to 1.5 s after it.)
        const CliRun r =
            work("q", consumer(prefix), {"--lease", "2s", "--batch", "20", "--max-batch", "20"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains(("pipe consumer restarted after it " + how).toUtf8()),
                 r.err.constData());
        expectDrained("q", 11);

        const auto events = eventsById();
        QCOMPARE(events.size(), 11);
        int retried = 0;
        bool badFailed = false;
        for (auto it = events.cbegin(); it != events.cend(); ++it) {
            QCOMPARE(it.value().last().value("outcome").toString(), QString("acked"));
            for (const QJsonObject& e : it.value()) {
                if (e.value("outcome").toString() != "retried")
                    continue;
                ++retried;
                QCOMPARE(e.value("error").toString(), reason);
                badFailed = badFailed || e.value("attempt").toInt() == 1;
            }
        }
        QVERIFY(badFailed);
        QVERIFY(retried >= 1 && retried <= 6); // the bad one and at most the five after it
        QSet<qint64> pids;
        for (const Handled& h : handled())
            pids.insert(h.pid);
        QVERIFY(pids.size() >= 2);
    }

    void consumerThatDiesAtOnceIsRestartedWithBackoff()
    {
        push("q", "x", {"--max-attempts", "4", "--backoff", "10ms"});
        // Each start logs its time (ms); the log parser skips these lines.
        const QString starts = m_dir.filePath(QString("starts-%1").arg(m_test));
        const CliRun r = work("q", "pipe:date +%s%3N >> '" + starts + "'; exit 1");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("pipe consumer restarted after it exited with status 1"),
                 r.err.constData());
        const QJsonObject t = onlyTask("q", "dead");
        QCOMPARE(t.value("last_error").toString(), QString("the consumer exited with status 1"));
        QFile f(starts);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> times = f.readAll().trimmed().split('\n');
        QCOMPARE(times.size(), 4);
        // 100 + 200 + 400 ms of backoff between the four starts, not 3 x 10 ms.
        QVERIFY2(times.last().toLongLong() - times.first().toLongLong() >= 650,
                 times.join(' ').constData());
    }

    // DELAYQ_WORKER is the worker's own name and the thread: --name's, else the default
    // host-pid-random one (the name in the run hash and `delayq ls`), never a placeholder.
    void consumerSeesTheWorkersName_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("pattern");
        QTest::newRow("--name") << QStringList{"--name", "mailer"} << "^mailer#0$";
        QTest::newRow("the default name")
            << QStringList{}
            << "^" + QRegularExpression::escape(QSysInfo::machineHostName()) +
                   "-[0-9]+-[0-9a-f]+#0$";
    }
    void consumerSeesTheWorkersName()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, pattern);
        push("q", "x");
        const QString names = m_dir.filePath(QString("names-%1").arg(m_test));
        const CliRun r =
            work("q", consumer("echo \"$DELAYQ_WORKER\" >> '" + names + "'; exec "), extra);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(names);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString name = QString::fromUtf8(f.readAll().trimmed());
        QVERIFY2(QRegularExpression(pattern).match(name).hasMatch(), qPrintable(name));
    }

    // examples/consumer.py, as its header says to run it.
    void exampleConsumerAcksFailsAndRetries()
    {
        push("q", "hello", {"--id", "hello"});
        push("q", "fail this one", {"--id", "failing", "--max-attempts", "1"});
        push("q", "later, please", {"--id", "later", "--backoff", "10ms"});
        const CliRun r = work("q", "pipe:" + m_python + " " + PIPE_EXAMPLE_CONSUMER);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("consumer: handled hello: hello"), r.err.constData());
        const auto events = eventsById();
        QCOMPARE(events.value("hello").last().value("outcome").toString(), QString("acked"));
        QCOMPARE(events.value("failing").last().value("outcome").toString(), QString("dead"));
        QCOMPARE(events.value("failing").last().value("error").toString(),
                 QString("the payload asked to fail"));
        const QList<QJsonObject> later = events.value("later");
        QCOMPARE(later.size(), 3); // retried in 1 s twice, acked on attempt 3
        QCOMPARE(later[0].value("error").toString(), QString("not ready yet, attempt 1"));
        QCOMPARE(later.last().value("outcome").toString(), QString("acked"));
    }

    void refusedBeforeAnythingIsClaimed_data()
    {
        QTest::addColumn<QString>("handler");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << "pipe:"
                                    << "pipe:CMD needs a command";
        QTest::newRow("blank command") << "pipe:  "
                                       << "pipe:CMD needs a command";
        QTest::newRow("not sh") << "pipe:if ("
                                << "the pipe command is not valid /bin/sh";
    }
    void refusedBeforeAnythingIsClaimed()
    {
        QFETCH(QString, handler);
        QFETCH(QString, message);
        push("q", "ok");
        expectRefusal(work("q", handler), 2, message);
        const QJsonObject s = stats("q");
        QCOMPARE(s.value("pending").toInt(), 1);
        QCOMPARE(s.value("counters").toObject().value("claimed").toInt(), 0);
    }

    void stopFinishesTheTasksInHand()
    {
        push("q", "slow:300", {"--count", "3"});
        auto p = m_cli.start(
            {"work", "q", "--handler", consumer(), "--batch", "10", "--quiet", "--log", m_events});
        QTRY_VERIFY_WITH_TIMEOUT(!handled().isEmpty(), 20000);
        p->terminate(); // SIGTERM to delayq only: the consumer answers what it holds
        QVERIFY(CliRunner::finished(*p));
        QCOMPARE(handled().size(), 3);
        expectDrained("q", 3);
    }

    // The library's Worker: stopNow() does not wait for a consumer that does not answer.
    void stopNowKillsAConsumerThatHangs()
    {
        push("q", "hang");
        delayq::WorkerOptions o;
        o.connection = delayq::ConnectionOptions::fromUrl(m_server.unixUrl());
        o.queue = "q";
        o.leaseMs = 60000;
        delayq::DeliveryOptions d;
        d.queue = "q";
        d.answerTimeoutMs = 60000;
        const delayq::Worker* self = nullptr;
        d.aborted = [&self] { return self && self->abortRequested(); };
        delayq::Worker worker(o, delayq::deliveryFor(consumer().toStdString(), d));
        self = &worker;
        QVERIFY(worker.start());
        QTRY_VERIFY_WITH_TIMEOUT(!handled().isEmpty(), 20000);
        QElapsedTimer clock;
        clock.start();
        worker.stopNow();
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!alive(handled().first().pid));
        const QJsonObject s = stats("q");
        QCOMPARE(s.value("pending").toInt(), 1); // handed back
        QCOMPARE(s.value("active").toInt(), 0);
    }

private:
    QString m_python;
    QTemporaryDir m_dir;
    int m_test = 0;
    QString m_consumerLog;
    QString m_events;
};

QTEST_GUILESS_MAIN(TestPipeDelivery)
#include "tst_pipedelivery.moc"
