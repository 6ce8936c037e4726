#pragma once

#include "client/tasktypes.h"
#include "widgets/formrows.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QFormLayout;
class QPlainTextEdit;
class QRadioButton;
class QSpinBox;

namespace delayq::ui {

class FieldError;

// Push one or more tasks. Every field is checked before anything is sent, and a refused
// value gets its reason under the field; the dialog stays open until all are fine.
class PushDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PushDialog(const QString& queue, QWidget* parent = nullptr);

    // Checks every field, shows the messages, returns whether all are valid.
    bool validate();
    // Only meaningful after validate() returned true.
    PushSpec spec() const { return m_spec; }

    QLineEdit* queueEdit() const { return m_queue; }
    QPlainTextEdit* payloadEdit() const { return m_payload; }
    QCheckBox* requireJson() const { return m_requireJson; }
    QRadioButton* delayMode() const { return m_delayMode; }
    QRadioButton* atMode() const { return m_atMode; }
    QLineEdit* delayEdit() const { return m_delay; }
    QLineEdit* atEdit() const { return m_at; }
    QLineEdit* idEdit() const { return m_id; }
    QLineEdit* backoffEdit() const { return m_backoff; }
    QSpinBox* maxAttemptsSpin() const { return m_maxAttempts; }
    QSpinBox* countSpin() const { return m_count; }
    // Keep (docs/design/keep.md): the dedup window of this push (empty: the queue's
    // dedup_window), and debounce: the maximum wait (empty: off) and whether the payload moves
    // too. The CLI's push --dedup, --debounce and --debounce-payload.
    QLineEdit* dedupEdit() const { return m_dedup; }
    QLineEdit* debounceEdit() const { return m_debounce; }
    QCheckBox* debouncePayload() const { return m_debouncePayload; }
    FieldError* dedupError() const { return m_dedupError; }
    FieldError* debounceError() const { return m_debounceError; }
    FieldError* queueError() const { return m_queueError; }
    FieldError* payloadError() const { return m_payloadError; }
    FieldError* timeError() const { return m_timeError; }
    FieldError* idError() const { return m_idError; }
    FieldError* backoffError() const { return m_backoffError; }

    // A plain sorted set: the message is the member, due at a time; ids, attempts, backoff
    // and copies do not apply (an identical member would only be the same one again).
    void setPlain(bool plain);

    // The server's clock (offset from this machine's) and the zone for the live due time.
    void setClock(qint64 clockOffsetMs, bool utc);
    // "Due 06:24:57, in 45m", updated as the delay or the time is typed.
    QString dueText() const;

    void accept() override;

private:
    // The rows of the form below the queue, top to bottom (the tab order follows them).
    void addPayloadRow(QFormLayout* form);
    void addDueRow(QFormLayout* form);
    // Id, attempts, backoff, dedup, debounce and copies: hidden on a plain sorted set.
    void addNativeRows(QFormLayout* form);
    // The dedup window and debounce rows.
    void addKeepRows(QFormLayout* form);
    bool checkPayload();
    // The due time (ms) the fields give, from `now` in "In" mode (and the delay then).
    // Throws delayq::Error.
    qint64 dueAt(qint64 now, qint64* delayMs) const;
    void updateDue();

    QLineEdit* m_queue;
    FieldError* m_queueError;
    QPlainTextEdit* m_payload;
    QCheckBox* m_requireJson;
    FieldError* m_payloadError;
    QRadioButton* m_delayMode;
    QRadioButton* m_atMode;
    QLineEdit* m_delay;
    QLineEdit* m_at;
    FieldError* m_timeError;
    QLabel* m_dueLabel;
    qint64 m_clockOffsetMs = 0;
    bool m_utc = false;
    QLineEdit* m_id;
    FieldError* m_idError;
    QSpinBox* m_maxAttempts;
    QLineEdit* m_backoff;
    FieldError* m_backoffError;
    QLineEdit* m_dedup;
    FieldError* m_dedupError;
    QLineEdit* m_debounce;
    QCheckBox* m_debouncePayload;
    FieldError* m_debounceError;
    QSpinBox* m_count;
    QFormLayout* m_form;
    std::unique_ptr<FormRows> m_nativeRows; // ids, attempts, backoff, dedup, debounce, copies
    bool m_plain = false;
    PushSpec m_spec;
};

} // namespace delayq::ui
