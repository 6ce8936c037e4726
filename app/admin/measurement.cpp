#include "measurement.h"

#include "charts/timelinechart.h"
#include "client/adminclient.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace delayq::ui;

namespace {

constexpr int kTickMs = 5;
constexpr int kSettleMs = 1000;

// Runs the event loop until the signal fires or timeoutMs pass; true when it fired.
template <typename Sender, typename Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs = 60000)
{
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    auto connection = QObject::connect(sender, signal, &loop, [&loop] { loop.exit(0); });
    timeout.start(timeoutMs);
    const int result = loop.exec();
    QObject::disconnect(connection);
    return result == 0;
}

QString procStatus(const char* field)
{
    QFile file(QStringLiteral("/proc/self/status"));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("?");
    for (const QByteArray& line : file.readAll().split('\n'))
        if (line.startsWith(field))
            return QString::fromLatin1(line.mid(static_cast<qsizetype>(qstrlen(field))))
                .simplified();
    return QStringLiteral("?");
}

qint64 threadCpuUs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<qint64>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

// Time the calling thread spent runnable but waiting for a core (the scheduler's run queue),
// in µs; -1 where the kernel does not say.
qint64 threadRunQueueUs()
{
    QFile file(QStringLiteral("/proc/thread-self/schedstat"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = file.readAll().split(' ');
    return fields.size() >= 2 ? fields.at(1).toLongLong() / 1000 : -1;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("?");
    return QString::fromLatin1(file.readAll()).section(QLatin1Char(' '), 0, 2);
}

double ms(qint64 ns)
{
    return static_cast<double>(ns) / 1e6;
}

} // namespace

Measurement::Measurement(MainWindow* window, const QString& queue, QObject* parent)
    : QObject(parent), m_window(window), m_queue(queue)
{}

bool Measurement::fill(const QString& url, const QString& queue, long long count)
{
    try {
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(url.toStdString()));
        delayq::Queue q(connection, queue.toStdString());
        const long long now = connection.serverTimeMs();
        // A queue already this big (a server given with --url) is measured as it is.
        if (q.size(delayq::TaskSet::Pending) >= count)
            return true;
        QElapsedTimer timer;
        timer.start();
        constexpr long long kChunk = 10000;
        std::vector<delayq::PushRequest> chunk;
        chunk.reserve(kChunk);
        for (long long i = 0; i < count; ++i) {
            delayq::PushRequest r;
            // 1% overdue, the rest over the next 24 hours.
            r.dueAtMs = now - 600000 + (i * (86400000LL + 600000)) / count;
            r.payload = "{\"n\":" + std::to_string(i) + ",\"kind\":\"measure\"}";
            chunk.push_back(std::move(r));
            if (static_cast<long long>(chunk.size()) == kChunk || i + 1 == count) {
                q.pushBatch(chunk);
                chunk.clear();
            }
        }
        std::printf("setup: pushed %lld tasks in %.1f s (%.0f tasks/s)\n", count,
                    static_cast<double>(timer.elapsed()) / 1000.0,
                    static_cast<double>(count) * 1000.0 /
                        static_cast<double>(std::max<qint64>(1, timer.elapsed())));
        std::fflush(stdout);
        return true;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "delayq-admin: measure setup failed: %s\n", e.what());
        return false;
    }
}

void Measurement::startStallMonitor()
{
    m_tick = new QTimer(this);
    m_tick->setTimerType(Qt::PreciseTimer);
    m_tick->setInterval(kTickMs);
    connect(m_tick, &QTimer::timeout, this, &Measurement::onTick);
    // The first tick's figures count from here.
    m_lastCpuUs = threadCpuUs();
    m_lastWaitUs = threadRunQueueUs();
    m_sinceTick.start();
    m_tick->start();
}

