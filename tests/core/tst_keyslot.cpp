#include "cluster/keyslot.h"

#include <QTest>

using namespace delayq;

// The key to slot function against the slots redis-server's CLUSTER KEYSLOT gives, and where
// a command's first key is found (the routing rule of core/cluster/keyslot.h).
class TestKeySlot : public QObject
{
    Q_OBJECT

private slots:
    void slotOfKey_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("slot");
        QTest::newRow("plain") << QByteArray("foo") << 12182;
        QTest::newRow("plain 2") << QByteArray("bar") << 5061;
        QTest::newRow("check string") << QByteArray("123456789") << 12739;
        QTest::newRow("hash tag") << QByteArray("{user1000}.following") << 3443;
        QTest::newRow("empty tag: whole key") << QByteArray("foo{}{bar}") << 8363;
        QTest::newRow("tag up to the first }") << QByteArray("foo{{bar}}zap") << 4015;
        QTest::newRow("first tag only") << QByteArray("foo{bar}{zap}") << 5061;
        QTest::newRow("a queue key") << QByteArray("dq:{orders}:pending") << 105;
        QTest::newRow("only braces") << QByteArray("{}") << 15257;
        QTest::newRow("unclosed") << QByteArray("a{") << 14311;
    }
    void slotOfKey()
    {
        QFETCH(QByteArray, key);
        QFETCH(int, slot);
        QCOMPARE(keyslot::ofKey(key.toStdString()), slot);
    }

    void slotOfCommand()
    {
        const int orders = keyslot::ofKey("{orders}");
        QCOMPARE(keyslot::ofCommand({"ZCARD", "dq:{orders}:pending"}), orders);
        QCOMPARE(keyslot::ofCommand({"evalsha", "abc", "2", "dq:{orders}:a", "other"}), orders);
        QCOMPARE(keyslot::ofCommand({"EVAL", "return 1", "0", "arg"}), -1);
        QCOMPARE(keyslot::ofCommand({"EVALSHA", "abc", "x", "dq:{orders}:a"}), -1);
        QCOMPARE(keyslot::ofCommand({"MEMORY", "USAGE", "dq:{orders}:a"}), orders);
        for (const char* keyless : {"PING", "TIME", "INFO", "SCRIPT", "SCAN", "PUBLISH", "DBSIZE"})
            QCOMPARE(keyslot::ofCommand({keyless, "dq:{orders}:a"}), -1);
        QCOMPARE(keyslot::ofCommand({"PING"}), -1);
        QCOMPARE(keyslot::ofCommand({}), -1);
    }
};

QTEST_GUILESS_MAIN(TestKeySlot)
#include "tst_keyslot.moc"
