#include "clirunner.h"
#include "groupsuite.h"
#include "sentinelgroup.h"

#include <QTest>

// delayq end to end through a Sentinel group: the URL reaches the master the sentinels name,
// --verbose says which, and a malformed or unknown group is refused with its exit code.
class TestCliSentinel : public GroupSuite
{
    Q_OBJECT

public:
    TestCliSentinel() : GroupSuite(m_group, "sentinel group") {}

private slots:
    void pushAndListThroughSentinels()
    {
        const CliRunner cli(m_group.url());
        CliRun r = cli.run({"push", "mail", "hello", "--id", "t1", "--verbose"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("created t1 due "));
        RedisServer* master = m_group.master();
        QVERIFY(master);
        const QByteArray named =
            QStringLiteral("master 'mymaster' at 127.0.0.1:%1").arg(master->port()).toUtf8();
        QVERIFY2(r.err.contains(named), r.err.constData());
        QCOMPARE(master->cli({"ZCARD", "dq:{mail}:pending"}).trimmed(), QByteArray("1"));

        r = cli.run({"ls", "mail", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\"t1\""), r.out.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData()); // without --verbose, nothing on stderr
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no master name") << "redis+sentinel://127.0.0.1:26379" << 2
                                        << "invalid Redis Sentinel URL: the "
                                           "master name is missing";
        QTest::newRow("bad port") << "redis+sentinel://127.0.0.1:26379,127.0.0.1:x/mymaster" << 2
                                  << "the port of sentinel 2";
        QTest::newRow("unknown key") << "redis+sentinel://127.0.0.1:26379/mymaster?sentinel_pw=x"
                                     << 2 << "unknown parameter 'sentinel_pw'";
        QTest::newRow("unknown master") << QString::fromStdString(m_group.url("nosuch")) << 3
                                        << "no sentinel knows a master named 'nosuch'";
    }
    void refusals()
    {
        QFETCH(QString, url);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliRun r = CliRunner(url.toStdString()).run({"ls", "mail"});
        expectRefusal(r, exitCode, message);
        QCOMPARE(r.err.count('\n'), 1);
    }

    void helpShowsTheSentinelForm()
    {
        const CliRun r = CliRunner("redis://127.0.0.1:1").run({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("redis+sentinel://"));
    }

private:
    SentinelGroup m_group;
};

QTEST_GUILESS_MAIN(TestCliSentinel)
#include "tst_clisentinel.moc"
