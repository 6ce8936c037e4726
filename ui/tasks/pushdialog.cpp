#include "tasks/pushdialog.h"

#include "widgets/dialogbuttons.h"
#include "widgets/duetext.h"
#include "widgets/fielderror.h"
#include "widgets/formrows.h"
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/timeparse.h>

#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace delayq::ui {

PushDialog::PushDialog(const QString& queue, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Push tasks"));
    auto* form = new QFormLayout;
    m_form = form;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_queue = new QLineEdit(queue, this);
    m_queueError = FieldError::addRow(form, tr("&Queue"), m_queue, this);

    addPayloadRow(form);
    addDueRow(form);
    addNativeRows(form);

    auto* buttons = DialogButtons::okCancel(this, tr("Push"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(560, 480);
    // The open queue is filled in: the payload is what the operator types first.
    if (!queue.isEmpty())
        m_payload->setFocus();
}

void PushDialog::addPayloadRow(QFormLayout* form)
{
    m_payload = new QPlainTextEdit(this);
    m_payload->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_payload->setPlaceholderText(tr("{\"order\": 42, \"action\": \"send-reminder\"}"));
    m_payload->setTabChangesFocus(true);
    m_requireJson = new QCheckBox(tr("Must be valid JSON"), this);
    m_requireJson->setChecked(true);
    m_payloadError = new FieldError(this);
    auto* payloadBox = new QWidget(this);
    auto* payloadLayout = new QVBoxLayout(payloadBox);
    payloadLayout->setContentsMargins(0, 0, 0, 0);
    payloadLayout->addWidget(m_payload);
    payloadLayout->addWidget(m_requireJson);
    payloadLayout->addWidget(m_payloadError);
    form->addRow(tr("&Payload"), payloadBox);
}

void PushDialog::addDueRow(QFormLayout* form)
{
    m_delayMode = new QRadioButton(tr("In"), this);
    m_delayMode->setChecked(true);
    // Empty, not "0s": pushing with no delay typed would silently mean "now".
    m_delay = new QLineEdit(this);
    m_delay->setPlaceholderText(tr("30s, 5m, 1h30m; 0 for now"));
    m_atMode = new QRadioButton(tr("At"), this);
    m_at = new QLineEdit(this);
    m_at->setPlaceholderText(tr("2026-12-01 09:30 (local) or …Z for UTC"));
    m_at->setEnabled(false);
    m_timeError = new FieldError(this);
    m_dueLabel = new QLabel(this);
    m_dueLabel->setTextFormat(Qt::PlainText);
    // Each mode on a line of its own: side by side, the "At" example was cut.
    auto* timeRow = new QWidget(this);
    auto* timeLayout = new QGridLayout(timeRow);
    timeLayout->setContentsMargins(0, 0, 0, 0);
    timeLayout->addWidget(m_delayMode, 0, 0);
    timeLayout->addWidget(m_delay, 0, 1);
    timeLayout->addWidget(m_atMode, 1, 0);
    timeLayout->addWidget(m_at, 1, 1);
    timeLayout->addWidget(m_dueLabel, 2, 1);
    timeLayout->setColumnStretch(1, 1);
    form->addRow(tr("&Due"), FieldError::below(timeRow, m_timeError, this));
    connect(m_delayMode, &QRadioButton::toggled, this, [this](bool on) {
        m_delay->setEnabled(on);
        m_at->setEnabled(!on);
        updateDue();
    });
    connect(m_delay, &QLineEdit::textChanged, this, &PushDialog::updateDue);
    connect(m_at, &QLineEdit::textChanged, this, &PushDialog::updateDue);
    // A shown error goes as soon as the payload is fixed, not at the next Push.
    connect(m_payload, &QPlainTextEdit::textChanged, this, [this] {
        if (m_payloadError->hasError())
            checkPayload();
    });
    connect(m_requireJson, &QCheckBox::toggled, this, [this] {
        if (m_payloadError->hasError())
            checkPayload();
    });
    updateDue();
}

void PushDialog::addNativeRows(QFormLayout* form)
{
    m_id = new QLineEdit(this);
    m_id->setPlaceholderText(tr("optional; generated when empty"));
    m_idError = FieldError::addRow(form, tr("&Id"), m_id, this);

    m_maxAttempts = new QSpinBox(this);
    m_maxAttempts->setRange(0, 1000000);
    m_maxAttempts->setSpecialValueText(tr("queue default"));
    form->addRow(tr("&Max attempts"), m_maxAttempts);

    m_backoff = new QLineEdit(this);
    m_backoff->setPlaceholderText(tr("queue default; e.g. 5s,20s,30s or exp:1s:5m"));
    m_backoffError = FieldError::addRow(form, tr("&Backoff"), m_backoff, this);

    addKeepRows(form);

    m_count = new QSpinBox(this);
    m_count->setRange(1, 100000);
    m_count->setToolTip(tr("Push this many copies; a given id gets -1, -2, … appended"));
    form->addRow(tr("&Count"), m_count);

    m_nativeRows = std::make_unique<FormRows>(
        form, QList<QWidget*>{m_id->parentWidget(), m_maxAttempts, m_backoff->parentWidget(),
                              m_dedup->parentWidget(), m_debounce->parentWidget()->parentWidget(),
                              m_count});
}

void PushDialog::addKeepRows(QFormLayout* form)
{
    m_dedup = new QLineEdit(this);
    m_dedup->setPlaceholderText(tr("queue default; e.g. 1h: the id stays refused that long "
                                   "after the task ends"));
    m_dedupError = FieldError::addRow(form, tr("D&edup window"), m_dedup, this);

    // The maximum wait and whether the payload moves, on one row; the refusal under both.
    m_debounce = new QLineEdit(this);
    m_debounce->setPlaceholderText(tr("max wait, e.g. 30m; off when empty"));
    m_debounce->setToolTip(tr("With an id: a pending task with that id moves to this push's "
                              "due time instead of being refused, never past its first push + "
                              "the max wait; a running one gets one follow-up"));
    m_debouncePayload = new QCheckBox(tr("Move the payload too"), this);
    m_debouncePayload->setEnabled(false); // until a max wait is typed
    auto* row = new QWidget(this);
    auto* rowLayout = new QHBoxLayout(row);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->addWidget(m_debounce, 1);
    rowLayout->addWidget(m_debouncePayload);
    m_debounceError = new FieldError(this);
    form->addRow(tr("Debou&nce"), FieldError::below(row, m_debounceError, this));
    connect(m_debounce, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_debouncePayload->setEnabled(!text.trimmed().isEmpty());
    });
}

bool PushDialog::validate()
{
    PushSpec spec;
    bool ok = true;
    auto check = [&ok](FieldError* error, const std::function<void()>& fn) {
        ok = error->check(fn) && ok;
    };

    check(m_queueError, [&] {
        const QString name = m_queue->text().trimmed();
        if (name.isEmpty())
            throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                tr("the queue name is empty").toStdString());
        // A plain key is whatever name the team gave it; only delayq's own names are checked.
        if (!m_plain)
            delayq::Keys::validateQueueName(name.toStdString());
        spec.queue = m_plain ? m_queue->text() : name;
    });

    spec.payload = m_payload->toPlainText().toUtf8();
    ok = checkPayload() && ok;

    check(m_timeError, [&] {
        const qint64 at =
            dueAt(QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs, &spec.delayMs);
        if (!m_delayMode->isChecked())
            spec.dueAtMs = at;
    });

    check(m_idError, [&] {
        const QString id = m_id->text().trimmed();
        if (!id.isEmpty())
            delayq::Keys::validateTaskId(id.toStdString());
        spec.id = id;
    });

    check(m_backoffError, [&] {
        const QString backoff = m_backoff->text().trimmed();
        delayq::Queue::normalizeBackoff(backoff.toStdString());
        spec.backoff = backoff;
    });

    spec.maxAttempts = m_maxAttempts->value();
    spec.count = m_count->value();

    // As the CLI checks push --dedup and --debounce (app/cli/commands/pushcommand.cpp).
    check(m_dedupError, [&] {
        const QString text = m_dedup->text().trimmed();
        spec.dedupMs = text.isEmpty() ? 0 : delayq::parseDuration(text.toStdString());
        if (!text.isEmpty() && spec.dedupMs < 1000)
            throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                tr("the dedup window must be at least 1s").toStdString());
    });
    check(m_debounceError, [&] {
        const QString text = m_debounce->text().trimmed();
        if (text.isEmpty())
            return;
        spec.debounceMaxWaitMs = delayq::parseDuration(text.toStdString());
        if (spec.debounceMaxWaitMs < 1)
            throw delayq::Error(
                delayq::ErrorCode::InvalidArgument,
                tr("the debounce's max wait must be above 0, e.g. 30m").toStdString());
        if (m_id->text().trimmed().isEmpty())
            throw delayq::Error(
                delayq::ErrorCode::InvalidArgument,
                tr("debounce needs an id: it moves the pending task that has it").toStdString());
        if (spec.count > 1)
            throw delayq::Error(
                delayq::ErrorCode::InvalidArgument,
                tr("debounce moves one task: push 1 copy, not %1").arg(spec.count).toStdString());
        spec.debouncePayload = m_debouncePayload->isChecked();
    });
    if (ok)
        m_spec = spec;
    return ok;
}

