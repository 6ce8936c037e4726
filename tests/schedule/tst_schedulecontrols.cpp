// An operator's schedule controls (docs/schedules.md): run now and backfill make exactly the
// fires they name while three workers fire the schedule, the overlap policy skips what it
// should, jitter spreads a thousand schedules on the same minute with every worker agreeing
// on each fire's due time, and refusals name the cause and change nothing.
#include "expecterror.h"
#include "queuesuite.h"

#include <delayq/schedules.h>

#include <QTest>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

using namespace delayq;

namespace {

ScheduleRule every(const std::string& name, long long everyMs)
{
    ScheduleRule r;
    r.name = name;
    r.everyMs = everyMs;
    r.payload = "tick";
    return r;
}

} // namespace

class TestScheduleControls : public QueueSuite
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

    void setNextFire(const std::string& name, long long at)
    {
        m_conn->command({"ZADD", m_queue->keys().scheduleNext(), std::to_string(at), name});
    }

    // The pending ids, sorted.
    QStringList pendingIds()
    {
        QStringList ids;
        const Reply r = m_conn->command({"ZRANGE", m_queue->keys().pending(), "0", "-1"});
        for (const Reply& e : r.elements)
            ids.append(QString::fromStdString(e.toString()));
        ids.sort();
        return ids;
    }

    static QStringList sorted(const std::set<std::string>& ids)
    {
        QStringList out;
        for (const std::string& id : ids)
            out.append(QString::fromStdString(id));
        out.sort();
        return out;
    }

    // Three workers, each on its own connection, tick the queue's schedules until stop is set
    // (and at least once), while `operate` runs on the calling thread.
    void withThreeWorkers(const std::function<void()>& operate)
    {
        std::atomic<bool> stop{false};
        std::atomic<int> failures{0};
        std::vector<std::thread> workers;
        for (int w = 0; w < 3; ++w)
            workers.emplace_back([&] {
                try {
                    Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
                    Schedules schedules(conn, "orders");
                    do
                        schedules.tick();
                    while (!stop);
                } catch (...) {
                    ++failures;
                }
            });
        operate();
        stop = true;
        for (auto& t : workers)
            t.join();
        QCOMPARE(failures.load(), 0);
    }

