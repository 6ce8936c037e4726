// delayq-admin's version and man page: --version and --generate-man answer without a display,
// the man page has every option --help shows, and Help → About shows the version.
#include "window/aboutbox.h"

#include <delayq/version.h>

#include <QApplication>
#include <QMessageBox>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <QWidget>

class TestAdminVersion : public QObject
{
    Q_OBJECT

private slots:
    void printsWithoutDisplay_data()
    {
        QTest::addColumn<QString>("arg");
        QTest::addColumn<QString>("starts");
        QTest::newRow("--version") << "--version"
                                   << "delayq-admin " DELAYQ_VERSION "\n";
        QTest::newRow("-v") << "-v"
                            << "delayq-admin " DELAYQ_VERSION "\n";
        QTest::newRow("--help") << "--help"
                                << "Usage: ";
        QTest::newRow("man page") << "--generate-man"
                                  << ".TH DELAYQ\\-ADMIN 1";
    }
    void printsWithoutDisplay()
    {
        QFETCH(QString, arg);
        QFETCH(QString, starts);
        const QProcess::ExitStatus status = admin({arg});
        QCOMPARE(status, QProcess::NormalExit);
        QVERIFY2(m_exitCode == 0, m_err.constData());
        QVERIFY2(m_out.startsWith(starts.toUtf8()), m_out.constData());
    }

    void manPageHasEveryOption()
    {
        admin({QStringLiteral("--help")});
        const QByteArray help = m_out;
        admin({QStringLiteral("--generate-man")});
        QString man = QString::fromUtf8(m_out);
        man.replace(QStringLiteral("\\-"), QStringLiteral("-"));
        const QRegularExpression option(QStringLiteral("(?<![\\w-])--[a-z][a-z-]*"));
        int count = 0;
        for (const auto& m : option.globalMatch(QString::fromUtf8(help))) {
            QVERIFY2(man.contains(m.captured()), qPrintable(m.captured()));
            ++count;
        }
        QVERIFY(count >= 10);
        QVERIFY(!man.contains(QStringLiteral("generate-man")));
    }

    void aboutShowsTheVersion()
    {
        QCoreApplication::setApplicationVersion(QStringLiteral(DELAYQ_VERSION));
        QWidget window;
        delayq::ui::showAboutBox(&window);
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("aboutBox"));
        QVERIFY(box);
        QCOMPARE(box->text(), QStringLiteral("delayq-admin " DELAYQ_VERSION));
        QVERIFY(box->informativeText().contains(QString::fromLatin1(qVersion())));
        box->close();
    }

private:
    // Runs delayq-admin with no display at all: no DISPLAY, no WAYLAND_DISPLAY, and the xcb
    // platform, which would fail to start if a QApplication were made.
    QProcess::ExitStatus admin(const QStringList& args)
    {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(DELAYQ_ADMIN), args);
        if (!p.waitForFinished(30000))
            p.kill();
        p.waitForFinished();
        m_exitCode = p.exitCode();
        m_out = p.readAllStandardOutput();
        m_err = p.readAllStandardError();
        return p.exitStatus();
    }

    int m_exitCode = -1;
    QByteArray m_out;
    QByteArray m_err;
};

QTEST_MAIN(TestAdminVersion)
#include "tst_adminversion.moc"
