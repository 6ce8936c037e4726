#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/actor.h>
#include <delayq/auditlog.h>
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/worker.h>

#include <QTest>

#include <algorithm>
#include <atomic>
#include <functional>

using namespace delayq;
using namespace std::chrono_literals;

namespace {

Actor testActor()
{
    return Actor::ofThisProcess("delayq-test", "9.9.9");
}

std::vector<std::string> sorted(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

// The audit trail (docs/design.md, "Audit trail"): each change made with an actor writes one
// entry in the script that makes it; nothing else writes one.
class TestAudit : public QueueSuite
{
    Q_OBJECT

protected:
    // "orders" through m_queue (no actor): pending a, b, c an hour away, dead d1 and d2. The
    // audited queue m_audited is the same queue through a connection with an actor.
    void initTest() override
    {
        QueueSuite::initTest();
        for (const char* id : {"a", "b", "c"})
            m_queue->push(request("p", 3'600'000, id));
        for (const char* id : {"d1", "d2"}) {
            PushRequest r = request("dying", 0, id);
            r.maxAttempts = 1;
            m_queue->push(r);
            const auto claimed = m_queue->claim(1, 60'000, "w");
            QCOMPARE(claimed.tasks.size(), size_t(1));
            QVERIFY(m_queue->nack(id, claimed.tasks[0].token, "died").dead);
        }
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.actor = testActor();
        m_adminConn = std::make_unique<Connection>(options);
        m_audited = std::make_unique<Queue>(*m_adminConn, "orders");
    }
    void cleanupTest() override
    {
        m_audited.reset();
        m_adminConn.reset();
        QueueSuite::cleanupTest();
    }

private slots:
    void eachActionWritesOneEntry_data()
    {
        QTest::addColumn<std::function<void(Queue&)>>("act");
        QTest::addColumn<QString>("action");
        QTest::addColumn<long long>("count");
        QTest::addColumn<QStringList>("ids"); // sorted
        QTest::addColumn<QString>("detail");
        using Act = std::function<void(Queue&)>;
        auto row = [](const char* name, Act act, const char* action, long long count,
                      QStringList ids, const char* detail) {
            QTest::newRow(name) << act << QString(action) << count << ids << QString(detail);
        };
        row(
            "push",
            [](Queue& q) {
                q.pushBatch({request("x", 0, "x"), request("y", 0, "y")});
            },
            "push", 2, {"x", "y"}, "");
        row(
            "push, one of two new",
            [](Queue& q) {
                q.pushBatch({request("x", 0, "x"), request("again", 0, "a")});
            },
            "push", 1, {"x"}, "");
        row(
            "push replacing",
            [](Queue& q) {
                PushRequest r = request("new", 0, "a");
                r.replace = true;
                q.push(r);
            },
            "push", 1, {"a"}, "replace");
        row(
            "cancel",
            [](Queue& q) {
                q.cancel({"a", "b", "nope", "d1"});
            },
            "cancel", 2, {"a", "b"}, "");
        row(
            "cancel forced", [](Queue& q) { q.cancel({"c"}, true); }, "cancel", 1, {"c"}, "force");
        row(
            "reschedule",
            [](Queue& q) {
                q.reschedule({"a", "d1"}, 5'000'000'000'000LL);
            },
            "reschedule", 1, {"a"}, "due=5000000000000");
        row(
            "requeue",
            [](Queue& q) {
                q.requeue({"d1", "a"});
            },
            "requeue", 1, {"d1"}, "");
        row(
            "requeue all", [](Queue& q) { q.requeueAll(); }, "requeue", 2, {"d1", "d2"}, "all");
        row(
            "delete dead", [](Queue& q) { q.deleteDead({"d2"}); }, "delete", 1, {"d2"}, "");
        row(
            "delete all dead", [](Queue& q) { q.deleteAllDead(); }, "delete", 2, {"d1", "d2"},
            "all");
        row(
            "purge", [](Queue& q) { q.purge(); }, "purge", 5, {"a", "b", "c", "d1", "d2"}, "");
        row(
            "config", [](Queue& q) { q.setConfig("lease_ms", "1m"); }, "config", 0, {},
            "lease_ms=60000");
        row(
            "pause", [](Queue& q) { q.setConfig("paused", "1"); }, "pause", 0, {}, "");
        row(
            "resume",
            [](Queue& q) {
                q.setConfig("paused", "yes");
                q.setConfig("paused", "no");
            },
            "resume", 0, {}, "");
    }
    void eachActionWritesOneEntry()
    {
        QFETCH(std::function<void(Queue&)>, act);
        QFETCH(QString, action);
        QFETCH(long long, count);
        QFETCH(QStringList, ids);
        QFETCH(QString, detail);

        act(*m_audited);
        const auto entries = m_audited->audit(0, 100);
        QCOMPARE(entries.size(), size_t(action == "resume" ? 2 : 1));
        const AuditEntry& e = entries.front(); // the newest
        QCOMPARE(QString::fromStdString(e.action), action);
        QCOMPARE(e.count, count);
        QCOMPARE(qt(sorted(e.ids)), ids);
        QCOMPARE(QString::fromStdString(e.detail), detail);
        const Actor me = testActor();
        QCOMPARE(e.user, std::string("default"));
        QCOMPARE(e.osUser, me.osUser);
        QCOMPARE(e.host, me.host);
        QCOMPARE(e.tool, std::string("delayq-test"));
        QCOMPARE(e.version, std::string("9.9.9"));
        // The stream id is the server's clock.
        QVERIFY(std::abs(e.timeMs - m_conn->serverTimeMs()) < 60'000);
    }

    // A form's Save of several settings: one entry, naming only the values that changed.
    void severalSettingsWriteOneEntry()
    {
        m_audited->setConfig("lease_ms", "45s");
        m_audited->setConfig({{"max_attempts", "3"}, {"lease_ms", "45s"}, {"backoff", "1s,2s"}});
        const auto entries = m_audited->audit(0, 100);
        QCOMPARE(entries.size(), size_t(2));
        QCOMPARE(entries.front().action, std::string("config"));
        QCOMPARE(entries.front().detail, std::string("max_attempts=3 backoff=1000,2000"));
        // The same values again change nothing and write nothing.
        m_audited->setConfig({{"max_attempts", "3"}, {"lease_ms", "45s"}});
        QCOMPARE(m_audited->audit(0, 100).size(), size_t(2));
    }

    // Nothing changed, or refused: no entry.
    void refusedOrEmptyActionsWriteNone_data()
    {
        QTest::addColumn<std::function<void(Queue&)>>("act");
        using Act = std::function<void(Queue&)>;
        auto row = [](const char* name, Act act) { QTest::newRow(name) << act; };
        row("push of an existing id", [](Queue& q) { q.push(request("again", 0, "a")); });
        row("push refused", [](Queue& q) {
            PushRequest r = request("x", -5, "x");
            errorOf([&] { q.push(r); });
        });
        row("cancel of unknown, active-less and dead ids", [](Queue& q) {
            q.cancel({"nope", "d1"});
        });
        row("reschedule of a dead id", [](Queue& q) { q.reschedule({"d1"}, std::nullopt, 0); });
        row("requeue of a pending id", [](Queue& q) { q.requeue({"a"}); });
        row("delete of a pending id", [](Queue& q) { q.deleteDead({"a"}); });
        row("requeue all of an empty dead set", [](Queue& q) {
            Queue other(q.connection(), "empty");
            other.requeueAll();
        });
        row("purge of an empty queue", [](Queue& q) { Queue(q.connection(), "empty").purge(); });
        row("config to the value it has", [](Queue& q) { q.setConfig("paused", "0"); });
        row("config refused", [](Queue& q) { errorOf([&] { q.setConfig("lease_ms", "-1"); }); });
    }
    void refusedOrEmptyActionsWriteNone()
    {
        QFETCH(std::function<void(Queue&)>, act);
        m_queue->setConfig("paused", "0"); // without an actor: no entry
        act(*m_audited);
        QCOMPARE(m_audited->audit(0, 100).size(), size_t(0));
        QCOMPARE(m_conn->command({"EXISTS", "dq:{orders}:audit"}).toInteger(), 0LL);
        QCOMPARE(m_conn->command({"EXISTS", "dq:{empty}:audit"}).toInteger(), 0LL);
    }

    void aReadOnlySessionWritesNone()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.actor = testActor();
        options.readOnly = true;
        Connection c(options);
        Queue q(c, "orders");
        EXPECT_ERROR(ErrorCode::NoPermission, "", q.cancel({"a"}));
        EXPECT_ERROR(ErrorCode::NoPermission, "", q.setConfig("paused", "1"));
        QCOMPARE(q.audit().size(), size_t(0));
    }

    void withoutAnActorNothingIsWritten()
    {
        Queue& q = *m_queue;
        q.push(request("x", 0, "x"));
        q.cancel({"a"});
        q.reschedule({"b"}, std::nullopt, 10);
        q.requeue({"d1"});
        q.deleteDead({"d2"});
        q.setConfig("paused", "1");
        q.purge();
        QCOMPARE(m_conn->command({"EXISTS", "dq:{orders}:audit"}).toInteger(), 0LL);
    }

    // A worker records nothing, even one whose options carry an actor: claims, acks, retries
    // and deaths are deliveries, not people's actions.
    void workersWriteNone()
    {
        std::vector<PushRequest> batch;
        for (int i = 0; i < 20; ++i)
            batch.push_back(request("job" + std::to_string(i)));
        Queue jobs(*m_adminConn, "jobs");
        jobs.pushBatch(batch);
        WorkerOptions o;
        o.connection = m_adminConn->options();
        o.queue = "jobs";
        o.concurrency = 2;
        o.pollInterval = 50ms;
        o.reapInterval = 100ms;
        std::atomic<int> calls{0};
        Worker w(o, [&](const ClaimedTask&) {
            // Every third call fails once: a retry (nack) goes through too.
            return ++calls % 3 == 0 ? HandlerResult::fail("no", 0) : HandlerResult::ack();
        });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 20LL, 20000);
        w.stop();
        const auto entries = jobs.audit(0, 100);
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries[0].action, std::string("push"));
        QCOMPARE(entries[0].count, 20LL);
        QCOMPARE(entries[0].ids.size(), size_t(10)); // the first ten of twenty
    }

    // audit_len caps the stream (approximately: Redis trims whole stream nodes of 100).
    void theStreamIsCapped()
    {
        m_queue->setConfig("audit_len", "100");
        QCOMPARE(m_queue->config().auditLen, 100LL);
        // A push a call, an entry each: 1,000 entries (a batch is gathered into few calls by
        // its settings, so it would write only a handful).
        for (int i = 0; i < 1000; ++i)
            m_audited->push(request("x", 0, "t" + std::to_string(i)));
        const long long length = m_conn->command({"XLEN", "dq:{orders}:audit"}).toInteger();
        QVERIFY2(length >= 100 && length <= 200, std::to_string(length).c_str());
        QCOMPARE(m_audited->audit(0, 10000).size(), size_t(length));
        // Newest first: the last call's task.
        QCOMPARE(m_audited->audit(0, 1).front().ids, std::vector<std::string>{"t999"});
    }

    void sinceAndLimitBoundTheRead()
    {
        m_audited->cancel({"a"});
        const long long between = m_conn->serverTimeMs() + 1;
        QTest::qWait(5);
        m_audited->cancel({"b"});
        m_audited->cancel({"c"});
        QCOMPARE(m_audited->audit(0, 2).size(), size_t(2));
        const auto recent = m_audited->audit(between, 100);
        QCOMPARE(recent.size(), size_t(2));
        QCOMPARE(recent[0].ids, std::vector<std::string>{"c"});
        QCOMPARE(recent[1].ids, std::vector<std::string>{"b"});
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_audited->audit(0, 0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_audited->audit(0, 10001));
    }

    // Who: the ACL user from ACL WHOAMI; a user who may not ask is named by the URL's user.
    // A user with read rights only reads the trail.
    void aclUsers()
    {
        m_conn->command({"ACL", "SETUSER", "alice", "on", ">pw", "~*", "&*", "+@all"});
        m_conn->command({"ACL", "SETUSER", "carol", "on", ">pw", "~*", "&*", "+@all", "-acl"});
        m_conn->command({"ACL", "SETUSER", "reader", "on", ">pw", "~*", "&*", "+@read",
                         "+@connection", "+time", "+info"});
        auto as = [&](const char* user, bool actor) {
            auto options =
                ConnectionOptions::fromUrl(m_server.unixUrl() + "?user=" + user + "&password=pw");
            if (actor)
                options.actor = testActor();
            return std::make_unique<Connection>(options);
        };
        auto alice = as("alice", true);
        Queue(*alice, "orders").cancel({"a"});
        auto carol = as("carol", true);
        Queue(*carol, "orders").cancel({"b"});
        auto reader = as("reader", false);
        const auto entries = Queue(*reader, "orders").audit();
        QCOMPARE(entries.size(), size_t(2));
        QCOMPARE(entries[0].user, std::string("carol"));
        QCOMPARE(entries[1].user, std::string("alice"));
    }

    // Untrusted text in the actor cannot forge another field: control characters are replaced.
    void actorFieldsAreSanitized()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.actor = testActor();
        options.actor.host = "evil\nhost";
        options.actor.osUser = std::string(300, 'u');
        Connection c(options);
        Queue(c, "orders").cancel({"a"});
        const auto entries = Queue(c, "orders").audit();
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries[0].host, std::string("evil?host"));
        QCOMPARE(entries[0].osUser, std::string(128, 'u'));
        QCOMPARE(entries[0].tool, std::string("delayq-test"));
    }

private:
    std::unique_ptr<Connection> m_adminConn;
    std::unique_ptr<Queue> m_audited;
};

QTEST_GUILESS_MAIN(TestAudit)
#include "tst_audit.moc"
