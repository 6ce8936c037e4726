#pragma once

#include <delayq/schedule.h>

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QSpinBox;
class QStackedWidget;
class QWidget;

namespace delayq::ui {

class FieldError;

// Add or edit one schedule of a queue (docs/schedules.md): a cron expression in a time zone
// or a fixed interval, the payload and the task settings of its fires, and a live preview
// of the next fires, computed here from the rule (ScheduleRule::nextFire: no Redis). A field
// the core refuses shows the core's message under it, and OK waits until every field passes.
class ScheduleDialog : public QDialog
{
    Q_OBJECT

public:
    static constexpr int kPreviewFires = 10;

    // A new schedule of `queue`, or (with `existing`) an edit of that one: its name stays.
    ScheduleDialog(const QString& queue, const std::optional<delayq::ScheduleInfo>& existing,
                   bool utc, QWidget* parent = nullptr);

    // The rule to write, as the fields say (valid only while OK is enabled).
    delayq::ScheduleRule rule() const;
    // The version the edit read (0 for a new schedule).
    qint64 version() const { return m_version; }
    bool isEdit() const { return m_existing.has_value(); }

    QLineEdit* nameField() const { return m_name; }
    QComboBox* kindField() const { return m_kind; }
    QLineEdit* cronField() const { return m_cron; }
    QLineEdit* everyField() const { return m_every; }
    QComboBox* zoneField() const { return m_zone; }
    QPlainTextEdit* payloadField() const { return m_payload; }
    QLineEdit* catchUpField() const { return m_catchUp; }
    QSpinBox* maxAttemptsField() const { return m_maxAttempts; }
    QLineEdit* backoffField() const { return m_backoff; }
    // Allow (0) or skip (1) a fire while the previous fire's task runs.
    QComboBox* overlapField() const { return m_overlap; }
    QLineEdit* jitterField() const { return m_jitter; }
    FieldError* jitterError() const { return m_jitterError; }
    FieldError* cronError() const { return m_cronError; }
    FieldError* zoneError() const { return m_zoneError; }
    // The next fires as shown ("2026-03-09 09:00:00 …"), empty while the rule is refused.
    QListWidget* preview() const { return m_preview; }
    QPushButton* okButton() const;
    // The time the preview counts from (tests fix it; the clock by default).
    void setNow(qint64 nowMs);

private:
    // The rows of the kind field, and the pages of the rule field.
    enum Kind
    {
        CronKind,
        EveryKind
    };
    void updateKind();
    // Checks every field, shows each refusal under its field, fills the preview and enables OK.
    void update();
    QString timeText(qint64 ms) const;
    static QString durationText(qint64 ms);

    std::optional<delayq::ScheduleInfo> m_existing;
    qint64 m_version = 0;
    bool m_utc = false;
    qint64 m_now = 0; // 0: the clock
    QLineEdit* m_name;
    QComboBox* m_kind;
    QLineEdit* m_cron;
    QLineEdit* m_every;
    QComboBox* m_zone;
    QPlainTextEdit* m_payload;
    QLineEdit* m_catchUp;
    QSpinBox* m_maxAttempts;
    QLineEdit* m_backoff;
    QComboBox* m_overlap;
    QLineEdit* m_jitter;
    FieldError* m_nameError;
    FieldError* m_cronError;
    FieldError* m_everyError;
    FieldError* m_zoneError;
    FieldError* m_catchUpError;
    FieldError* m_backoffError;
    FieldError* m_jitterError;
    FieldError* m_ruleError;
    QStackedWidget* m_ruleFields; // the cron field or the interval field, as the kind says
    QLabel* m_previewNote;
    QListWidget* m_preview;
    QDialogButtonBox* m_buttons;
    delayq::ScheduleRule m_rule; // as last checked
};

} // namespace delayq::ui
