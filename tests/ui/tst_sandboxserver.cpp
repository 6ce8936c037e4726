#include "connection/sandboxserver.h"
#include <delayq/connection.h>
#include <delayq/connectionoptions.h>

#include <QCoreApplication>
#include <QDir>
#include <QTest>

using delayq::ui::SandboxServer;

// The sandbox's private redis-server (delayq-admin --sandbox): it answers on its loopback
// port, and its temporary folder exists only while it runs. The app holds a SandboxServer
// at every start, so a folder made without a server would be left in /tmp by every app
// that is killed.
class TestSandboxServer : public QObject
{
    Q_OBJECT

    // QTemporaryDir names its folders after the application.
    static QStringList ownFolders()
    {
        return QDir(QDir::tempPath())
            .entryList({QCoreApplication::applicationName() + QStringLiteral("-*")},
                       QDir::Dirs | QDir::NoDotAndDotDot);
    }

private slots:
    void makesNoFolderUntilStarted()
    {
        const QStringList before = ownFolders();
        {
            SandboxServer server;
            QVERIFY(!server.isRunning());
            QCOMPARE(ownFolders(), before);
        }
        QCOMPARE(ownFolders(), before);
    }

    void answersWhileRunningAndLeavesNothing()
    {
        const QStringList before = ownFolders();
        {
            SandboxServer server;
            QVERIFY2(server.start(), qPrintable(server.errorString()));
            QVERIFY(server.isRunning());
            QCOMPARE(ownFolders().size(), before.size() + 1);
            delayq::Connection probe(
                delayq::ConnectionOptions::fromUrl(server.url().toStdString()));
            probe.ping();
            server.stop();
            QVERIFY(!server.isRunning());
        }
        QCOMPARE(ownFolders(), before);
    }
};

QTEST_GUILESS_MAIN(TestSandboxServer)
#include "tst_sandboxserver.moc"
