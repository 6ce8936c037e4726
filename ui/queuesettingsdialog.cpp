#include "queuesettingsdialog.h"

#include "adminclient.h"
#include "dialogbuttons.h"
#include "duetext.h"
#include "fielderror.h"
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/timeparse.h>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace delayq::ui {

namespace {

const char* const kKeys[] = {"max_attempts", "backoff", "lease_ms", "max_payload"};
constexpr int kPreviewRetries = 5;

} // namespace

QueueSettingsDialog::QueueSettingsDialog(AdminClient* client, const QString& queue, bool readOnly,
                                         QWidget* parent)
    : QDialog(parent), m_client(client), m_queue(queue), m_readOnly(readOnly)
{
    setWindowTitle(tr("Settings of %1").arg(queue));
    auto* form = new QFormLayout(this);
    const QString labels[] = {tr("Max attempts"), tr("Backoff"), tr("Lease"), tr("Max payload")};
    const QString hints[] = {tr("1 to 1000000"), tr("a list like 5s,20s,30s or exp:1s:5m"),
                             tr("how long a worker holds a task, e.g. 30s"),
                             tr("bytes, 1 to 536870912")};
    for (int i = 0; i < 4; ++i) {
        m_fields[i] = new QLineEdit(this);
        m_fields[i]->setPlaceholderText(hints[i]);
        m_fields[i]->setEnabled(false); // until the settings are read
        m_errors[i] = new FieldError(this);
        form->addRow(labels[i], FieldError::below(m_fields[i], m_errors[i], this));
        connect(m_fields[i], &QLineEdit::textChanged, this, &QueueSettingsDialog::validate);
        if (i == 1) {
            m_preview = new QLabel(this);
            m_preview->setTextFormat(Qt::PlainText);
            m_preview->setWordWrap(true);
            form->addRow(tr("Retries after"), m_preview);
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
    connect(client, &AdminClient::configLoaded, this, &QueueSettingsDialog::onConfig);
    m_loadTag = AdminClient::newTag();
    client->loadConfig(m_loadTag, queue);
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
    m_fields[0]->setText(QString::number(result.maxAttempts));
    m_fields[1]->setText(backoffText(result.backoff));
    m_fields[2]->setText(QString::fromStdString(delayq::formatDuration(result.leaseMs)));
    m_fields[3]->setText(QString::number(result.maxPayload));
    m_loaded = true;
    for (auto* field : m_fields)
        field->setEnabled(!m_readOnly);
    validate();
    emit loaded();
}

bool QueueSettingsDialog::validate()
{
    bool fine = true;
    for (int i = 0; i < 4; ++i) {
        QString error;
        try {
            const std::string stored = delayq::Queue::normalizeConfig(
                kKeys[i], m_fields[i]->text().trimmed().toStdString());
            if (i == 1)
                updatePreview(QString::fromStdString(stored));
        } catch (const delayq::Error& e) {
            error = QString::fromUtf8(e.what());
            if (i == 1)
                m_preview->setText(QStringLiteral("—"));
        }
        m_errors[i]->setError(m_loaded ? error : QString());
        fine = fine && error.isEmpty();
    }
    saveButton()->setEnabled(fine && m_loaded && !m_readOnly && m_writeTag == 0);
    return fine;
}

void QueueSettingsDialog::updatePreview(const QString& normalized)
{
    QStringList parts;
    const QList<qint64> delays = retryDelays(normalized, kPreviewRetries);
    for (int i = 0; i < delays.size(); ++i)
        parts.append(tr("#%1: %2").arg(i + 1).arg(DueText::duration(delays[i])));
    m_preview->setText(parts.join(QStringLiteral(", ")) + QStringLiteral(", …"));
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

void QueueSettingsDialog::accept()
{
    if (m_readOnly || !m_loaded || m_writeTag != 0 || !validate())
        return;
    QList<QPair<QString, QString>> values;
    for (int i = 0; i < 4; ++i)
        values.append({QString::fromLatin1(kKeys[i]), m_fields[i]->text().trimmed()});
    m_general->setError({});
    m_writeTag = AdminClient::newTag();
    saveButton()->setEnabled(false);
    m_client->writeConfig(m_writeTag, m_queue, values);
}

} // namespace delayq::ui
