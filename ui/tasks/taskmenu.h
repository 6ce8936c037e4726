#pragma once

#include <QObject>

class QMenu;
class QPoint;

namespace delayq::ui {

class TaskActions;
class TaskClipboard;
class TaskTable;
class TaskTabs;

// The context menu of every task table: the row's actions (those of the toolbar, enabled as
// there), then copy id, copy payload and copy as JSON. A right click on a row outside the
// selection selects that row first, so the menu acts on what it was opened on.
class TaskMenu : public QObject
{
    Q_OBJECT

public:
    TaskMenu(TaskActions* actions, TaskTabs* tabs, TaskClipboard* clipboard, QObject* parent);

    // The menu for the table's selection; the caller owns it. Its copy actions are named
    // "copyId", "copyPayload" and "copyJson".
    QMenu* build(TaskTable* table);

private:
    void show(TaskTable* table, const QPoint& pos);

    TaskActions* m_actions;
    TaskTabs* m_tabs;
    TaskClipboard* m_clipboard;
};

} // namespace delayq::ui
