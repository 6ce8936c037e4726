#include "tasks/taskmenu.h"

#include "tasks/taskactions.h"
#include "tasks/taskclipboard.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"

#include <QItemSelectionModel>
#include <QMenu>
#include <QTableView>

namespace delayq::ui {

TaskMenu::TaskMenu(TaskActions* actions, TaskTabs* tabs, TaskClipboard* clipboard, QObject* parent)
    : QObject(parent), m_actions(actions), m_tabs(tabs), m_clipboard(clipboard)
{
    for (auto set : {TaskSet::Pending, TaskSet::Active, TaskSet::Dead}) {
        TaskTable* table = tabs->table(set);
        table->view()->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(table->view(), &QWidget::customContextMenuRequested, this,
                [this, table](const QPoint& pos) { show(table, pos); });
    }
}

void TaskMenu::show(TaskTable* table, const QPoint& pos)
{
    QTableView* view = table->view();
    const QModelIndex index = view->indexAt(pos);
    if (index.isValid() && !view->selectionModel()->isRowSelected(index.row(), QModelIndex()))
        view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
    QMenu* menu = build(table);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(view->viewport()->mapToGlobal(pos));
}

QMenu* TaskMenu::build(TaskTable* table)
{
    auto* menu = new QMenu(table);
    m_actions->updateEnabled();
    const TaskSet set = table->set();
    if (set == TaskSet::Pending) {
        menu->addAction(m_actions->cancel());
        menu->addAction(m_actions->reschedule());
        menu->addAction(m_actions->runNow());
    } else if (set == TaskSet::Dead) {
        menu->addAction(m_actions->requeue());
        menu->addAction(m_actions->deleteDead());
    }
    if (set != TaskSet::Active)
        menu->addAction(m_actions->actOnMatches());
    menu->addSeparator();
    const QStringList ids = table->selectedIds();
    const TaskRow* task = table->currentTask();
    const TaskRow row = task ? *task : TaskRow{};
    const QString queue = table->model()->queue();
    QAction* copyId = menu->addAction(ids.size() > 1 ? tr("Copy ids") : tr("Copy id"), this,
                                      [this, ids] { m_clipboard->copyIds(ids); });
    copyId->setObjectName(QStringLiteral("copyId"));
    copyId->setEnabled(!ids.isEmpty());
    QAction* copyPayload = menu->addAction(
        tr("Copy payload"), this, [this, queue, row] { m_clipboard->copyPayload(queue, row); });
    copyPayload->setObjectName(QStringLiteral("copyPayload"));
    copyPayload->setEnabled(task != nullptr);
    QAction* copyJson = menu->addAction(tr("Copy as JSON"), this,
                                        [this, queue, row] { m_clipboard->copyJson(queue, row); });
    copyJson->setObjectName(QStringLiteral("copyJson"));
    copyJson->setEnabled(task != nullptr);
    return menu;
}

} // namespace delayq::ui
