#pragma once

#include <delayq/schedule.h>

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace delayq::ui {

// Asks for the past window a backfill makes the fires of (docs/schedules.md): From and To as
// date-times (the form `delayq schedule backfill` takes), and says how many fires of the rule
// fall in it, computed here from the rule (no Redis). OK waits for a window that starts before
// it ends, ends by now and holds 1 to Schedules::kMaxBackfillFires fires; the server checks
// again.
class BackfillDialog : public QDialog
{
    Q_OBJECT

public:
    // `target` names the schedule, the queue and the server, as the dialog's first line.
    BackfillDialog(const delayq::ScheduleRule& rule, const QString& target, qint64 nowMs, bool utc,
                   QWidget* parent = nullptr);

    // The window as the fields say (valid only while OK is enabled).
    qint64 fromMs() const { return m_from; }
    qint64 toMs() const { return m_to; }
    // The rule's fires in the window (0 while the window is refused).
    int fires() const { return m_fires; }

    QLineEdit* fromField() const { return m_fromEdit; }
    QLineEdit* toField() const { return m_toEdit; }
    // What the window holds, or why it is refused (plain text).
    QLabel* summary() const { return m_summary; }
    QPushButton* okButton() const { return m_ok; }

private:
    void update();

    delayq::ScheduleRule m_rule;
    qint64 m_now;
    bool m_utc;
    QLineEdit* m_fromEdit;
    QLineEdit* m_toEdit;
    QLabel* m_summary;
    QPushButton* m_ok;
    qint64 m_from = 0;
    qint64 m_to = 0;
    int m_fires = 0;
};

} // namespace delayq::ui
