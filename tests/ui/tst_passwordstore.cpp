#include "connection/connectiondialog.h"
#include "connection/passwordstore.h"

#include <QCheckBox>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace delayq::ui;

// Passwords through a real Secret Service: a private session bus and a gnome-keyring-daemon
// with an unlocked login keyring, both started here in a temporary home, so nothing touches
// the user's own keychain.
class TestPasswordStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("delayq-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_passwordstore"));
        QSettings().clear();
        if (!PasswordStore::isBuiltIn())
            QSKIP("built without QtKeychain");
        const QString dbus = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
        const QString keyring =
            QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon"));
        if (dbus.isEmpty() || keyring.isEmpty())
            QSKIP("needs dbus-daemon and gnome-keyring-daemon (scripts/setup installs them)");

        QVERIFY(m_dir.isValid());
        const QDir home(m_dir.path());
        for (const char* sub : {"run", "data", "config"})
            QVERIFY(home.mkpath(QLatin1String(sub)));
        QVERIFY(QFile::setPermissions(home.filePath(QStringLiteral("run")),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home.filePath(QStringLiteral("run")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        // No display: a keyring prompt fails at once instead of waiting for a click.
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));

        m_bus.setProcessEnvironment(env);
        m_bus.start(dbus, {QStringLiteral("--session"), QStringLiteral("--nofork"),
                           QStringLiteral("--print-address=1"),
                           QStringLiteral("--address=unix:path=") +
                               home.filePath(QStringLiteral("run/bus"))});
        QVERIFY2(m_bus.waitForStarted(), qPrintable(m_bus.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(m_bus.canReadLine(), 10000);
        const QByteArray address = m_bus.readLine().trimmed();
        QVERIFY(!address.isEmpty());
        // Before the first keychain job: the bus is looked up once per process.
        qputenv("DBUS_SESSION_BUS_ADDRESS", address);
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QString::fromLatin1(address));

        m_keyring.setProcessEnvironment(env);
        m_keyring.start(keyring, {QStringLiteral("--foreground"), QStringLiteral("--unlock"),
                                  QStringLiteral("--components=secrets")});
        QVERIFY2(m_keyring.waitForStarted(), qPrintable(m_keyring.errorString()));
        // The login keyring's password. An empty one leaves no login collection to store
        // into; this keyring lives in the temporary home only.
        m_keyring.write("delayq-test-keyring");
        m_keyring.closeWriteChannel();

        QDBusConnection probe =
            QDBusConnection::connectToBus(QString::fromLatin1(address), QStringLiteral("probe"));
        QVERIFY(probe.isConnected());
        QTRY_VERIFY_WITH_TIMEOUT(
            probe.interface()->isServiceRegistered(QStringLiteral("org.freedesktop.secrets")),
            10000);
        QDBusConnection::disconnectFromBus(QStringLiteral("probe"));
    }

    void cleanupTestCase()
    {
        for (QProcess* process : {&m_keyring, &m_bus}) {
            if (process->state() == QProcess::NotRunning)
                continue;
            process->terminate();
            if (!process->waitForFinished(5000))
                process->kill();
        }
    }

    void storeRoundTrip_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("password");
        QTest::newRow("plain") << "redis://10.0.0.1:6379/0"
                               << "s3cret";
        QTest::newRow("user, unicode, quotes, markup")
            << "redis://ops@cache.example:6380/2" << QStringLiteral("pä ss wörd ✓ \"'<b>x</b>");
        QTest::newRow("unix socket, long")
            << "unix:///run/redis/redis.sock" << QString(300, QLatin1Char('p'));
    }
    void storeRoundTrip()
    {
        QFETCH(QString, key);
        QFETCH(QString, password);
        PasswordStore store;
        QSignalSpy written(&store, &PasswordStore::passwordWritten);
        store.write(key, password);
        QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 10000);
        QCOMPARE(written.at(0).at(0).toString(), key);
        QCOMPARE(written.at(0).at(1).value<PasswordStore::Result>(), PasswordStore::Result::Done);

        QString stored;
        QCOMPARE(readBack(key, &stored), PasswordStore::Result::Done);
        QCOMPARE(stored, password);

        QSignalSpy removed(&store, &PasswordStore::passwordRemoved);
        store.remove(key);
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, 10000);
        QCOMPARE(removed.at(0).at(1).value<PasswordStore::Result>(), PasswordStore::Result::Done);
        QCOMPARE(readBack(key, &stored), PasswordStore::Result::NotFound);
        QVERIFY(stored.isEmpty());
    }

    // Saved with the box ticked, a profile brings its password back in the next dialog,
    // and QSettings never holds it.
    void dialogRoundTrip()
    {
        QSettings().clear();
        const QString url = QStringLiteral("redis://10.0.0.7:6379/1?user=ops");
        {
            ConnectionDialog dialog;
            QVERIFY(
                saveRemembered(dialog, QStringLiteral("kc"), url, QStringLiteral("round-trip-pw")));
            QTRY_VERIFY_WITH_TIMEOUT(!dialog.keychainNote()->isHidden(), 10000);
            QVERIFY2(dialog.keychainNote()->text().contains(QStringLiteral("saved")),
                     qPrintable(dialog.keychainNote()->text()));
        }
        QVERIFY(!settingsBytes().contains("round-trip-pw"));

        ConnectionDialog reopened;
        QCOMPARE(reopened.urlEdit()->text(), url);
        QVERIFY(reopened.rememberBox()->isChecked());
        QTRY_COMPARE_WITH_TIMEOUT(reopened.passwordEdit()->text(), QStringLiteral("round-trip-pw"),
                                  10000);
        QCOMPARE(reopened.passwordEdit()->echoMode(), QLineEdit::Password);
        QVERIFY(reopened.validate());
        QCOMPARE(reopened.settings().password, QStringLiteral("round-trip-pw"));
        QVERIFY(!reopened.windowTitle().contains(QStringLiteral("round-trip-pw")));
    }

    // A profile saved before URLs were rebuilt keeps its own spelling, and its keychain entry
    // that spelling: loading it still fills the password in.
    void legacySpellingStillFills()
    {
        QSettings().clear();
        const QString legacy = QStringLiteral("redis://10.0.0.23:6379");
        saveOldProfile(legacy, QStringLiteral("legacy-pw"));
        ConnectionDialog dialog;
        QCOMPARE(dialog.urlEdit()->text(), legacy);
        QTRY_COMPARE_WITH_TIMEOUT(dialog.passwordEdit()->text(), QStringLiteral("legacy-pw"),
                                  10000);
        QCOMPARE(ConnectionDialog::rememberedKey(QStringLiteral("redis://10.0.0.23:6379/0")),
                 legacy);
    }

    // A keychain entry named by a URL that holds a password (saved before the fix) goes
    // with the scrub: its name is the secret.
    void scrubRemovesLeakyEntry()
    {
        QSettings().clear();
        const QString leaky = QStringLiteral("redis://Zq9-secret@10.0.0.36");
        saveOldProfile(leaky, QStringLiteral("typed-pw"));
        QString stored;
        QCOMPARE(readBack(leaky, &stored), PasswordStore::Result::Done);
        ConnectionDialog::scrubStoredPasswords();
        QVERIFY(!settingsBytes().contains("Zq9"));
        QTRY_COMPARE_WITH_TIMEOUT(readBack(leaky, &stored), PasswordStore::Result::NotFound, 10000);
    }

    // A password the keychain filled in belongs to its server: once the URL names another
    // one, the field is cleared (so the password is neither sent there nor remembered under
    // its name), unless the user has typed into the field since.
    void filledPasswordStaysWithItsServer_data()
    {
        QTest::addColumn<QString>("newUrl");
        QTest::addColumn<bool>("typed"); // the user types into the password field first
        QTest::addColumn<bool>("kept");
        QTest::newRow("other host") << "redis://10.0.0.99:6379/1?user=ops" << false << false;
        QTest::newRow("other port") << "redis://10.0.0.17:6380/1?user=ops" << false << false;
        QTest::newRow("other db") << "redis://10.0.0.17:6379/2?user=ops" << false << false;
        QTest::newRow("other user") << "redis://10.0.0.17:6379/1?user=eve" << false << false;
        QTest::newRow("half-typed URL") << "redis://10.0.0.17:" << false << false;
        QTest::newRow("same server, other spelling")
            << "redis://ops:@10.0.0.17:6379/1" << false << true;
        QTest::newRow("typed after the fill")
            << "redis://10.0.0.99:6379/1?user=ops" << true << true;
    }
    void filledPasswordStaysWithItsServer()
    {
        QFETCH(QString, newUrl);
        QFETCH(bool, typed);
        QFETCH(bool, kept);
        QSettings().clear();
        const QString url = QStringLiteral("redis://10.0.0.17:6379/1?user=ops");
        {
            ConnectionDialog dialog;
            QVERIFY(
                saveRemembered(dialog, QStringLiteral("filled"), url, QStringLiteral("follow-pw")));
            QTRY_VERIFY_WITH_TIMEOUT(!dialog.keychainNote()->isHidden(), 10000);
        }
        ConnectionDialog dialog;
        QTRY_COMPARE_WITH_TIMEOUT(dialog.passwordEdit()->text(), QStringLiteral("follow-pw"),
                                  10000);
        QString expected = QStringLiteral("follow-pw");
        if (typed) {
            QTest::keyClicks(dialog.passwordEdit(), QStringLiteral("-2"));
            expected += QStringLiteral("-2");
        }
        dialog.urlEdit()->setText(newUrl);
        QCOMPARE(dialog.passwordEdit()->text(), kept ? expected : QString());
        if (kept)
            return;
        QVERIFY(dialog.keychainNote()->text().contains(QStringLiteral("another server")));
        if (!dialog.validate())
            return; // a half-typed URL is refused anyway
        QVERIFY(dialog.settings().password.isEmpty());
        // Saved with "remember" still ticked: nothing is written under the new server's name.
        dialog.nameEdit()->setText(QStringLiteral("moved"));
        QVERIFY(dialog.rememberBox()->isChecked());
        QVERIFY(dialog.saveProfile());
        QString stored;
        QCOMPARE(readBack(ConnectionDialog::stripPassword(newUrl), &stored),
                 PasswordStore::Result::NotFound);
    }

    // One entry per server: deleting one of two profiles that remember it keeps it, deleting
    // the last one (or unticking the box) removes it.
    void forgettingProfiles()
    {
        QSettings().clear();
        const QString url = QStringLiteral("redis://10.0.0.8:6379/0");
        ConnectionDialog dialog;
        for (const char* name : {"first", "second"})
            QVERIFY(saveRemembered(dialog, QLatin1String(name), url, QStringLiteral("shared-pw")));
        QString stored;
        QCOMPARE(readBack(url, &stored), PasswordStore::Result::Done);
        QCOMPARE(stored, QStringLiteral("shared-pw"));

        QPushButton* deleteButton = findDeleteButton(dialog);
        QVERIFY(deleteButton);
        // The combo box shows "second", the profile just saved.
        deleteButton->click();
        QCOMPARE(ConnectionDialog::profileNames(), QStringList{QStringLiteral("first")});
        // Keychain jobs run one after another, so this read comes after any removal.
        QCOMPARE(readBack(url, &stored), PasswordStore::Result::Done);

        dialog.nameEdit()->setText(QStringLiteral("first"));
        dialog.urlEdit()->setText(url);
        dialog.rememberBox()->setChecked(false);
        QVERIFY(dialog.saveProfile());
        QCOMPARE(readBack(url, &stored), PasswordStore::Result::NotFound);
        QVERIFY(!ConnectionDialog::remembersPassword(url));

        dialog.rememberBox()->setChecked(true);
        dialog.passwordEdit()->setText(QStringLiteral("again-pw"));
        QVERIFY(dialog.saveProfile());
        QCOMPARE(readBack(url, &stored), PasswordStore::Result::Done);
        deleteButton->click();
        QVERIFY(ConnectionDialog::profileNames().isEmpty());
        QCOMPARE(readBack(url, &stored), PasswordStore::Result::NotFound);
        QVERIFY(!settingsBytes().contains("shared-pw"));
        QVERIFY(!settingsBytes().contains("again-pw"));
    }

