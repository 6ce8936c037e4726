#include "worker/workerdock.h"

#include "client/adminclient.h"
#include "client/membertext.h"
#include "plain/plaintooltip.h"
#include "widgets/fielderror.h"
#include "widgets/formrows.h"
#include "worker/deliverynotices.h"
#include "worker/deliverytargetfield.h"
#include "worker/simulatedhandler.h"
#include "worker/workercounterstext.h"
#include "worker/workereventlog.h"
#include <delayq/error.h>
#include <delayq/taskid.h>
#include <delayq/timeparse.h>
#include <delayq/worker.h>

#include <QComboBox>
#include <QDateTime>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <atomic>

namespace delayq::ui {

WorkerDock::WorkerDock(AdminClient* client, QWidget* parent)
    : QDockWidget(tr("Embedded worker"), parent), m_client(client),
      m_events(std::make_shared<WorkerEventLog>()), m_notices(std::make_shared<DeliveryNotices>())
{
    setObjectName(QStringLiteral("workerdock"));
    auto* body = new QWidget(this);
    // The task table comes first: wherever the panel is docked, it takes at most this much.
    body->setMaximumWidth(kWidth);
    auto* layout = new QVBoxLayout(body);
    m_target = new QLabel(body);
    m_target->setTextFormat(Qt::PlainText);
    m_target->setWordWrap(true);
    layout->addWidget(m_target);
    QFormLayout* form = makeForm(body);
    layout->addLayout(form);
    // After addLayout: only then do the labels addRow made belong to a widget, and a row
    // taken out of the form keeps its label owned (else it leaks).
    m_nativeRows = std::make_unique<FormRows>(form, QList<QWidget*>{m_lease->parentWidget()});
    m_plainRows =
        std::make_unique<FormRows>(form, QList<QWidget*>{m_forwardTo, m_retry->parentWidget()});
    m_plainRows->setShown(false);
    addOutput(layout, body);
    setWidget(scrolled(body));

    connect(m_behaviour, &QComboBox::currentIndexChanged, this, &WorkerDock::updateButton);
    connect(m_deliverTo, &DeliveryTargetField::edited, this, &WorkerDock::updateButton);
    connect(m_deliverTo, &DeliveryTargetField::checked, this, &WorkerDock::deliveryChecked);
    connect(m_start, &QPushButton::clicked, this, [this] {
        if (m_worker)
            stopWorker();
        else
            startWorker();
    });
    m_poll = new QTimer(this);
    m_poll->setInterval(250);
    connect(m_poll, &QTimer::timeout, this, &WorkerDock::poll);
    m_shown = currentTarget();
    poll();
    updateButton();
}

WorkerDock::~WorkerDock()
{
    // Held tasks go back to pending before the connection (or the sandbox) goes away. A
    // graceful stop already under way is waited for (at most its 3 s stop timeout) rather
    // than raced by a second stop from this thread.
    if (m_abort)
        m_abort->store(true);
    if (m_stopping)
        m_stopFuture.waitForFinished();
    else if (m_worker)
        m_worker->stopNow();
}

void WorkerDock::setQueue(const QString& queue)
{
    m_queue = queue;
    retarget();
}

WorkerDock::Target WorkerDock::currentTarget() const
{
    const ConnectionSettings settings = m_client->settings();
    return {settings.url + QLatin1Char('\n') + settings.prefix, m_queue, m_plain, m_plainUnit};
}

void WorkerDock::retarget()
{
    const Target target = currentTarget();
    if (target == m_shown) {
        updateButton();
        return;
    }
    m_shown = target;
    if (m_worker)
        stopWorker();
    clearOutput();
    updateButton();
}

void WorkerDock::clearOutput()
{
    // The old worker keeps writing to its own log until it has stopped; nobody reads it.
    m_events = std::make_shared<WorkerEventLog>();
    m_notices = std::make_shared<DeliveryNotices>();
    m_log->clear();
    m_acked = 0;
    m_counters->setText(tr("not running"));
    if (m_worker)
        m_log->appendPlainText(
            tr("stopping the worker on %1, which is no longer open").arg(m_workerName));
}

QString WorkerDock::targetText() const
{
    return m_target->text();
}

void WorkerDock::setPlain(bool plain, const QString& unit)
{
    m_plain = plain;
    m_plainUnit = unit;
    // Hide before show, so each group goes back where it was.
    (plain ? m_nativeRows : m_plainRows)->setShown(false);
    (plain ? m_plainRows : m_nativeRows)->setShown(true);
    m_behaviour->setItemText(0, plain ? tr("Take every message") : tr("Ack every task"));
    m_behaviour->setItemText(1, plain ? tr("Fail some (retry or drop)")
                                      : tr("Fail some (retry / dead)"));
    // Nothing is leased on a plain key, so there is no lease to let expire.
    const int abandon = m_behaviour->findData(Abandon);
    if (plain && m_behaviour->currentIndex() == abandon)
        m_behaviour->setCurrentIndex(0);
    if (auto* model = qobject_cast<QStandardItemModel*>(m_behaviour->model()))
        model->item(abandon)->setEnabled(!plain);
    retarget();
}

void WorkerDock::setReadOnly(bool readOnly, const QString& reason)
{
    m_readOnly = readOnly;
    m_readOnlyReason = reason;
    if (readOnly && m_worker)
        stopWorker();
    updateButton();
}

void WorkerDock::updateButton()
{
    const QString name = MemberText::displayText(m_queue);
    m_target->setText(m_queue.isEmpty() ? tr("Consumes: no queue open")
                      : m_plain         ? tr("Pops due messages of plain key %1").arg(name)
                                        : tr("Consumes queue %1").arg(name));
    setWindowTitle(m_queue.isEmpty() ? tr("Embedded worker")
                                     : tr("Embedded worker — %1").arg(name));
    const bool running = m_worker != nullptr;
    const bool checking = isChecking();
    const int behaviour = m_behaviour->currentData().toInt();
    const bool noTarget = behaviour == Deliver && !m_deliverTo->isValid();
    m_start->setText(m_stopping ? tr("Stopping…")
                     : checking ? tr("Checking the target…")
                     : running  ? tr("Stop worker")
                                : tr("Start worker"));
    m_start->setEnabled(!m_stopping && !checking &&
                        (running || (!m_readOnly && !m_queue.isEmpty() && !noTarget)));
    if (m_readOnly)
        m_start->setToolTip(plainToolTip(
            tr("Read-only: %1 (a worker claims, acks and nacks tasks)").arg(m_readOnlyReason)));
    else if (m_queue.isEmpty())
        m_start->setToolTip(tr("Open a queue first"));
    else if (noTarget && !running)
        m_start->setToolTip(tr("Type where to deliver the tasks first"));
    else
        m_start->setToolTip(plainToolTip(
            (m_plain ? tr("Pop due messages of %1 with the settings above, at most once")
                     : tr("Consume queue %1 with the settings above"))
                .arg(MemberText::displayText(m_queue))));
    const bool busy = running || checking;
    for (QWidget* w : {static_cast<QWidget*>(m_concurrency), static_cast<QWidget*>(m_lease),
                       static_cast<QWidget*>(m_behaviour), static_cast<QWidget*>(m_forwardTo),
                       static_cast<QWidget*>(m_retry)})
        w->setEnabled(!busy);
    // Only what the chosen handler uses can be edited.
    m_failPercent->setEnabled(!busy && behaviour == FailSome);
    m_sleepMs->setEnabled(!busy && behaviour != Deliver);
    m_deliverTo->setEnabled(!busy && behaviour == Deliver);
}

namespace {

// The duration typed in `edit` into *ms, or false with the reason under it. `check` throws
// delayq::Error for a value out of bounds.
bool readDuration(QLineEdit* edit, FieldError* error, long long* ms,
                  const std::function<void(long long)>& check = {})
{
    return error->check([&] {
        const long long parsed = delayq::parseDuration(edit->text().trimmed().toStdString());
        if (check)
            check(parsed);
        *ms = parsed;
    });
}

} // namespace

void WorkerDock::startWorker()
{
    if (m_worker || isChecking() || m_readOnly || m_queue.isEmpty())
        return;
    long long leaseMs = 30000;
    if (!m_plain && !readDuration(m_lease, m_leaseError, &leaseMs, [](long long ms) {
            if (ms < 100)
                throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                    "a lease is at least 100ms");
        }))
        return;
    long long retryMs = -1;
    if (m_plain && !m_retry->text().trimmed().isEmpty() &&
        !readDuration(m_retry, m_retryError, &retryMs))
        return;
    delayq::WorkerOptions options;
    if (!fillOptions(options, leaseMs, retryMs))
        return;
    if (m_behaviour->currentData().toInt() == Deliver) {
        startDelivering(options, leaseMs);
        return;
    }
    const delayq::Handler handler = makeHandler();
    auto events = m_events;
    launch(options, {}, [&] {
        return std::make_shared<delayq::Worker>(
            options, handler, [events](const delayq::WorkerEvent& e) { events->add(e); });
    });
}