private slots:
    // Run now from three clients at once, two requests each asked three times, while three
    // workers tick: two tasks, each made once, due now; the rule's next fire stays.
    void runNowMakesOneTaskPerRequest()
    {
        ScheduleRule rule = every("report", 3'600'000);
        rule.overlap = ScheduleRule::Overlap::Skip; // so the stats also hold a task id
        const ScheduleInfo added = m_schedules->add(rule);
        std::atomic<int> made{0};
        std::atomic<int> failures{0};
        withThreeWorkers([&] {
            std::vector<std::thread> clients;
            for (int c = 0; c < 3; ++c)
                clients.emplace_back([&] {
                    try {
                        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
                        Schedules schedules(conn, "orders");
                        for (const char* request : {"req-1", "req-2"})
                            made += schedules.runNow("report", request).made ? 1 : 0;
                    } catch (...) {
                        ++failures;
                    }
                });
            for (auto& t : clients)
                t.join();
        });
        QCOMPARE(failures.load(), 0);
        QCOMPARE(made.load(), 2);
        QCOMPARE(pendingIds(), QStringList({"s:report:run:req-1", "s:report:run:req-2"}));
        const long long now = m_conn->serverTimeMs();
        const auto task = m_queue->find("s:report:run:req-1");
        QVERIFY(task);
        QVERIFY(task->second.due <= now && task->second.due > now - 10'000);
        const ScheduleInfo after = *m_schedules->get("report");
        QCOMPARE(*after.nextFire, *added.nextFire);
        QCOMPARE(after.version, added.version);
        QCOMPARE(after.fired, 2LL);
        QCOMPARE(m_schedules->list().size(), size_t(1));
        QCOMPARE(m_schedules->list()[0].fired, 2LL);
        // The same request once more: nothing.
        QVERIFY(!m_schedules->runNow("report", "req-1").made);
        QCOMPARE(m_queue->counts().pending, 2LL);
    }

    // Three overlapping backfills from three clients while three workers tick: every fire of
    // the rule in the union of the windows is made once, with the id and due time the rule's
    // own fire would have given it; nothing outside them.
    void backfillMakesExactlyTheFiresNamed()
    {
        const long long now = m_conn->serverTimeMs();
        ScheduleRule r = every("beat", 60'000);
        // A grid in the past whose next fire is 30 s ahead: the workers make none meanwhile.
        r.anchorMs = now - 120 * 60'000 + 30'123;
        r.jitterMs = 20'000;
        const ScheduleInfo added = m_schedules->add(r);
        QVERIFY(*added.nextFire > now);
        const std::vector<std::pair<long long, long long>> windows = {
            {now - 30 * 60'000, now - 10 * 60'000},
            {now - 25 * 60'000, now - 5 * 60'000},
            {now - 30 * 60'000, now - 10 * 60'000}};
        std::atomic<long long> made{0};
        std::atomic<int> failures{0};
        withThreeWorkers([&] {
            std::vector<std::thread> clients;
            for (const auto& [from, to] : windows)
                clients.emplace_back([&, from, to] {
                    try {
                        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
                        made += Schedules(conn, "orders").backfill("beat", from, to).made;
                    } catch (...) {
                        ++failures;
                    }
                });
            for (auto& t : clients)
                t.join();
        });
        QCOMPARE(failures.load(), 0);
        std::set<std::string> expected;
        for (long long f = r.anchorMs; f < now - 5 * 60'000; f += 60'000)
            if (f >= now - 30 * 60'000) {
                expected.insert(r.taskId(f));
                const auto task = m_queue->find(r.taskId(f));
                QVERIFY2(task, r.taskId(f).c_str());
                QCOMPARE(task->second.due, r.dueOf(f));
            }
        QCOMPARE(expected.size(), size_t(25));
        QCOMPARE(made.load(), 25LL);
        QCOMPARE(pendingIds(), sorted(expected));
        QCOMPARE(*m_schedules->get("beat")->nextFire, *added.nextFire);
        // All of it again: nothing.
        const Schedules::BackfillResult again =
            m_schedules->backfill("beat", now - 30 * 60'000, now - 5 * 60'000);
        QCOMPARE(again.made, 0LL);
        QCOMPARE(again.already, 25LL);
    }

    // Fires the rule made itself, whose tasks are done and gone, are not made again by a
    // backfill over them; the catch-up skipped ones before them are.
    void backfillSkipsFiresThatHappened()
    {
        const long long now = m_conn->serverTimeMs();
        ScheduleRule r = every("beat", 60'000);
        r.anchorMs = now - 120 * 60'000 - 30'000;
        r.catchUpMs = 5 * 60'000;
        m_schedules->add(r);
        setNextFire("beat", now - 9 * 60'000 - 30'000);
        const Schedules::TickResult t = m_schedules->tick();
        QCOMPARE(t.made, 5LL);
        QCOMPARE(t.skipped, 5LL);
        const ClaimResult claim = m_queue->claim(10, 30'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(5));
        for (const auto& task : claim.tasks)
            m_queue->ack(task.id, task.token);
        QCOMPARE(m_queue->counts().pending + m_queue->counts().active, 0LL);
        const Schedules::BackfillResult b = m_schedules->backfill("beat", now - 10 * 60'000, now);
        QCOMPARE(b.fires.size(), size_t(10));
        QCOMPARE(b.made, 5LL); // the five skipped
        QCOMPARE(b.already, 5LL);
        std::set<std::string> skipped;
        for (int k = 9; k >= 5; --k)
            skipped.insert(r.taskId(now - k * 60'000 - 30'000));
        QCOMPARE(pendingIds(), sorted(skipped));
    }

    void refusalsChangeNothing_data()
    {
        QTest::addColumn<int>("what");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("cause");
        const auto row = [](const char* name, int what, ErrorCode code, const char* cause) {
            QTest::newRow(name) << what << int(code) << QString(cause);
        };
        row("window empty", 0, ErrorCode::InvalidArgument, "must start before it ends");
        row("window ends after now", 1, ErrorCode::InvalidArgument, "must end by now");
        row("too many fires", 2, ErrorCode::InvalidArgument, "more than 1000 fires");
        row("unknown schedule (backfill)", 3, ErrorCode::NotFound, "no schedule 'ghost'");
        row("unknown schedule (run now)", 4, ErrorCode::NotFound, "no schedule 'ghost'");
        row("window reaches the next fire", 5, ErrorCode::InvalidArgument, "next fire");
        row("request id malformed", 6, ErrorCode::InvalidArgument, "request id");
        row("jitter negative", 7, ErrorCode::InvalidArgument, "must not be negative");
        row("jitter longer than the interval", 8, ErrorCode::InvalidArgument,
            "longer than the interval (1m)");
        row("jitter longer than the cron's gap", 9, ErrorCode::InvalidArgument,
            "shortest gap between the cron's fires (5m)");
        row("jitter over a day", 10, ErrorCode::InvalidArgument, "at most 1d");
    }

    void refusalsChangeNothing()
    {
        QFETCH(int, what);
        QFETCH(int, code);
        QFETCH(QString, cause);
        const long long now = m_conn->serverTimeMs();
        ScheduleRule r = every("beat", 1000);
        r.anchorMs = now - 3'600'000;
        m_schedules->add(r);
        ScheduleRule hourly = every("hourly", 3'600'000);
        hourly.anchorMs = now - 9'000'000; // fires at now - 90m, now - 30m, now + 30m
        m_schedules->add(hourly);
        const QByteArray before = snapshot(m_server);
        ScheduleRule bad = every("other", 60'000);
        const std::function<void()> calls[] = {
            [&] { m_schedules->backfill("beat", now - 1000, now - 1000); },
            [&] { m_schedules->backfill("beat", now - 1000, now + 60'000); },
            [&] { m_schedules->backfill("beat", now - 3'000'000, now - 1000); },
            [&] { m_schedules->backfill("ghost", now - 3'000'000, now - 1000); },
            [&] { m_schedules->runNow("ghost", "r1"); },
            [&] { m_schedules->backfill("hourly", now - 7'200'000, now - 1000); },
            [&] { m_schedules->runNow("beat", "no spaces"); },
            [&] {
                bad.jitterMs = -1;
                m_schedules->add(bad);
            },
            [&] {
                bad.jitterMs = 61'000;
                m_schedules->add(bad);
            },
            [&] {
                bad.everyMs = 0;
                bad.cron = "*/5 * * * *";
                bad.jitterMs = 6 * 60'000;
                m_schedules->add(bad);
            },
            [&] {
                bad.everyMs = 7 * 86'400'000LL;
                bad.jitterMs = 2 * 86'400'000LL;
                m_schedules->add(bad);
            },
        };
        if (what == 5)
            setNextFire("hourly", now - 1'800'000); // due, and no worker came yet
        const QByteArray ready = snapshot(m_server);
        const std::optional<Error> error = errorOf(calls[what]);
        QVERIFY(isError(error, ErrorCode(code), cause));
        QCOMPARE(snapshot(m_server), what == 5 ? ready : before);
    }

    // Overlap "skip": a fire is skipped while the previous fire's task is pending, and while
    // it is active; the first fire after it is acked is made. "allow" makes every fire.
    void overlapSkipsWhileThePreviousTaskRuns()
    {
        const long long now = m_conn->serverTimeMs();
        // Hourly, its grid 30 minutes off now: each turn makes only the fire it sets.
        ScheduleRule r = every("beat", 3'600'000);
        r.anchorMs = now + 1'800'000;
        r.overlap = ScheduleRule::Overlap::Skip;
        m_schedules->add(r);
        ScheduleRule loose = every("loose", 3'600'000);
        loose.anchorMs = r.anchorMs;
        m_schedules->add(loose);
        // Each turn a fire is due: as if the workers had been away for its minute.
        long long fire = now - 4 * 60'000;
        const auto turn = [&] {
            setNextFire("beat", fire);
            setNextFire("loose", fire);
            const Schedules::TickResult t = m_schedules->tick();
            fire += 60'000;
            return t;
        };
        Schedules::TickResult t = turn(); // makes beat's first and loose's
        QCOMPARE(t.made, 2LL);
        t = turn(); // beat's task is pending: skipped
        QCOMPARE(t.made, 1LL);
        QCOMPARE(t.skipped, 1LL);
        const ClaimResult claim = m_queue->claim(1, 30'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        QCOMPARE(claim.tasks[0].id, r.taskId(now - 4 * 60'000));
        t = turn(); // active: skipped again
        QCOMPARE(t.made, 1LL);
        QCOMPARE(t.skipped, 1LL);
        m_queue->ack(claim.tasks[0].id, claim.tasks[0].token);
        t = turn(); // done: made
        QCOMPARE(t.made, 2LL);
        QCOMPARE(t.skipped, 0LL);
        const ScheduleInfo beat = *m_schedules->get("beat");
        QCOMPARE(beat.fired, 2LL);
        QCOMPARE(beat.skipped, 2LL);
        QCOMPARE(beat.overlapped, 2LL);
        QVERIFY(m_queue->find(r.taskId(now - 1 * 60'000)));
        QVERIFY(!m_queue->find(r.taskId(now - 2 * 60'000)));
        QCOMPARE(m_schedules->get("loose")->fired, 4LL);
        QCOMPARE(m_schedules->get("loose")->overlapped, 0LL);
    }

    // After downtime a "skip" schedule makes the first missed fire and skips the rest, whose
    // task it is still waiting for.
    void overlapSkipsTheCatchUpBehindTheFirst()
    {
        const long long now = m_conn->serverTimeMs();
        ScheduleRule r = every("beat", 1000);
        r.anchorMs = now - 60'000;
        r.overlap = ScheduleRule::Overlap::Skip;
        m_schedules->add(r);
        setNextFire("beat", now - 5000);
        const Schedules::TickResult t = m_schedules->tick();
        QCOMPARE(t.made, 1LL);
        QVERIFY(t.skipped >= 5);
        QCOMPARE(m_schedules->get("beat")->overlapped, t.skipped);
        QCOMPARE(pendingIds(), QStringList({QString::fromStdString(r.taskId(now - 5000))}));
    }

    // A thousand schedules on the same minute with a 30 s jitter, fired by three workers: each
    // fire once, its task due within the jitter window at the time the core computes for it
    // (so every worker agrees), and spread over the window instead of one millisecond.
    void jitterSpreadsAThousandSchedules()
    {
        const long long now = m_conn->serverTimeMs();
        const long long minute = now / 60'000 * 60'000 - 60'000;
        constexpr int kSchedules = 1000;
        constexpr long long kJitter = 30'000;
        std::vector<ScheduleRule> rules;
        for (int i = 0; i < kSchedules; ++i) {
            ScheduleRule r = every("s" + std::to_string(i), 3'600'000);
            r.anchorMs = minute;
            r.jitterMs = kJitter;
            m_schedules->add(r);
            setNextFire(r.name, minute);
            rules.push_back(r);
        }
        withThreeWorkers([&] {
            QVERIFY(eventually([&] { return m_queue->counts().pending == kSchedules; }, 20'000));
        });
        QCOMPARE(m_queue->counts().pending, static_cast<long long>(kSchedules));
        std::map<long long, int> perSecond;
        long long lo = minute + kJitter;
        long long hi = minute;
        for (const ScheduleRule& r : rules) {
            const auto task = m_queue->find(r.taskId(minute));
            QVERIFY2(task, r.name.c_str());
            QCOMPARE(task->second.due, r.dueOf(minute));
            QVERIFY(task->second.due >= minute && task->second.due <= minute + kJitter);
            ++perSecond[(task->second.due - minute) / 1000];
            lo = std::min(lo, task->second.due);
            hi = std::max(hi, task->second.due);
        }
        // About 32 a second; every second of the window has some, none a pile.
        QVERIFY2(hi - lo > kJitter * 9 / 10, qPrintable(QString::number(hi - lo)));
        QVERIFY(perSecond.size() >= 30);
        for (const auto& [second, n] : perSecond)
            QVERIFY2(n < 80, qPrintable(QString("%1 due in second %2").arg(n).arg(second)));
    }
};

QTEST_GUILESS_MAIN(TestScheduleControls)
#include "tst_schedulecontrols.moc"
