#include "adminoptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>

bool AdminOptions::parse(const QCoreApplication& app, QString* error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Operate delayq queues: see pending tasks by due time, the timeline, push, "
                       "cancel, reschedule, and run a test worker. With no --url (and no "
                       "REDIS_URL) it connects to the server chosen last time, or on a first "
                       "start runs a private sandbox server with a demo queue."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption urlOption(
        QStringLiteral("url"),
        QStringLiteral("Redis URL: redis://[user[:pass]@]host:port/db, rediss://… (TLS, "
                       "?ca=FILE), redis+sentinel://s1:26379,s2:26379/mymaster or "
                       "unix:///path.sock (default: REDIS_URL)"),
        QStringLiteral("URL"));
    const QCommandLineOption queueOption(QStringLiteral("queue"), QStringLiteral("Queue to open"),
                                         QStringLiteral("NAME"));
    const QCommandLineOption prefixOption(QStringLiteral("prefix"),
                                          QStringLiteral("Key prefix (default dq)"),
                                          QStringLiteral("PREFIX"), QStringLiteral("dq"));
    const QCommandLineOption readOnlyOption(QStringLiteral("read-only"),
                                            QStringLiteral("Look only: every write is disabled"));
    const QCommandLineOption sandboxOption(
        QStringLiteral("sandbox"),
        QStringLiteral("Start a private redis-server with a demo queue"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Wait for the first page and the chart, save the window to FILE, exit"),
        QStringLiteral("FILE"));
    const QCommandLineOption measureOption(
        QStringLiteral("measure"),
        QStringLiteral("Fill a sandbox queue with COUNT tasks, measure opening it, print the "
                       "figures and exit"),
        QStringLiteral("COUNT"));
    const QCommandLineOption plainKeyOption(
        QStringLiteral("plain"),
        QStringLiteral("Plain sorted-set key to open (member = message, score = due time)"),
        QStringLiteral("KEY"));
    const QCommandLineOption scoreUnitOption(
        QStringLiteral("score-unit"),
        QStringLiteral("Unit of the plain key's scores: ms or s (default: read off the scores)"),
        QStringLiteral("UNIT"));
    parser.addOptions({urlOption, queueOption, prefixOption, readOnlyOption, sandboxOption,
                       screenshotOption, measureOption, plainKeyOption, scoreUnitOption});
    parser.process(app);

    url = parser.value(urlOption);
    if (url.isEmpty())
        url = qEnvironmentVariable("REDIS_URL");
    queue = parser.value(queueOption);
    prefix = parser.value(prefixOption);
    prefixGiven = parser.isSet(prefixOption);
    readOnly = parser.isSet(readOnlyOption);
    sandbox = parser.isSet(sandboxOption);
    screenshot = parser.value(screenshotOption);
    plainKey = parser.value(plainKeyOption);
    scoreUnit = parser.value(scoreUnitOption);
    if (!scoreUnit.isEmpty() && scoreUnit != QLatin1String("ms") &&
        scoreUnit != QLatin1String("s")) {
        *error = QStringLiteral("--score-unit must be ms or s");
        return false;
    }
    if (!plainKey.isEmpty() && !queue.isEmpty()) {
        *error = QStringLiteral("give --queue or --plain, not both");
        return false;
    }
    if (parser.isSet(measureOption)) {
        bool ok = false;
        measureCount = parser.value(measureOption).toLongLong(&ok);
        if (!ok || measureCount < 1 || measureCount > 50'000'000) {
            *error = QStringLiteral("--measure takes a task count from 1 to 50000000");
            return false;
        }
    }
    return true;
}
