#include "client/membertext.h"

#include <QTest>

#include <string>

namespace MemberText = delayq::ui::MemberText;

Q_DECLARE_METATYPE(std::string)

// Members travel through the GUI as QStrings: every byte string must come back unchanged,
// and what is shown must make bytes that are not text visible instead of hiding them.
class TestMemberText : public QObject
{
    Q_OBJECT

private slots:
    void bytesSurviveTheTrip_data()
    {
        QTest::addColumn<std::string>("bytes");
        QTest::addColumn<QString>("shown");
        using namespace std::string_literals;
        QTest::newRow("ascii json")
            << R"({"id":"a","msg":"x"})"s << QStringLiteral(R"({"id":"a","msg":"x"})");
        QTest::newRow("utf-8 text") << "Zürich ✓ 🚀"s << QStringLiteral("Zürich ✓ 🚀");
        QTest::newRow("latin-1 byte") << "caf\xe9"s << QStringLiteral("caf\\xe9");
        QTest::newRow("lone continuation") << "\x80x"s << QStringLiteral("\\x80x");
        QTest::newRow("ff fe") << "\xff\xfe"s << QStringLiteral("\\xff\\xfe");
        QTest::newRow("overlong slash") << "\xc0\xaf"s << QStringLiteral("\\xc0\\xaf");
        QTest::newRow("encoded surrogate") << "\xed\xa0\x80"s << QStringLiteral("\\xed\\xa0\\x80");
        QTest::newRow("past U+10FFFF")
            << "\xf4\x90\x80\x80"s << QStringLiteral("\\xf4\\x90\\x80\\x80");
        QTest::newRow("cut sequence at end") << "ok\xe2\x82"s << QStringLiteral("ok\\xe2\\x82");
        QTest::newRow("nul and controls") << "a\0b\x01\x7f"s << QStringLiteral("a\\x00b\\x01\\x7f");
        QTest::newRow("newline and tab") << "a\nb\tc"s << QStringLiteral("a\\nb\\tc");
        QTest::newRow("bidi override") << "abc\u202Edcb"s << QStringLiteral("abc\\u202edcb");
        QTest::newRow("c1 control") << "a\u0085b"s << QStringLiteral("a\\u0085b");
        QTest::newRow("empty") << ""s << QString();
    }
    void bytesSurviveTheTrip()
    {
        QFETCH(std::string, bytes);
        QFETCH(QString, shown);
        const QString text = MemberText::fromBytes(bytes);
        QCOMPARE(MemberText::toBytes(text), bytes);
        QCOMPARE(MemberText::displayText(text), shown);
    }

    void validUtf8IsOrdinaryText()
    {
        // Text members must compare equal to what a user types or pastes.
        const QString typed = QStringLiteral("{\"msg\":\"grüße\"}");
        QCOMPARE(MemberText::fromBytes(typed.toStdString()), typed);
        QCOMPARE(MemberText::toBytes(typed), typed.toStdString());
    }

    void multiLineKeepsItsLines()
    {
        QCOMPARE(MemberText::displayBytes("a\nb\xff"), QStringLiteral("a\nb\\xff"));
    }
};

QTEST_APPLESS_MAIN(TestMemberText)
#include "tst_membertext.moc"
