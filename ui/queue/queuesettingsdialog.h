#pragma once

#include "client/queuetypes.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace delayq::ui {

class AdminClient;
class FieldError;

// One queue's settings as `delayq config` writes them: max attempts, backoff (with the
// delays of the retries max attempts allows shown as it is typed), lease, max payload, task
// history, and the flow limits: rate, burst and cap, fair order and its group cap (with what
// they mean, shown as typed); behind two buttons, the dead bound and expiry, and the dedup window
// and the recycle bin, each with what it costs.
// Each field is checked as the core checks it (Queue::normalizeConfig) and refused next to
// itself. Save writes only the values that differ from those loaded, in one core call (one
// audit entry), through the I/O thread, and the dialog closes once Redis took them; a Save
// that changes nothing writes nothing. Everything is disabled in a read-only session.
class QueueSettingsDialog : public QDialog
{
    Q_OBJECT

public:
    QueueSettingsDialog(AdminClient* client, const QString& queue, bool readOnly,
                        QWidget* parent = nullptr);

    QLineEdit* maxAttemptsField() const { return m_fields[0]; }
    QLineEdit* backoffField() const { return m_fields[1]; }
    QLineEdit* leaseField() const { return m_fields[2]; }
    QLineEdit* maxPayloadField() const { return m_fields[3]; }
    QLineEdit* rateField() const { return m_fields[5]; }
    QLineEdit* burstField() const { return m_fields[6]; }
    QLineEdit* capField() const { return m_fields[7]; }
    // Fair order (docs/design/flow.md): the order ("due" or "fair" as item data) and the
    // tasks of one group active at once (empty = off).
    QComboBox* orderBox() const { return m_order; }
    QLineEdit* groupCapField() const { return m_fields[8]; }
    // Each group's own rate in fair order (group_rate, "5/s"; empty = off).
    QLineEdit* groupRateField() const { return m_fields[12]; }
    // The dead bound and expiry (shown by boundsButton()).
    QLineEdit* deadMaxField() const { return m_fields[9]; }
    QLineEdit* deadMaxBytesField() const { return m_fields[10]; }
    QLineEdit* maxAgeField() const { return m_fields[11]; }
    QComboBox* expiredToBox() const { return m_expiredTo; }
    QPushButton* boundsButton() const { return m_boundsButton; }
    // The dedup window and the recycle bin (docs/design/keep.md, docs/design/bin.md), shown by
    // keepButton(): dedup_window, dedup_max, bin_keep, bin_max, bin_bytes.
    QLineEdit* dedupWindowField() const { return m_fields[13]; }
    QLineEdit* dedupMaxField() const { return m_fields[14]; }
    QLineEdit* binKeepField() const { return m_fields[15]; }
    QLineEdit* binMaxField() const { return m_fields[16]; }
    QLineEdit* binBytesField() const { return m_fields[17]; }
    QPushButton* keepButton() const { return m_keepButton; }
    // The field of a config key ("bin_max"), or nullptr.
    QLineEdit* fieldOf(const QString& key) const;
    // Its index, for errorOf(); -1 when the dialog has no such field.
    static int indexOf(const QString& key);
    // What the rate, burst and cap mean, in a sentence ("at most 50 tasks start per second, …").
    QLabel* flowPreview() const { return m_flowPreview; }
    FieldError* errorOf(int field) const { return m_errors[field]; }
    // The first refusal in a part not shown ("Not saved: bin_keep: …"), or none.
    FieldError* elsewhereError() const { return m_elsewhere; }
    QLabel* preview() const { return m_preview; }
    // What changing max attempts and backoff does to tasks already queued.
    QLabel* attemptsNote() const { return m_notes[0]; }
    QLabel* backoffNote() const { return m_notes[1]; }
    QPushButton* saveButton() const;
    // The delays before the first `count` retries of a stored backoff ("5000,20000" or
    // "exp:1000:300000"), as lua/common.lua's backoff_delay computes them.
    static QList<qint64> retryDelays(const QString& normalized, int count);
    // A stored backoff as an operator types it: "5000,20000" -> "5s,20s".
    static QString backoffText(const QString& normalized);
    // A rate as an operator types it: (50, 1000) -> "50/s", (5, 250) -> "5/250ms"; "off".
    static QString rateText(qint64 tasks, qint64 ms);
    // The flow limits in words (0 = off), as the preview says them; fair order and its group
    // cap said after them.
    static QString flowText(qint64 rateTasks, qint64 rateMs, qint64 burst, qint64 cap,
                            bool fair = false, qint64 groupCap = 0, qint64 groupRateTasks = 0,
                            qint64 groupRateMs = 0);
    // An interval as the preview says it: "per second", "every 250ms".
    static QString perText(qint64 ms);
    // The rate, burst and cap alone in words.
    static QString limitsText(qint64 rateTasks, qint64 rateMs, qint64 burst, qint64 cap);

    void accept() override;

protected:
    bool event(QEvent* event) override;

signals:
    // The settings were loaded (or could not be: the message says why).
    void loaded();
    void saved(const delayq::ui::QueueConfigResult& config);

private:
    void onConfig(const QueueConfigResult& result);
    // Checks every field; true when all can be written.
    bool validate();
    // retries: how many max attempts allows, or -1 when it is not valid (no limit shown).
    void updatePreview(const QString& normalized, int retries);
    // The (field, typed value) pairs whose stored form differs from the loaded one.
    QList<QPair<QString, QString>> changedValues() const;
    // Tall enough for every wrapped line at the current width (errors come and go).
    void fitHeight();
    // The rows behind "Dedup and recycle bin…".
    QWidget* keepRows();

    AdminClient* m_client;
    QString m_queue;
    bool m_readOnly;
    bool m_loaded = false;
    quint64 m_loadTag = 0;
    quint64 m_writeTag = 0;
    // The text of a field as the core takes it: an empty limit is "off".
    QString typed(int field) const;

    QLineEdit* m_fields[18] = {};
    FieldError* m_errors[18] = {};
    QString m_loadedValues[18]; // the stored form of what was loaded
    QString m_fieldLabels[18];
    QComboBox* m_order = nullptr;
    QString m_loadedOrder;            // "due" or "fair"
    QComboBox* m_expiredTo = nullptr; // dead or drop
    QWidget* m_main = nullptr;        // the rows a part takes the place of
    QWidget* m_bounds = nullptr;      // the dead bound's and expiry's rows, shown on demand
    QPushButton* m_boundsButton = nullptr;
    QWidget* m_keep = nullptr; // the dedup window's and the recycle bin's rows, on demand
    QPushButton* m_keepButton = nullptr;
    QString m_loadedExpiredTo;
    QLabel* m_notes[3] = {};
    QLabel* m_preview;
    QLabel* m_flowPreview = nullptr;
    FieldError* m_elsewhere = nullptr;
    FieldError* m_general;
    QDialogButtonBox* m_buttons;
};

} // namespace delayq::ui
