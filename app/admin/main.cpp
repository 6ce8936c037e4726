// delayq-admin: the operator's desktop app. With no server given it runs a sandbox: a
// private redis-server with a demo queue, stopped when the app closes.

#include "adminclient.h"
#include "adminmanpage.h"
#include "adminoptions.h"
#include "connectiondialog.h"
#include "demofill.h"
#include "mainwindow.h"
#include "measurement.h"
#include "passwordstore.h"
#include "queuelist.h"
#include "sandboxserver.h"
#include "sessionstore.h"
#include "uilanguage.h"
#include <delayq/connectionoptions.h>
#include <delayq/error.h>
#include <delayq/version.h>

#include <QApplication>
#include <QFutureWatcher>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>
#include <QtConcurrent>

#include <cstdio>
#include <cstring>
#include <memory>

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace delayq::ui;

namespace {

constexpr int kScreenshotTimeoutMs = 30000;
constexpr int kKeychainTimeoutMs = 5000;

// Opening a queue of a million tasks makes the table's header allocate a section per row
// (about 16 MB). On a cold heap the first touch of that memory page-faults for ~50 ms on
// the GUI thread. Keeping freed memory in the heap and touching 32 MB once at start, before
// the window shows, moves that cost out of the operator's way.
void warmHeap()
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 64 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    constexpr size_t kWarm = 32 * 1024 * 1024;
    if (void* block = std::malloc(kWarm)) {
        std::memset(block, 0, kWarm);
        std::free(block);
    }
#endif
}

void fail(const QString& message)
{
    std::fprintf(stderr, "delayq-admin: %s\n", qPrintable(message));
}

} // namespace

