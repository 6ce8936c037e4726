#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/taskscan.h>

#include <QTest>

using delayq::ScanCursor;
using delayq::TaskFilter;
using delayq::TaskScan;

// TaskScan: the bounded search step under `delayq find` and the app's find bar.
class TestTaskScan : public QueueSuite
{
    Q_OBJECT

private slots:
    void stepsReadEveryTaskOnce_data()
    {
        QTest::addColumn<int>("step");
        QTest::newRow("1") << 1;
        QTest::newRow("3") << 3;
        QTest::newRow("7") << 7;
        QTest::newRow("10") << 10;
        QTest::newRow("1000") << 1000;
    }
    void stepsReadEveryTaskOnce()
    {
        QFETCH(int, step);
        // 50 tasks in groups of 10 sharing one due time: the cursor must count within a score.
        std::vector<delayq::PushRequest> batch;
        for (int i = 0; i < 50; ++i) {
            auto r = request("p" + std::to_string(i), 0, "t" + std::to_string(100 + i));
            r.dueAtMs = 4'000'000'000'000LL + (i / 10) * 1000;
            batch.push_back(r);
        }
        m_queue->pushBatch(batch);
        TaskScan scan(*m_queue);
        std::vector<std::string> seen;
        ScanCursor cursor;
        int steps = 0;
        while (!cursor.done) {
            auto s = scan.step(TaskFilter{}, cursor, step);
            QVERIFY(s.read <= step);
            for (const auto& t : s.matches)
                seen.push_back(t.id);
            cursor = s.cursor;
            QVERIFY(++steps <= 60);
        }
        QCOMPARE(seen.size(), size_t(50));
        for (int i = 0; i < 50; ++i)
            QCOMPARE(seen[size_t(i)], "t" + std::to_string(100 + i));
    }

    void claimsDuringTheScanSkipNothing()
    {
        // Due now, so a worker claims from the head while the search reads on: a rank cursor
        // would skip as many tasks as were claimed.
        std::vector<delayq::PushRequest> batch;
        for (int i = 0; i < 100; ++i) {
            auto r = request("p", 0, "t" + std::to_string(100 + i));
            r.dueAtMs = 1'000'000'000'000LL + i;
            batch.push_back(r);
        }
        m_queue->pushBatch(batch);
        TaskScan scan(*m_queue);
        auto first = scan.step(TaskFilter{}, ScanCursor{}, 10);
        QCOMPARE(first.read, 10);
        QCOMPARE(m_queue->claim(10, 60000, "w").tasks.size(), size_t(10));
        auto second = scan.step(TaskFilter{}, first.cursor, 10);
        QVERIFY(!second.matches.empty());
        QCOMPARE(second.matches.front().id, std::string("t110"));
    }

    void claimsWithinATieSkipNothing()
    {
        // 30 tasks due at one and the same time (a batch pushed with --at): the cursor is
        // inside the tie when the first ten are claimed.
        std::vector<delayq::PushRequest> batch;
        for (int i = 0; i < 30; ++i) {
            auto r = request("p", 0, "t" + std::to_string(100 + i));
            r.dueAtMs = 1'000'000'000'000LL;
            batch.push_back(r);
        }
        m_queue->pushBatch(batch);
        TaskScan scan(*m_queue);
        auto first = scan.step(TaskFilter{}, ScanCursor{}, 10);
        QCOMPARE(m_queue->claim(10, 60000, "w").tasks.size(), size_t(10));
        std::vector<std::string> rest;
        ScanCursor cursor = first.cursor;
        while (!cursor.done) {
            auto s = scan.step(TaskFilter{}, cursor, 7);
            for (const auto& t : s.matches)
                rest.push_back(t.id);
            cursor = s.cursor;
        }
        // The ten claimed were read before; nothing after them is skipped.
        QCOMPARE(rest.size(), size_t(20));
        QCOMPARE(rest.front(), std::string("t110"));
    }

