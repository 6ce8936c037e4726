#include <delayq/error.h>
#include <delayq/keys.h>

#include <QTest>

using namespace delayq;

// The key layout of docs/design.md ("Redis key layout") and the name rules that keep it safe.
class TestKeys : public QObject
{
    Q_OBJECT

private slots:
    void layout()
    {
        const Keys k("dq", "orders");
        QCOMPARE(k.pending(), std::string("dq:{orders}:pending"));
        QCOMPARE(k.active(), std::string("dq:{orders}:active"));
        QCOMPARE(k.dead(), std::string("dq:{orders}:dead"));
        QCOMPARE(k.config(), std::string("dq:{orders}:config"));
        QCOMPARE(k.stats(), std::string("dq:{orders}:stats"));
        QCOMPARE(k.wake(), std::string("dq:{orders}:wake"));
        QCOMPARE(k.dataPrefix(), std::string("dq:{orders}:d:"));
        QCOMPARE(k.run(), std::string("dq:{orders}:run"));
        QCOMPARE(k.errors(), std::string("dq:{orders}:errors"));
        QCOMPARE(k.oldTaskPrefix(), std::string("dq:{orders}:t:"));
        QCOMPARE(k.minute(29'000'000), std::string("dq:{orders}:m:29000000"));
        QCOMPARE(k.minutePrefix(), std::string("dq:{orders}:m:"));
        QCOMPARE(Keys::queues("dq"), std::string("dq:queues"));
        QCOMPARE(Keys("app.v2", "a:b-c_d.e").pending(), std::string("app.v2:{a:b-c_d.e}:pending"));
        // A record is read by read_record.lua, given the first four keys of every script: only
        // a script knows which bucket holds it (lua/buckets.lua).
        const std::vector<std::string> read = k.recordRead("01JABCD");
        QCOMPARE(read.size(), size_t(8));
        QCOMPARE(read[0], std::string("EVAL"));
        QVERIFY(read[1].starts_with("-- delayq script: read_record\n"));
        QCOMPARE(read[2], std::string("4"));
        QCOMPARE(read[6], std::string("dq:{orders}:d:"));
        QCOMPARE(read[7], std::string("01JABCD"));
    }

    void queueNames_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("simple") << QByteArray("orders") << true;
        QTest::newRow("all allowed") << QByteArray("Az09._:-") << true;
        QTest::newRow("128") << QByteArray(128, 'a') << true;
        QTest::newRow("129") << QByteArray(129, 'a') << false;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("space") << QByteArray("a b") << false;
        QTest::newRow("open brace") << QByteArray("a{") << false;
        QTest::newRow("close brace") << QByteArray("}") << false;
        QTest::newRow("star") << QByteArray("a*") << false;
        QTest::newRow("NUL") << QByteArray("a\0b", 3) << false;
        QTest::newRow("UTF-8") << QByteArray("\xc3\xa9") << false;
    }
    void queueNames()
    {
        QFETCH(QByteArray, name);
        QFETCH(bool, valid);
        const auto error = [&] {
            try {
                Keys::validateQueueName(name.toStdString());
                (void)Keys("dq", name.toStdString());
                return ErrorCode::Protocol; // stands for "accepted"
            } catch (const Error& e) {
                return e.code();
            }
        }();
        QCOMPARE(error, valid ? ErrorCode::Protocol : ErrorCode::InvalidArgument);
    }

    void taskIds_data()
    {
        QTest::addColumn<QByteArray>("id");
        QTest::addColumn<bool>("valid");
        QTest::newRow("ulid") << QByteArray("01JD8X6Q3Z5V4KX0N9M2W7R1TB") << true;
        QTest::newRow("spaces and braces") << QByteArray("order 42 {eu}") << true;
        QTest::newRow("UTF-8") << QByteArray("t\xc3\xa2"
                                             "che")
                               << true;
        QTest::newRow("256") << QByteArray(256, 'i') << true;
        QTest::newRow("257") << QByteArray(257, 'i') << false;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("tab") << QByteArray("a\tb") << false;
        QTest::newRow("NUL") << QByteArray("a\0b", 3) << false;
        QTest::newRow("DEL") << QByteArray("\x7f") << false;
    }
    void taskIds()
    {
        QFETCH(QByteArray, id);
        QFETCH(bool, valid);
        try {
            Keys::validateTaskId(id.toStdString());
            QVERIFY(valid);
        } catch (const Error& e) {
            QVERIFY2(!valid, e.what());
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QVERIFY(std::string(e.what()).find("task id") != std::string::npos);
        }
    }

    void prefixes_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<bool>("valid");
        QTest::newRow("dq") << QByteArray("dq") << true;
        QTest::newRow("64") << QByteArray(64, 'p') << true;
        QTest::newRow("65") << QByteArray(65, 'p') << false;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("brace") << QByteArray("d{q") << false;
        QTest::newRow("space") << QByteArray("d q") << false;
    }
    void prefixes()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(bool, valid);
        try {
            (void)Keys(prefix.toStdString(), "q");
            QVERIFY(valid);
        } catch (const Error& e) {
            QVERIFY2(!valid, e.what());
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
        }
    }
};

QTEST_GUILESS_MAIN(TestKeys)
#include "tst_keys.moc"