namespace {

// Saves the window to file once it shows what was asked for (the queue list when no queue
// is opened), then quits; quits with 3 when that takes over 30 s.
void saveScreenshotWhenShown(MainWindow& window, const QString& file, bool queueListOnly)
{
    auto save = [&window, file] {
        // One more turn of the event loop so queued replots are drawn.
        QTimer::singleShot(300, &window, [&window, file] {
            if (!window.grab().save(file)) {
                fail(QStringLiteral("cannot write the screenshot to ") + file);
                QApplication::exit(1);
                return;
            }
            std::printf("saved %s\n", qPrintable(file));
            QApplication::exit(0);
        });
    };
    if (queueListOnly)
        QObject::connect(window.client(), &AdminClient::queuesListed, &window, save,
                         Qt::SingleShotConnection);
    else
        QObject::connect(&window, &MainWindow::queueLoaded, &window, save,
                         Qt::SingleShotConnection);
    QTimer::singleShot(kScreenshotTimeoutMs, &window, [] {
        fail(QStringLiteral("the queue did not load within 30 s; no screenshot"));
        QApplication::exit(3);
    });
}

void setApplicationInfo()
{
    QCoreApplication::setOrganizationName(QStringLiteral("delayq"));
    QCoreApplication::setApplicationName(QStringLiteral("delayq-admin"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DELAYQ_VERSION));
}

// --help, --version and --generate-man under a QCoreApplication: they print and exit, so
// they work without a display (a build machine, a package check over ssh).
int printText(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    setApplicationInfo();
    AdminOptions options;
    if (QString error; !options.parse(app, &error)) {
        fail(error);
        return 2;
    }
    if (options.generateMan)
        std::fputs(adminManPage().toUtf8().constData(), stdout);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (AdminOptions::printsOnly(argc, argv))
        return printText(argc, argv);
    warmHeap();
    QApplication app(argc, argv);
    setApplicationInfo();
    QApplication::setDesktopFileName(QStringLiteral("delayq-admin"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/delayq.png")));
    // The window's texts only: the command line's help and messages stay English, like the
    // delayq CLI's, for the scripts that read them.
    UiLanguage::install(&app, UiLanguage::effective());

    AdminOptions options;
    if (QString error; !options.parse(app, &error)) {
        fail(error);
        return 2;
    }
    QString redisUrl = options.url;
    const bool measuring = options.measuring();
    ConnectionDialog::scrubStoredPasswords();
    // Nothing given: the server chosen last time, or (first start) the sandbox. Pictures and
    // measurements never depend on what was chosen last time.
    ConnectionSettings last;
    const bool useLast = redisUrl.isEmpty() && !options.sandbox && !measuring &&
                         options.screenshot.isEmpty() && SessionStore::lastConnection(&last);
    if (useLast)
        redisUrl = last.url;
    const bool useSandbox = options.sandbox || redisUrl.isEmpty();
    QString queueName = options.queue;
    const QString plainName = options.plainKey;
    const QString unit = options.scoreUnit;
    // Opens what the command line asked for: a plain key, a queue, or (nothing) the queue
    // open when the app last closed on the same server.
    auto openRequested = [&](MainWindow& window, const QString& fallbackQueue) {
        if (!plainName.isEmpty())
            window.openPlainKey(plainName, unit, !unit.isEmpty());
        else if (!queueName.isEmpty() || !fallbackQueue.isEmpty())
            window.openQueue(queueName.isEmpty() ? fallbackQueue : queueName);
        else if (useLast)
            window.openLastQueue();
    };

    // Declared before the window: the server outlives everything connected to it.
    SandboxServer server;
    if (useSandbox) {
        if (!server.start()) {
            fail(QStringLiteral("cannot start the sandbox: ") + server.errorString());
            return 1;
        }
        redisUrl = server.url();
    }
    try {
        delayq::ConnectionOptions::fromUrl(redisUrl.toStdString());
    } catch (const delayq::Error& e) {
        fail(QString::fromUtf8(e.what()));
        return 2;
    }

    if (measuring) {
        if (queueName.isEmpty())
            queueName = QStringLiteral("measure");
        if (!Measurement::fill(redisUrl, queueName, options.measureCount))
            return 1;
    }

    MainWindow window;
    // Screenshots and measurements use the default layout, so they do not depend on the
    // last session's.
    if (options.screenshot.isEmpty() && !measuring)
        window.restoreLayout();
    window.show();

    ConnectionSettings settings;
    settings.url = redisUrl;
    settings.prefix = useLast && !options.prefixGiven ? last.prefix : options.prefix;
    settings.readOnly = options.readOnly || (useLast && last.readOnly);
    // The last server's password, if a profile keeps it in the keychain: connecting (and
    // opening what was asked for) waits for the keychain's answer, found or not, for 5 s at most.
    PasswordStore keychain;
    const QString keychainKey = useLast ? ConnectionDialog::rememberedKey(last.url) : QString();
    const bool fromKeychain = !keychainKey.isEmpty();
    if (fromKeychain) {
        auto connectWith = [&window, &openRequested, settings](const QString& password) mutable {
            if (!window.client()->settings().url.isEmpty())
                return; // the user chose a server, or the keychain answered too late
            settings.password = password;
            window.connectTo(settings);
            openRequested(window, QString());
        };
        QObject::connect(
            &keychain, &PasswordStore::passwordRead, &window,
            [connectWith](const QString&, PasswordStore::Result, const QString& password) mutable {
                connectWith(password);
            },
            Qt::SingleShotConnection);
        // A keychain may never answer (a locked keyring's prompt left open): then connect
        // without the password, and the server's auth error says to use Connect….
        QTimer::singleShot(kKeychainTimeoutMs, &window,
                           [connectWith]() mutable { connectWith(QString()); });
        keychain.read(keychainKey);
    } else {
        window.connectTo(settings);
    }

    if (measuring) {
        Measurement measurement(&window, queueName);
        QTimer::singleShot(0, &window, [&] { QApplication::exit(measurement.run()); });
        return QApplication::exec();
    }

    if (useSandbox) {
        // The demo data, written on a thread of its own with its own connection; the
        // queue opens once it is there.
        auto* filling = new QFutureWatcher<QString>(&window);
        QObject::connect(filling, &QFutureWatcher<QString>::finished, &window,
                         [&window, filling, &openRequested] {
                             if (const QString error = filling->result(); !error.isEmpty())
                                 fail(QStringLiteral("demo queue: ") + error);
                             // The demo's plain key did not exist when the first scan ran.
                             window.queueList()->rediscover();
                             openRequested(window, QStringLiteral("demo"));
                         });
        filling->setFuture(QtConcurrent::run(&DemoFill::fill, redisUrl));
    } else if (!fromKeychain) {
        openRequested(window, QString());
    }

    if (!options.screenshot.isEmpty())
        saveScreenshotWhenShown(window, options.screenshot,
                                queueName.isEmpty() && plainName.isEmpty() && !useSandbox);
    return QApplication::exec();
}
