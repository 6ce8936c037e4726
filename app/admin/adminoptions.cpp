#include "adminoptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStringList>

QString AdminOptions::description()
{
    return QStringLiteral(
        "Operate delayq queues: see pending tasks by due time, the timeline, push, cancel, "
        "reschedule, and run a test worker. With no --url (and no REDIS_URL) it connects to the "
        "server chosen last time, or on a first start runs a private sandbox server with a demo "
        "queue.");
}

QList<QCommandLineOption> AdminOptions::options()
{
    QCommandLineOption generateMan(QStringLiteral("generate-man"),
                                   QStringLiteral("Print the man page and exit (for the build)"));
    generateMan.setFlags(QCommandLineOption::HiddenFromHelp);
    return {
        {QStringLiteral("url"),
         QStringLiteral("Redis URL: redis://[user[:pass]@]host:port/db, rediss://… (TLS, "
                        "?ca=FILE), redis+sentinel://s1:26379,s2:26379/mymaster or "
                        "unix:///path.sock (default: REDIS_URL)"),
         QStringLiteral("URL")},
        {QStringLiteral("queue"), QStringLiteral("Queue to open"), QStringLiteral("NAME")},
        {QStringLiteral("prefix"), QStringLiteral("Key prefix (default dq)"),
         QStringLiteral("PREFIX"), QStringLiteral("dq")},
        {QStringLiteral("read-only"), QStringLiteral("Look only: every write is disabled")},
        {QStringLiteral("sandbox"),
         QStringLiteral("Start a private redis-server with a demo queue")},
        {QStringLiteral("screenshot"),
         QStringLiteral("Wait for the first page and the chart, save the window to FILE, exit"),
         QStringLiteral("FILE")},
        {QStringLiteral("measure"),
         QStringLiteral("Fill a sandbox queue with COUNT tasks, measure opening it, print the "
                        "figures and exit"),
         QStringLiteral("COUNT")},
        {QStringLiteral("plain"),
         QStringLiteral("Plain sorted-set key to open (member = message, score = due time)"),
         QStringLiteral("KEY")},
        {QStringLiteral("score-unit"),
         QStringLiteral("Unit of the plain key's scores: ms or s (default: read off the scores)"),
         QStringLiteral("UNIT")},
        generateMan,
    };
}

bool AdminOptions::printsOnly(int argc, char** argv)
{
    static const QStringList words = {QStringLiteral("-h"),
                                      QStringLiteral("--help"),
                                      QStringLiteral("-?"),
                                      QStringLiteral("--help-all"),
                                      QStringLiteral("-v"),
                                      QStringLiteral("--version"),
                                      QStringLiteral("--generate-man")};
    for (int i = 1; i < argc; ++i)
        if (words.contains(QString::fromLocal8Bit(argv[i])))
            return true;
    return false;
}

bool AdminOptions::parse(const QCoreApplication& app, QString* error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description());
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(options());
    const QString urlOption = QStringLiteral("url");
    const QString queueOption = QStringLiteral("queue");
    const QString prefixOption = QStringLiteral("prefix");
    const QString readOnlyOption = QStringLiteral("read-only");
    const QString sandboxOption = QStringLiteral("sandbox");
    const QString screenshotOption = QStringLiteral("screenshot");
    const QString measureOption = QStringLiteral("measure");
    const QString plainKeyOption = QStringLiteral("plain");
    const QString scoreUnitOption = QStringLiteral("score-unit");
    parser.process(app);

    url = parser.value(urlOption);
    if (url.isEmpty())
        url = qEnvironmentVariable("REDIS_URL");
    queue = parser.value(queueOption);
    prefix = parser.value(prefixOption);
    prefixGiven = parser.isSet(prefixOption);
    readOnly = parser.isSet(readOnlyOption);
    sandbox = parser.isSet(sandboxOption);
    generateMan = parser.isSet(QStringLiteral("generate-man"));
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
