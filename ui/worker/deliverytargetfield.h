#pragma once

#include <delayq/delivery.h>

#include <QFuture>
#include <QWidget>

#include <string>

class QLineEdit;

namespace delayq::ui {

class FieldError;

// Where the embedded worker hands its tasks instead of the simulated handler: an amqp(s)://
// URL, an http(s):// webhook or pipe:CMD, with the reason it is refused right under it. What
// is typed is only parsed (deliveryFor connects nothing); check() connects, off the GUI
// thread, when the worker is about to start.
class DeliveryTargetField : public QWidget
{
    Q_OBJECT

public:
    explicit DeliveryTargetField(QWidget* parent = nullptr);

    QLineEdit* edit() const { return m_edit; }
    FieldError* error() const { return m_error; }
    // What is typed, trimmed.
    std::string spec() const;
    // The spec as it may be shown: a password in the URL as "***".
    QString printable() const;
    // True when the spec parses as a target (an empty one does not).
    bool isValid() const { return m_valid; }
    bool isChecking() const { return m_checking; }
    // The factory of the worker threads' deliveries, or an empty one with the reason shown
    // under the field.
    delayq::DeliveryFactory factory(const delayq::DeliveryOptions& options);
    // Connects to the target once, off the GUI thread (wrong credentials, nothing listening,
    // a command that does not start); checked() follows, and the refusal is shown under the
    // field too. Nothing else may run the check while one is under way.
    void check(const delayq::DeliveryOptions& options);

signals:
    // The text changed and was validated again.
    void edited();
    // The check is over: an empty refusal when the target answered.
    void checked(const QString& refusal);

private:
    void validate();

    QLineEdit* m_edit;
    FieldError* m_error;
    bool m_valid = false;
    bool m_checking = false;
    QFuture<QString> m_check;
};

} // namespace delayq::ui
