// The schedules of a native queue on the suite's own Redis (docs/schedules.md): each fire made
// once whoever ticks, edits that replace a rule at once, pause, delete, catch-up after
// downtime, refusals that change nothing, and the audit trail.
#include "expecterror.h"
#include "queuesuite.h"

#include <delayq/actor.h>
#include <delayq/cron.h>
#include <delayq/schedules.h>
#include <delayq/script.h>

#include <QTest>

#include <atomic>
#include <thread>

using namespace delayq;

namespace {

ScheduleRule every(const std::string& name, long long everyMs, const std::string& payload = "tick")
{
    ScheduleRule r;
    r.name = name;
    r.everyMs = everyMs;
    r.payload = payload;
    return r;
}

ScheduleRule cron(const std::string& name, const std::string& expression,
                  const std::string& zone = "UTC")
{
    ScheduleRule r;
    r.name = name;
    r.cron = expression;
    r.zone = zone;
    r.payload = "report";
    return r;
}

} // namespace

class TestSchedules : public QueueSuite
{
    Q_OBJECT

    std::unique_ptr<Schedules> m_schedules;

    void initTest() override
    {
        QueueSuite::initTest();
        m_schedules = std::make_unique<Schedules>(*m_conn, "orders");
    }

    void cleanupTest() override
    {
        m_schedules.reset();
        QueueSuite::cleanupTest();
    }

    // Ticks until a fire was made (or 5 s passed); returns the tasks made.
    long long tickUntilMade(Schedules& schedules)
    {
        long long made = 0;
        eventually([&] {
            made += schedules.tick().made;
            return made > 0;
        });
        return made;
    }