void Measurement::onTick()
{
    const qint64 late = m_sinceTick.nsecsElapsed() / 1000 - kTickMs * 1000;
    m_sinceTick.restart();
    // CPU time the GUI thread itself spent since the last tick: what our code cost,
    // without the time a loaded machine kept the thread waiting for a core.
    const qint64 cpu = threadCpuUs();
    const qint64 waited = threadRunQueueUs();
    if (late > m_maxStallUs) {
        m_maxStallUs = late;
        m_stallPhase = m_phase;
        m_stallCpuUs = m_lastCpuUs > 0 ? cpu - m_lastCpuUs : -1;
        m_stallWaitUs = m_lastWaitUs >= 0 && waited >= 0 ? waited - m_lastWaitUs : -1;
    }
    m_lastWaitUs = waited;
    if (m_lastCpuUs > 0 && cpu - m_lastCpuUs > m_maxBusyUs) {
        m_maxBusyUs = cpu - m_lastCpuUs;
        m_busyPhase = m_phase;
    }
    m_lastCpuUs = cpu;
    ++m_ticks;
}

int Measurement::run()
{
    AdminClient* client = m_window->client();
    if (!client->isConnected() && !waitFor(client, &AdminClient::connected, 15000)) {
        std::fprintf(stderr, "delayq-admin: measure: could not connect\n");
        return 1;
    }
    // Let the window's first layout and paint pass, and the X server draw them, before the
    // clock starts: an operator opens a queue in a window that is up. Right after the first
    // paint the X server can still be busy with it for tens of ms, and the opening's first
    // round trip to it (Qt asks the pointer's place for each widget shown) waited behind that:
    // one such wait held the GUI thread 67 ms inside openQueue() at 9 ms of its own CPU.
    QEventLoop settle;
    QTimer::singleShot(kSettleMs, &settle, &QEventLoop::quit);
    settle.exec();
    startStallMonitor();
    TaskTable* table = m_window->tabs()->table(delayq::TaskSet::Pending);
    Figures f;
    if (!measureOpening(table, f))
        return 1;
    measureChartRefreshes(f);
    if (!measureJumps(table, f))
        return 1;
    measureLiveRefreshes(table, f);
    dragScrollBar(table, f);
    m_tick->stop();
    print(f);
    return 0;
}

bool Measurement::measureOpening(TaskTable* table, Figures& f)
{
    m_phase = "opening the queue";
    QElapsedTimer timer;
    timer.start();
    m_window->openQueue(m_queue);
    if (!waitFor(table->model(), &TaskModel::refreshed)) {
        std::fprintf(stderr, "delayq-admin: measure: the first page never came\n");
        return false;
    }
    f.firstPage = timer.nsecsElapsed();
    f.total = table->model()->total();
    if (!m_window->timeline()->hasData())
        waitFor(m_window->timeline(), &TimelineChart::loaded);
    f.firstChart = timer.nsecsElapsed();
    return true;
}

void Measurement::measureChartRefreshes(Figures& f)
{
    m_phase = "chart refreshes";
    QElapsedTimer timer;
    for (int i = 0; i < 5; ++i) {
        qint64 ioUs = 0;
        auto c = connect(m_window->timeline(), &TimelineChart::loaded, this,
                         [&ioUs](qint64 us) { ioUs = us; });
        timer.start();
        m_window->timeline()->refresh();
        waitFor(m_window->timeline(), &TimelineChart::loaded);
        f.chartWall.append(timer.nsecsElapsed());
        f.chartIoUs.append(ioUs);
        disconnect(c);
    }
}

bool Measurement::measureJumps(TaskTable* table, Figures& f)
{
    m_phase = "jumps";
    QElapsedTimer timer;
    timer.start();
    table->jumpToRow(f.total - 1);
    if (!waitFor(table, &TaskTable::rowShown)) {
        std::fprintf(stderr, "delayq-admin: measure: the last row never loaded\n");
        return false;
    }
    f.jumpLast = timer.nsecsElapsed();

    timer.restart();
    table->jumpToRow(f.total / 2);
    waitFor(table, &TaskTable::rowShown);
    f.jumpMiddle = timer.nsecsElapsed();
    return true;
}

