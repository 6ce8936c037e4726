#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/queuesnapshot.h>

#include <QTest>

using namespace delayq;

// What a dashboard reads of many queues at once (delayq/queuesnapshot.h): the native queues'
// figures, and the plain sorted sets' beside them.
class TestQueueSnapshot : public QueueSuite
{
    Q_OBJECT

private slots:
    void nativeQueueFigures()
    {
        PushRequest overdue = request("due", 0, "due");
        overdue.dueAtMs = m_conn->serverNowMs() - 90'000;
        m_queue->push(overdue);
        m_queue->push(request("later", 600'000, "later"));
        QueueSnapshotReader reader(*m_conn, "dq");
        const auto snapshots = reader.readAll(false);
        QCOMPARE(snapshots.size(), size_t(1));
        const QueueSnapshot& s = snapshots.front();
        QCOMPARE(s.name, std::string("orders"));
        QCOMPARE(s.counts.pending, 2LL);
        QCOMPARE(s.counts.dueNow, 1LL);
        QVERIFY2(s.oldestOverdueMs >= 90'000, std::to_string(s.oldestOverdueMs).c_str());
        QCOMPARE(s.counters.at("pushed"), 2LL);
    }

    // The unit decides what "due now" and "overdue" are: a score of now in seconds read as ms
    // would be 1970, every member overdue by 56 years.
    void plainKeyFigures_data()
    {
        QTest::addColumn<bool>("seconds");
        QTest::newRow("scores in ms") << false;
        QTest::newRow("scores in s") << true;
    }
    void plainKeyFigures()
    {
        QFETCH(bool, seconds);
        const long long nowMs = m_conn->serverNowMs();
        const auto score = [&](long long ms) { return std::to_string(seconds ? ms / 1000 : ms); };
        m_conn->command({"ZADD", "legacy", score(nowMs - 90'000), "late", score(nowMs - 5'000),
                         "due", score(nowMs + 600'000), "later"});
        const auto unit =
            seconds ? PlainQueue::ScoreUnit::Seconds : PlainQueue::ScoreUnit::Milliseconds;
        QueueSnapshotReader reader(*m_conn, "dq");
        const auto snapshots = reader.readPlain({{"legacy", unit}});
        QCOMPARE(snapshots.size(), size_t(1));
        const QueueSnapshot& s = snapshots.front();
        QCOMPARE(s.name, std::string("legacy"));
        QCOMPARE(s.counts.pending, 3LL);
        QCOMPARE(s.counts.dueNow, 2LL);
        QVERIFY2(s.oldestOverdueMs >= 89'000 && s.oldestOverdueMs < 100'000,
                 std::to_string(s.oldestOverdueMs).c_str());
        QCOMPARE(reader.skipped(), size_t(0));
    }

    // A key that changed type since it was listed is left out and counted; an empty one is
    // read as empty, not as an error.
    void plainKeysOfAnotherTypeAreSkipped()
    {
        m_conn->command({"ZADD", "kept", "1", "a"});
        m_conn->command({"SET", "now-a-string", "x"});
        QueueSnapshotReader reader(*m_conn, "dq");
        const auto snapshots =
            reader.readPlain({{"kept", PlainQueue::ScoreUnit::Milliseconds},
                              {"now-a-string", PlainQueue::ScoreUnit::Milliseconds},
                              {"gone", PlainQueue::ScoreUnit::Seconds}});
        QCOMPARE(snapshots.size(), size_t(2));
        QCOMPARE(snapshots[0].name, std::string("kept"));
        QCOMPARE(snapshots[1].name, std::string("gone"));
        QCOMPARE(snapshots[1].counts.pending, 0LL);
        QCOMPARE(snapshots[1].oldestOverdueMs, 0LL);
        QCOMPARE(reader.skipped(), size_t(1));
    }

    void tooManyKeysAreRefusedBeforeSending()
    {
        std::vector<QueueSnapshotReader::PlainKey> keys(QueueSnapshotReader::kMaxQueuesPerCall + 1,
                                                        {"k", PlainQueue::ScoreUnit::Milliseconds});
        QueueSnapshotReader reader(*m_conn, "dq");
        QVERIFY(isError(errorOf([&] { reader.readPlain(keys); }), ErrorCode::InvalidArgument,
                        QStringLiteral("too many queues")));
    }
};

QTEST_MAIN(TestQueueSnapshot)
#include "tst_queuesnapshot.moc"
