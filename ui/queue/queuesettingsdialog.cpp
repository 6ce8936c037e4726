#include "queue/queuesettingsdialog.h"

#include "client/adminclient.h"
#include "client/queueclient.h"
#include "widgets/dialogbuttons.h"
#include "widgets/duetext.h"
#include "widgets/fielderror.h"
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/timeparse.h>

#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>

#include <iterator>

namespace delayq::ui {

namespace {

const char* const kKeys[] = {"max_attempts", "backoff", "lease_ms", "max_payload", "history"};
constexpr int kFields = std::size(kKeys);
constexpr int kPreviewRetries = 5;

QLabel* noteLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

// The room of a text that comes, goes or changes while the operator types (a refusal, the
// preview): `lines` lines, kept whether shown or not, so the dialog never grows and no field
// moves under the pointer. A longer text is cut there and whole in the tooltip.
void keepRoom(QLabel* label, int lines)
{
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setFixedHeight(label->fontMetrics().lineSpacing() * lines + 2);
    QSizePolicy kept(QSizePolicy::Ignored, QSizePolicy::Fixed);
    kept.setRetainSizeWhenHidden(true);
    label->setSizePolicy(kept);
}

} // namespace

QueueSettingsDialog::QueueSettingsDialog(AdminClient* client, const QString& queue, bool readOnly,
                                         QWidget* parent)
    : QDialog(parent), m_client(client), m_queue(queue), m_readOnly(readOnly)
{
    setWindowTitle(tr("Settings of %1").arg(queue));
    auto* form = new QFormLayout(this);
    // Wrapped text (preview, errors, notes) gets the whole field column on every style.
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    const QString labels[] = {tr("Max attempts"), tr("Backoff"), tr("Lease"), tr("Max payload"),
                              tr("Task history")};
    const QString hints[] = {tr("1 to 1000000"), tr("a list like 5s,20s,30s or exp:1s:5m"),
                             tr("how long a worker holds a task, e.g. 30s"),
                             tr("bytes, 1 to 536870912"),
                             tr("events kept per task, 0 to 100 (0 = off)")};
    // What push.lua and nack.lua do with each: the difference decides whether a change
    // reaches the tasks already queued.
    const QString notes[] = {
        tr("Copied into each task when it is pushed: tasks already queued keep the max "
           "attempts they were pushed with."),
        tr("Read each time a task fails: a new backoff applies to tasks already queued too, "
           "except those pushed with a backoff of their own."),
        tr("Each push, claim, failure, reschedule and ack of a task is recorded, shown under "
           "History. It costs Redis about twice the CPU of a claim and ack (delayq bench), so "
           "it is off by default; 0 deletes every history of the queue.")};
    for (int i = 0; i < kFields; ++i) {
        m_fields[i] = new QLineEdit(this);
        m_fields[i]->setPlaceholderText(hints[i]);
        m_fields[i]->setEnabled(false); // until the settings are read
        m_errors[i] = new FieldError(this);
        // The backoff's refusal explains both of its forms: three lines; the others' two.
        keepRoom(m_errors[i], i == 1 ? 3 : 2);
        QWidget* box = FieldError::below(m_fields[i], m_errors[i], this);
        if (i == 0)
            box->layout()->addWidget(m_notes[0] = noteLabel(notes[0], this));
        if (i == 4)
            box->layout()->addWidget(m_notes[2] = noteLabel(notes[2], this));
        form->addRow(labels[i], box);
        connect(m_fields[i], &QLineEdit::textChanged, this, &QueueSettingsDialog::validate);
        if (i == 1) {
            m_preview = new QLabel(this);
            m_preview->setTextFormat(Qt::PlainText);
            keepRoom(m_preview, 2);
            form->addRow(tr("Retries after"), m_preview);
            // Rows of the form, not a box in one: the form sees the preview's new height
            // as it wraps (a box's cached height did not follow it).
            form->addRow(nullptr, m_notes[1] = noteLabel(notes[1], this));
        }
    }
    m_general = new FieldError(this);
    form->addRow(m_general);
    if (readOnly)
        m_general->setError(tr("This session is read-only: the settings cannot be changed."));
    m_buttons = DialogButtons::wired(
        new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this), this);
    saveButton()->setEnabled(false);
    form->addRow(m_buttons);
    // Wide enough for a preview of five retries and a core error on a line or two; the
    // height follows what is shown (fitHeight).
    setMinimumWidth(fontMetrics().averageCharWidth() * 72);
    resize(minimumWidth(), heightForWidth(minimumWidth()));
    connect(client->queues(), &QueueClient::configLoaded, this, &QueueSettingsDialog::onConfig);
    m_loadTag = AdminClient::newTag();
    client->queues()->loadConfig(m_loadTag, queue);
}

QPushButton* QueueSettingsDialog::saveButton() const
{
    return m_buttons->button(QDialogButtonBox::Save);
}

void QueueSettingsDialog::onConfig(const QueueConfigResult& result)
{
    if (result.tag == m_writeTag && m_writeTag != 0) {
        m_writeTag = 0;
        if (!result.error.isEmpty()) {
            m_general->setError(result.error.text());
            validate();
            return;
        }
        emit saved(result);
        QDialog::accept();
        return;
    }
    if (result.tag != m_loadTag)
        return;
    if (!result.error.isEmpty()) {
        m_general->setError(result.error.text());
        emit loaded();
        return;
    }
    m_loadedValues[0] = QString::number(result.maxAttempts);
    m_loadedValues[1] = result.backoff;
    m_loadedValues[2] = QString::number(result.leaseMs);
    m_loadedValues[3] = QString::number(result.maxPayload);
    m_loadedValues[4] = QString::number(result.history);
    m_fields[0]->setText(m_loadedValues[0]);
    m_fields[1]->setText(backoffText(result.backoff));
    m_fields[2]->setText(QString::fromStdString(delayq::formatDuration(result.leaseMs)));
    m_fields[3]->setText(m_loadedValues[3]);
    m_fields[4]->setText(m_loadedValues[4]);
    m_loaded = true;
    for (auto* field : m_fields)
        field->setEnabled(!m_readOnly);
    validate();
    emit loaded();
}

