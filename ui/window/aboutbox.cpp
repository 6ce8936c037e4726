#include "window/aboutbox.h"

#include <QApplication>
#include <QIcon>
#include <QMessageBox>

namespace delayq::ui {

void showAboutBox(QWidget* parent)
{
    auto* box = new QMessageBox(QMessageBox::Information,
                                QCoreApplication::translate("AboutBox", "About delayq-admin"),
                                QCoreApplication::translate("AboutBox", "delayq-admin %1")
                                    .arg(QCoreApplication::applicationVersion()),
                                QMessageBox::Close, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::PlainText);
    box->setInformativeText(
        QCoreApplication::translate("AboutBox",
                                    "Operate delayq queues on Redis: pending tasks by due time, "
                                    "the timeline, push, cancel, reschedule and a test worker.\n\n"
                                    "Qt %1")
            .arg(QString::fromLatin1(qVersion())));
    box->setIconPixmap(QApplication::windowIcon().pixmap(64));
    box->open(); // not exec(): the window keeps refreshing behind it
}

} // namespace delayq::ui