private:
    // Saves the profile through the dialog with "remember the password" ticked.
    static bool saveRemembered(ConnectionDialog& dialog, const QString& name, const QString& url,
                               const QString& password)
    {
        dialog.nameEdit()->setText(name);
        dialog.urlEdit()->setText(url);
        dialog.passwordEdit()->setText(password);
        dialog.rememberBox()->setChecked(true);
        return dialog.saveProfile();
    }
    // A profile "old" as an earlier version saved it: url as given, its password in the
    // keychain under that url.
    static void saveOldProfile(const QString& url, const QString& password)
    {
        PasswordStore store;
        QSignalSpy written(&store, &PasswordStore::passwordWritten);
        store.write(url, password);
        QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 10000);
        QSettings settings;
        settings.setValue(QStringLiteral("profiles/old/url"), url);
        settings.setValue(QStringLiteral("profiles/old/keychain"), true);
    }
    static PasswordStore::Result readBack(const QString& key, QString* password)
    {
        PasswordStore store;
        QSignalSpy spy(&store, &PasswordStore::passwordRead);
        store.read(key);
        if (!spy.wait(10000))
            return PasswordStore::Result::Unavailable;
        *password = spy.at(0).at(2).toString();
        return spy.at(0).at(1).value<PasswordStore::Result>();
    }

    static QByteArray settingsBytes()
    {
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    static QPushButton* findDeleteButton(const ConnectionDialog& dialog)
    {
        for (auto* button : dialog.findChildren<QPushButton*>()) {
            if (button->text() == QLatin1String("Delete"))
                return button;
        }
        return nullptr;
    }

    QTemporaryDir m_dir;
    QProcess m_bus;
    QProcess m_keyring;
};

QTEST_MAIN(TestPasswordStore)
#include "tst_passwordstore.moc"
