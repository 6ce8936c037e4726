#include "confirmation.h"

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
    const QString noun = n == 1 ? QObject::tr("task") : QObject::tr("tasks");
    const QString number = QLocale().toString(n);
    return adjective.isEmpty() ? number + QLatin1Char(' ') + noun
                               : number + QLatin1Char(' ') + adjective + QLatin1Char(' ') + noun;
}

} // namespace delayq::ui
