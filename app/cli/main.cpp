#include "cli.h"

#include <QCoreApplication>

#include <csignal>

int main(int argc, char** argv)
{
    // A closed pipe (delayq ls | head) or a Redis that went away must give an error, not kill.
    std::signal(SIGPIPE, SIG_IGN);
    // QtCore is here for QProcess (the exec: handler); argv is parsed by cli::run.
    QCoreApplication app(argc, argv);
    return cli::run(argc, argv);
}
