#include "brokerclient.h"
#include "clisuite.h"
#include "eventlog.h"
#include "rabbitnode.h"
#include <delayq/connection.h>
#include <delayq/delivery.h>
#include <delayq/plainfailures.h>
#include <delayq/worker.h>
#include <delayq/workerregistry.h>

#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>

#include <csignal>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

using namespace delayq;
using namespace std::chrono_literals;

namespace {

// The handler side of a delivery target: records every task it is handed and answers as the
// test says. What a broker or an endpoint would do is not the point here; the worker's
// bookkeeping in the plain key is.
class Answers
{
public:
    using Answer = std::function<HandlerResult(const ClaimedTask&)>;
    explicit Answers(Answer answer) : m_answer(std::move(answer)) {}

    std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks)
    {
        {
            std::lock_guard lock(m_mutex);
            m_got.insert(m_got.end(), tasks.begin(), tasks.end());
        }
        std::vector<HandlerResult> results;
        for (const auto& t : tasks)
            results.push_back(m_answer(t));
        return results;
    }
    std::vector<ClaimedTask> got() const
    {
        std::lock_guard lock(m_mutex);
        return m_got;
    }
    size_t count() const { return got().size(); }

private:
    Answer m_answer;
    mutable std::mutex m_mutex;
    std::vector<ClaimedTask> m_got;
};

class TestDelivery final : public Delivery
{
public:
    explicit TestDelivery(Answers& answers) : m_answers(answers) {}
    std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks) override
    {
        return m_answers.deliver(tasks);
    }

private:
    Answers& m_answers;
};