// Live refreshes with the view far down the table.
void Measurement::measureLiveRefreshes(TaskTable* table, Figures& f)
{
    m_phase = "live refreshes";
    QElapsedTimer timer;
    for (int i = 0; i < 5; ++i) {
        timer.start();
        m_window->refreshAll();
        waitFor(table->model(), &TaskModel::refreshed);
        f.refreshes.append(timer.nsecsElapsed());
    }
}

// An operator dragging the scroll bar across the whole queue for 3 s while the live
// refresh runs every 250 ms: every position asks for new pages.
void Measurement::dragScrollBar(TaskTable* table, Figures& f)
{
    m_phase = "scroll-bar dragging";
    m_window->setRefreshInterval(250);
    // The table's bar spans every rank (the view's own spans its window of rows).
    QScrollBar* bar = table->scrollBar();
    QElapsedTimer scrolling;
    scrolling.start();
    int steps = 0;
    while (scrolling.elapsed() < 3000) {
        bar->setValue(
            static_cast<int>((static_cast<qint64>(bar->maximum()) * ((steps * 37) % 101)) / 100));
        ++steps;
        QEventLoop pause;
        QTimer::singleShot(30, &pause, &QEventLoop::quit);
        pause.exec();
    }
    m_window->setRefreshInterval(2000);
    f.scrollSteps = steps;
    f.viewRows = table->view()->verticalHeader()->count();
}

void Measurement::print(const Figures& f) const
{
    auto maxOf = [](const QList<qint64>& v) { return *std::max_element(v.begin(), v.end()); };
    std::printf("measure: queue %s with %lld pending tasks (load average %s on %d cores)\n",
                qPrintable(m_queue), static_cast<long long>(f.total), qPrintable(loadAverage()),
                QThread::idealThreadCount());
    std::printf("  first page visible after opening the queue: %8.1f ms  (target <= 300)\n",
                ms(f.firstPage));
    std::printf("  first timeline shown after opening:         %8.1f ms\n", ms(f.firstChart));
    std::printf("  chart refresh, worst of 5 (request->drawn):  %8.1f ms  (target <= 50)\n",
                ms(maxOf(f.chartWall)));
    std::printf("  chart refresh, worst of 5 (Redis part):      %8.1f ms\n",
                static_cast<double>(maxOf(f.chartIoUs)) / 1000.0);
    std::printf("  jump to the last row (row %lld):         %8.1f ms  (target <= 300)\n",
                static_cast<long long>(f.total), ms(f.jumpLast));
    std::printf("  jump to the middle row:                      %8.1f ms\n", ms(f.jumpMiddle));
    std::printf("  live refresh of the table, worst of 5:       %8.1f ms\n",
                ms(maxOf(f.refreshes)));
    std::printf("  scroll bar dragged to %d positions over 3 s with a 250 ms live refresh\n",
                f.scrollSteps);
    std::printf("  rows the view holds (its window of the queue): %d\n", f.viewRows);
    std::printf(
        "  GUI thread longest stall (%lld ticks):       %8.1f ms  (target <= 50), during %s\n",
        static_cast<long long>(m_ticks), static_cast<double>(m_maxStallUs) / 1000.0, m_stallPhase);
    std::printf("    of which its own CPU time %.1f ms, waiting for a core (run queue) %.1f ms\n",
                static_cast<double>(m_stallCpuUs) / 1000.0,
                static_cast<double>(m_stallWaitUs) / 1000.0);
    std::printf(
        "  GUI thread longest busy stretch (its CPU time between ticks): %6.1f ms, during %s\n",
        static_cast<double>(m_maxBusyUs) / 1000.0, m_busyPhase);
    std::printf("  resident memory: %s now, %s peak  (target <= 200 MB)\n",
                qPrintable(procStatus("VmRSS:")), qPrintable(procStatus("VmHWM:")));
    std::fflush(stdout);
}
