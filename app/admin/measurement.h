#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

class QTimer;

namespace delayq::ui {
class MainWindow;
class TaskTable;
} // namespace delayq::ui

// --measure: opens a big queue in the real window and prints the figures the targets are
// about: time to the first page, chart refreshes, jumping to the last row, the GUI thread's
// longest stall (a 5 ms timer recording how late it fires) and resident memory.
class Measurement : public QObject
{
    Q_OBJECT

public:
    Measurement(delayq::ui::MainWindow* window, const QString& queue, QObject* parent = nullptr);

    // Pushes count tasks over the next day with pushBatch in chunks of 10,000 (setup, not
    // measured), unless the queue holds that many already. False: a message is on stderr.
    static bool fill(const QString& url, const QString& queue, long long count);
    // Runs every step, prints the figures; returns the process exit code.
    int run();

private:
    // What run() measures; times in ns unless named otherwise.
    struct Figures
    {
        qint64 total = 0; // pending tasks in the queue
        qint64 firstPage = 0;
        qint64 firstChart = 0;
        QList<qint64> chartWall;
        QList<qint64> chartIoUs;
        qint64 jumpLast = 0;
        qint64 jumpMiddle = 0;
        QList<qint64> refreshes;
        int scrollSteps = 0;
        int viewRows = 0; // sections of the view's vertical header at the end
    };

    // The steps of run(), in order; false: it failed and said why on stderr.
    bool measureOpening(delayq::ui::TaskTable* table, Figures& f);
    void measureChartRefreshes(Figures& f);
    bool measureJumps(delayq::ui::TaskTable* table, Figures& f);
    void measureLiveRefreshes(delayq::ui::TaskTable* table, Figures& f);
    void dragScrollBar(delayq::ui::TaskTable* table, Figures& f);
    void print(const Figures& f) const;

    void startStallMonitor();
    void onTick();

    delayq::ui::MainWindow* m_window;
    QString m_queue;
    QTimer* m_tick = nullptr;
    QElapsedTimer m_sinceTick;
    qint64 m_maxStallUs = 0;
    qint64 m_maxBusyUs = 0;
    qint64 m_lastCpuUs = 0;
    qint64 m_lastWaitUs = -1;  // the GUI thread's run-queue wait so far
    qint64 m_stallCpuUs = -1;  // of the longest stall: the thread's CPU time
    qint64 m_stallWaitUs = -1; // and its time runnable, waiting for a core
    const char* m_phase = "start";
    const char* m_stallPhase = "";
    const char* m_busyPhase = "";
    qint64 m_ticks = 0;
};
