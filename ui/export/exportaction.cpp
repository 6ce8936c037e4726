#include "export/exportaction.h"

#include "client/adminclient.h"
#include "client/exportclient.h"
#include "export/exportdialog.h"
#include "widgets/stepprogress.h"

#include <QAction>
#include <QLocale>
#include <QProgressDialog>

namespace delayq::ui {

ExportAction::ExportAction(AdminClient* client, QWidget* window)
    : QObject(window), m_client(client), m_window(window)
{
    m_action = new QAction(tr("Export…"), this);
    m_action->setStatusTip(
        tr("Write the queue's tasks, a tab's or the selected ones to a file delayq import reads"));
    connect(m_action, &QAction::triggered, this, [this] { ask(); });
    connect(m_client->exports(), &ExportClient::exportProgressed, this, &ExportAction::onProgress);
    connect(m_client->exports(), &ExportClient::exportFinished, this, &ExportAction::onFinished);
    updateEnabled();
}

void ExportAction::setQueue(const QString& queue)
{
    m_queue = queue;
    updateEnabled();
}

void ExportAction::setPlain(bool plain)
{
    m_plain = plain;
}

void ExportAction::setSelection(std::function<TaskSet()> currentSet,
                                std::function<QStringList()> selectedIds)
{
    m_currentSet = std::move(currentSet);
    m_selectedIds = std::move(selectedIds);
}

ExportDialog* ExportAction::dialog() const
{
    return m_dialog;
}

QProgressDialog* ExportAction::progressDialog() const
{
    return m_progress;
}

void ExportAction::ask(const QString& queue)
{
    const QString name = queue.isEmpty() ? m_queue : queue;
    if (name.isEmpty() || m_running != 0 || m_dialog)
        return;
    // From the purge dialog the queue is the one being purged: the whole of it, no selection.
    const bool open = name == m_queue;
    auto* dialog = new ExportDialog(name, open && m_plain, open ? m_currentSet() : TaskSet::Pending,
                                    open ? m_selectedIds() : QStringList(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { start(dialog->request()); });
    m_dialog = dialog;
    emit dialogOpened(dialog);
    dialog->open();
}

void ExportAction::start(const ExportRequest& request)
{
    if (m_running != 0)
        return;
    m_running = AdminClient::newTag();
    m_runningQueue = request.queue;
    updateEnabled();
    auto* progress = StepProgress::make(m_window, tr("Export tasks"), tr("Cancel"));
    // The name comes from Redis: the label is plain text (QProgressDialog's own label is).
    progress->setLabelText(tr("Exporting %1…").arg(request.queue));
    connect(progress, &QProgressDialog::canceled, this, &ExportAction::cancelRunning);
    progress->setValue(0);
    m_progress = progress;
    m_client->exports()->exportTasks(m_running, request);
}

void ExportAction::cancelRunning()
{
    if (m_running == 0)
        return;
    m_client->exports()->cancelExport(m_running);
    if (m_progress)
        m_progress->setLabelText(tr("Stopping after the current step…"));
}

void ExportAction::onProgress(quint64 tag, qint64 written, qint64 total)
{
    if (tag != m_running)
        return;
    StepProgress::step(
        m_progress, written, total,
        tr("Exporting %1: %2 of %3 tasks…")
            .arg(m_runningQueue, QLocale().toString(written), QLocale().toString(total)));
}

void ExportAction::onFinished(const ExportResult& result)
{
    if (result.tag != m_running)
        return;
    m_running = 0;
    if (m_progress)
        m_progress->deleteLater();
    updateEnabled();
    emit resultReported(summarize(result), result.error.isEmpty() && !result.cancelled);
    emit finished(result);
}

QString ExportAction::summarize(const ExportResult& r)
{
    if (!r.error.isEmpty())
        return tr("Export of %1 failed: %2 (no file was written)").arg(r.queue, r.error.text());
    if (r.cancelled)
        return tr("Export of %1 cancelled: no file was written.").arg(r.queue);
    QString text =
        tr("Exported %1 lines of %2 to %3.").arg(QLocale().toString(r.written), r.queue, r.path);
    if (r.broken > 0)
        text += QLatin1Char(' ') + tr("%1 listed ids without readable data were left out.")
                                       .arg(QLocale().toString(r.broken));
    return text;
}

void ExportAction::updateEnabled()
{
    m_action->setEnabled(!m_queue.isEmpty() && m_running == 0);
}

} // namespace delayq::ui