bool QueueSettingsDialog::validate()
{
    bool fine = true;
    int retries = -1; // max attempts not valid: the preview shows no end
    for (int i = 0; i < kFields; ++i) {
        QString error;
        try {
            const std::string stored = delayq::Queue::normalizeConfig(
                kKeys[i], m_fields[i]->text().trimmed().toStdString());
            if (i == 0)
                retries = std::stoi(stored) - 1; // nack.lua: the last attempt's failure is final
            if (i == 1)
                updatePreview(QString::fromStdString(stored), retries);
        } catch (const delayq::Error& e) {
            error = QString::fromUtf8(e.what());
            if (i == 1)
                m_preview->setText(QStringLiteral("—"));
        }
        m_errors[i]->setError(m_loaded ? error : QString());
        m_errors[i]->setToolTip(m_loaded ? error : QString());
        fine = fine && error.isEmpty();
    }
    saveButton()->setEnabled(fine && m_loaded && !m_readOnly && m_writeTag == 0);
    m_preview->setToolTip(m_preview->text());
    fitHeight();
    return fine;
}

void QueueSettingsDialog::fitHeight()
{
    // A window does not grow for a label that wraps onto more lines: without this a
    // refusal or a longer preview was cut off at the bottom.
    const int wanted = heightForWidth(width());
    if (wanted > height())
        resize(width(), wanted);
}

bool QueueSettingsDialog::event(QEvent* event)
{
    const bool done = QDialog::event(event);
    // The layout has just taken in a text that came or went (it runs before this).
    if (event->type() == QEvent::LayoutRequest)
        fitHeight();
    return done;
}

void QueueSettingsDialog::updatePreview(const QString& normalized, int retries)
{
    if (retries == 0) {
        m_preview->setText(tr("none: a task that fails once is dead"));
        return;
    }
    const int shown = retries < 0 ? kPreviewRetries : std::min(retries, kPreviewRetries);
    const QList<qint64> delays = retryDelays(normalized, shown);
    QStringList parts;
    for (int i = 0; i < shown; ++i)
        parts.append(tr("#%1: %2").arg(i + 1).arg(DueText::duration(delays[i])));
    if (retries < 0) {
        parts.append(QStringLiteral("…"));
    } else if (retries > shown) {
        // The last retry's delay too. Past a list's end, or some 60 doublings, every delay
        // is the same, so a million attempts cost no more than 4096 delays.
        const qint64 last = retryDelays(normalized, std::min(retries, 4096)).last();
        parts.append(tr("… #%1: %2").arg(retries).arg(DueText::duration(last)));
    }
    m_preview->setText(parts.join(QStringLiteral(", ")));
}

QList<qint64> QueueSettingsDialog::retryDelays(const QString& normalized, int count)
{
    QList<qint64> out;
    if (normalized.startsWith(QLatin1String("exp:"))) {
        const QStringList parts = normalized.split(QLatin1Char(':'));
        const qint64 base = parts.value(1).toLongLong();
        const qint64 max = parts.value(2).toLongLong();
        qint64 delay = base;
        for (int i = 0; i < count; ++i) {
            out.append(base < 1 || max <= base ? max : std::min(delay, max));
            delay = std::min(delay * 2, max);
        }
        return out;
    }
    QList<qint64> list;
    for (const QString& part : normalized.split(QLatin1Char(','), Qt::SkipEmptyParts))
        list.append(part.toLongLong());
    if (list.isEmpty())
        list.append(5000);
    for (int i = 0; i < count; ++i)
        out.append(list[std::min<qsizetype>(i, list.size() - 1)]);
    return out;
}

QString QueueSettingsDialog::backoffText(const QString& normalized)
{
    auto text = [](qint64 ms) { return QString::fromStdString(delayq::formatDuration(ms)); };
    if (normalized.startsWith(QLatin1String("exp:"))) {
        const QStringList parts = normalized.split(QLatin1Char(':'));
        return QStringLiteral("exp:%1:%2")
            .arg(text(parts.value(1).toLongLong()), text(parts.value(2).toLongLong()));
    }
    QStringList out;
    for (const QString& part : normalized.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out.append(text(part.toLongLong()));
    return out.join(QLatin1Char(','));
}

QList<QPair<QString, QString>> QueueSettingsDialog::changedValues() const
{
    QList<QPair<QString, QString>> values;
    for (int i = 0; i < kFields; ++i) {
        const QString typed = m_fields[i]->text().trimmed();
        const std::string stored = delayq::Queue::normalizeConfig(kKeys[i], typed.toStdString());
        if (QString::fromStdString(stored) != m_loadedValues[i])
            values.append({QString::fromLatin1(kKeys[i]), typed});
    }
    return values;
}

void QueueSettingsDialog::accept()
{
    if (m_readOnly || !m_loaded || m_writeTag != 0 || !validate())
        return;
    // Only what the operator changed: an unchanged field written again would record a
    // change nobody made, or undo one someone else made meanwhile.
    const QList<QPair<QString, QString>> values = changedValues();
    if (values.isEmpty()) {
        QDialog::accept();
        return;
    }
    m_general->setError({});
    m_writeTag = AdminClient::newTag();
    saveButton()->setEnabled(false);
    m_client->queues()->writeConfig(m_writeTag, m_queue, values);
}

} // namespace delayq::ui
