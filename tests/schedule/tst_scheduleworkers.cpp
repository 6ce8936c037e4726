// A schedule fired by many workers at once (docs/schedules.md): four workers in three
// processes (two in this one, two `delayq work` children) tick an every-second schedule for a
// minute. Each fire must be made exactly once (by its derived id) and none may be missing.
#include "redissuite.h"

#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/schedules.h>
#include <delayq/worker.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <mutex>

using namespace delayq;
using namespace std::chrono_literals;

class TestScheduleWorkers : public RedisSuite
{
    Q_OBJECT

private slots:
    void everyFireExactlyOnce()
    {
        const int seconds = qEnvironmentVariableIntValue("DELAYQ_SCHEDULE_SECONDS") > 0
                                ? qEnvironmentVariableIntValue("DELAYQ_SCHEDULE_SECONDS")
                                : 60;
        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
        Schedules schedules(conn, "beats");
        ScheduleRule rule;
        rule.name = "beat";
        rule.everyMs = 1000;
        rule.payload = "tick";
        schedules.add(rule);

        std::mutex lock;
        std::map<std::string, int> acked; // id -> times acked, over every worker
        const auto record = [&](const std::string& id) {
            const std::lock_guard<std::mutex> hold(lock);
            ++acked[id];
        };
        WorkerOptions options;
        options.connection = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.queue = "beats";
        std::vector<std::unique_ptr<Worker>> workers;
        for (int i = 0; i < 2; ++i) {
            workers.push_back(std::make_unique<Worker>(options, [&](const ClaimedTask& t) {
                record(t.id);
                return HandlerResult::ack();
            }));
            QVERIFY(workers.back()->start());
        }
        QTemporaryDir dir;
        std::vector<std::unique_ptr<QProcess>> children;
        for (int i = 0; i < 2; ++i) {
            children.push_back(std::make_unique<QProcess>());
            children.back()->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            children.back()->start(DELAYQ_CLI,
                                   {"--url", QString::fromStdString(m_server.unixUrl()), "work",
                                    "beats", "--quiet", "--log", dir.filePath(QString::number(i))});
            QVERIFY(children.back()->waitForStarted());
        }
        QTest::qWait(seconds * 1000);
        schedules.remove("beat"); // no more fires; then every worker finishes what it holds
        for (auto& c : children) {
            c->terminate();
            QVERIFY(c->waitForFinished(15000));
            QCOMPARE(c->exitCode(), 0);
        }
        for (auto& w : workers)
            w->stop();
        // What was made after the last claims (none should be, but nothing may hide).
        Queue queue(conn, "beats");
        for (const auto& t : queue.claim(1000, 30000, "test").tasks) {
            record(t.id);
            queue.ack(t.id, t.token);
        }
        for (int i = 0; i < 2; ++i) {
            QFile log(dir.filePath(QString::number(i)));
            QVERIFY(log.open(QIODevice::ReadOnly));
            while (!log.atEnd()) {
                const QJsonObject line = QJsonDocument::fromJson(log.readLine()).object();
                if (line.value("outcome").toString() == "acked")
                    record(line.value("id").toString().toStdString());
            }
        }
        // Each fire once, by id; the fires one second apart from the first to the last.
        QVERIFY(acked.size() >= static_cast<size_t>(seconds - 2));
        std::vector<long long> fires;
        for (const auto& [id, times] : acked) {
            QVERIFY2(times == 1,
                     qPrintable(QString("%1 acked %2 times").arg(id.c_str()).arg(times)));
            QVERIFY2(id.rfind("s:beat:", 0) == 0, id.c_str());
            fires.push_back(std::stoll(id.substr(7)));
        }
        for (size_t i = 1; i < fires.size(); ++i)
            QCOMPARE(fires[i] - fires[i - 1], 1000LL);
        QCOMPARE(queue.stats()["pushed"], static_cast<long long>(fires.size()));
        QCOMPARE(queue.counts().pending + queue.counts().active, 0LL);
        qInfo("%zu fires in %d s by 4 workers in 3 processes, each made and acked once",
              fires.size(), seconds);
    }
};

QTEST_GUILESS_MAIN(TestScheduleWorkers)
#include "tst_scheduleworkers.moc"