bool PushDialog::checkPayload()
{
    const QByteArray payload = m_payload->toPlainText().toUtf8();
    if (m_plain && payload.isEmpty()) {
        m_payloadError->setError(tr("type the message: it is the member of the sorted set"));
        return false;
    }
    if (m_requireJson->isChecked()) {
        QJsonParseError error;
        QJsonDocument::fromJson(payload, &error);
        if (error.error != QJsonParseError::NoError) {
            // Line and column help more than a byte offset in a multi-line editor.
            const QByteArray before = payload.left(error.offset);
            const int line = static_cast<int>(before.count('\n')) + 1;
            const int column = static_cast<int>(error.offset - before.lastIndexOf('\n'));
            m_payloadError->setError(tr("not valid JSON: %1 at line %2, column %3 (untick "
                                        "\"Must be valid JSON\" to send plain text)")
                                         .arg(error.errorString())
                                         .arg(line)
                                         .arg(column));
            return false;
        }
    }
    m_payloadError->setError({});
    return true;
}

qint64 PushDialog::dueAt(qint64 now, qint64* delayMs) const
{
    if (m_delayMode->isChecked()) {
        const qint64 delay = DueText::parseDelay(m_delay->text());
        if (delayMs)
            *delayMs = delay;
        return now + delay;
    }
    const QString text = m_at->text().trimmed();
    if (text.isEmpty())
        throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                            tr("type a date and time, e.g. 2026-12-01 09:30").toStdString());
    return delayq::parseTime(text.toStdString());
}

