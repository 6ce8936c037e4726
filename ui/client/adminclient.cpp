#include "client/adminclient.h"

#include "client/binclient.h"
#include "client/exportclient.h"
#include "client/ioworker.h"
#include "client/matchclient.h"
#include "client/overviewclient.h"
#include "client/plainclient.h"
#include "client/queueclient.h"
#include "client/scheduleclient.h"
#include "client/taskclient.h"

#include <QTimer>

#include <atomic>
#include <chrono>

namespace delayq::ui {

namespace {

std::atomic<quint64> g_nextTag{1};

} // namespace

AdminClient::AdminClient(QObject* parent)
    : QObject(parent), m_io(new IoWorker), m_tasks(new TaskClient(m_io, this)),
      m_queues(new QueueClient(m_io, this)), m_overview(new OverviewClient(m_io, this)),
      m_plain(new PlainClient(m_io, this)), m_exports(new ExportClient(m_io, this)),
      m_matches(new MatchClient(m_io, this)), m_schedules(new ScheduleClient(m_io, this)),
      m_bin(new BinClient(m_io, this))
{
    qRegisterMetaType<ServerInfo>();
    m_thread.setObjectName(QStringLiteral("delayq-io"));
    m_io->moveToThread(&m_thread);
    // The worker's connection and heartbeat go with it, on its own thread, at the end.
    connect(&m_thread, &QThread::finished, m_io, &QObject::deleteLater);
    connect(m_io, &IoWorker::connecting, this, &AdminClient::connecting);
    connect(m_io, &IoWorker::connected, this, &AdminClient::connected);
    connect(m_io, &IoWorker::disconnected, this, &AdminClient::disconnected);
    connect(m_io, &IoWorker::statusUpdated, this, &AdminClient::statusUpdated);
    connect(m_io, &IoWorker::readOnlyDetected, this, &AdminClient::readOnlyDetected);
    m_thread.start();
    m_watch = new QTimer(this);
    m_watch->setInterval(100);
    connect(m_watch, &QTimer::timeout, this, &AdminClient::watch);
    m_watch->start();
}

// The I/O thread is blocked inside the request it waits for, so it cannot say it is waiting:
// this GUI-thread timer reads when the request was sent.
void AdminClient::watch()
{
    const qint64 since = m_io->waitingSinceMs();
    const qint64 now = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count();
    const bool stalled = since > 0 && now - since >= kUnansweredMs && m_io->isUp();
    if (stalled)
        emit unanswered(now - since);
    else if (m_stalled && m_io->isUp())
        emit answered();
    m_stalled = stalled;
}

AdminClient::~AdminClient()
{
    // No blocking call into the I/O thread: the steps still queued are dropped, the thread
    // ends after the request it is on, and its finished signal deletes the worker there.
    m_io->stop();
    m_thread.quit();
    m_thread.wait();
}

quint64 AdminClient::newTag()
{
    return g_nextTag.fetch_add(1);
}

bool AdminClient::isConnected() const
{
    return m_io->isUp();
}

bool AdminClient::isReadOnly() const
{
    return m_io->isReadOnly();
}

QString AdminClient::prefix() const
{
    return m_guiSettings.prefix;
}

void AdminClient::connectTo(const ConnectionSettings& settings)
{
    m_guiSettings = settings;
    if (m_guiSettings.prefix.isEmpty())
        m_guiSettings.prefix = QStringLiteral("dq");
    m_io->post([io = m_io, settings] { io->connectTo(settings); });
}

} // namespace delayq::ui
