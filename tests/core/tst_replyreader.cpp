#include "transport/replyreader.h"
#include <delayq/error.h>

#include <QTest>

#include <string>

using namespace delayq;

Q_DECLARE_METATYPE(std::string)

// Decoding RESP bytes: whole replies come out, partial ones wait for more, and malformed or
// oversized ones are refused with a Protocol error instead of crashing or allocating wildly.
class TestReplyReader : public QObject
{
    Q_OBJECT

private slots:
    void decodes_data()
    {
        QTest::addColumn<std::string>("bytes");
        QTest::addColumn<int>("replies");   // complete replies expected before "need more"
        QTest::addColumn<QString>("error"); // "" when none is expected
        using namespace std::string_literals;
        QTest::newRow("integer") << ":42\r\n"s << 1 << QString();
        QTest::newRow("array of two") << "*2\r\n:1\r\n$3\r\nabc\r\n"s << 1 << QString();
        QTest::newRow("two replies") << "+OK\r\n$-1\r\n"s << 2 << QString();
        QTest::newRow("partial bulk waits") << "$5\r\nab"s << 0 << QString();
        QTest::newRow("array at the limit waits")
            << "*" + std::to_string(ReplyReader::kMaxElements) + "\r\n"
            << 0 << QString();
        QTest::newRow("array past the limit")
            << "*" + std::to_string(ReplyReader::kMaxElements + 1) + "\r\n"
            << 0 << QStringLiteral("announced more than");
        QTest::newRow("the fuzzer's 333 million")
            << "*333333333\r\n"s << 0 << QStringLiteral("announced more than");
        QTest::newRow("nested past the limit")
            << "*1\r\n*999999999\r\n"s << 0 << QStringLiteral("announced more than");
        QTest::newRow("unknown type") << "?x\r\n"s << 0 << QStringLiteral("malformed");
    }
    void decodes()
    {
        QFETCH(std::string, bytes);
        QFETCH(int, replies);
        QFETCH(QString, error);
        ReplyReader reader;
        int got = 0;
        try {
            reader.feed(bytes);
            while (reader.next())
                ++got;
            QVERIFY2(error.isEmpty(), "no error was raised");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Protocol);
            QVERIFY2(!error.isEmpty() && QString::fromUtf8(e.what()).contains(error), e.what());
        }
        QCOMPARE(got, replies);
    }

    void limitHoldsForEveryReader()
    {
        // One reader refusing must not leave the next one (same thread) thinking it failed.
        ReplyReader bad;
        bad.feed("*999999999\r\n");
        QVERIFY_THROWS_EXCEPTION(Error, bad.next());
        ReplyReader good;
        good.feed("*1\r\n:7\r\n");
        const auto reply = good.next();
        QVERIFY(reply);
        QCOMPARE(reply->elements.size(), size_t(1));
        QCOMPARE(reply->elements.front().integer, 7LL);
    }
};

QTEST_APPLESS_MAIN(TestReplyReader)
#include "tst_replyreader.moc"
