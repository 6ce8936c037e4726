#include "adminlaunch.h"

#include "client/adminclient.h"
#include "client/queueclient.h"
#include "connection/connectiondialog.h"
#include "connection/sessionstore.h"
#include "demofill.h"
#include "measurement.h"
#include "queue/queuelist.h"
#include "window/mainwindow.h"
#include <delayq/connectionoptions.h>
#include <delayq/error.h>

#include <QApplication>
#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent>

#include <cstdio>

using namespace delayq::ui;

namespace {

constexpr int kScreenshotTimeoutMs = 30000;
constexpr int kKeychainTimeoutMs = 5000;

} // namespace

AdminLaunch::AdminLaunch(const AdminOptions& options)
    : m_options(options), m_url(options.url), m_queue(options.queue)
{
    // Nothing given: the server chosen last time, or (first start) the sandbox. Pictures and
    // measurements never depend on what was chosen last time.
    m_useLast = m_url.isEmpty() && !options.sandbox && !options.measuring() &&
                options.screenshot.isEmpty() && SessionStore::lastConnection(&m_last);
    if (m_useLast)
        m_url = m_last.url;
    m_useSandbox = options.sandbox || m_url.isEmpty();
}

AdminLaunch::~AdminLaunch() = default;

void AdminLaunch::fail(const QString& message)
{
    std::fprintf(stderr, "delayq-admin: %s\n", qPrintable(message));
}

int AdminLaunch::run()
{
    if (const int code = prepareServer(); code != 0)
        return code;
    if (m_options.measuring()) {
        if (m_queue.isEmpty())
            m_queue = QStringLiteral("measure");
        if (!Measurement::fill(m_url, m_queue, m_options.measureCount))
            return 1;
    }
    showWindow();
    const bool fromKeychain = connectWindow(connectionSettings());
    if (m_options.measuring())
        return measure();
    if (m_useSandbox)
        fillDemo();
    else if (!fromKeychain)
        openRequested(QString());
    if (!m_options.screenshot.isEmpty())
        saveScreenshotWhenShown();
    return QApplication::exec();
}

int AdminLaunch::prepareServer()
{
    if (m_useSandbox) {
        if (!m_server.start()) {
            fail(QStringLiteral("cannot start the sandbox: ") + m_server.errorString());
            return 1;
        }
        m_url = m_server.url();
    }
    try {
        delayq::ConnectionOptions::fromUrl(m_url.toStdString());
    } catch (const delayq::Error& e) {
        fail(QString::fromUtf8(e.what()));
        return 2;
    }
    return 0;
}

void AdminLaunch::showWindow()
{
    m_window = std::make_unique<MainWindow>();
    // Screenshots and measurements use the default layout, so they do not depend on the
    // last session's.
    if (m_options.screenshot.isEmpty() && !m_options.measuring())
        m_window->restoreLayout();
    m_window->show();
}

ConnectionSettings AdminLaunch::connectionSettings() const
{
    ConnectionSettings settings = ConnectionSettings::forUrl(m_url);
    settings.prefix = m_useLast && !m_options.prefixGiven ? m_last.prefix : m_options.prefix;
    settings.readOnly = m_options.readOnly || (m_useLast && m_last.readOnly);
    return settings;
}

bool AdminLaunch::connectWindow(ConnectionSettings settings)
{
    // A password given in the URL is kept for this session, as one typed in Connect… is.
    SessionStore::keepPassword(settings);
    // The last server's password, if a profile keeps it in the keychain: connecting (and
    // opening what was asked for) waits for the keychain's answer, found or not, for 5 s at most.
    const QString keychainKey = m_useLast ? ConnectionDialog::rememberedKey(m_last.url) : QString();
    if (keychainKey.isEmpty()) {
        m_window->connectTo(settings);
        return false;
    }
    auto connectWith = [this, settings](const QString& password) mutable {
        if (!m_window->client()->settings().url.isEmpty())
            return; // the user chose a server, or the keychain answered too late
        settings.password = password;
        m_window->connectTo(settings);
        openRequested(QString());
    };
    QObject::connect(
        &m_keychain, &PasswordStore::passwordRead, m_window.get(),
        [connectWith](const QString&, PasswordStore::Result, const QString& password) mutable {
            connectWith(password);
        },
        Qt::SingleShotConnection);
    // A keychain may never answer (a locked keyring's prompt left open): then connect
    // without the password, and the server's auth error says to use Connect….
    QTimer::singleShot(kKeychainTimeoutMs, m_window.get(),
                       [connectWith]() mutable { connectWith(QString()); });
    m_keychain.read(keychainKey);
    return true;
}

void AdminLaunch::openRequested(const QString& fallbackQueue)
{
    const QString& unit = m_options.scoreUnit;
    if (!m_options.plainKey.isEmpty())
        m_window->openPlainKey(m_options.plainKey, unit, !unit.isEmpty());
    else if (!m_queue.isEmpty() || !fallbackQueue.isEmpty())
        m_window->openQueue(m_queue.isEmpty() ? fallbackQueue : m_queue);
    else if (m_useLast)
        m_window->openLastQueue();
}

void AdminLaunch::fillDemo()
{
    // The demo data, written on a thread of its own with its own connection; the
    // queue opens once it is there.
    auto* filling = new QFutureWatcher<QString>(m_window.get());
    QObject::connect(filling, &QFutureWatcher<QString>::finished, m_window.get(), [this, filling] {
        if (const QString error = filling->result(); !error.isEmpty())
            fail(QStringLiteral("demo queue: ") + error);
        // The demo's plain key did not exist when the first scan ran.
        m_window->queueList()->rediscover();
        openRequested(QStringLiteral("demo"));
    });
    filling->setFuture(QtConcurrent::run(&DemoFill::fill, m_url));
}

int AdminLaunch::measure()
{
    Measurement measurement(m_window.get(), m_queue);
    QTimer::singleShot(0, m_window.get(),
                       [&measurement] { QApplication::exit(measurement.run()); });
    return QApplication::exec();
}

// Saves the window to the file once it shows what was asked for (the queue list when no
// queue is opened), then quits; quits with 3 when that takes over 30 s.
void AdminLaunch::saveScreenshotWhenShown()
{
    MainWindow* window = m_window.get();
    const QString file = m_options.screenshot;
    auto save = [window, file] {
        // One more turn of the event loop so queued replots are drawn.
        QTimer::singleShot(300, window, [window, file] {
            if (!window->grab().save(file)) {
                fail(QStringLiteral("cannot write the screenshot to ") + file);
                QApplication::exit(1);
                return;
            }
            std::printf("saved %s\n", qPrintable(file));
            QApplication::exit(0);
        });
    };
    if (m_queue.isEmpty() && m_options.plainKey.isEmpty() && !m_useSandbox)
        QObject::connect(window->client()->queues(), &QueueClient::queuesListed, window, save,
                         Qt::SingleShotConnection);
    else
        QObject::connect(window, &MainWindow::queueLoaded, window, save, Qt::SingleShotConnection);
    QTimer::singleShot(kScreenshotTimeoutMs, window, [] {
        fail(QStringLiteral("the queue did not load within 30 s; no screenshot"));
        QApplication::exit(3);
    });
}