DeliveryFactory factoryFor(Answers& answers)
{
    return [&answers](int) { return std::make_unique<TestDelivery>(answers); };
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

// A plain sorted set delivered at least once (WorkerOptions::plainKey with a Delivery): due
// members are leased in place (plain_lease.lua) and settled once the target answered
// (plain_settle.lua). Against a real redis-server, with a Delivery that answers as told; then
// the delayq binary forwarding to a private RabbitMQ node, SIGKILLed mid-stream.
class TestPlainDelivery : public CliSuite
{
    Q_OBJECT

private slots:
    void confirmedMembersAreGone_data()
    {
        QTest::addColumn<bool>("seconds");
        QTest::newRow("scores in ms") << false;
        QTest::newRow("scores in s") << true;
    }
    void confirmedMembersAreGone()
    {
        QFETCH(bool, seconds);
        QStringList zadd{"ZADD", "q"};
        for (int i = 0; i < 300; ++i)
            zadd << QString::number(seconds ? 1000 + i : 1000000 + i)
                 << QStringLiteral("m%1").arg(i);
        const qint64 later = nowMs() + 3600000;
        zadd << QString::number(seconds ? later / 1000 : later) << "later";
        m_server.cli(zadd);

        WorkerOptions o = options(seconds);
        o.batch = 20;
        Answers answers([](const ClaimedTask&) { return HandlerResult::ack(); });
        EventLog log;
        Worker worker(o, factoryFor(answers), [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QTRY_COMPARE_WITH_TIMEOUT(log.tasks().size(), size_t(300), 20000);
        worker.stop();
        // Only the member not due yet is left, at its own score.
        QCOMPARE(m_server.cli({"ZRANGE", "q", "0", "-1"}).trimmed(), QByteArray("later"));
        QCOMPARE(answers.count(), size_t(300));
        QCOMPARE(worker.counters().acked, 300);
        for (const auto& e : log.tasks())
            QCOMPARE(e.outcome, TaskOutcome::Acked);
        // Each member was handed over with its old due time, not its lease's end.
        QCOMPARE(answers.got().front().due, 1000000LL); // 1000 s or 1000000 ms
    }

    void failedMembersComeBack_data()
    {
        QTest::addColumn<long long>("retryIn");     // WorkerOptions::plainRetryMs
        QTest::addColumn<long long>("targetDelay"); // the target's own (HandlerResult)
        QTest::addColumn<bool>("dead");
        QTest::addColumn<long long>("expectedDelay"); // -1: removed
        QTest::newRow("no retry given: one lease later") << -1LL << -1LL << false << 60000LL;
        QTest::newRow("retry-in") << 3600000LL << -1LL << false << 3600000LL;
        QTest::newRow("the target's retry delay wins")
            << 3600000LL << 7200000LL << false << 7200000LL;
        QTest::newRow("dead: removed") << 3600000LL << -1LL << true << -1LL;
    }
    void failedMembersComeBack()
    {
        QFETCH(long long, retryIn);
        QFETCH(long long, targetDelay);
        QFETCH(bool, dead);
        QFETCH(long long, expectedDelay);
        m_server.cli({"ZADD", "q", "1000", "m1"});
        WorkerOptions o = options(false);
        o.leaseMs = 60000;
        o.plainRetryMs = retryIn;
        o.maxTasks = 1;
        Answers answers([&](const ClaimedTask&) {
            return dead ? HandlerResult::dead("gone") : HandlerResult::fail("refused", targetDelay);
        });
        EventLog log;
        Worker worker(o, factoryFor(answers), [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QVERIFY(worker.wait(20s));
        worker.stop();
        const auto tasks = log.tasks();
        QCOMPARE(tasks.size(), size_t(1));
        const WorkerEvent e = tasks[0];
        QCOMPARE(worker.counters().failed, 1);
        if (expectedDelay < 0) {
            QCOMPARE(e.outcome, TaskOutcome::Dropped);
            QCOMPARE(m_server.cli({"EXISTS", "q"}).trimmed(), QByteArray("0"));
            return;
        }
        QCOMPARE(e.outcome, TaskOutcome::Retried);
        const qint64 score = m_server.cli({"ZSCORE", "q", "m1"}).trimmed().toLongLong();
        QCOMPARE(score, e.retryAt);
        QVERIFY2(score >= e.started + expectedDelay - 50 && score <= e.finished + expectedDelay,
                 qPrintable(QString::number(score - e.finished)));
    }

    void unconfirmedMembersComeBackAfterTheLease_data()
    {
        QTest::addColumn<bool>("abandon");
        QTest::addColumn<bool>("seconds");
        QTest::newRow("never answered (abandoned), ms") << true << false;
        QTest::newRow("never answered (abandoned), s") << true << true;
        QTest::newRow("worker stopped at once while the target waits") << false << false;
    }
    void unconfirmedMembersComeBackAfterTheLease()
    {
        QFETCH(bool, abandon);
        QFETCH(bool, seconds);
        m_server.cli({"ZADD", "q", "1", "m1", "2", "m2"});
        WorkerOptions o = options(seconds);
        o.leaseMs = 1500;
        std::atomic<const Worker*> self{nullptr};
        Answers answers([&](const ClaimedTask&) {
            if (abandon)
                return HandlerResult::abandon();
            // As a real target does: wait for the answer until the worker gives up.
            while (!(self.load() && self.load()->abortRequested()))
                std::this_thread::sleep_for(5ms);
            return HandlerResult::fail("the worker stopped");
        });
        const qint64 before = nowMs();
        {
            Worker worker(o, factoryFor(answers));
            self = &worker;
            QVERIFY(worker.start());
            QTRY_COMPARE(answers.count(), size_t(2));
            worker.stopNow();
        }
        // Still in the key, due when the lease runs out (in the key's own unit).
        const QList<QByteArray> held =
            m_server.cli({"ZRANGE", "q", "0", "-1", "WITHSCORES"}).trimmed().split('\n');
        QCOMPARE(held.size(), 4);
        QCOMPARE(held[0] + held[2], QByteArray("m1m2"));
        for (const QByteArray& score : {held[1], held[3]}) {
            const qint64 ms = seconds ? qint64(score.toDouble() * 1000 + 0.5) : score.toLongLong();
            QVERIFY2(ms >= before + o.leaseMs - 100 && ms <= nowMs() + o.leaseMs + 100,
                     score.constData());
        }
        // A second worker finds nothing due until then, and both members after it.
        Answers second([](const ClaimedTask&) { return HandlerResult::ack(); });
        WorkerOptions o2 = options(seconds);
        o2.pollInterval = 50ms;
        Worker worker(o2, factoryFor(second));
        QVERIFY(worker.start());
        QTRY_COMPARE_WITH_TIMEOUT(second.count(), size_t(2), 10000);
        const qint64 arrived = nowMs();
        QVERIFY2(arrived >= before + o.leaseMs - 100,
                 qPrintable(QString::number(arrived - before)));
        QTRY_COMPARE(m_server.cli({"EXISTS", "q"}).trimmed(), QByteArray("0"));
        worker.stop();
    }

    void aMemberRescheduledDuringItsLeaseIsLeftAlone_data()
    {
        QTest::addColumn<bool>("confirm");
        QTest::newRow("confirmed: not removed") << true;
        QTest::newRow("failed: not moved to its retry") << false;
    }
    void aMemberRescheduledDuringItsLeaseIsLeftAlone()
    {
        QFETCH(bool, confirm);
        m_server.cli({"ZADD", "q", "1", "m1", "2", "m2"});
        const QString newScore = QString::number(nowMs() + 7200000);
        WorkerOptions o = options(false);
        o.plainRetryMs = 1000;
        o.maxTasks = 2;
        Connection producer(ConnectionOptions::fromUrl(m_server.unixUrl()));
        Answers answers([&](const ClaimedTask& t) {
            // The producer moves m1 while the target still has it (on the worker's thread:
            // its own connection, not QProcess).
            if (t.id == "m1")
                producer.command({"ZADD", "q", newScore.toStdString(), "m1"});
            return confirm ? HandlerResult::ack() : HandlerResult::fail("refused");
        });
        EventLog log;
        Worker worker(o, factoryFor(answers), [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QVERIFY(worker.wait(20s));
        worker.stop();
        QCOMPARE(m_server.cli({"ZSCORE", "q", "m1"}).trimmed(), newScore.toLatin1());
        std::map<std::string, TaskOutcome> outcomes;
        for (const auto& e : log.tasks())
            outcomes[e.id] = e.outcome;
        QCOMPARE(outcomes["m1"], TaskOutcome::LeaseLost);
        QCOMPARE(outcomes["m2"], confirm ? TaskOutcome::Acked : TaskOutcome::Retried);
        QCOMPARE(m_server.cli({"ZSCORE", "q", "m2"}).trimmed().isEmpty(), confirm);
        QCOMPARE(worker.counters().leaseLost, 1);
    }

    // A worker given no unit on an empty key takes nothing until a member says the unit: a
    // time in s 30 minutes ahead, read as ms, would be decades overdue and delivered at once.
    void anEmptyKeyWaitsForAScoreToTellItsUnit()
    {
        WorkerOptions o = options(false);
        o.plainUnit.reset();
        Answers answers([](const ClaimedTask&) { return HandlerResult::ack(); });
        EventLog log;
        Worker worker(o, factoryFor(answers), [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        // Said as an error (and tried again) while the key is empty.
        QTRY_VERIFY(log.count(WorkerEvent::Kind::Error) > 0);
        for (const auto& e : log.all())
            if (e.kind == WorkerEvent::Kind::Error)
                QVERIFY2(e.error.find("--score-unit") != std::string::npos, e.error.c_str());
        const qint64 nowS = nowMs() / 1000;
        const QByteArray later = QByteArray::number(nowS + 1800);
        m_server.cli({"ZADD", "q", QString::fromLatin1(later), "cancel-unpaid-order-42",
                      QString::number(nowS - 1), "due-now"});
        QTRY_COMPARE_WITH_TIMEOUT(answers.count(), size_t(1), 20000);
        QCOMPARE(answers.got().front().id, std::string("due-now"));
        QTest::qWait(300); // more polls: the later one stays
        worker.stop();
        QCOMPARE(answers.count(), size_t(1));
        QCOMPARE(m_server.cli({"ZSCORE", "q", "cancel-unpaid-order-42"}).trimmed(), later);
    }

    // A member the target keeps refusing counts its attempts in delayq's failures hash (with
    // the last error), and after maxAttempts it is parked: out of the plain key, into the
    // parked set, where an operator sees it. Never around forever.
    void aMemberThatKeepsFailingIsParked()
    {
        m_server.cli({"ZADD", "q", "1000", "unroutable", "1001", "fine"});
        WorkerOptions o = options(false);
        o.plainRetryMs = 0; // due again at once: three attempts without waiting
        o.plainMaxAttempts = 3;
        Answers answers([](const ClaimedTask& t) {
            return t.id == "fine" ? HandlerResult::ack()
                                  : HandlerResult::fail("NO_ROUTE: no queue bound to order.x");
        });
        EventLog log;
        Worker worker(o, factoryFor(answers), [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QTRY_COMPARE_WITH_TIMEOUT(log.tasks().size(), size_t(4), 20000);
        QTest::qWait(200); // no fifth delivery
        worker.stop();
        QCOMPARE(answers.count(), size_t(4));
        std::vector<int> attempts;
        std::vector<TaskOutcome> outcomes;
        for (const auto& e : log.tasks())
            if (e.id == "unroutable") {
                attempts.push_back(e.attempt);
                outcomes.push_back(e.outcome);
            }
        QCOMPARE(attempts, (std::vector<int>{1, 2, 3}));
        QCOMPARE(outcomes, (std::vector<TaskOutcome>{TaskOutcome::Retried, TaskOutcome::Retried,
                                                     TaskOutcome::Dead}));
        QCOMPARE(worker.counters().dead, 1);
        QCOMPARE(m_server.cli({"EXISTS", "q"}).trimmed(), QByteArray("0"));
        QCOMPARE(m_server.cli({"ZRANGE", "dq:plain:{q}:parked", "0", "-1"}).trimmed(),
                 QByteArray("unroutable"));
        const QByteArray record =
            m_server.cli({"HGET", "dq:plain:{q}:failures", "unroutable"}).trimmed();
        QVERIFY2(record.startsWith("3|") && record.endsWith("|NO_ROUTE: no queue bound to order.x"),
                 record.constData());
        // The member confirmed at once has no record.
        QCOMPARE(m_server.cli({"HEXISTS", "dq:plain:{q}:failures", "fine"}).trimmed(),
                 QByteArray("0"));

        // The library's view of it, as `delayq ls --plain KEY --parked` shows it.
        Connection c(ConnectionOptions::fromUrl(m_server.unixUrl()));
        PlainFailures failures(c, "dq", "q");
        const auto parked = failures.parkedPage(0, 10);
        QCOMPARE(parked.size(), size_t(1));
        QCOMPARE(parked[0].attempts, 3LL);
        QVERIFY(parked[0].parkedMs.has_value());
        // A requeue puts it back due now with its count reset; a worker then delivers it.
        PlainQueue queue(c, "q", PlainQueue::ScoreUnit::Milliseconds);
        QCOMPARE(failures.requeue(queue, {"unroutable", "never-parked"}, c.serverNowMs()),
                 (std::vector<bool>{true, false}));
        QCOMPARE(failures.parkedCount(), 0LL);
        QCOMPARE(failures.read({"unroutable"}).front().attempts, 0LL);
        QCOMPARE(m_server.cli({"ZCARD", "q"}).trimmed(), QByteArray("1"));
    }

    // Each failure is recorded before the settle, and a member confirmed later forgets its
    // record; the target sees the attempt number.
    void aMemberDeliveredAfterFailuresForgetsThem()
    {
        m_server.cli({"ZADD", "q", "1000", "m1"});
        WorkerOptions o = options(false);
        o.plainRetryMs = 0;
        std::atomic<int> calls{0};
        Answers answers([&](const ClaimedTask&) {
            return ++calls < 3 ? HandlerResult::fail("busy") : HandlerResult::ack();
        });
        Worker worker(o, factoryFor(answers));
        QVERIFY(worker.start());
        QTRY_COMPARE_WITH_TIMEOUT(m_server.cli({"EXISTS", "q"}).trimmed(), QByteArray("0"), 20000);
        worker.stop();
        const auto got = answers.got();
        QCOMPARE(got.size(), size_t(3));
        QCOMPARE(got[2].attempts, 3);
        QCOMPARE(got[2].maxAttempts, 20); // the default
        QTRY_COMPARE(m_server.cli({"EXISTS", "dq:plain:{q}:failures"}).trimmed(), QByteArray("0"));
    }

    // A worker that died between a park's two steps (the copy is in the parked set, the member
    // still leased in the plain key): the next lease finishes the park, delivering nothing.
    void aParkInterruptedByACrashIsFinished()
    {
        m_server.cli({"ZADD", "q", "1000", "m1", "1001", "m2"});
        m_server.cli({"ZADD", "dq:plain:{q}:parked", "1700000000000", "m1"});
        m_server.cli({"HSET", "dq:plain:{q}:failures", "m1", "20|1700000000000|refused"});
        Answers answers([](const ClaimedTask&) { return HandlerResult::ack(); });
        WorkerOptions o = options(false);
        o.untilEmpty = true;
        Worker worker(o, factoryFor(answers));
        QVERIFY(worker.start());
        QVERIFY(worker.wait(20s));
        QCOMPARE(answers.count(), size_t(1));
        QCOMPARE(answers.got().front().id, std::string("m2"));
        QCOMPARE(m_server.cli({"EXISTS", "q"}).trimmed(), QByteArray("0"));
        QCOMPARE(m_server.cli({"ZRANGE", "dq:plain:{q}:parked", "0", "-1"}).trimmed(),
                 QByteArray("m1"));
    }

    // A park that loses its race (the producer moved the member during the delivery) removes
    // its copy: the member stays where the producer put it, and is not parked.
    void aParkThatLostItsRaceRemovesItsCopy()
    {
        m_server.cli({"ZADD", "q", "1000", "m1"});
        const QString newScore = QString::number(nowMs() + 7200000);
        WorkerOptions o = options(false);
        o.plainMaxAttempts = 1;
        o.maxTasks = 1;
        Connection producer(ConnectionOptions::fromUrl(m_server.unixUrl()));
        Answers answers([&](const ClaimedTask&) {
            producer.command({"ZADD", "q", newScore.toStdString(), "m1"});
            return HandlerResult::fail("refused");
        });
        EventLog log;
        Worker worker(o, factoryFor(answers), [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QVERIFY(worker.wait(20s));
        worker.stop();
        QCOMPARE(log.tasks().size(), size_t(1));
        QCOMPARE(log.tasks().front().outcome, TaskOutcome::LeaseLost);
        QCOMPARE(m_server.cli({"ZSCORE", "q", "m1"}).trimmed(), newScore.toLatin1());
        QCOMPARE(m_server.cli({"EXISTS", "dq:plain:{q}:parked"}).trimmed(), QByteArray("0"));
    }

    // A forwarder whose ACL reaches the plain key only (not delayq's keys beside it) still
    // delivers: the refused bookkeeping is reported, and a member out of attempts is retried,
    // never removed without its parked copy.
    void anAclWithoutDelayqsKeysStillDelivers()
    {
        m_server.cli({"ACL", "SETUSER", "fw", "on", ">fw-secret", "~q", "+@all"});
        m_server.cli({"ZADD", "q", "1000", "ok", "1001", "refused"});
        WorkerOptions o = options(false);
        o.connection.user = "fw";
        o.connection.password = "fw-secret";
        o.plainMaxAttempts = 1;
        o.plainRetryMs = 3600000;
        o.maxTasks = 2;
        Answers answers([](const ClaimedTask& t) {
            return t.id == "ok" ? HandlerResult::ack() : HandlerResult::fail("refused");
        });
        EventLog log;
        Worker worker(o, factoryFor(answers), [&log](const WorkerEvent& e) { log.add(e); });
        QVERIFY(worker.start());
        QVERIFY(worker.wait(20s));
        worker.stop();
        m_server.cli({"ACL", "DELUSER", "fw"});
        std::map<std::string, TaskOutcome> outcomes;
        for (const auto& e : log.tasks())
            outcomes[e.id] = e.outcome;
        QCOMPARE(outcomes["ok"], TaskOutcome::Acked);
        QCOMPARE(outcomes["refused"], TaskOutcome::Retried);
        QVERIFY(log.count(WorkerEvent::Kind::Error) > 0);
        QCOMPARE(m_server.cli({"ZRANGE", "q", "0", "-1"}).trimmed(), QByteArray("refused"));
        QCOMPARE(m_server.cli({"EXISTS", "dq:plain:{q}:parked"}).trimmed(), QByteArray("0"));
    }

    // A plain key's consumers beat into a registry of its own (PlainKeys::workers()), listed
    // in PlainKeys::plainKeys(); a forwarder says "lease:" (at least once).
    void forwardersAreListedInTheirKeysRegistry()
    {
        m_server.cli({"ZADD", "q", QString::number(nowMs() + 3600000), "later"});
        Answers answers([](const ClaimedTask&) { return HandlerResult::ack(); });
        WorkerOptions o = options(false);
        o.name = "forwarder-1";
        o.handlerKind = "amqp";
        o.heartbeatInterval = 200ms;
        Worker worker(o, factoryFor(answers));
        QVERIFY(worker.start());
        Connection c(ConnectionOptions::fromUrl(m_server.unixUrl()));
        WorkerRegistry registry(c, "dq");
        QTRY_COMPARE(registry.readPlain({"q"}).size(), size_t(1));
        const WorkerInfo w = registry.readPlain({"q"}).front();
        QCOMPARE(w.name, std::string("forwarder-1"));
        QVERIFY(w.live);
        QVERIFY(w.plain);
        QCOMPARE(w.handler, std::string("lease:amqp"));
        QVERIFY(w.atLeastOnce());
        QCOMPARE(WorkerRegistry::plainKeysWithWorkers(c, "dq"), std::vector<std::string>{"q"});
        worker.stop();
        // Left at a clean stop, and the key off the list with its last worker.
        QCOMPARE(registry.readPlain({"q"}).size(), size_t(0));
        QCOMPARE(WorkerRegistry::plainKeysWithWorkers(c, "dq"), std::vector<std::string>{});
    }

    void twoWorkersNeverHoldOneMemberAtOnce()
    {
        QStringList zadd{"ZADD", "q"};
        for (int i = 0; i < 400; ++i)
            zadd << QString::number(1000 + i) << QStringLiteral("m%1").arg(i);
        m_server.cli(zadd);
        Answers answers([](const ClaimedTask&) {
            std::this_thread::sleep_for(1ms);
            return HandlerResult::ack();
        });
        WorkerOptions o = options(false);
        o.concurrency = 4;
        o.batch = 5;
        o.maxBatch = 5;
        o.untilEmpty = true;
        Worker a(o, factoryFor(answers));
        Worker b(o, factoryFor(answers));
        QVERIFY(a.start());
        QVERIFY(b.start());
        QVERIFY(a.wait(30s));
        QVERIFY(b.wait(30s));
        std::map<std::string, int> seen;
        for (const auto& t : answers.got())
            ++seen[t.id];
        QCOMPARE(seen.size(), size_t(400));
        for (const auto& [id, n] : seen)
            QVERIFY2(n == 1, id.c_str());
        QCOMPARE(m_server.cli({"EXISTS", "q"}).trimmed(), QByteArray("0"));
    }

    // Two ways to say where members go at once are refused before anything connects, and
    // the key is left alone.
    void refusesTwoDestinations_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString target = "amqp://guest:guest@127.0.0.1:1/?exchange=e";
        QTest::newRow("--forward-to a target and --handler")
            << QStringList{"--forward-to", target, "--handler", "ack"}
            << "--forward-to with a delivery target and --handler both say where members go";
        QTest::newRow("--forward-to a list and a --handler target")
            << QStringList{"--forward-to", "broker", "--handler", target}
            << "--forward-to LIST pops members onto a list, a delivery target takes them itself";
    }
    void refusesTwoDestinations()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        m_server.cli({"ZADD", "q", "1", "m1"});
        expectUsageError(delayq(QStringList{"work", "--plain", "q", "--until-empty"} + args),
                         message);
        QCOMPARE(m_server.cli({"ZSCORE", "q", "m1"}).trimmed(), QByteArray("1"));
    }

    // delayq work --plain KEY --forward-to amqp://… killed again and again: every member
    // reaches the broker at least once (counted by message_id) and none is left in the key.
    void survivesWorkerKills()
    {
        const QString missing = RabbitNode::missingTools();
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
        QElapsedTimer clock;
        clock.start();
        RabbitNode node; // ~11 s to start: only this test needs one
        QVERIFY2(node.start(), qPrintable(node.errorString()));
        const qint64 started = clock.elapsed();
        {
            BrokerClient broker(node.port());
            QVERIFY2(broker.isOpen(), qPrintable(broker.lastError()));
            QVERIFY2(broker.declareExchange("orders"), qPrintable(broker.lastError()));
            QVERIFY2(broker.declareBoundQueue("inbox", "orders", "k"),
                     qPrintable(broker.lastError()));
        }
        const int n = 6000;
        QStringList zadd{"ZADD", "orders:delay"};
        QStringList members;
        for (int i = 0; i < n; ++i) {
            members << QStringLiteral("{\"id\":%1,\"msg\":\"order %1\"}").arg(i);
            zadd << QString::number(1000000 + i) << members.back();
        }
        m_server.cli(zadd);
        const QStringList work{"work",
                               "--plain",
                               "orders:delay",
                               "--forward-to",
                               QString::fromStdString(node.url("exchange=orders&routing_key=k")),
                               "--lease",
                               "1s",
                               "--batch",
                               "20",
                               "--max-batch",
                               "20",
                               "--until-empty",
                               "--quiet"};
        // Each worker is killed once the broker holds another n/10 messages: mid-stream
        // whatever the machine's speed, with publishes in flight and members in hand.
        BrokerClient counter(node.port());
        int kills = 0;
        for (int i = 1; i <= 8; ++i) {
            auto worker = m_cli.start(work);
            QVERIFY(worker->waitForStarted());
            QDeadlineTimer patience(30000);
            while (worker->state() == QProcess::Running && !patience.hasExpired() &&
                   counter.messageCount("inbox") < i * n / 10)
                QTest::qWait(10);
            QTest::qWait(QRandomGenerator::global()->bounded(30));
            if (worker->state() != QProcess::Running)
                break; // done before its kill
            ::kill(static_cast<pid_t>(worker->processId()), SIGKILL);
            worker->waitForFinished();
            ++kills;
        }
        const qint64 leftAfterKills =
            m_server.cli({"ZCARD", "orders:delay"}).trimmed().toLongLong();
        const qint64 killed = clock.elapsed();
        auto last = m_cli.start(work);
        QVERIFY(CliRunner::finished(*last));
        const qint64 drained = clock.elapsed();
        QVERIFY(last->readAllStandardError().contains("at least once"));
        QCOMPARE(m_server.cli({"EXISTS", "orders:delay"}).trimmed(), QByteArray("0"));
        BrokerClient broker(node.port());
        QMap<QString, int> seen;
        for (const auto& m : broker.takeAll("inbox"))
            ++seen[m.messageId];
        int duplicates = 0;
        for (const QString& member : members) {
            QVERIFY2(seen.value(member) >= 1, qPrintable(member + " never arrived"));
            duplicates += seen.value(member) - 1;
        }
        QCOMPARE(seen.size(), n); // by message_id: each member, nothing else
        qInfo("%d members, %d SIGKILLs of the worker (%lld members left after them), %d "
              "duplicate deliveries; node up in %lld ms, kills %lld ms, last worker %lld ms",
              n, kills, leftAfterKills, duplicates, started, killed - started, drained - killed);
        QVERIFY2(kills > 0 && leftAfterKills > 0,
                 "the worker finished before the kills: nothing was tested");
        node.stop();
    }

private:
    WorkerOptions options(bool seconds) const
    {
        WorkerOptions o;
        o.connection = ConnectionOptions::fromUrl(m_server.unixUrl());
        o.plainKey = std::string(1, 'q'); // not = "q": GCC 12 warns falsely (-Wrestrict)
        o.plainUnit =
            seconds ? PlainQueue::ScoreUnit::Seconds : PlainQueue::ScoreUnit::Milliseconds;
        o.pollInterval = 100ms;
        return o;
    }
};

QTEST_GUILESS_MAIN(TestPlainDelivery)
#include "tst_plaindelivery.moc"
