#pragma once

#include "widgets/formrows.h"
#include <delayq/worker.h>

#include <QDockWidget>
#include <QFuture>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTimer;
class QVBoxLayout;

namespace delayq {
class Worker;
}

namespace delayq::ui {

class AdminClient;
class DeliveryNotices;
class DeliveryTargetField;
class FieldError;
class WorkerEventLog;

// A test consumer on the open queue, run by the core worker on its own threads: choose the
// concurrency, the lease and what the handler does (ack, fail with a probability, sleep,
// never ack so leases expire) or where it delivers them instead (a RabbitMQ URL, a webhook,
// a pipe command: checked off the GUI thread before anything is claimed), then watch its
// counters and the last outcomes, the target's answers among them. The counters
// and the log are those of the queue or key open on this server: opening another one, or
// connecting to another server, stops the worker and starts them afresh.
class WorkerDock : public QDockWidget
{
    Q_OBJECT

public:
    enum Behaviour
    {
        Ack = 0,
        FailSome = 1,
        Abandon = 2,
        Deliver = 3 // to the target in the "Deliver to" field
    };

    WorkerDock(AdminClient* client, QWidget* parent = nullptr);
    ~WorkerDock() override;

    void setQueue(const QString& queue);
    // "Consumes queue orders": the panel says what it works on.
    QString targetText() const;
    // A plain sorted set (unit "ms" | "s"): due members are popped, at most once, and may be
    // forwarded to a list; leases and "never ack" do not apply there.
    void setPlain(bool plain, const QString& unit = {});
    void setReadOnly(bool readOnly, const QString& reason);
    // The app was told to connect (AdminClient::settings() changed): on another server or
    // prefix the worker stops and counters and log start again; the same one keeps them.
    void followConnection() { retarget(); }
    QLabel* countersLabel() const { return m_counters; }
    bool isRunning() const { return m_worker != nullptr; }
    // Start was pressed with a delivery target, which is being checked (off the GUI thread).
    bool isChecking() const { return m_pending.has_value(); }

    QSpinBox* concurrencySpin() const { return m_concurrency; }
    QLineEdit* leaseEdit() const { return m_lease; }
    QComboBox* behaviourBox() const { return m_behaviour; }
    QSpinBox* failPercentSpin() const { return m_failPercent; }
    QSpinBox* sleepSpin() const { return m_sleepMs; }
    DeliveryTargetField* deliveryField() const { return m_deliverTo; }
    QLineEdit* forwardEdit() const { return m_forwardTo; }
    QPushButton* startButton() const { return m_start; }
    QPlainTextEdit* log() const { return m_log; }
    // A line of the app's own in the log, timestamped like the worker's (a failover, ...).
    void note(const QString& line);
    long long acked() const { return m_acked; }

    void startWorker();
    void stopWorker();

signals:
    void runningChanged(bool running);

private:
    // The rows of the settings, top to bottom, and what shows the worker's work below them.
    QFormLayout* makeForm(QWidget* body);
    void addOutput(QVBoxLayout* layout, QWidget* body);
    // The body in a scroll area as wide as the body may be.
    QWidget* scrolled(QWidget* body);
    static constexpr int kWidth = 380; // the body's, when nothing needs more
    void fitWidth();
    bool eventFilter(QObject* watched, QEvent* event) override;
    // The worker's settings from the fields; false, with the reason logged, when the
    // connection's URL is refused.
    bool fillOptions(delayq::WorkerOptions& options, long long leaseMs, long long retryMs);
    // The simulated handler the fields describe; m_abort ends its work early.
    delayq::Handler makeHandler();
    // The delivery path of startWorker: the factory from the field, then its check; the
    // worker starts in deliveryChecked() once the target answered.
    void startDelivering(const delayq::WorkerOptions& options, long long leaseMs);
    void deliveryChecked(const QString& refusal);
    // Starts the worker `make` builds and says so in the log (`via`: the printable target).
    void launch(const delayq::WorkerOptions& options, const QString& via,
                const std::function<std::shared_ptr<delayq::Worker>()>& make);
    void poll();
    void updateButton();
    // What the panel works on: the server, the queue or key, and how its scores read.
    struct Target
    {
        QString server; // URL and prefix
        QString queue;
        bool plain = false;
        QString unit;
        bool operator==(const Target&) const = default;
    };
    Target currentTarget() const;
    // After the open queue, key or server changed: a running worker stops, and counters and
    // log start again, so nothing of the last one is shown under the new name.
    void retarget();
    void clearOutput();
    void stopped();

    AdminClient* m_client;
    QString m_queue;
    bool m_readOnly = false;
    QString m_readOnlyReason;
    QSpinBox* m_concurrency;
    QLineEdit* m_lease;
    FieldError* m_leaseError;
    QComboBox* m_behaviour;
    QSpinBox* m_failPercent;
    QSpinBox* m_sleepMs;
    DeliveryTargetField* m_deliverTo;
    QLineEdit* m_forwardTo;
    QLineEdit* m_retry;
    FieldError* m_retryError;
    std::unique_ptr<FormRows> m_nativeRows; // the lease
    std::unique_ptr<FormRows> m_plainRows;  // forward to a list, retry
    bool m_plain = false;
    QString m_plainUnit;
    QPushButton* m_start;
    QLabel* m_target = nullptr; // which queue it consumes
    QLabel* m_counters;
    QPlainTextEdit* m_log;
    QTimer* m_poll;
    QScrollArea* m_scroll = nullptr; // around the body
    Target m_shown;                  // what the counters and the log are about
    Target m_workerTarget;           // what m_worker consumes
    QString m_workerName;            // "queue orders", for the line saying it stopped
    std::shared_ptr<delayq::Worker> m_worker;
    std::shared_ptr<WorkerEventLog> m_events;
    std::shared_ptr<DeliveryNotices> m_notices; // the delivery target's lines for the log
    // A worker waiting for its target's check: what it will run, and on what it was asked.
    struct PendingStart
    {
        delayq::WorkerOptions options;
        delayq::DeliveryFactory factory;
        Target target;
        std::shared_ptr<std::atomic<const delayq::Worker*>> self; // for DeliveryOptions::aborted
    };
    std::optional<PendingStart> m_pending;
    bool m_stopping = false;
    QFuture<void> m_stopFuture;
    std::shared_ptr<std::atomic<bool>> m_abort;
    long long m_acked = 0;
};

} // namespace delayq::ui
