#include "queuesuite.h"
#include <delayq/actor.h>
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/taskexport.h>
#include <delayq/taskimport.h>
#include <taskline.h>

#include <QTest>

using namespace delayq;

namespace {

std::vector<std::string> kindsOf(const std::vector<TaskEvent>& events)
{
    std::vector<std::string> kinds;
    for (const auto& e : events)
        kinds.push_back(e.kind);
    return kinds;
}

} // namespace

// Task history (docs/design.md, "Task history"): the events of each task, kept by the scripts
// when the queue's history setting is on, bounded per task, per queue and once finished.
class TestTaskHistory : public QueueSuite
{
    Q_OBJECT

protected:
    // m_operator: the same queue through a connection with an actor, as the CLI and app use.
    void initTest() override
    {
        QueueSuite::initTest();
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.actor = Actor::ofThisProcess("delayq-test", "9.9.9");
        m_operatorConn = std::make_unique<Connection>(options);
        m_operator = std::make_unique<Queue>(*m_operatorConn, "orders");
    }
    void cleanupTest() override
    {
        m_operator.reset();
        m_operatorConn.reset();
        QueueSuite::cleanupTest();
    }

    QByteArray historyKeys() const { return m_server.cli({"KEYS", "*history*"}).trimmed(); }

    // Claims the one due task and nacks it with `error`, retry at once.
    void failOnce(const std::string& id, const std::string& error)
    {
        const auto claimed = m_queue->claim(1, 60'000, "w1");
        QCOMPARE(claimed.tasks.size(), size_t(1));
        QCOMPARE(claimed.tasks[0].id, id);
        QVERIFY(!m_queue->nack(id, claimed.tasks[0].token, error, 0).dead);
    }

    std::unique_ptr<Connection> m_operatorConn;
    std::unique_ptr<Queue> m_operator;

private slots:
    void offByDefaultRecordsNothing()
    {
        QCOMPARE(m_queue->config().history, 0);
        m_operator->push(request("p", 0, "t1"));
        const auto claimed = m_queue->claim(10, 60'000, "w1");
        QCOMPARE(claimed.tasks.size(), size_t(1));
        m_queue->ack(claimed.tasks[0].id, claimed.tasks[0].token);
        QCOMPARE(historyKeys(), QByteArray());
        QVERIFY(m_queue->taskHistory("t1").events.empty());
    }

    // The issue's case: failed twice, rescheduled by hand, then acked: every event, in order,
    // with who did it, and kept once the task is gone.
    void aTaskLifeInOrder()
    {
        m_queue->setConfig("history", "20");
        m_operator->push(request("p", 0, "t1"));
        failOnce("t1", "boom 1");
        failOnce("t1", "boom 2");
        QCOMPARE(m_queue->taskHistory("t1").finished, false);
        // Moved an hour on and back to now by hand: the task is pending again, due now.
        m_operator->reschedule({"t1"}, std::nullopt, 3'600'000);
        m_operator->reschedule({"t1"}, std::nullopt, 0);
        const auto claimed = m_queue->claim(1, 60'000, "w2");
        QCOMPARE(claimed.tasks.size(), size_t(1));
        m_queue->ack("t1", claimed.tasks[0].token);
        QVERIFY(!m_queue->find("t1"));

        const TaskHistory h = m_queue->taskHistory("t1");
        QVERIFY(h.finished);
        QCOMPARE(qt(kindsOf(h.events)),
                 QStringList({"pushed", "claimed", "failed", "claimed", "failed", "rescheduled",
                              "rescheduled", "claimed", "acked"}));
        const std::string who = m_operatorConn->options().actor.osUser + "@" +
                                m_operatorConn->options().actor.host + " (delayq-test)";
        QCOMPARE(h.events[0].who, who);
        QCOMPARE(h.events[1].who, std::string("w1"));
        QCOMPARE(h.events[1].text, std::string("attempt 1"));
        QCOMPARE(h.events[2].text, std::string("boom 1"));
        QCOMPARE(h.events[3].text, std::string("attempt 2"));
        QCOMPARE(h.events[4].text, std::string("boom 2"));
        QCOMPARE(h.events[5].who, who);
        QVERIFY(*h.events[5].due >= h.events[5].at + 3'600'000);
        QCOMPARE(h.events[7].who, std::string("w2"));
        QCOMPARE(h.events[7].text, std::string("attempt 3"));
        QCOMPARE(h.events[8].who, std::string("w2"));
        for (size_t i = 1; i < h.events.size(); ++i)
            QVERIFY(h.events[i].at >= h.events[i - 1].at);
        // Nothing of it stays among the tasks in the queue.
        QCOMPARE(m_server.cli({"HLEN", "dq:{orders}:history"}).trimmed(), QByteArray("0"));
    }

    // A task retried 1,000 times keeps its last N events, and they are the last ones.
    void eventsPerTaskAreBounded()
    {
        m_queue->setConfig({{"history", "5"}, {"max_attempts", "1000000"}});
        m_queue->push(request("p", 0, "t1"));
        for (int i = 1; i <= 1000; ++i)
            failOnce("t1", "fail " + std::to_string(i));
        const TaskHistory h = m_queue->taskHistory("t1");
        QCOMPARE(qt(kindsOf(h.events)),
                 QStringList({"failed", "claimed", "failed", "claimed", "failed"}));
        QCOMPARE(h.events[4].text, std::string("fail 1000"));
        QCOMPARE(h.events[3].text, std::string("attempt 1000"));
        QCOMPARE(h.events[0].text, std::string("fail 998"));
    }

    // A lease that ran out, a death, a requeue and a forced cancel, each named.
    void expiredRequeuedAndCancelled()
    {
        m_queue->setConfig({{"history", "20"}, {"max_attempts", "1"}});
        m_queue->push(request("p", 0, "t1"));
        QCOMPARE(m_queue->claim(1, 100, "w1").tasks.size(), size_t(1));
        QVERIFY(eventually([&] { return m_queue->reap(10).dead == 1; }));
        m_operator->requeue({"t1"});
        QCOMPARE(m_queue->claim(1, 60'000, "w2").tasks.size(), size_t(1));
        m_operator->cancel({"t1"}, true);
        const TaskHistory h = m_queue->taskHistory("t1");
        QVERIFY(h.finished);
        QCOMPARE(qt(kindsOf(h.events)),
                 QStringList({"pushed", "claimed", "expired", "requeued", "claimed", "cancelled"}));
        QCOMPARE(h.events[2].who, std::string("w1"));
        QVERIFY(!h.events[2].due); // it died: due no more
        QCOMPARE(h.events[5].text, std::string("forced"));
    }

    // The finished histories keep the last 1,000; purge and delete drop a task's at once.
    void finishedHistoriesAreBounded()
    {
        m_queue->setConfig("history", "3");
        std::vector<PushRequest> batch;
        for (int i = 0; i < 1001; ++i)
            batch.push_back(request("p", 0, "t" + std::to_string(1000 + i)));
        m_queue->pushBatch(batch);
        for (int round = 0; round < 2; ++round) {
            const auto claimed = m_queue->claim(1000, 60'000, "w1");
            std::vector<std::pair<std::string, std::string>> acks;
            for (const auto& t : claimed.tasks)
                acks.emplace_back(t.id, t.token);
            m_queue->ack(acks);
        }
        QCOMPARE(m_server.cli({"HLEN", "dq:{orders}:history_done"}).trimmed(), QByteArray("1000"));
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:history_done_at"}).trimmed(),
                 QByteArray("1000"));
        QVERIFY(m_queue->taskHistory("t1000").events.empty()); // the first acked
        QCOMPARE(m_queue->taskHistory("t2000").events.size(), size_t(3));

        m_queue->push(request("p", 60'000, "gone"));
        QCOMPARE(m_queue->taskHistory("gone").events.size(), size_t(1));
        m_queue->purge();
        QVERIFY(m_queue->taskHistory("gone").events.empty());
    }

    // At most 100,000 tasks a queue have a history: a flood of tasks cannot grow it further.
    void tasksWithHistoryAreBounded()
    {
        m_queue->setConfig("history", "1");
        std::vector<PushRequest> batch;
        for (int i = 0; i < 100'005; ++i)
            batch.push_back(request("p", 60'000, "t" + std::to_string(i)));
        m_queue->pushBatch(batch);
        QCOMPARE(m_server.cli({"HLEN", "dq:{orders}:history"}).trimmed(), QByteArray("100000"));
        QVERIFY(m_queue->taskHistory("t100004").events.empty());
        QCOMPARE(m_queue->size(TaskSet::Pending), 100'005LL);
    }

    void turningItOffDeletesEveryHistory()
    {
        m_queue->setConfig("history", "10");
        m_queue->push(request("p", 60'000, "t1"));
        m_queue->push(request("p", 0, "t2"));
        const auto claimed = m_queue->claim(1, 60'000, "w1");
        m_queue->ack(claimed.tasks[0].id, claimed.tasks[0].token);
        QVERIFY(!historyKeys().isEmpty());
        m_queue->setConfig("history", "0");
        QCOMPARE(historyKeys(), QByteArray());
        QCOMPARE(m_queue->size(TaskSet::Pending), 1LL);
    }

    // An export carries each task's events and an import brings them back, through the file's
    // JSON line.
    void exportAndImportCarryIt()
    {
        m_queue->setConfig({{"history", "10"}, {"backoff", "1h"}});
        m_operator->push(request("p", 0, "t1"));
        const auto claimed = m_queue->claim(1, 60'000, "w1");
        m_queue->nack("t1", claimed.tasks[0].token, "no answer\nfrom upstream");
        const auto exported = TaskExport::readIds(*m_queue, {"t1"});
        QCOMPARE(exported.size(), size_t(1));
        QCOMPARE(qt(kindsOf(exported[0].history)), QStringList({"pushed", "claimed", "failed"}));
        QCOMPARE(exported[0].history[2].text, std::string("no answer from upstream"));

        const Task back = TaskLine::toTask(TaskLine::fromTask(exported[0]));
        Queue other(*m_conn, "copy");
        TaskImport(other, false).importBatch({back});
        const TaskHistory h = other.taskHistory("t1");
        QCOMPARE(qt(kindsOf(h.events)), QStringList({"pushed", "claimed", "failed"}));
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(h.events[i].at, exported[0].history[i].at);
            QCOMPARE(h.events[i].due, exported[0].history[i].due);
            QCOMPARE(h.events[i].who, exported[0].history[i].who);
            QCOMPARE(h.events[i].text, exported[0].history[i].text);
        }
    }

    void aBadImportedHistoryIsRefused()
    {
        Task t;
        t.id = "t1";
        t.state = "pending";
        t.history = {TaskEvent{1000, "Pushed!", std::nullopt, "", ""}};
        QVERIFY_THROWS_EXCEPTION(Error, TaskImport(*m_queue, false).importBatch({t}));
        QCOMPARE(m_queue->size(TaskSet::Pending), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestTaskHistory)
#include "tst_taskhistory.moc"
