#include "client/openqueue.h"

#include <QTest>

#include <functional>
#include <memory>

using delayq::ui::OpenQueue;

// Pieces of the window as OpenQueue sees them: only the setters they have. Each call is
// written to the log, so a test sees what a piece was told and in which order.
class FullPiece : public QObject
{
public:
    QStringList log;
    void setPlain(bool plain, const QString& unit = {})
    {
        log << QStringLiteral("plain %1 %2").arg(plain).arg(unit);
    }
    void setQueue(const QString& queue) { log << QStringLiteral("queue ") + queue; }
    void setReadOnly(bool readOnly, const QString& reason)
    {
        log << QStringLiteral("read-only %1 %2").arg(readOnly).arg(reason);
    }
    void setUtc(bool utc) { log << QStringLiteral("utc %1").arg(utc); }
    void setClockOffset(qint64 ms) { log << QStringLiteral("offset %1").arg(ms); }
};

class PairPiece : public QObject
{
public:
    QStringList log;
    void setQueue(const QString& queue, bool plain = false)
    {
        log << QStringLiteral("queue %1 %2").arg(queue).arg(plain);
    }
    void setReadOnly(bool readOnly) { log << QStringLiteral("read-only %1").arg(readOnly); }
};

Q_DECLARE_METATYPE(std::function<void(OpenQueue*)>)

// The window's one open-queue state: every piece that follows it is told the state when it
// starts to follow and each change after, through the setters it has, plain before queue.
class TestOpenQueue : public QObject
{
    Q_OBJECT

private slots:
    void aFollowerStartsFromTheStateNow()
    {
        OpenQueue open;
        open.open(QStringLiteral("legacy"), true, QStringLiteral("s"));
        open.setReadOnly(true, QStringLiteral("a replica"));
        open.setUtc(true);
        open.setClockOffset(-250);
        FullPiece piece;
        open.follow(&piece);
        QCOMPARE(piece.log, QStringList({"plain 1 s", "queue legacy", "read-only 1 a replica",
                                         "utc 1", "offset -250"}));
    }

    void eachChangeReachesTheFollowers_data()
    {
        QTest::addColumn<std::function<void(OpenQueue*)>>("change");
        QTest::addColumn<QStringList>("full");
        QTest::addColumn<QStringList>("pair");
        using Change = std::function<void(OpenQueue*)>;
        QTest::newRow("a queue") << Change([](OpenQueue* o) { o->open("orders", false); })
                                 << QStringList({"plain 0 ", "queue orders"})
                                 << QStringList({"queue orders 0"});
        QTest::newRow("a plain key, unit to detect")
            << Change([](OpenQueue* o) { o->open("legacy", true); })
            << QStringList({"plain 1 ", "queue legacy"}) << QStringList({"queue legacy 1"});
        QTest::newRow("the unit detected for the key open") << Change([](OpenQueue* o) {
            o->open("legacy", true);
            o->setUnit("legacy", "ms");
        }) << QStringList({"plain 1 ", "queue legacy", "plain 1 ms"})
                                                            << QStringList({"queue legacy 1"});
        QTest::newRow("a unit detected for a key no longer open")
            << Change([](OpenQueue* o) {
                   o->open("legacy", true);
                   o->open("orders", false);
                   o->setUnit("legacy", "ms");
               })
            << QStringList({"plain 1 ", "queue legacy", "plain 0 ", "queue orders"})
            << QStringList({"queue legacy 1", "queue orders 0"});
        QTest::newRow("read-only")
            << Change([](OpenQueue* o) { o->setReadOnly(true, "the user has no write rights"); })
            << QStringList({"read-only 1 the user has no write rights"})
            << QStringList({"read-only 1"});
        QTest::newRow("utc, twice") << Change([](OpenQueue* o) {
            o->setUtc(true);
            o->setUtc(true);
        }) << QStringList({"utc 1"}) << QStringList();
        QTest::newRow("clock offset") << Change([](OpenQueue* o) { o->setClockOffset(1200); })
                                      << QStringList({"offset 1200"}) << QStringList();
    }

    void eachChangeReachesTheFollowers()
    {
        QFETCH(std::function<void(OpenQueue*)>, change);
        QFETCH(QStringList, full);
        QFETCH(QStringList, pair);
        OpenQueue open;
        FullPiece fullPiece;
        PairPiece pairPiece;
        open.follow(&fullPiece);
        open.follow(&pairPiece);
        fullPiece.log.clear();
        pairPiece.log.clear();
        change(&open);
        QCOMPARE(fullPiece.log, full);
        QCOMPARE(pairPiece.log, pair);
    }

    void aPieceGoneIsNotCalled()
    {
        OpenQueue open;
        auto piece = std::make_unique<FullPiece>();
        open.follow(piece.get());
        piece.reset();
        open.open(QStringLiteral("orders"), false); // would crash if still connected
        open.setReadOnly(true, QStringLiteral("x"));
        QCOMPARE(open.name(), QStringLiteral("orders"));
    }
};

QTEST_GUILESS_MAIN(TestOpenQueue)
#include "tst_openqueue.moc"
