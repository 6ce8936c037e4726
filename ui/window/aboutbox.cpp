#include "window/aboutbox.h"

#include <QApplication>
#include <QCoreApplication>
#include <QIcon>
#include <QMessageBox>

namespace delayq::ui {

void showAboutBox(QWidget* parent)
{
    auto* box =
        new QMessageBox(QMessageBox::Information,
                        QCoreApplication::translate("delayq::ui::AboutBox", "About delayq-admin"),
                        QCoreApplication::translate("delayq::ui::AboutBox", "delayq-admin %1")
                            .arg(QCoreApplication::applicationVersion()),
                        QMessageBox::Close, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::PlainText);
    box->setInformativeText(
        QCoreApplication::translate("delayq::ui::AboutBox",
                                    "Operate delayq queues on Redis: pending tasks by due time, "
                                    "the timeline, push, cancel, reschedule and a test worker.\n\n"
                                    "Qt %1")
            .arg(QString::fromLatin1(qVersion())));
    box->setIconPixmap(QApplication::windowIcon().pixmap(64));
    box->open(); // not exec(): the window keeps refreshing behind it
}

} // namespace delayq::ui
