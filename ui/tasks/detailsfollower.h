#pragma once

#include <QObject>
#include <QString>

namespace delayq::ui {

class AdminClient;
class TaskDetails;
class TaskTabs;
struct TaskHistoryResult;
struct TaskResult;

// Keeps the details pane on the current task of the open tab: shows the row at once, asks
// for the whole payload when the page holds only its first 4 KiB, and for the task's history.
class DetailsFollower : public QObject
{
    Q_OBJECT

public:
    DetailsFollower(AdminClient* client, TaskTabs* tabs, TaskDetails* details, QObject* parent);

    void setQueue(const QString& queue, bool plain = false);
    // Shows the current task again (e.g. after the time zone changed).
    void follow();

private:
    void onTaskLoaded(const TaskResult& result);
    void onTaskHistoryLoaded(const TaskHistoryResult& result);

    AdminClient* m_client;
    TaskTabs* m_tabs;
    TaskDetails* m_details;
    QString m_queue;
    quint64 m_tag = 0;
    QString m_askedId;
    QString m_fullTaskId; // the task whose whole payload the pane shows
    quint64 m_historyTag = 0;
    bool m_plain = false; // a plain sorted set's members have no history
};

} // namespace delayq::ui
