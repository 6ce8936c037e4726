#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

class QCoreApplication;

// delayq-admin's command line, read and checked: what to connect to and open, and the
// screenshot and measure modes.
struct AdminOptions
{
    QString url; // --url, else REDIS_URL; empty: the last server or the sandbox
    QString queue;
    QString prefix;
    bool prefixGiven = false;
    bool readOnly = false;
    bool sandbox = false;
    QString screenshot;         // file to save the window to, empty: none
    long long measureCount = 0; // tasks to fill and measure, 0: not measuring
    QString plainKey;
    QString scoreUnit; // "ms" | "s" | "" (read off the scores)
    bool generateMan = false;

    // What --help shows and the man page describes: one list for both.
    static QString description();
    static QList<QCommandLineOption> options();
    // Whether the arguments only ask for text (--help, --version, --generate-man), which
    // needs no display, so it is answered before a QApplication is made.
    static bool printsOnly(int argc, char** argv);

    bool measuring() const { return measureCount > 0; }
    // Parses the arguments (--help and --version print and exit, as QCommandLineParser does).
    // A bad value gives the message in *error and false.
    bool parse(const QCoreApplication& app, QString* error);
};