    void matchesPayloadOrErrorAsBytes()
    {
        const std::string binary("a\0needle\xff", 10);
        m_queue->push(request(binary, 3'600'000, "bin"));
        m_queue->push(request("needle in text", 3'600'000, "txt"));
        m_queue->push(request("hay", 3'600'000, "hay"));
        TaskFilter f;
        f.text = std::string("\0needle", 7);
        auto s = TaskScan(*m_queue).step(f, ScanCursor{}, 100);
        QCOMPARE(s.read, 3);
        QCOMPARE(s.matches.size(), size_t(1));
        QCOMPARE(s.matches[0].id, std::string("bin"));
        QCOMPARE(s.matches[0].payload, binary);
        QVERIFY(s.cursor.done);

        auto dying = request("x", 0, "dies");
        dying.maxAttempts = 1;
        m_queue->push(dying);
        auto claimed = m_queue->claim(1, 60000, "w").tasks;
        QCOMPARE(claimed.size(), size_t(1));
        QVERIFY(m_queue->nack(claimed[0].id, claimed[0].token, "SMTP 550 no such user").dead);
        TaskFilter e;
        e.set = delayq::TaskSet::Dead;
        e.field = delayq::ScanField::Error;
        e.text = "550";
        s = TaskScan(*m_queue).step(e, ScanCursor{}, 100);
        QCOMPARE(s.matches.size(), size_t(1));
        QCOMPARE(s.matches[0].lastError, std::string("SMTP 550 no such user"));
        e.field = delayq::ScanField::Payload;
        QCOMPARE(TaskScan(*m_queue).step(e, ScanCursor{}, 100).matches.size(), size_t(0));
    }

    void keepsToTheScoreRange()
    {
        std::vector<delayq::PushRequest> batch;
        for (int i = 0; i < 20; ++i) {
            auto r = request("p", 0, "t" + std::to_string(100 + i));
            r.dueAtMs = 4'000'000'000'000LL + i * 1000;
            batch.push_back(r);
        }
        m_queue->pushBatch(batch);
        TaskFilter f;
        f.minScore = 4'000'000'005'000LL;
        f.maxScore = 4'000'000'009'000LL;
        TaskScan scan(*m_queue);
        QCOMPARE(scan.inRange(f), 5);
        auto s = scan.step(f, ScanCursor{}, 3);
        QCOMPARE(s.matches.front().id, std::string("t105"));
        s = scan.step(f, s.cursor, 3);
        QCOMPARE(s.read, 2);
        QCOMPARE(s.matches.back().id, std::string("t109"));
        QVERIFY(s.cursor.done);
    }

    void cursorText()
    {
        ScanCursor c;
        QCOMPARE(c.toString(), std::string("0"));
        c.started = true;
        c.score = 1700000000000;
        c.sameScore = 3;
        c.lastId = "order:42";
        const ScanCursor back = ScanCursor::fromString(c.toString());
        QCOMPARE(back.score, c.score);
        QCOMPARE(back.sameScore, 3);
        QCOMPARE(back.lastId, std::string("order:42"));
        QVERIFY(back.started);
        for (const char* bad : {"x", "1:", ":2", "1:-2:a", "1:2:", "1:0:a", ""})
            EXPECT_ERROR(delayq::ErrorCode::InvalidArgument, "", ScanCursor::fromString(bad));
    }

    void refusesBadSteps()
    {
        TaskScan scan(*m_queue);
        EXPECT_ERROR(delayq::ErrorCode::InvalidArgument, "", scan.step({}, {}, 0));
        EXPECT_ERROR(delayq::ErrorCode::InvalidArgument, "", scan.step({}, {}, 1001));
        TaskFilter f;
        f.minScore = 10;
        f.maxScore = 5;
        EXPECT_ERROR(delayq::ErrorCode::InvalidArgument, "", scan.step(f, {}, 10));
    }
};

QTEST_GUILESS_MAIN(TestTaskScan)
#include "tst_taskscan.moc"
