#include "widgets/confirmation.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPushButton>

namespace delayq::ui {

bool Confirmation::ask(QWidget* parent) const
{
    QMessageBox box(icon, title, text, QMessageBox::NoButton, parent);
    box.setTextFormat(Qt::PlainText);
    QPushButton* accept = box.addButton(acceptText, QMessageBox::AcceptRole);
    QPushButton* reject = box.addButton(rejectText, QMessageBox::RejectRole);
    box.setDefaultButton(reject);
    box.setEscapeButton(reject);
    box.exec();
    return box.clickedButton() == accept;
}

QString Confirmation::tasks(qint64 n, const QString& adjective)
{
    // Whole patterns, not words glued with spaces: Chinese puts a measure word after the
    // number and no spaces between the words.
    const QString number = QLocale().toString(n);
    if (adjective.isEmpty())
        return (n == 1 ? QCoreApplication::translate("delayq::ui::Confirmation", "%1 task")
                       : QCoreApplication::translate("delayq::ui::Confirmation", "%1 tasks"))
            .arg(number);
    return (n == 1 ? QCoreApplication::translate("delayq::ui::Confirmation", "%1 %2 task",
                                                 "number, adjective")
                   : QCoreApplication::translate("delayq::ui::Confirmation", "%1 %2 tasks",
                                                 "number, adjective"))
        .arg(number, adjective);
}

} // namespace delayq::ui
