#pragma once

#include "client/tasktypes.h"
#include "widgets/formrows.h"

#include <QWidget>

#include <memory>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QTextEdit;
class QPushButton;

namespace delayq::ui {

// The selected task's fields and its payload: pretty-printed when it is JSON, plain text
// otherwise. Nothing here is ever interpreted as rich text.
class TaskDetails : public QWidget
{
    Q_OBJECT

public:
    explicit TaskDetails(QWidget* parent = nullptr);

    // A task of another id than the one shown says its history is loading until showHistory.
    void showTask(const TaskRow& task, TaskSet set);
    // The recorded events of the task shown (an answer for another id is ignored).
    void showHistory(const TaskHistoryResult& result);
    // A task that has left the queue (acked or cancelled), known by its kept events only:
    // how it finished, and its events; no payload, and no task to act on.
    void showFinished(const TaskHistoryResult& history);
    bool showsFinished() const { return m_finished; }
    void clear();
    void setUtc(bool utc);
    // A plain member is both id and message: it is shown once, as the message, without the
    // fields a plain sorted set does not have.
    void setPlain(bool plain);

    // The payload as shown (long lines broken for display) and as stored.
    QString payloadText() const;
    QByteArray payload() const { return m_task.payload; }
    QString idText() const;
    QString historyText() const;
    // The selected task's priority and group as shown ("priority 5, group tenant-42", or "-").
    QString orderText() const;

    // JSON objects and arrays indented; anything else as it is (invalid UTF-8 replaced).
    static QString formatPayload(const QByteArray& payload, bool* isJson = nullptr);
    // A valid JSON text indented, its keys in the order sent.
    static QString indentJson(const QByteArray& json);

private:
    // The text as the pane shows it: long lines broken, at most 256 KiB; says so in note.
    static QString forDisplay(const QString& text, QLabel* note);
    QLabel* addField(const QString& name);
    void render();
    void renderFinished();
    void setIdText(const QString& id);
    // A value on one line, elided to the label's width (its tooltip has it whole).
    void setOneLine(QLabel* label, const QString& text);
    void elide(QLabel* label);
    bool eventFilter(QObject* watched, QEvent* event) override;
    void renderHistory();
    void setHistoryText(const QString& text);

    TaskRow m_task;
    TaskSet m_set = TaskSet::Pending;
    bool m_hasTask = false;
    bool m_finished = false; // m_task is a finished task's id only, m_historyResult its events
    bool m_utc = false;
    QLabel* m_id = nullptr;
    QString m_idFull; // the id as shown whole (the label may show it elided)
    QLabel* m_state = nullptr;
    QLabel* m_time = nullptr;
    QLabel* m_created = nullptr;
    QLabel* m_expires = nullptr; // when a claim would no longer start it, "-" when never
    QLabel* m_attempts = nullptr;
    QLabel* m_backoff = nullptr;
    QLabel* m_order = nullptr; // fair order's priority and group, "-" when pushed without
    QLabel* m_worker = nullptr;
    QLabel* m_lastError = nullptr;
    QLabel* m_format = nullptr;
    bool m_plain = false;
    QPlainTextEdit* m_payload = nullptr;
    QLabel* m_historyLabel = nullptr;
    QTextEdit* m_history = nullptr;
    // What the history box shows: the answer for m_task's id, if one came.
    bool m_historyLoaded = false;
    TaskHistoryResult m_historyResult;
    QPushButton* m_copyPayload = nullptr;
    QPushButton* m_copyId = nullptr;
    QFormLayout* m_form = nullptr;
    std::unique_ptr<FormRows> m_nativeRows; // what a plain sorted set's members lack
    std::unique_ptr<FormRows> m_expiresRow; // shown for a task with a start-by time only
};

} // namespace delayq::ui
