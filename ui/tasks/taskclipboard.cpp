#include "tasks/taskclipboard.h"

#include "client/adminclient.h"
#include "client/taskclient.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QStringDecoder>

namespace delayq::ui {

TaskClipboard::TaskClipboard(AdminClient* client, QObject* parent)
    : QObject(parent), m_client(client)
{
    connect(client->tasks(), &TaskClient::taskLoaded, this, [this](const TaskResult& result) {
        if (result.tag != m_tag)
            return;
        m_tag = 0;
        if (result.found && result.error.isEmpty())
            put(result.task, m_form);
    });
}

void TaskClipboard::copyIds(const QStringList& ids)
{
    QGuiApplication::clipboard()->setText(ids.join(QLatin1Char('\n')));
    emit copied(ids.size() == 1 ? tr("the id") : tr("%1 ids").arg(ids.size()));
}

void TaskClipboard::copyPayload(const QString& queue, const TaskRow& task)
{
    copy(queue, task, Form::Payload);
}

void TaskClipboard::copyJson(const QString& queue, const TaskRow& task)
{
    copy(queue, task, Form::Json);
}

void TaskClipboard::copy(const QString& queue, const TaskRow& task, Form form)
{
    if (task.payload.size() >= task.payloadSize) {
        put(task, form);
        return;
    }
    m_form = form;
    m_tag = AdminClient::newTag();
    m_client->tasks()->loadTask(m_tag, queue, task.id);
}

void TaskClipboard::put(const TaskRow& task, Form form)
{
    if (form == Form::Json) {
        QGuiApplication::clipboard()->setText(toJson(task));
        emit copied(tr("the task as JSON"));
        return;
    }
    // Bytes that are not UTF-8 cannot be text on a clipboard: they go as raw data too.
    auto* data = new QMimeData;
    data->setText(QString::fromUtf8(task.payload));
    data->setData(QStringLiteral("application/octet-stream"), task.payload);
    QGuiApplication::clipboard()->setMimeData(data);
    emit copied(tr("the payload"));
}

QString TaskClipboard::toJson(const TaskRow& task)
{
    QJsonObject o;
    o[QStringLiteral("id")] = task.id;
    o[QStringLiteral("state")] = task.state;
    o[QStringLiteral("score")] = task.score;
    o[QStringLiteral("due")] = task.due;
    o[QStringLiteral("created")] = task.created;
    o[QStringLiteral("attempts")] = task.attempts;
    o[QStringLiteral("max_attempts")] = task.maxAttempts;
    o[QStringLiteral("backoff")] = task.backoff;
    o[QStringLiteral("worker")] = task.worker;
    o[QStringLiteral("last_error")] = task.lastError;
    o[QStringLiteral("broken")] = task.broken;
    auto decoder = QStringDecoder(QStringDecoder::Utf8);
    const QString text = decoder(task.payload);
    o[QStringLiteral("payload")] = text;
    // As the CLI's --json: every byte kept when the payload is not UTF-8.
    if (decoder.hasError())
        o[QStringLiteral("payload_base64")] = QString::fromLatin1(task.payload.toBase64());
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
}

} // namespace delayq::ui
