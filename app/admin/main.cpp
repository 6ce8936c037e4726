// delayq-admin: the operator's desktop app. With no server given it runs a sandbox: a
// private redis-server with a demo queue, stopped when the app closes.

#include "adminlaunch.h"
#include "adminmanpage.h"
#include "adminoptions.h"
#include "connection/connectiondialog.h"
#include "window/uilanguage.h"
#include <delayq/version.h>

#include <QApplication>
#include <QIcon>

#include <cstdio>

using namespace delayq::ui;

namespace {

void setApplicationInfo()
{
    QCoreApplication::setOrganizationName(QStringLiteral("delayq"));
    QCoreApplication::setApplicationName(QStringLiteral("delayq-admin"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DELAYQ_VERSION));
}

// --help, --version and --generate-man under a QCoreApplication: they print and exit, so
// they work without a display (a build machine, a package check over ssh).
int printText(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    setApplicationInfo();
    AdminOptions options;
    if (QString error; !options.parse(app, &error)) {
        AdminLaunch::fail(error);
        return 2;
    }
    if (options.generateMan)
        std::fputs(adminManPage().toUtf8().constData(), stdout);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (AdminOptions::printsOnly(argc, argv))
        return printText(argc, argv);
    QApplication app(argc, argv);
    setApplicationInfo();
    QApplication::setDesktopFileName(QStringLiteral("delayq-admin"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/delayq.png")));
    // The window's texts only: the command line's help and messages stay English, like the
    // delayq CLI's, for the scripts that read them.
    UiLanguage::install(&app, UiLanguage::effective());

    AdminOptions options;
    if (QString error; !options.parse(app, &error)) {
        AdminLaunch::fail(error);
        return 2;
    }
    ConnectionDialog::scrubStoredPasswords();
    AdminLaunch launch(options);
    return launch.run();
}
