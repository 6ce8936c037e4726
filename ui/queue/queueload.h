#pragma once

#include "client/tasktypes.h"

#include <QObject>

namespace delayq::ui {

class AdminClient;
class LayoutNotice;
class TaskTabs;
class TimelineChart;

// The counts of the open queue, and when a freshly opened one is on screen: its first page
// of pending tasks (with the earliest task selected) and its timeline, which waits for the
// counts as its default window starts at the oldest task. A queue in an older layout shows
// the notice instead.
class QueueLoad : public QObject
{
    Q_OBJECT

public:
    QueueLoad(AdminClient* client, TaskTabs* tabs, TimelineChart* timeline, LayoutNotice* notice,
              QObject* parent);

    // A queue (empty: none) is opened: its counts are asked for anew, and loaded() follows
    // once it is shown.
    void start(const QString& queue);
    // Asks for the counts unless an answer is still on the way.
    void refreshCounts();

signals:
    void loaded();
    void countsFailed(const QString& message);
    // The counts came back after a countsFailed: that message is out of date.
    void countsRecovered();

private:
    void onCounts(const CountsResult& result);
    void onFirstPage();
    void checkLoaded();

    bool m_countsFailed = false; // the last answer was an error

    AdminClient* m_client;
    TaskTabs* m_tabs;
    TimelineChart* m_timeline;
    LayoutNotice* m_notice;
    QString m_queue;
    bool m_countsInFlight = false;
    quint64 m_countsTag = 0;
    bool m_waitingForLoad = false;
    bool m_firstPageShown = false;
    bool m_timelineShown = false;
};

} // namespace delayq::ui
