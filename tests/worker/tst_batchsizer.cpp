#include "worker/batchsizer.h"

#include <QTest>

using namespace delayq;
using std::chrono::milliseconds;

// How a worker thread's claims grow and shrink (core/worker/batchsizer.h): from the base, doubling
// while hands are full and quick, straight to the maximum on a backlog, back to the base when
// a claim finds less, halved after a slow hand.
class TestBatchSizer : public QObject
{
    Q_OBJECT

private slots:
    void claimed_data()
    {
        QTest::addColumn<int>("start");  // the size before the claim (reached by doubling)
        QTest::addColumn<int>("got");    // of `start` asked
        QTest::addColumn<int>("handMs"); // how long the previous hand took
        QTest::addColumn<bool>("moreDue");
        QTest::addColumn<int>("next");
        QTest::newRow("full, quick: doubles") << 10 << 10 << 5 << false << 20;
        QTest::newRow("full, quick, backlog: the maximum") << 10 << 10 << 5 << true << 200;
        QTest::newRow("doubling stops at the maximum") << 160 << 160 << 5 << false << 200;
        QTest::newRow("found less: the base") << 80 << 30 << 5 << true << 10;
        QTest::newRow("slow hand: halves") << 80 << 80 << 400 << true << 40;
        QTest::newRow("slow hand, at the base: stays") << 10 << 10 << 400 << true << 10;
        QTest::newRow("neither quick nor slow: stays") << 40 << 40 << 100 << true << 40;
    }
    void claimed()
    {
        QFETCH(int, start);
        QFETCH(int, got);
        QFETCH(int, handMs);
        QFETCH(bool, moreDue);
        QFETCH(int, next);
        BatchSizer sizer(10, 200);
        while (sizer.next() < start)
            sizer.claimed(sizer.next(), sizer.next(), milliseconds(1), false);
        QCOMPARE(sizer.next(), start);
        sizer.claimed(start, got, milliseconds(handMs), moreDue);
        QCOMPARE(sizer.next(), next);
    }
};

QTEST_APPLESS_MAIN(TestBatchSizer)
#include "tst_batchsizer.moc"
