#include "eventlog.h"
#include "redissuite.h"
#include <delayq/worker.h>

#include <QDateTime>
#include <QTest>

using namespace delayq;
using namespace std::chrono_literals;

// Worker in plain mode (WorkerOptions::plainKey): pops members of a sorted set, no leases.
class TestPlainWorker : public RedisSuite
{
    Q_OBJECT

private slots:
    void sleepsUntilTheNextDueMember_data()
    {
        QTest::addColumn<bool>("seconds");
        QTest::newRow("scores in ms") << false;
        QTest::newRow("scores in s") << true;
    }
    void sleepsUntilTheNextDueMember()
    {
        QFETCH(bool, seconds);
        const qint64 dueMs = (QDateTime::currentMSecsSinceEpoch() / 1000 + 2) * 1000;
        m_server.cli({"ZADD", "q", QString::number(seconds ? dueMs / 1000 : dueMs), "m1"});
        m_server.cli({"CONFIG", "RESETSTAT"});

        WorkerOptions o = options();
        o.pollInterval = 60s; // only the reported due time can wake it in time
        o.plainUnit =
            seconds ? PlainQueue::ScoreUnit::Seconds : PlainQueue::ScoreUnit::Milliseconds;
        EventLog log;
        Worker worker(
            o, [](const ClaimedTask&) { return HandlerResult::ack(); },
            [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QTRY_COMPARE_WITH_TIMEOUT(log.tasks().size(), size_t(1), 20000);
        const WorkerEvent e = log.tasks().front();
        QCOMPARE(e.id, std::string("m1"));
        QCOMPARE(e.outcome, TaskOutcome::Acked);
        QCOMPARE(e.due, dueMs);
        // Not before it was due. The pop itself compares with the server's TIME; `started` is
        // the local clock plus the offset measured over one round trip, so it may read a few
        // ms early on a loaded machine (it read due - 1 once in CI).
        QVERIFY2(e.started >= dueMs - 50, qPrintable(QString::number(e.started - dueMs)));
        worker.stop();
        // Never spinning: a handful of pops, not one per millisecond of waiting.
        const QByteArray stats = m_server.cli({"INFO", "commandstats"});
        int calls = 0;
        for (const QByteArray& line : stats.split('\n'))
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:"))
                calls += line.mid(line.indexOf("calls=") + 6).split(',').first().toInt();
        QVERIFY2(calls > 0 && calls < 10, qPrintable(QString::number(calls)));
    }

    void failedMembersAreDroppedUnlessRetried_data()
    {
        QTest::addColumn<long long>("retryMs");
        QTest::newRow("no retry: dropped") << -1LL;
        QTest::newRow("retry in 1h: added back") << 3600000LL;
    }
    void failedMembersAreDroppedUnlessRetried()
    {
        QFETCH(long long, retryMs);
        m_server.cli({"ZADD", "q", "1", "m1"}); // long overdue
        WorkerOptions o = options();
        o.plainRetryMs = retryMs;
        o.maxTasks = 1;
        EventLog log;
        Worker worker(
            o, [](const ClaimedTask&) { return HandlerResult::fail("broken"); },
            [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QVERIFY(worker.wait(20s));
        worker.stop();
        const auto tasks = log.tasks();
        QCOMPARE(tasks.size(), size_t(1));
        const auto c = worker.counters();
        QCOMPARE(c.failed, 1);
        if (retryMs < 0) {
            QCOMPARE(tasks[0].outcome, TaskOutcome::Dropped);
            QCOMPARE(c.dead, 1);
            QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("0"));
        } else {
            QCOMPARE(tasks[0].outcome, TaskOutcome::Retried);
            QCOMPARE(c.retried, 1);
            const qint64 score = m_server.cli({"ZSCORE", "q", "m1"}).trimmed().toLongLong();
            QCOMPARE(score, tasks[0].retryAt);
            QVERIFY(score >= tasks[0].started + retryMs);
        }
    }

    void stopPutsUnrunMembersBack()
    {
        QStringList zadd{"ZADD", "q"};
        for (int i = 1; i <= 5; ++i)
            zadd << QString::number(i) << QStringLiteral("m%1").arg(i);
        m_server.cli(zadd);
        WorkerOptions o = options();
        o.batch = 10;
        o.stopTimeout = 0ms;
        EventLog log;
        std::atomic<bool> release{false};
        Worker worker(
            o,
            [&release](const ClaimedTask&) {
                while (!release)
                    std::this_thread::sleep_for(5ms);
                return HandlerResult::ack();
            },
            [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QTRY_COMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("0")); // all popped
        worker.requestStop();
        release = true;
        worker.stop();
        const auto tasks = log.tasks();
        QCOMPARE(tasks.size(), size_t(5));
        const auto count = [&](TaskOutcome outcome) {
            return std::count_if(tasks.begin(), tasks.end(),
                                 [&](const WorkerEvent& e) { return e.outcome == outcome; });
        };
        QCOMPARE(count(TaskOutcome::Acked), 1); // the one in hand is finished
        QCOMPARE(count(TaskOutcome::Released), 4);
        // Back at their old due times, first in line for the next consumer.
        QCOMPARE(m_server.cli({"ZRANGE", "q", "0", "-1", "WITHSCORES"}).trimmed(),
                 QByteArray("m2\n2\nm3\n3\nm4\n4\nm5\n5"));
    }

    void ridesOutARestart()
    {
        WorkerOptions o = options();
        o.pollInterval = 100ms;
        o.maxReconnectDelay = 200ms;
        EventLog log;
        Worker worker(
            o, [](const ClaimedTask&) { return HandlerResult::ack(); },
            [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        m_server.cli({"ZADD", "q", "1", "before"});
        QTRY_COMPARE(log.tasks().size(), size_t(1));
        m_server.stop();
        QTRY_COMPARE(log.count(WorkerEvent::Kind::ConnectionLost), 1);
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_server.cli({"ZADD", "q", "1", "after"});
        QTRY_COMPARE_WITH_TIMEOUT(log.tasks().size(), size_t(2), 20000);
        QCOMPARE(log.tasks()[1].id, std::string("after"));
        QCOMPARE(log.count(WorkerEvent::Kind::ConnectionRestored), 1);
        worker.stop();
    }

private:
    WorkerOptions options() const
    {
        WorkerOptions o;
        o.connection = ConnectionOptions::fromUrl(m_server.unixUrl());
        o.plainKey = std::string(1, 'q'); // not = "q": GCC 12 warns falsely (-Wrestrict)
        o.plainUnit = PlainQueue::ScoreUnit::Milliseconds;
        return o;
    }
};

QTEST_GUILESS_MAIN(TestPlainWorker)
#include "tst_plainworker.moc"
