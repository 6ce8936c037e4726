#include <delayq/error.h>
#include <delayq/reply.h>

#include <QTest>

#include <set>

using namespace delayq;

namespace {

Reply text(const std::string& s)
{
    Reply r;
    r.type = Reply::Type::String;
    r.str = s;
    return r;
}

} // namespace

// Reading numbers out of replies, and the error codes' stable names.
class TestReply : public QObject
{
    Q_OBJECT

private slots:
    void integers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        QTest::newRow("plain") << "1733045400000" << true << qint64(1'733'045'400'000);
        QTest::newRow("negative") << "-5" << true << qint64(-5);
        QTest::newRow("exponent form of a whole number")
            << "1.7e12" << true << qint64(1'700'000'000'000);
        QTest::newRow("fraction") << "1.5" << false << qint64(0);
        QTest::newRow("inf") << "inf" << false << qint64(0);
        QTest::newRow("nan") << "nan" << false << qint64(0);
        QTest::newRow("text") << "abc" << false << qint64(0);
        QTest::newRow("trailing text") << "12abc" << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
    }
    void integers()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        const Reply r = ::text(text.toStdString());
        try {
            const long long n = r.toInteger();
            QVERIFY2(ok, qPrintable(QString::number(n)));
            QCOMPARE(n, value);
        } catch (const Error& e) {
            QVERIFY2(!ok, e.what());
            QCOMPARE(e.code(), ErrorCode::Protocol);
        }
    }

    void otherTypes()
    {
        Reply n;
        n.type = Reply::Type::Integer;
        n.integer = 42;
        QCOMPARE(n.toInteger(), 42LL);
        const Reply nil;
        QVERIFY(nil.isNil());
        QCOMPARE(nil.toInteger(7), 7LL);
        QCOMPARE(nil.toString(), std::string());
        QVERIFY(!nil.toOptionalString());
        QVERIFY_THROWS_EXCEPTION(Error, nil.toInteger());
        Reply array;
        array.type = Reply::Type::Array;
        QVERIFY_THROWS_EXCEPTION(Error, array.toInteger());
        QCOMPARE(text(std::string("a\0b", 3)).toOptionalString(), std::string("a\0b", 3));
    }

    void errorCodeNamesAreStable()
    {
        const std::pair<ErrorCode, const char*> names[] = {
            {ErrorCode::Connection, "connection"},
            {ErrorCode::Timeout, "timeout"},
            {ErrorCode::Auth, "auth"},
            {ErrorCode::Tls, "tls"},
            {ErrorCode::NoPermission, "no-permission"},
            {ErrorCode::ReadOnlyReplica, "read-only-replica"},
            {ErrorCode::OutOfMemory, "out-of-memory"},
            {ErrorCode::DiskError, "disk-error"},
            {ErrorCode::NoReplicas, "no-replicas"},
            {ErrorCode::WrongType, "wrong-type"},
            {ErrorCode::NotFound, "not-found"},
            {ErrorCode::Exists, "exists"},
            {ErrorCode::LeaseLost, "lease-lost"},
            {ErrorCode::TooLarge, "too-large"},
            {ErrorCode::InvalidArgument, "invalid-argument"},
            {ErrorCode::Protocol, "protocol"},
            {ErrorCode::Script, "script"},
        };
        for (const auto& [code, name] : names)
            QCOMPARE(errorCodeName(code), name);
        const Error e(ErrorCode::Exists, "task x exists");
        QCOMPARE(e.code(), ErrorCode::Exists);
        QCOMPARE(std::string(e.what()), std::string("task x exists"));
    }
};

QTEST_GUILESS_MAIN(TestReply)
#include "tst_reply.moc"
