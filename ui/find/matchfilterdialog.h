#pragma once

#include "client/matchtypes.h"

#include <QDialog>

class QComboBox;
class QLineEdit;

namespace delayq::ui {

class FieldError;

// What "all tasks that match" means for a bulk action, and the action: the tasks of one set
// whose payload or last error holds a text, due (or died) before or after a time, and cancel,
// reschedule or run now (pending) or requeue or delete (dead). Times are typed as in the
// find bar ("2026-12-01 09:30", "now", "+10m", "-1h"), read against the server's clock.
class MatchFilterDialog : public QDialog
{
    Q_OBJECT

public:
    explicit MatchFilterDialog(const MatchFilter& initial, QWidget* parent = nullptr);
    void setClockOffset(qint64 ms) { m_clockOffsetMs = ms; }

    // After accept(): what was asked.
    MatchFilter filter() const { return m_filter; }
    // Cancel, Reschedule or RunNow on pending tasks; Requeue or DeleteDead on dead ones.
    TaskAction action() const;
    qint64 dueAtMs() const { return m_dueAtMs; } // reschedule: the new due time

    QComboBox* fieldBox() const { return m_field; }
    QComboBox* timeBox() const { return m_timeMode; }
    QLineEdit* timeEdit() const { return m_time; }
    QComboBox* actionBox() const { return m_action; }
    FieldError* error() const { return m_error; }

    void accept() override;

private:
    void updateFields();

    TaskSet m_set;
    QLineEdit* m_text;
    QComboBox* m_field;
    QComboBox* m_timeMode;
    QLineEdit* m_time;
    QComboBox* m_action;
    QLineEdit* m_due;
    FieldError* m_error;
    MatchFilter m_filter;
    qint64 m_dueAtMs = -1;
    qint64 m_clockOffsetMs = 0;
};

} // namespace delayq::ui
