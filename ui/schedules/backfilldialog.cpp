#include "schedules/backfilldialog.h"

#include "widgets/dialogbuttons.h"
#include <delayq/error.h>
#include <delayq/schedules.h>
#include <delayq/timeparse.h>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace delayq::ui {

BackfillDialog::BackfillDialog(const delayq::ScheduleRule& rule, const QString& target,
                               qint64 nowMs, bool utc, QWidget* parent)
    : QDialog(parent), m_rule(rule), m_now(nowMs), m_utc(utc)
{
    const QString name = QString::fromStdString(rule.name);
    setWindowTitle(tr("Backfill %1").arg(name));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(target, this);
    intro->setTextFormat(Qt::PlainText); // it quotes names
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    // The last hour by default: the window an operator most often wants back.
    m_fromEdit =
        new QLineEdit(QString::fromStdString(delayq::formatTime(nowMs - 3'600'000, utc)), this);
    m_toEdit = new QLineEdit(QString::fromStdString(delayq::formatTime(nowMs, utc)), this);
    form->addRow(tr("From"), m_fromEdit);
    form->addRow(tr("To (not included)"), m_toEdit);
    layout->addLayout(form);
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    QDialogButtonBox* buttons = DialogButtons::okCancel(this, tr("Backfill %1").arg(name));
    m_ok = buttons->button(QDialogButtonBox::Ok);
    layout->addWidget(buttons);
    connect(m_fromEdit, &QLineEdit::textChanged, this, &BackfillDialog::update);
    connect(m_toEdit, &QLineEdit::textChanged, this, &BackfillDialog::update);
    update();
}

void BackfillDialog::update()
{
    m_fires = 0;
    QString problem;
    try {
        m_from = delayq::parseTime(m_fromEdit->text().trimmed().toStdString());
        m_to = delayq::parseTime(m_toEdit->text().trimmed().toStdString());
    } catch (const delayq::Error& e) {
        problem = QString::fromStdString(e.what());
    }
    if (problem.isEmpty() && m_from >= m_to)
        problem = tr("The window must start before it ends.");
    if (problem.isEmpty() && m_to > m_now)
        problem = tr("The window must end by now: a backfill makes past fires.");
    int fires = 0;
    if (problem.isEmpty()) {
        for (std::optional<long long> at = m_rule.nextFire(m_from - 1); at && *at < m_to;
             at = m_rule.nextFire(*at))
            if (++fires > static_cast<int>(delayq::Schedules::kMaxBackfillFires))
                break;
        if (fires == 0)
            problem = tr("The rule has no fires in this window.");
        else if (fires > static_cast<int>(delayq::Schedules::kMaxBackfillFires))
            problem = tr("The window holds more than %1 fires, the most one backfill makes: "
                         "make it shorter.")
                          .arg(delayq::Schedules::kMaxBackfillFires);
    }
    if (problem.isEmpty()) {
        m_fires = fires;
        m_summary->setStyleSheet(QString());
        m_summary->setText(tr("%n fire(s) of the rule; those the schedule made already are not "
                              "made again.",
                              nullptr, fires));
    } else {
        m_summary->setStyleSheet(QStringLiteral("color: #c0392b;"));
        m_summary->setText(problem);
    }
    m_ok->setEnabled(problem.isEmpty());
}

} // namespace delayq::ui
