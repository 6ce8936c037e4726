#include "workerdock.h"

#include "adminclient.h"
#include "duetext.h"
#include "fielderror.h"
#include "formrows.h"
#include "membertext.h"
#include "plaintooltip.h"
#include "simulatedhandler.h"
#include "workereventlog.h"
#include <delayq/error.h>
#include <delayq/taskid.h>
#include <delayq/timeparse.h>
#include <delayq/worker.h>

#include <QComboBox>
#include <QDateTime>
#include <QFontDatabase>
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
      m_events(std::make_shared<WorkerEventLog>())
{
    setObjectName(QStringLiteral("workerdock"));
    auto* body = new QWidget(this);
    // The task table comes first: wherever the panel is docked, it takes at most this much.
    body->setMaximumWidth(380);
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
    setWidget(body);

    auto enableFail = [this] {
        m_failPercent->setEnabled(m_behaviour->currentData().toInt() == FailSome);
    };
    connect(m_behaviour, &QComboBox::currentIndexChanged, this, enableFail);
    enableFail();
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

QFormLayout* WorkerDock::makeForm(QWidget* body)
{
    auto* form = new QFormLayout;
    m_concurrency = new QSpinBox(body);
    m_concurrency->setRange(1, 32);
    m_concurrency->setValue(2);
    form->addRow(tr("Threads"), m_concurrency);
    m_lease = new QLineEdit(QStringLiteral("30s"), body);
    m_leaseError = FieldError::addRow(form, tr("Lease"), m_lease, body);
    m_behaviour = new QComboBox(body);
    m_behaviour->addItem(tr("Ack every task"), Ack);
    m_behaviour->addItem(tr("Fail some (retry / dead)"), FailSome);
    m_behaviour->addItem(tr("Never ack (leases expire)"), Abandon);
    form->addRow(tr("Handler"), m_behaviour);
    m_failPercent = new QSpinBox(body);
    m_failPercent->setRange(0, 100);
    m_failPercent->setValue(20);
    m_failPercent->setSuffix(QStringLiteral(" %"));
    form->addRow(tr("Fail probability"), m_failPercent);
    m_sleepMs = new QSpinBox(body);
    m_sleepMs->setRange(0, 600000);
    m_sleepMs->setValue(50);
    m_sleepMs->setSuffix(tr(" ms"));
    form->addRow(tr("Work time"), m_sleepMs);
    m_forwardTo = new QLineEdit(body);
    m_forwardTo->setPlaceholderText(tr("optional: a Redis list"));
    m_forwardTo->setToolTip(tr("LPUSH each popped message to this list, in the same script as "
                               "the pop, for a consumer that reads the list"));
    form->addRow(tr("Forward to"), m_forwardTo);
    m_retry = new QLineEdit(body);
    m_retry->setPlaceholderText(tr("optional: e.g. 30s; empty drops failed messages"));
    m_retryError = FieldError::addRow(form, tr("Retry failed in"), m_retry, body);
    return form;
}

void WorkerDock::addOutput(QVBoxLayout* layout, QWidget* body)
{
    m_start = new QPushButton(tr("Start worker"), body);
    layout->addWidget(m_start);
    m_counters = new QLabel(body);
    m_counters->setTextFormat(Qt::PlainText);
    m_counters->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const QString lateness =
        tr("Lateness: from a task's due time to the moment this worker started it. Tasks that "
           "were already overdue when the worker started count their whole wait.");
    m_counters->setToolTip(lateness);
    layout->addWidget(m_counters);
    auto* latenessNote = new QLabel(lateness, body);
    latenessNote->setTextFormat(Qt::PlainText);
    latenessNote->setWordWrap(true);
    latenessNote->setEnabled(false);
    layout->addWidget(latenessNote);
    m_log = new QPlainTextEdit(body);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(500);
    // Wrapped: a narrow panel must still show a whole id and error.
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_log->setPlaceholderText(tr("Outcomes of the tasks this worker runs appear here."));
    layout->addWidget(m_log, 1);
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
    m_start->setText(m_stopping ? tr("Stopping…")
                     : running  ? tr("Stop worker")
                                : tr("Start worker"));
    m_start->setEnabled(!m_stopping && (running || (!m_readOnly && !m_queue.isEmpty())));
    if (m_readOnly)
        m_start->setToolTip(plainToolTip(
            tr("Read-only: %1 (a worker claims, acks and nacks tasks)").arg(m_readOnlyReason)));
    else if (m_queue.isEmpty())
        m_start->setToolTip(tr("Open a queue first"));
    else
        m_start->setToolTip(plainToolTip(
            (m_plain ? tr("Pop due messages of %1 with the settings above, at most once")
                     : tr("Consume queue %1 with the settings above"))
                .arg(MemberText::displayText(m_queue))));
    for (QWidget* w : {static_cast<QWidget*>(m_concurrency), static_cast<QWidget*>(m_lease),
                       static_cast<QWidget*>(m_behaviour), static_cast<QWidget*>(m_sleepMs),
                       static_cast<QWidget*>(m_forwardTo), static_cast<QWidget*>(m_retry)})
        w->setEnabled(!running);
    m_failPercent->setEnabled(!running && m_behaviour->currentData().toInt() == FailSome);
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
    if (m_worker || m_readOnly || m_queue.isEmpty())
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
    auto events = m_events;
    try {
        auto worker = std::make_shared<delayq::Worker>(
            options, makeHandler(), [events](const delayq::WorkerEvent& e) { events->add(e); });
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
    // A worker still stopping after another queue was opened: its figures are not this one's.
    if (!m_worker || m_workerTarget != m_shown) {
        if (m_counters->text().isEmpty())
            m_counters->setText(tr("not running"));
        return;
    }
    const delayq::WorkerCounters c = m_worker->counters();
    m_acked = c.acked;
    m_counters->setText(tr("claimed %1  acked %2  failed %3\nretried %4  dead %5  lease lost %6\n"
                           "in flight %7  lateness p50 %8  p99 %9  max %10%11")
                            .arg(c.claimed)
                            .arg(c.acked)
                            .arg(c.failed)
                            .arg(c.retried)
                            .arg(c.dead)
                            .arg(c.leaseLost)
                            .arg(c.inFlight)
                            .arg(DueText::duration(c.latenessP50), DueText::duration(c.latenessP99),
                                 DueText::duration(c.latenessMax),
                                 c.connected ? QString() : tr("\nDISCONNECTED, retrying")));
}

void WorkerDock::note(const QString& line)
{
    m_log->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss.zzz")) +
                           QLatin1Char(' ') + line);
}

} // namespace delayq::ui
