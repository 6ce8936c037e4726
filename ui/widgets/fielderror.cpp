#include "widgets/fielderror.h"

#include <delayq/error.h>

#include <QFormLayout>
#include <QVBoxLayout>

namespace delayq::ui {

FieldError::FieldError(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(true);
    setStyleSheet(QStringLiteral("color: #c0392b;"));
    setVisible(false);
}

void FieldError::setError(const QString& message)
{
    setText(message);
    setVisible(!message.isEmpty());
}

bool FieldError::check(const std::function<void()>& job)
{
    const bool ok = passes(job);
    if (ok)
        setError({});
    return ok;
}

bool FieldError::passes(const std::function<void()>& job)
{
    try {
        job();
        return true;
    } catch (const delayq::Error& e) {
        setError(QString::fromUtf8(e.what()));
        return false;
    }
}

QWidget* FieldError::below(QWidget* field, FieldError* error, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(field);
    layout->addWidget(error);
    // Kept at the top when the box is taller than it needs (a page of a QStackedWidget whose
    // other page shows an error): the field stays level with its form label.
    layout->addStretch(1);
    return box;
}

FieldError* FieldError::addRow(QFormLayout* form, const QString& label, QWidget* field,
                               QWidget* parent)
{
    auto* error = new FieldError(parent);
    form->addRow(label, below(field, error, parent));
    return error;
}

} // namespace delayq::ui
