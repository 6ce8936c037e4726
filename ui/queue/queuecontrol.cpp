#include "queue/queuecontrol.h"

#include "client/adminclient.h"
#include "client/queueclient.h"
#include "queue/queuesettingsdialog.h"
#include "queue/thresholdsdialog.h"

#include <QAction>
#include <QWidget>

namespace delayq::ui {

QueueControl::QueueControl(AdminClient* client, QWidget* window)
    : QObject(window), m_client(client), m_window(window)
{
    m_pause = new QAction(tr("Pause queue"), this);
    m_settings = new QAction(tr("Queue settings…"), this);
    m_thresholds = new QAction(tr("Queue thresholds…"), this);
    m_allThresholds = new QAction(tr("Thresholds for all queues…"), this);
    connect(m_pause, &QAction::triggered, this, [this] { setPaused(m_queue, !m_paused); });
    connect(m_settings, &QAction::triggered, this, [this] { openSettings(m_queue); });
    connect(m_thresholds, &QAction::triggered, this, [this] { openThresholds(m_queue); });
    connect(m_allThresholds, &QAction::triggered, this, [this] { openThresholds({}); });
    connect(client->queues(), &QueueClient::configLoaded, this, &QueueControl::onConfig);
    updateActions();
}

void QueueControl::setQueue(const QString& queue, bool plain)
{
    if (queue != m_queue)
        m_paused = false; // until the next snapshot says
    m_queue = queue;
    m_plain = plain;
    updateActions();
}

void QueueControl::setQueuePaused(bool paused)
{
    m_paused = paused;
    updateActions();
}

void QueueControl::setReadOnly(bool readOnly, const QString& reason)
{
    m_readOnly = readOnly;
    m_readOnlyReason = reason;
    updateActions();
}

namespace {

// A queue's name in an action's text: its start, so a long name cannot stretch the toolbar.
QString shortName(const QString& queue)
{
    constexpr int kShown = 24;
    return queue.size() > kShown ? queue.left(kShown - 1) + QChar(0x2026) : queue;
}

} // namespace

void QueueControl::updateActions()
{
    const bool native = !m_queue.isEmpty() && !m_plain;
    // The text names the queue the click acts on: on the Overview it is the selected row,
    // not the queue open behind the page.
    if (m_queue.isEmpty() || m_plain) {
        m_pause->setText(tr("Pause queue"));
        m_settings->setText(tr("Queue settings…"));
        m_thresholds->setText(tr("Queue thresholds…"));
    } else {
        const QString name = shortName(m_queue);
        m_pause->setText(m_paused ? tr("Resume %1").arg(name) : tr("Pause %1…").arg(name));
        m_settings->setText(tr("Settings of %1…").arg(name));
        m_thresholds->setText(tr("Thresholds of %1…").arg(name));
    }
    if (!m_queue.isEmpty() && m_plain)
        m_thresholds->setText(tr("Thresholds of %1…").arg(shortName(m_queue)));
    m_pause->setEnabled(native && !m_readOnly);
    m_pause->setToolTip(m_readOnly ? tr("Not in a read-only session: %1").arg(m_readOnlyReason)
                        : m_queue.isEmpty() ? tr("Open a queue, or select one in the Overview")
                        : m_paused
                            ? tr("Let workers claim the tasks of %1 again").arg(m_queue)
                            : tr("Workers claim nothing from %1 until resumed").arg(m_queue));
    m_settings->setEnabled(native);
    m_thresholds->setEnabled(!m_queue.isEmpty());
}

void QueueControl::setPaused(const QString& queue, bool pause)
{
    if (queue.isEmpty() || m_readOnly)
        return;
    if (pause) {
        // Named, with the server: a paused queue stops every worker of it, wherever they run.
        Confirmation confirmation;
        confirmation.icon = QMessageBox::Warning;
        confirmation.title = tr("Pause queue %1").arg(shortName(queue));
        confirmation.text =
            (m_server.isEmpty() ? tr("Pause queue %1?").arg(queue)
                                : tr("Pause queue %1 on %2?").arg(queue, m_server)) +
            QStringLiteral("\n\n") +
            tr("Workers claim none of its tasks until it is resumed; the tasks keep their due "
               "times and wait.");
        confirmation.acceptText = tr("Pause %1").arg(shortName(queue));
        confirmation.rejectText = tr("Keep running");
        if (!(m_confirm ? m_confirm(confirmation) : confirmation.ask(m_window)))
            return;
        // Asked while snapshots went on: read-only may have come meanwhile.
        if (m_readOnly)
            return;
    }
    const quint64 tag = AdminClient::newTag();
    m_pauseTags.append(tag);
    m_client->queues()->writeConfig(
        tag, queue,
        {{QStringLiteral("paused"), pause ? QStringLiteral("1") : QStringLiteral("0")}});
}

void QueueControl::onConfig(const QueueConfigResult& result)
{
    if (!m_pauseTags.removeOne(result.tag))
        return;
    if (!result.error.isEmpty()) {
        emit resultReported(result.error.text());
        return;
    }
    if (result.queue == m_queue)
        setQueuePaused(result.paused);
    emit resultReported(result.paused
                            ? tr("%1 is paused: workers claim nothing from it").arg(result.queue)
                            : tr("%1 is running again").arg(result.queue));
    emit pausedChanged(result.queue, result.paused);
}

QueueSettingsDialog* QueueControl::openSettings(const QString& queue)
{
    auto* dialog = new QueueSettingsDialog(m_client, queue, m_readOnly, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QueueSettingsDialog::saved, this, [this, queue] {
        emit resultReported(tr("Settings of %1 saved").arg(queue));
        emit settingsSaved(queue);
    });
    dialog->open();
    return dialog;
}

ThresholdsDialog* QueueControl::openThresholds(const QString& queue)
{
    auto* dialog = new ThresholdsDialog(queue, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, &QueueControl::thresholdsChanged);
    dialog->open();
    return dialog;
}

} // namespace delayq::ui
