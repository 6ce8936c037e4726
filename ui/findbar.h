#pragma once

#include <QWidget>

class QLineEdit;

namespace delayq::ui {

class FieldError;

// Ctrl+F: find a task by id, or jump to the first task due at or after a time
// ("2026-12-01 09:30", "now", "+10m", "-1h").
class FindBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QWidget* parent = nullptr);

    void activate();
    QLineEdit* input() const { return m_input; }
    void setError(const QString& message);
    // Parses a time as typed; throws delayq::Error with the reason.
    static qint64 parseWhen(const QString& text, qint64 nowMs);

signals:
    void findIdRequested(const QString& id);
    void jumpToTimeRequested(qint64 ms);

private:
    void findId();
    void jumpToTime();

    QLineEdit* m_input;
    FieldError* m_error;
};

} // namespace delayq::ui
