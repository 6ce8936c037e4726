#include "findbar.h"

#include "error.h"
#include "fielderror.h"
#include "keys.h"
#include "timeparse.h"

#include <QDateTime>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QToolButton>

namespace delayq::ui {

FindBar::FindBar(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_input = new QLineEdit(this);
    m_input->setPlaceholderText(tr("Task id, or a time: 2026-12-01 09:30, now, +10m, -1h"));
    m_input->setClearButtonEnabled(true);
    auto* find = new QPushButton(tr("Find id"), this);
    auto* jump = new QPushButton(tr("Jump to time"), this);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close (Esc)"));
    m_error = new FieldError(this);
    layout->addWidget(m_input, 0, 0);
    layout->addWidget(find, 0, 1);
    layout->addWidget(jump, 0, 2);
    layout->addWidget(close, 0, 3);
    layout->addWidget(m_error, 1, 0, 1, 4);
    layout->setColumnStretch(0, 1);

    connect(find, &QPushButton::clicked, this, &FindBar::findId);
    connect(jump, &QPushButton::clicked, this, &FindBar::jumpToTime);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &QWidget::hide);
    connect(m_input, &QLineEdit::returnPressed, this, [this] {
        // A time-looking entry jumps; anything else is an id.
        const QString text = m_input->text().trimmed();
        bool time = false;
        try {
            parseWhen(text, 0);
            time = true;
        } catch (const delayq::Error&) {
        }
        time ? jumpToTime() : findId();
    });
    connect(m_input, &QLineEdit::textChanged, this, [this] { m_error->setError({}); });
}

void FindBar::activate()
{
    show();
    m_input->setFocus();
    m_input->selectAll();
}

void FindBar::setError(const QString& message)
{
    m_error->setError(message);
}

qint64 FindBar::parseWhen(const QString& text, qint64 nowMs)
{
    const std::string s = text.trimmed().toStdString();
    if (s == "now")
        return nowMs;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        const long long d = delayq::parseDuration(s.substr(1));
        return s[0] == '+' ? nowMs + d : nowMs - d;
    }
    return delayq::parseTime(s);
}

void FindBar::findId()
{
    const QString id = m_input->text().trimmed();
    try {
        delayq::Keys::validateTaskId(id.toStdString());
    } catch (const delayq::Error& e) {
        m_error->setError(QString::fromUtf8(e.what()));
        return;
    }
    emit findIdRequested(id);
}

void FindBar::jumpToTime()
{
    try {
        emit jumpToTimeRequested(parseWhen(m_input->text(), QDateTime::currentMSecsSinceEpoch()));
    } catch (const delayq::Error& e) {
        m_error->setError(QString::fromUtf8(e.what()));
    }
}

} // namespace delayq::ui
