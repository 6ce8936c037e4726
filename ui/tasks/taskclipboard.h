#pragma once

#include "client/tasktypes.h"

#include <QObject>

namespace delayq::ui {

class AdminClient;

// Copies a task to the clipboard: its id, its payload, or every field as JSON (the fields
// `delayq show --json` writes). Pages hold the first 4 KiB of a payload: a longer one is
// loaded whole first, so what is pasted is never cut.
class TaskClipboard : public QObject
{
    Q_OBJECT

public:
    TaskClipboard(AdminClient* client, QObject* parent = nullptr);

    void copyIds(const QStringList& ids);
    void copyPayload(const QString& queue, const TaskRow& task);
    void copyJson(const QString& queue, const TaskRow& task);

    static QString toJson(const TaskRow& task);

signals:
    // The text is on the clipboard.
    void copied(const QString& what);

private:
    enum class Form
    {
        Payload,
        Json
    };
    void copy(const QString& queue, const TaskRow& task, Form form);
    void put(const TaskRow& task, Form form);

    AdminClient* m_client;
    quint64 m_tag = 0;
    Form m_form = Form::Payload;
};

} // namespace delayq::ui
