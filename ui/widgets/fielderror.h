#pragma once

#include <QLabel>

#include <functional>

class QFormLayout;

namespace delayq::ui {

// The message under a form field saying why its value is refused. Plain text only: the
// message may quote what the user typed.
class FieldError : public QLabel
{
    Q_OBJECT

public:
    explicit FieldError(QWidget* parent = nullptr);
    // Empty hides the label.
    void setError(const QString& message);
    bool hasError() const { return !text().isEmpty(); }
    // Runs `job`: the message of a delayq::Error it throws is shown, else none is. Whether it
    // went through.
    bool check(const std::function<void()>& job);
    // The same, but a message shown before stays when `job` goes through (the answer to
    // what it starts may replace it).
    bool passes(const std::function<void()>& job);
    // The field with its error label right under it, for a form row.
    static QWidget* below(QWidget* field, FieldError* error, QWidget* parent);
    // A row of `form`: the field with a new error label below it, which is returned.
    static FieldError* addRow(QFormLayout* form, const QString& label, QWidget* field,
                              QWidget* parent);
};

} // namespace delayq::ui
