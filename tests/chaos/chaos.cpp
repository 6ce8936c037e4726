// The chaos run: worker processes are killed with SIGKILL at random moments (and Redis is
// restarted once, with appendfsync always) while tasks with random due times flow through.
// At the end every task must have run to completion at least once and none may be left
// pending, active or dead. It prints what it saw; ctest runs a short form, anyone can run
// it longer:  tests/chaos/chaos --tasks 50000 --workers 4 --kills 200
#include "redisserver.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>

#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

using namespace delayq;

namespace {

struct Settings
{
    int tasks = 5000;
    int workers = 3;
    int kills = 25;
    int spreadMs = 8000; // due times spread over this much time from now
    int leaseMs = 1500;  // short, so killed workers' tasks come back quickly
    int timeoutS = 240;
    bool restartRedis = true;
};

QProcess* startWorker(const QString& cli, const std::string& url, const QString& doneFile,
                      const Settings& s, QObject* parent)
{
    auto* p = new QProcess(parent);
    p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p->setStandardOutputFile(QProcess::nullDevice());
    // The handler appends the id only after its work: "ran to completion" is that line.
    const QString handler = QStringLiteral("exec:echo \"$DELAYQ_TASK_ID\" >> '%1'").arg(doneFile);
    p->start(cli, {QStringLiteral("--url"), QString::fromStdString(url), QStringLiteral("work"),
                   QStringLiteral("chaos"), QStringLiteral("--concurrency"), QStringLiteral("4"),
                   QStringLiteral("--batch"), QStringLiteral("8"), QStringLiteral("--lease"),
                   QString::number(s.leaseMs) + QStringLiteral("ms"), QStringLiteral("--handler"),
                   handler});
    return p;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("delayq chaos run: kill workers, restart Redis, lose nothing"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("tasks"), QStringLiteral("Tasks to push."),
                      QStringLiteral("N"), QStringLiteral("5000")});
    parser.addOption({QStringLiteral("workers"), QStringLiteral("Worker processes."),
                      QStringLiteral("N"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("kills"), QStringLiteral("SIGKILLs to deal out."),
                      QStringLiteral("N"), QStringLiteral("25")});
    parser.addOption({QStringLiteral("cli"), QStringLiteral("Path of the delayq binary."),
                      QStringLiteral("PATH"), QStringLiteral(DELAYQ_CLI)});
    parser.addOption(
        {QStringLiteral("no-redis-restart"), QStringLiteral("Do not restart Redis mid-run.")});
    parser.process(app);

    Settings s;
    s.tasks = parser.value(QStringLiteral("tasks")).toInt();
    s.workers = parser.value(QStringLiteral("workers")).toInt();
    s.kills = parser.value(QStringLiteral("kills")).toInt();
    s.restartRedis = !parser.isSet(QStringLiteral("no-redis-restart"));
    const QString cli = parser.value(QStringLiteral("cli"));
    if (s.tasks < 1 || s.workers < 1 || s.kills < 0) {
        std::fprintf(stderr,
                     "chaos: --tasks and --workers must be at least 1, --kills at least 0\n");
        return 2;
    }

    RedisServer server;
    if (!server.start({QStringLiteral("--appendonly"), QStringLiteral("yes"),
                       QStringLiteral("--appendfsync"), QStringLiteral("always")})) {
        std::fprintf(stderr, "chaos: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    QTemporaryDir dir;
    const QString doneFile = dir.filePath(QStringLiteral("done.txt"));

    // Every push is acknowledged before the run goes on: after the restart, each must be there.
    auto options = ConnectionOptions::fromUrl(server.unixUrl());
    Connection conn(options);
    Queue queue(conn, "chaos");
    queue.setConfig("max_attempts", "1000"); // kills must never push a task into dead
    queue.setConfig("backoff", "10ms");
    std::vector<PushRequest> requests;
    auto* rng = QRandomGenerator::global();
    for (int i = 0; i < s.tasks; ++i) {
        PushRequest r;
        r.id = "t" + std::to_string(i);
        r.payload = "task " + std::to_string(i);
        r.delayMs = rng->bounded(s.spreadMs);
        requests.push_back(std::move(r));
    }
    queue.pushBatch(requests);

    QElapsedTimer clock;
    clock.start();
    std::vector<QProcess*> workers;
    for (int i = 0; i < s.workers; ++i)
        workers.push_back(startWorker(cli, server.tcpUrl(), doneFile, s, &app));

    int kills = 0;
    bool restarted = !s.restartRedis;
    long long remaining = s.tasks;
    while (clock.elapsed() < s.timeoutS * 1000LL) {
        QThread::msleep(static_cast<unsigned long>(50 + rng->bounded(250)));
        QCoreApplication::processEvents();
        if (kills < s.kills) {
            QProcess*& victim = workers[static_cast<size_t>(rng->bounded(s.workers))];
            if (victim->state() == QProcess::Running) {
                ::kill(static_cast<pid_t>(victim->processId()), SIGKILL);
                victim->waitForFinished(2000);
                ++kills;
            }
            victim->deleteLater();
            victim = startWorker(cli, server.tcpUrl(), doneFile, s, &app);
        }
        if (!restarted && clock.elapsed() > 2000) {
            server.crash(); // SIGKILL; appendfsync always: every acknowledged write is on disk
            QThread::msleep(300);
            if (!server.start()) {
                std::fprintf(stderr, "chaos: redis did not come back: %s\n",
                             qPrintable(server.errorString()));
                return 1;
            }
            restarted = true;
        }
        try {
            auto c = queue.counts();
            remaining = c.pending + c.active + c.dead;
        } catch (const Error&) {
            continue; // the restart; the next look reconnects
        }
        if (remaining == 0 && kills >= s.kills && restarted)
            break;
    }
    for (auto* w : workers) {
        w->terminate();
        if (!w->waitForFinished(15000))
            w->kill();
    }

    std::map<std::string, int> runs;
    QFile done(doneFile);
    if (done.open(QIODevice::ReadOnly))
        while (!done.atEnd()) {
            QByteArray line = done.readLine().trimmed();
            if (!line.isEmpty())
                ++runs[line.toStdString()];
        }
    int missing = 0, twice = 0;
    for (int i = 0; i < s.tasks; ++i) {
        auto it = runs.find("t" + std::to_string(i));
        if (it == runs.end())
            ++missing;
        else if (it->second > 1)
            ++twice;
    }
    QueueCounts end = queue.counts();
    std::printf("chaos: %d tasks, %d workers, %d SIGKILLs, redis restarted: %s, %.1f s\n", s.tasks,
                s.workers, kills, restarted && s.restartRedis ? "yes" : "no",
                clock.elapsed() / 1000.0);
    std::printf("chaos: completed at least once: %d of %d; ran more than once: %d (after a lease "
                "expiry); left pending %lld, active %lld, dead %lld\n",
                s.tasks - missing, s.tasks, twice, end.pending, end.active, end.dead);
    const bool ok = missing == 0 && end.pending == 0 && end.active == 0 && end.dead == 0;
    std::printf("%s\n", ok ? "chaos: PASS" : "chaos: FAIL");
    return ok ? 0 : 1;
}
