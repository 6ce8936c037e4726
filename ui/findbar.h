#pragma once

#include "admintypes.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace delayq::ui {

class FieldError;

// Ctrl+F: find a task by id, or jump to the first task due at or after a time
// ("2026-12-01 09:30", "now", "+10m", "-1h"). On a plain sorted set, whose members are the
// messages, it searches the members' text instead: the matches fill a list as the search
// reads the key, and choosing one shows it in the table.
class FindBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QWidget* parent = nullptr);

    void activate();
    void setPlain(bool plain);
    QLineEdit* input() const { return m_input; }
    QListWidget* matchList() const { return m_matches; }
    QPushButton* findButton() const { return m_find; }
    QPushButton* stopButton() const { return m_stop; }
    QLabel* searchStatus() const { return m_status; }
    void setError(const QString& message);
    // Parses a time as typed; throws delayq::Error with the reason.
    static qint64 parseWhen(const QString& text, qint64 nowMs);

    // A search step of the plain key: more matches, progress, and whether it is over.
    void addSearchStep(const PlainScanResult& step);

signals:
    void findIdRequested(const QString& id);
    void jumpToTimeRequested(qint64 ms);
    void findTextRequested(const QString& text);
    void searchCancelled();
    // A match of the text search was chosen: its member, to show in the table.
    void memberChosen(const QString& member);

private:
    void findId();
    void findText();
    void jumpToTime();
    void setSearching(bool searching);

    QLineEdit* m_input;
    QPushButton* m_find;
    QPushButton* m_stop;
    QProgressBar* m_progress;
    QLabel* m_status;
    QListWidget* m_matches;
    FieldError* m_error;
    bool m_plain = false;
    int m_matchCount = 0;
};

} // namespace delayq::ui