void WorkerDock::launch(const delayq::WorkerOptions& options, const QString& via,
                        const std::function<std::shared_ptr<delayq::Worker>()>& make)
{
    try {
        auto worker = make();
        worker->start();
        m_worker = worker;
        m_workerTarget = m_shown;
    } catch (const delayq::Error& e) {
        m_log->appendPlainText(tr("cannot start: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    m_log->appendPlainText((m_plain
                                ? tr("started %1 on plain key %2 with %3 thread(s), at most once")
                                : tr("started %1 on queue %2 with %3 thread(s)"))
                               .arg(QString::fromStdString(options.name), m_queue)
                               .arg(options.concurrency));
    if (!via.isEmpty())
        m_log->appendPlainText(tr("delivering to %1").arg(via));
    m_workerName =
        (m_plain ? tr("plain key %1") : tr("queue %1")).arg(MemberText::displayText(m_queue));
    m_poll->start();
    updateButton();
    emit runningChanged(true);
}

bool WorkerDock::fillOptions(delayq::WorkerOptions& options, long long leaseMs, long long retryMs)
{
    const ConnectionSettings settings = m_client->settings();
    try {
        options.connection = delayq::ConnectionOptions::fromUrl(settings.url.toStdString());
        if (!settings.password.isEmpty())
            options.connection.password = settings.password.toStdString();
    } catch (const delayq::Error& e) {
        m_log->appendPlainText(tr("cannot start: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    options.queue = m_queue.toStdString();
    options.prefix = settings.prefix.toStdString();
    options.concurrency = m_concurrency->value();
    options.leaseMs = leaseMs;
    options.stopTimeout = std::chrono::milliseconds(3000);
    options.name = "admin-" + delayq::randomToken(4);
    // What the Workers view and `delayq workers` say it runs.
    options.handlerKind =
        m_behaviour->currentData().toInt() == Deliver ? "admin:delivery" : "admin:simulated";
    if (m_plain) {
        options.plainKey = MemberText::toBytes(m_queue);
        if (!m_plainUnit.isEmpty())
            options.plainUnit = m_plainUnit == QLatin1String("s")
                                    ? delayq::PlainQueue::ScoreUnit::Seconds
                                    : delayq::PlainQueue::ScoreUnit::Milliseconds;
        options.forwardTo = m_forwardTo->text().trimmed().toStdString();
        options.plainRetryMs = retryMs;
    }
    return true;
}

delayq::Handler WorkerDock::makeHandler()
{
    const int behaviour = m_behaviour->currentData().toInt();
    // Set when the dock closes: a long simulated job ends at once instead of holding the
    // window open until its sleep is over.
    m_abort = std::make_shared<std::atomic<bool>>(false);
    return SimulatedHandler::make(behaviour == Abandon,
                                  behaviour == FailSome ? m_failPercent->value() / 100.0 : 0.0,
                                  m_sleepMs->value(), m_abort);
}

void WorkerDock::stopWorker()
{
    if (!m_worker || m_stopping)
        return;
    m_stopping = true;
    updateButton();
    // A graceful stop waits for running handlers: never on the GUI thread.
    auto worker = m_worker;
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher] {
        watcher->deleteLater();
        stopped();
    });
    m_stopFuture = QtConcurrent::run([worker] { worker->stop(); });
    watcher->setFuture(m_stopFuture);
}

void WorkerDock::stopped()
{
    const bool shown = m_workerTarget == m_shown;
    if (shown)
        poll(); // its last outcomes and counters
    m_worker.reset();
    m_stopping = false;
    m_poll->stop();
    m_log->appendPlainText(shown ? tr("stopped")
                                 : tr("stopped the worker on %1").arg(m_workerName));
    updateButton();
    emit runningChanged(false);
}

void WorkerDock::poll()
{
    for (const auto& event : m_events->take())
        m_log->appendPlainText(WorkerEventLog::describe(event));
    for (const QString& line : m_notices->take())
        m_log->appendPlainText(line);
    // A worker still stopping after another queue was opened: its figures are not this one's.
    if (!m_worker || m_workerTarget != m_shown) {
        if (m_counters->text().isEmpty())
            m_counters->setText(tr("not running"));
        return;
    }
    const delayq::WorkerCounters c = m_worker->counters();
    m_acked = c.acked;
    m_counters->setText(WorkerCountersText::describe(c));
}

void WorkerDock::note(const QString& line)
{
    m_log->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss.zzz")) +
                           QLatin1Char(' ') + line);
}

} // namespace delayq::ui
