#pragma once

#include "client/matchtypes.h"
#include "client/plaintypes.h"
#include "client/tasktypes.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace delayq::ui {

class FieldError;

// Ctrl+F: find a task by id, or jump to the first task due at or after a time
// ("2026-12-01 09:30", "now", "+10m", "-1h"), or search the text of the tasks: on a native
// queue the payloads (or the last errors) of the current tab's set, on a plain sorted set,
// whose members are the messages, the members. The matches fill a list as the search reads,
// choosing one shows it in the table, and on a native queue "Act on all matches" offers the
// bulk actions on every task the search would find.
class FindBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QWidget* parent = nullptr);

    void activate();
    void setPlain(bool plain);
    // The queue (or plain key) open in the window: when it changes, the matches, counts and
    // messages of the last one go (a message about `orders` must not stay under `webhooks`).
    void setQueue(const QString& queue);
    QLineEdit* input() const { return m_input; }
    QListWidget* matchList() const { return m_matches; }
    QPushButton* findButton() const { return m_find; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* findTextButton() const { return m_findText; }
    QPushButton* actButton() const { return m_act; }
    QComboBox* fieldBox() const { return m_field; }
    // The text search looks in the last errors instead of the payloads (native queues).
    bool searchesErrors() const;
    // Where the text search looks (always the payload, the member, on a plain key).
    delayq::ScanField field() const;
    // Searches `text` in that field of the current tab's set at once (the Workers view's
    // "Show held tasks": the worker's name in the Active tab).
    void findInField(delayq::ScanField field, const QString& text);
    // The tab the search would read: each tab keeps its own field choice, for the whole
    // session, across queues (the Dead tab starts on last errors, the others on payloads).
    void setSet(TaskSet set);
    // The listed matches whose task is still a match as far as the bar knows.
    QStringList liveMatches() const;
    // The match of task `id` is no longer one: greyed, struck out, `note` added, and out of
    // the count.
    void markGone(const QString& id, const QString& note);
    // The match of task `id` is still one, its score (pending: due ms) now `score`: its time
    // shown follows (a reschedule moved it).
    void setMatchScore(const QString& id, qint64 score);
    // Writes allowed (not a read-only session): "Act on all matches" is offered.
    void setWritable(bool writable);
    QLabel* searchStatus() const { return m_status; }
    void setError(const QString& message);
    // A finding that is no error, where errors go but not in red (e.g. a finished task's
    // history shown in the details pane).
    void setNote(const QString& message);
    // Parses a time as typed; throws delayq::Error with the reason.
    static qint64 parseWhen(const QString& text, qint64 nowMs);

    // A search step of the plain key: more matches, progress, and whether it is over.
    void addSearchStep(const PlainScanResult& step);
    // A search step of a native queue's tasks.
    void addTaskStep(const MatchScanResult& step);

signals:
    void findIdRequested(const QString& id);
    void jumpToTimeRequested(qint64 ms);
    void findTextRequested(const QString& text);
    void searchCancelled();
    // A match of the text search was chosen: its member (plain) or task id, to show.
    void memberChosen(const QString& member);
    void actOnMatchesRequested();

private:
    // The constructor's three parts: the widgets, where they go, what they do.
    void makeWidgets();
    void layOut();
    void connectControls();
    void onReturnPressed();
    void findId();
    void findText();
    void jumpToTime();
    void setSearching(bool searching);
    void addMatch(const QString& text, const QString& key);
    // "14 found", with those no longer matching counted apart.
    QString foundText() const;
    // A press on the current match chooses it again (its task may have been unselected).
    bool eventFilter(QObject* watched, QEvent* event) override;
    // The progress and the words under the input, after a step of either kind of search.
    void showStep(qint64 read, qint64 total, bool finished, const RequestError& error,
                  bool cancelled, bool capped);

    QLineEdit* m_input;
    QPushButton* m_find;
    QPushButton* m_stop;
    QPushButton* m_findText;
    QPushButton* m_act;
    QPushButton* m_jump;
    QToolButton* m_close;
    QComboBox* m_field;
    QProgressBar* m_progress;
    QLabel* m_status;
    QListWidget* m_matches;
    FieldError* m_error;
    bool m_plain = false;
    QString m_queue;
    int m_matchCount = 0;
    int m_goneCount = 0;
    bool m_showsCount = false; // the status is the final count, to follow markGone
    bool m_pressedCurrent = false;
    TaskSet m_set = TaskSet::Pending;
    int m_fieldOf[3] = {0, 0, 1}; // the field chosen per set: payloads, payloads, errors
};

} // namespace delayq::ui
