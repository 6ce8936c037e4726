// The embedded worker's delivery path (WorkerDock's, kept apart from the simulated handler's
// in workerdock.cpp): the target's factory, its check off the GUI thread, then the worker.
#include "worker/workerdock.h"

#include "worker/deliverynotices.h"
#include "worker/deliverytargetfield.h"
#include "worker/workereventlog.h"
#include <delayq/worker.h>

#include <QPlainTextEdit>

namespace delayq::ui {

void WorkerDock::startDelivering(const delayq::WorkerOptions& options, long long leaseMs)
{
    delayq::DeliveryOptions delivery;
    delivery.queue = m_plain ? options.plainKey : options.queue;
    delivery.workerName = options.name;
    // A consumer that stops answering is given up on after the lease, as the CLI does.
    if (!m_plain)
        delivery.answerTimeoutMs = leaseMs;
    // A waiting delivery gives up when the worker is stopped at once or the dock closes.
    m_abort = std::make_shared<std::atomic<bool>>(false);
    auto self = std::make_shared<std::atomic<const delayq::Worker*>>(nullptr);
    delivery.aborted = [abort = m_abort, self] {
        const delayq::Worker* worker = self->load();
        return abort->load() || (worker && worker->abortRequested());
    };
    // Said on the worker's threads; the dock's timer shows them.
    delivery.notice = [notices = m_notices](const std::string& line) { notices->add(line); };
    delayq::DeliveryFactory factory = m_deliverTo->factory(delivery);
    if (!factory)
        return; // the reason is under the field
    m_pending = PendingStart{options, std::move(factory), m_shown, self};
    m_log->appendPlainText(tr("checking %1…").arg(m_deliverTo->printable()));
    updateButton();
    m_deliverTo->check(delivery);
}

void WorkerDock::deliveryChecked(const QString& refusal)
{
    if (!m_pending)
        return;
    PendingStart pending = std::move(*m_pending);
    m_pending.reset();
    updateButton();
    // Another queue or server was opened meanwhile: the log is that one's now, and the
    // operator did not ask to consume it.
    if (pending.target != m_shown)
        return;
    poll(); // what the target said during the check
    if (!refusal.isEmpty()) {
        m_log->appendPlainText(tr("cannot start: %1").arg(refusal));
        return;
    }
    if (m_readOnly) {
        m_log->appendPlainText(tr("not started: read-only: %1").arg(m_readOnlyReason));
        return;
    }
    auto events = m_events;
    launch(pending.options, m_deliverTo->printable(), [&] {
        auto worker = std::make_shared<delayq::Worker>(
            pending.options, pending.factory,
            [events](const delayq::WorkerEvent& e) { events->add(e); });
        pending.self->store(worker.get());
        return worker;
    });
}

} // namespace delayq::ui