void PushDialog::setClock(qint64 clockOffsetMs, bool utc)
{
    m_clockOffsetMs = clockOffsetMs;
    m_utc = utc;
    updateDue();
}

void PushDialog::updateDue()
{
    // The due time as the fields stand, before anything is sent; an error waits for Push.
    try {
        const qint64 now = QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs;
        m_dueLabel->setText(tr("Due %1").arg(DueText::describe(dueAt(now, nullptr), now, m_utc)));
        m_timeError->setError({});
    } catch (const delayq::Error&) {
        m_dueLabel->setText(m_delayMode->isChecked() ? tr("Type a delay to see the due time.")
                                                     : tr("Type a time to see it here."));
    }
}

QString PushDialog::dueText() const
{
    return m_dueLabel->text();
}

void PushDialog::setPlain(bool plain)
{
    m_plain = plain;
    setWindowTitle(plain ? tr("Push a message") : tr("Push tasks"));
    if (auto* label = qobject_cast<QLabel*>(m_form->labelForField(m_queue->parentWidget())))
        label->setText(plain ? tr("&Key") : tr("&Queue"));
    if (auto* label = qobject_cast<QLabel*>(m_form->labelForField(m_payload->parentWidget())))
        label->setText(plain ? tr("&Message") : tr("&Payload"));
    // The open key is where the message goes; typing another name would be a typo.
    m_queue->setReadOnly(plain);
    m_requireJson->setChecked(!plain);
    m_nativeRows->setShown(!plain);
}

void PushDialog::accept()
{
    if (validate())
        QDialog::accept();
}

} // namespace delayq::ui