    // Moves a schedule's next fire, as downtime would leave it (nothing else changes).
    void setNextFire(const std::string& name, long long at)
    {
        m_conn->command({"ZADD", m_queue->keys().scheduleNext(), std::to_string(at), name});
    }

private slots:
    void addAndRead()
    {
        const long long now = m_conn->serverTimeMs();
        const ScheduleInfo a = m_schedules->add(every("beat", 60'000));
        QCOMPARE(a.version, 1LL);
        QVERIFY(a.rule.anchorMs >= now + 60'000 && a.rule.anchorMs < now + 65'000);
        QCOMPARE(*a.nextFire, a.rule.anchorMs); // the first fire: a minute from now
        const ScheduleInfo b = m_schedules->add(cron("daily", "0 9 * * *", "Europe/Berlin"));
        QCOMPARE(*b.nextFire, *Cron::parse("0 9 * * *").next(now, "Europe/Berlin"));
        const auto all = m_schedules->list();
        QCOMPARE(all.size(), size_t(2));
        QCOMPARE(all[0].rule.name, std::string("beat"));
        QCOMPARE(all[1].rule.zone, std::string("Europe/Berlin"));
        QCOMPARE(all[1].rule.payload, std::string("report"));
        QVERIFY(!m_schedules->get("nope"));
        // Listed among the queues, as a push would list it.
        QCOMPARE(m_conn->command({"SISMEMBER", Keys::queues("dq"), "orders"}).integer, 1LL);
    }

    void refusalsChangeNothing_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("malformed cron")
            << "cron" << int(ErrorCode::InvalidArgument) << "expected 5 fields";
        QTest::newRow("unknown zone")
            << "zone" << int(ErrorCode::InvalidArgument) << "unknown time zone";
        QTest::newRow("every 0") << "every0" << int(ErrorCode::InvalidArgument) << "exactly one of";
        QTest::newRow("payload over the limit")
            << "payload" << int(ErrorCode::TooLarge) << "over the queue's max_payload of 16";
        QTest::newRow("name taken") << "exists" << int(ErrorCode::Exists) << "exists already";
    }

    void refusalsChangeNothing()
    {
        QFETCH(QString, what);
        QFETCH(int, code);
        QFETCH(QString, mentions);
        m_queue->setConfig("max_payload", "16");
        m_schedules->add(every("beat", 60'000));
        const QByteArray before = snapshot(m_server);
        ScheduleRule r = cron("nightly", "0 3 * * *");
        if (what == "cron")
            r.cron = "0 3 * *";
        else if (what == "zone")
            r.zone = "Atlantis/Capital";
        else if (what == "every0")
            r = every("nightly", 0);
        else if (what == "payload")
            r.payload = std::string(17, 'x');
        else
            r = every("beat", 1000);
        try {
            m_schedules->add(r);
            QFAIL("accepted");
        } catch (const Error& e) {
            QCOMPARE(int(e.code()), code);
            QVERIFY2(QString::fromStdString(e.what()).contains(mentions), e.what());
        }
        QCOMPARE(snapshot(m_server), before);
    }

    // Two workers tick the same due fire: one task, made once, with the derived id, due at
    // the fire time.
    void fireMadeOnce()
    {
        Connection other(ConnectionOptions::fromUrl(m_server.unixUrl()));
        Schedules second(other, "orders");
        ScheduleRule r = every("beat", 1000);
        const ScheduleInfo added = m_schedules->add(r);
        const long long fire = *added.nextFire;
        long long made = 0;
        QVERIFY(eventually([&] {
            made += m_schedules->tick().made + second.tick().made;
            return made > 0;
        }));
        QCOMPARE(made, 1LL);
        const std::string id = "s:beat:" + std::to_string(fire);
        const auto task = m_queue->find(id);
        QVERIFY(task);
        QCOMPARE(task->second.due, fire);
        QCOMPARE(task->second.payload, std::string("tick"));
        const ScheduleInfo after = *m_schedules->get("beat");
        QCOMPARE(after.fired, 1LL);
        QCOMPARE(after.lastFire, fire);
        QVERIFY(*after.nextFire > fire);
        QCOMPARE(m_queue->stats()["pushed"], 1LL);
    }

    // A worker that read the rule before an edit cannot fire it after: the old rule's next
    // fire never happens, the new one fires from its own next time.
    void editReplacesRuleAtOnce()
    {
        const ScheduleInfo old = m_schedules->add(every("beat", 1000));
        const ScheduleInfo edited = *m_schedules->replace(every("beat", 3'600'000, "new"));
        QCOMPARE(edited.version, 2LL);
        QVERIFY(*edited.nextFire > *old.nextFire + 3'000'000);
        // The stale worker's call, with what it read before the edit (a fire 1 s later).
        QTest::qWait(1100);
        Queue queue(*m_conn, "orders");
        const Reply r = m_conn->evalScript(scripts::scheduleFire, queue.scriptKeys(),
                                           {"beat", "1", std::to_string(*old.nextFire), "", "0",
                                            std::to_string(*old.nextFire + 1000), "1",
                                            std::to_string(*old.nextFire)});
        QCOMPARE(r.elements[1].integer, -1LL);
        QCOMPARE(m_schedules->tick().made, 0LL);
        QCOMPARE(m_queue->counts().pending, 0LL);
        QCOMPARE(*m_schedules->get("beat")->nextFire, *edited.nextFire);
        QCOMPARE(m_schedules->get("beat")->rule.payload, std::string("new"));
    }

    void replaceRefusals()
    {
        EXPECT_ERROR(ErrorCode::NotFound, "", m_schedules->replace(every("ghost", 1000)));
        const ScheduleInfo a = m_schedules->add(every("beat", 1000));
        m_schedules->replace(every("beat", 2000));
        // A writer that read version 1 is refused: it would undo the change it never saw.
        QVERIFY(!m_schedules->replace(every("beat", 5000), a.version));
        QCOMPARE(m_schedules->get("beat")->rule.everyMs, 2000LL);
    }

    void pauseAndResume()
    {
        m_schedules->add(every("beat", 1000));
        const ScheduleInfo paused = m_schedules->setPaused("beat", true);
        QVERIFY(paused.rule.paused);
        QVERIFY(!paused.nextFire);
        QTest::qWait(1200);
        QCOMPARE(m_schedules->tick().made, 0LL);
        const long long now = m_conn->serverTimeMs();
        const ScheduleInfo resumed = m_schedules->setPaused("beat", false);
        // The fires missed while paused are not made: the next one is after now.
        QVERIFY(*resumed.nextFire > now);
        QCOMPARE(tickUntilMade(*m_schedules), 1LL);
        EXPECT_ERROR(ErrorCode::NotFound, "", m_schedules->setPaused("ghost", true));
    }

    void removeKeepsTasks()
    {
        m_schedules->add(every("beat", 1000));
        QCOMPARE(tickUntilMade(*m_schedules), 1LL);
        QVERIFY(m_schedules->remove("beat"));
        QVERIFY(!m_schedules->get("beat"));
        QVERIFY(!m_schedules->remove("beat"));
        QCOMPARE(m_queue->counts().pending, 1LL);
        QCOMPARE(m_conn->command({"EXISTS", m_queue->keys().scheduleNext()}).integer, 0LL);
        QCOMPARE(m_conn->command({"EXISTS", m_queue->keys().scheduleStats()}).integer, 0LL);
    }

    // Every worker was down for 10 minutes; the catch-up window is 5: the 5 fires within it
    // are made once each, the 5 before are skipped and counted, then the schedule is on time.
    void catchUpAfterDowntime()
    {
        const long long now = m_conn->serverTimeMs();
        ScheduleRule r = every("beat", 60'000);
        r.catchUpMs = 5 * 60'000;
        r.anchorMs = now - 100 * 60'000 - 30'000; // a grid of whole minutes, 30 s off now
        m_schedules->add(r);
        setNextFire("beat", now - 9 * 60'000 - 30'000);
        Schedules::TickResult t = m_schedules->tick();
        QCOMPARE(t.made, 5LL);
        QCOMPARE(t.skipped, 5LL);
        const ScheduleInfo s = *m_schedules->get("beat");
        QCOMPARE(s.fired, 5LL);
        QCOMPARE(s.skipped, 5LL);
        QCOMPARE(*s.nextFire, now + 30'000);
        QCOMPARE(m_queue->counts().pending, 5LL);
        QCOMPARE(m_schedules->tick().made, 0LL); // nothing twice
    }

    // asynq's failure mode: a fire whose task died must not block the next fire.
    void deadFireDoesNotBlockTheNext()
    {
        m_schedules->add(every("beat", 1000));
        QCOMPARE(tickUntilMade(*m_schedules), 1LL);
        const ClaimResult claim = m_queue->claim(10, 30'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        m_queue->nack(claim.tasks[0].id, claim.tasks[0].token, "boom", Queue::kNackDeadNow);
        QCOMPARE(m_queue->counts().dead, 1LL);
        QCOMPARE(tickUntilMade(*m_schedules), 1LL);
        QCOMPARE(m_queue->counts().pending, 1LL);
        QCOMPARE(m_schedules->get("beat")->fired, 2LL);
    }

    // Four clients edit the same schedule at once, each reading and writing back as the CLI
    // does: every edit lands in turn (none overwrites one it did not see), exactly one rule
    // survives, and it fires.
    void concurrentEdits()
    {
        m_schedules->add(every("beat", 1000));
        std::vector<std::thread> clients;
        std::atomic<int> written{0};
        for (int c = 0; c < 4; ++c)
            clients.emplace_back([&, c] {
                Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
                Schedules schedules(conn, "orders");
                for (int i = 0; i < 10; ++i)
                    for (int attempt = 0; attempt < 100; ++attempt) {
                        ScheduleInfo s = *schedules.get("beat");
                        s.rule.everyMs = 1000 + c;
                        s.rule.anchorMs = 0;
                        s.rule.payload = "client " + std::to_string(c);
                        if (schedules.replace(s.rule, s.version)) {
                            ++written;
                            break;
                        }
                    }
            });
        for (auto& t : clients)
            t.join();
        QCOMPARE(written.load(), 40);
        const ScheduleInfo s = *m_schedules->get("beat");
        QCOMPARE(s.version, 41LL);
        QCOMPARE(s.rule.payload, "client " + std::to_string(s.rule.everyMs - 1000));
        QCOMPARE(*s.nextFire, s.rule.anchorMs);
        QCOMPARE(m_conn->command({"ZCARD", m_queue->keys().scheduleNext()}).integer, 1LL);
        QCOMPARE(tickUntilMade(*m_schedules), 1LL);
        QCOMPARE(m_queue->page(TaskSet::Pending, 0, 1)[0].payload, s.rule.payload);
    }

    void auditTrail()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.actor = Actor::ofThisProcess("delayq-test", "9.9.9");
        Connection conn(options);
        Schedules schedules(conn, "orders");
        schedules.add(cron("nightly", "0 3 * * *"));
        schedules.replace(cron("nightly", "0 4 * * *"));
        schedules.setPaused("nightly", true);
        schedules.setPaused("nightly", false);
        schedules.remove("nightly");
        QStringList actions;
        QStringList details;
        for (const AuditEntry& e : m_queue->audit()) {
            actions.prepend(QString::fromStdString(e.action));
            details.prepend(QString::fromStdString(e.detail));
        }
        QCOMPARE(actions, (QStringList{"schedule_add", "schedule_edit", "schedule_pause",
                                       "schedule_resume", "schedule_rm"}));
        QCOMPARE(details[1], QString("nightly: cron 0 4 * * * (UTC)"));
    }

    void lag()
    {
        QCOMPARE(m_schedules->lagMs(), 0LL);
        m_schedules->add(every("beat", 60'000));
        QCOMPARE(m_schedules->lagMs(), 0LL);
        setNextFire("beat", m_conn->serverTimeMs() - 90'000);
        QVERIFY(m_schedules->lagMs() >= 90'000);
    }
};

QTEST_GUILESS_MAIN(TestSchedules)
#include "tst_schedules.moc"
