#include "clirunner.h"
#include "exporterprocess.h"
#include "prometheusserver.h"
#include "redissuite.h"

#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/schedules.h>

#include <QProcess>
#include <QTcpSocket>
#include <QTest>

#include <csignal>
#include <list>

namespace {

QString sample(const char* name, const QString& queue, const char* state = nullptr)
{
    QString key = QString::fromLatin1(name) + "{queue=\"" + queue + "\"";
    if (state)
        key += QStringLiteral(",state=\"") + state + "\"";
    return key + "}";
}

} // namespace

class TestCliExporter : public RedisSuite
{
    Q_OBJECT

protected:
    void initTest() override
    {
        m_cli = std::make_unique<CliRunner>(m_server.tcpUrl());
        m_exporter = std::make_unique<ExporterProcess>(*m_cli);
        m_conn = std::make_unique<delayq::Connection>(
            delayq::ConnectionOptions::fromUrl(m_server.tcpUrl()));
    }
    void cleanupTest() override
    {
        m_exporter.reset(); // kills it if a test left it running
        m_conn.reset();
    }

    delayq::PushRequest at(const std::string& id, long long fromNowMs, int maxAttempts = 0)
    {
        delayq::PushRequest r;
        r.id = id;
        r.dueAtMs = m_conn->serverTimeMs() + fromNowMs;
        r.maxAttempts = maxAttempts;
        return r;
    }

    // orders: one dead, one acked, one active, three overdue (the oldest 30 s late), two due
    // in an hour and one cancelled; mail: paused and empty; late: one task whose lease ran out
    // (its worker died) and one with a live lease.
    void fillKnownStates()
    {
        delayq::Queue orders(*m_conn, "orders");
        orders.push(at("x", -5000, 1));
        auto claimed = orders.claim(1, 60000, "test");
        QCOMPARE(claimed.tasks.size(), size_t(1));
        QVERIFY(orders.nack("x", claimed.tasks[0].token, "boom").dead);
        orders.push(at("z", -5000));
        claimed = orders.claim(1, 60000, "test");
        orders.ack("z", claimed.tasks[0].token);
        orders.push(at("y", -5000));
        QCOMPARE(orders.claim(1, 60000, "test").tasks.at(0).id, std::string("y"));
        orders.pushBatch({at("p1", -30000), at("p2", -20000), at("p3", -10000), at("n1", 3600000),
                          at("n2", 3600000), at("n3", 3600000)});
        QCOMPARE(orders.cancel({"n3"}).at(0).status, delayq::IdResult::Status::Done);
        delayq::Queue mail(*m_conn, "mail");
        mail.setConfig("paused", "1");
        delayq::Queue late(*m_conn, "late");
        late.pushBatch({at("gone", -5000), at("alive", -4000)});
        const auto died = late.claim(1, 20, "died");
        QCOMPARE(died.tasks.size(), size_t(1));
        QCOMPARE(late.claim(1, 600000, "alive").tasks.size(), size_t(1));
        QTRY_VERIFY(m_conn->serverTimeMs() > died.tasks[0].leaseDeadline);
        // "mail" has a schedule whose next fire is 90 s late (no worker ticked it); "orders"
        // has none.
        delayq::ScheduleRule beat;
        beat.name = "beat";
        beat.everyMs = 60000;
        delayq::Schedules(*m_conn, "mail").add(beat);
        m_server.cli({"ZADD", "dq:{mail}:schedule_next",
                      QByteArray::number(m_conn->serverTimeMs() - 90000), "beat"});
    }

    std::unique_ptr<CliRunner> m_cli;
    std::unique_ptr<ExporterProcess> m_exporter;
    std::unique_ptr<delayq::Connection> m_conn;

private slots:
    void valuesOfQueuesInKnownStates()
    {
        fillKnownStates();
        // Names in the registry that are no queue are skipped, not fatal: one that is not a
        // queue name, and one whose key has another type.
        m_server.cli({"SADD", "dq:queues", "not a name", "wrongtype"});
        m_server.cli({"SET", "dq:{wrongtype}:pending", "x"});
        QVERIFY(m_exporter->start());
        const auto m = m_exporter->metrics();
        QCOMPARE(m.value(sample("delayq_tasks", "orders", "pending"), -1), 5.0);
        QCOMPARE(m.value(sample("delayq_tasks", "orders", "due"), -1), 3.0);
        QCOMPARE(m.value(sample("delayq_tasks", "orders", "active"), -1), 1.0);
        QCOMPARE(m.value(sample("delayq_tasks", "orders", "dead"), -1), 1.0);
        const double overdue = m.value(sample("delayq_oldest_overdue_seconds", "orders"), -1);
        QVERIFY2(overdue >= 30 && overdue < 300, qPrintable(QString::number(overdue)));
        QCOMPARE(m.value(sample("delayq_tasks_pushed_total", "orders"), -1), 9.0);
        QCOMPARE(m.value(sample("delayq_tasks_claimed_total", "orders"), -1), 3.0);
        QCOMPARE(m.value(sample("delayq_tasks_acked_total", "orders"), -1), 1.0);
        QCOMPARE(m.value(sample("delayq_tasks_died_total", "orders"), -1), 1.0);
        QCOMPARE(m.value(sample("delayq_tasks_retried_total", "orders"), -1), 0.0);
        QCOMPARE(m.value(sample("delayq_tasks_cancelled_total", "orders"), -1), 1.0);
        QCOMPARE(m.value(sample("delayq_paused", "orders"), -1), 0.0);
        QCOMPARE(m.value(sample("delayq_paused", "mail"), -1), 1.0);
        QCOMPARE(m.value(sample("delayq_tasks", "mail", "pending"), -1), 0.0);
        QCOMPARE(m.value(sample("delayq_oldest_overdue_seconds", "mail"), -1), 0.0);
        QCOMPARE(m.value(sample("delayq_tasks", "late", "active"), -1), 2.0);
        QCOMPARE(m.value(sample("delayq_leases_expired", "late"), -1), 1.0);
        QCOMPARE(m.value(sample("delayq_leases_expired", "orders"), -1), 0.0);
        const double lag = m.value(sample("delayq_schedule_lag_seconds", "mail"), -1);
        QVERIFY2(lag >= 90 && lag < 300, qPrintable(QString::number(lag)));
        QVERIFY(!m.contains(sample("delayq_schedule_lag_seconds", "orders")));
        QCOMPARE(m.value("delayq_up", -1), 1.0);
        QCOMPARE(m.value("delayq_scrape_skipped_queues", -1), 2.0);
        QVERIFY(!m.contains(sample("delayq_paused", "wrongtype")));

        // A later scrape sees later changes: nothing is cached between scrapes.
        delayq::Queue(*m_conn, "orders").cancel({"n1"});
        QCOMPARE(m_exporter->metrics().value(sample("delayq_tasks", "orders", "pending")), 4.0);
    }

    // The recycle bin's drops (lua/common.lua bin_trim, the stats' bin_dropped): a cancel of
    // more tasks than bin_max keeps the newest and drops the rest, counted; a queue that never
    // dropped one still has its sample, 0.
    void binDropped_data()
    {
        QTest::addColumn<QString>("binMax");
        QTest::addColumn<int>("cancelled");
        QTest::addColumn<double>("dropped");
        QTest::newRow("past bin_max") << "2" << 5 << 3.0;
        QTest::newRow("within bin_max") << "10" << 5 << 0.0;
        QTest::newRow("bin off") << "off" << 5 << 0.0;
    }
    void binDropped()
    {
        QFETCH(QString, binMax);
        QFETCH(int, cancelled);
        delayq::Queue binned(*m_conn, "binned");
        binned.setConfig("bin_max", binMax.toStdString());
        std::vector<delayq::PushRequest> tasks;
        std::vector<std::string> ids;
        for (int i = 0; i < cancelled; ++i) {
            ids.push_back("t" + std::to_string(i));
            tasks.push_back(at(ids.back(), 3600000));
        }
        binned.pushBatch(tasks);
        for (const auto& r : binned.cancel(ids))
            QCOMPARE(r.status, delayq::IdResult::Status::Done);
        delayq::Queue(*m_conn, "orders").push(at("o", 3600000));
        QVERIFY(m_exporter->start());
        const auto m = m_exporter->metrics();
        QTEST(m.value(sample("delayq_tasks_bin_dropped_total", "binned"), -1), "dropped");
        QCOMPARE(m.value(sample("delayq_tasks_bin_dropped_total", "orders"), -1), 0.0);
        QCOMPARE(m.value(sample("delayq_tasks_cancelled_total", "binned"), -1), double(cancelled));
    }

    // The flow limits (issue 51): "rated" held back by its rate, "capped" by its cap, "free"
    // with neither; each row one figure of the same scrape.
    void flowLimits_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value"); // -1: no sample
        QTest::newRow("rate") << sample("delayq_rate_limit_per_second", "rated") << 0.5;
        QTest::newRow("burst") << sample("delayq_rate_limit_burst", "rated") << 2.0;
        QTest::newRow("no cap") << sample("delayq_concurrency_cap", "rated") << -1.0;
        QTest::newRow("held by rate")
            << QString("delayq_limited{queue=\"rated\",limit=\"rate\"}") << 1.0;
        QTest::newRow("rate waiting") << sample("delayq_limited_due_tasks", "rated") << 3.0;
        QTest::newRow("cap") << sample("delayq_concurrency_cap", "capped") << 2.0;
        QTest::newRow("no rate") << sample("delayq_rate_limit_per_second", "capped") << -1.0;
        QTest::newRow("held by cap")
            << QString("delayq_limited{queue=\"capped\",limit=\"cap\"}") << 1.0;
        QTest::newRow("cap waiting") << sample("delayq_limited_due_tasks", "capped") << 3.0;
        QTest::newRow("free: no limited") << sample("delayq_limited_due_tasks", "free") << -1.0;
        QTest::newRow("free: no cap") << sample("delayq_concurrency_cap", "free") << -1.0;
    }
    void flowLimits()
    {
        QFETCH(QString, key);
        QFETCH(double, value);
        // One scrape for every row.
        static QMap<QString, double> metrics;
        if (metrics.isEmpty()) {
            const std::pair<const char*, std::vector<std::pair<std::string, std::string>>>
                queues[] = {
                    {"rated", {{"rate", "2/4s"}}}, {"capped", {{"cap", "2"}}}, {"free", {}}};
            for (const auto& [name, config] : queues) {
                delayq::Queue queue(*m_conn, name);
                if (!config.empty())
                    queue.setConfig(config);
                queue.pushBatch({at("a", -1000), at("b", -1000), at("c", -1000), at("d", -1000),
                                 at("e", -1000)});
                queue.claim(5, 600000, "w");
            }
            QVERIFY(m_exporter->start());
            metrics = m_exporter->metrics();
        }
        QCOMPARE(metrics.value(key, -1), value);
    }

    // Fair order (issue 51): the group limits, the groups by state and the busiest groups'
    // due and running tasks, as `delayq stats` lists them; nothing of it for a queue in due
    // order.
    void fairOrderGroups()
    {
        delayq::Queue tenants(*m_conn, "tenants");
        tenants.setConfig({{"order", "fair"}, {"group_cap", "2"}, {"group_rate", "10/s"}});
        std::vector<delayq::PushRequest> pushes;
        for (const char* group : {"a", "a", "a", "b"}) {
            delayq::PushRequest r = at("", -1000);
            r.group = group;
            pushes.push_back(r);
        }
        tenants.pushBatch(pushes);
        // The ring's first group (a) gives its best task.
        QCOMPARE(tenants.claim(1, 600000, "w").tasks.size(), size_t(1));
        delayq::Queue(*m_conn, "plain-due").pushBatch({at("x", -1000)});
        QVERIFY(m_exporter->start());
        const auto m = m_exporter->metrics();
        QCOMPARE(m.value(sample("delayq_fair_order", "tenants"), -1), 1.0);
        QVERIFY(!m.contains(sample("delayq_fair_order", "plain-due")));
        QCOMPARE(m.value(sample("delayq_group_cap", "tenants"), -1), 2.0);
        QCOMPARE(m.value(sample("delayq_group_rate_limit_per_second", "tenants"), -1), 10.0);
        QCOMPARE(m.value(QString("delayq_groups{queue=\"tenants\",state=\"in_turn\"}"), -1), 2.0);
        QCOMPARE(m.value(QString("delayq_groups{queue=\"tenants\",state=\"at_cap\"}"), -1), 0.0);
        const auto group = [](const char* family, const char* name) {
            return QString("%1{queue=\"tenants\",group=\"%2\"}").arg(family, name);
        };
        QCOMPARE(m.value(group("delayq_busy_group_due_tasks", "a"), -1), 2.0);
        QCOMPARE(m.value(group("delayq_busy_group_active_tasks", "a"), -1), 1.0);
        QCOMPARE(m.value(group("delayq_busy_group_due_tasks", "b"), -1), 1.0);
        QCOMPARE(m.value(group("delayq_busy_group_active_tasks", "b"), -1), 0.0);
        QVERIFY(!m.contains(QString("delayq_groups{queue=\"plain-due\",state=\"in_turn\"}")));
    }

    void namedQueuesOnly()
    {
        fillKnownStates();
        // A named queue that has no key yet is all zeros, not an error.
        QVERIFY(m_exporter->start({"--queues", "mail,later"}));
        const auto m = m_exporter->metrics();
        QVERIFY(!m.contains(sample("delayq_paused", "orders")));
        QCOMPARE(m.value(sample("delayq_paused", "mail"), -1), 1.0);
        QCOMPARE(m.value(sample("delayq_tasks", "later", "pending"), -1), 0.0);
        QCOMPARE(m.value(sample("delayq_tasks_pushed_total", "later"), -1), 0.0);
    }

    // The forecast's gauges (issue 54): 610 tasks due in 30 s on a queue of 10/s (burst 10)
    // wait up to 60 s; the 6 h horizon's sub-buckets are 9 s wide, so the peak is placed
    // within 9 s after they fall due and is up to 9 s of service short. A queue with no
    // capacity known (nothing acked, no rate) has no sample.
    void forecastGauges()
    {
        delayq::Queue burst(*m_conn, "burst");
        burst.setConfig({{"rate", "10/s"}});
        const long long due = m_conn->serverTimeMs() + 30'000;
        std::vector<delayq::PushRequest> tasks(610);
        for (auto& t : tasks)
            t.dueAtMs = due;
        burst.pushBatch(tasks);
        delayq::Queue(*m_conn, "unknown").push(at("a", 60'000));
        QVERIFY(m_exporter->start());
        const auto m = m_exporter->metrics();
        const double peak = m.value(sample("delayq_forecast_peak_lateness_seconds", "burst"), -1);
        QVERIFY2(peak >= 50 && peak <= 60, qPrintable(QString::number(peak)));
        const double peakAt = m.value(sample("delayq_forecast_peak_at_seconds", "burst"), -1);
        QVERIFY2(peakAt * 1000 >= due && peakAt * 1000 <= due + 9'100,
                 qPrintable(QString::number(peakAt * 1000 - due)));
        QCOMPARE(m.value(sample("delayq_forecast_capacity_per_second", "burst"), -1), 10.0);
        QVERIFY(!m.contains(sample("delayq_forecast_peak_lateness_seconds", "unknown")));
    }

    void redisOutageIsUpZero()
    {
        delayq::Queue(*m_conn, "orders").push(at("a", 0));
        QVERIFY(m_exporter->start());
        m_server.stop();
        HttpReply r = m_exporter->get("/metrics");
        QCOMPARE(r.status, 200);
        auto m = ExporterProcess::parseMetrics(r.body);
        QCOMPARE(m.value("delayq_up", -1), 0.0);
        QCOMPARE(m.value("delayq_scrape_errors_total", -1), 1.0);
        QVERIFY(!m.contains(sample("delayq_paused", "orders")));
        QVERIFY(m_server.start());
        m_server.cli({"FLUSHALL"});
        m = m_exporter->metrics();
        QCOMPARE(m.value("delayq_up", -1), 1.0);
        QCOMPARE(m.value("delayq_scrape_errors_total", -1), 1.0);
    }

    void badRequests_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        const QByteArray close = "Connection: close\r\n";
        QTest::newRow("unknown path") << "GET /nope HTTP/1.1\r\nHost: h\r\n" + close + "\r\n"
                                      << 404;
        QTest::newRow("metrics below a path")
            << "GET /x/metrics HTTP/1.1\r\nHost: h\r\n" + close + "\r\n"
            << 404;
        QTest::newRow("POST") << "POST /metrics HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n" +
                                     close + "\r\nabc"
                              << 405;
        QTest::newRow("huge header") << "GET /metrics HTTP/1.1\r\nHost: h\r\n" + close +
                                            "X-Big: " + QByteArray(200000, 'a') + "\r\n\r\n"
                                     << 431;
        QTest::newRow("no HTTP version") << QByteArray("GET /metrics\r\n\r\n") << 400;
        QTest::newRow("HTTP/9.9") << "GET /metrics HTTP/9.9\r\nHost: h\r\n" + close + "\r\n" << 505;
        // 0: closed without an answer, which is all a line that is no request deserves.
        QTest::newRow("not HTTP") << QByteArray("HELLO\r\n\r\n") << 0;
    }
    void badRequests()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QVERIFY(m_exporter->start());
        const HttpReply r = m_exporter->request(request);
        QCOMPARE(r.status, status);
        QVERIFY(r.closed);
        // The server still answers the next scrape.
        QCOMPARE(m_exporter->get("/metrics").status, 200);
    }

    void slowClientsDoNotStallScrapes()
    {
        QVERIFY(m_exporter->start({"--client-timeout", "2s"}));
        // Clients that connect and send half a request, or nothing, and stay.
        std::list<QTcpSocket> slow(20);
        int i = 0;
        for (auto& s : slow) {
            s.connectToHost(QStringLiteral("127.0.0.1"), m_exporter->port());
            QVERIFY(s.waitForConnected(5000));
            if (i++ % 2 == 0)
                s.write("GET /metrics HTTP/1.1\r\nHost: h\r\nX-Slow: ");
            s.flush();
        }
        const HttpReply r = m_exporter->get("/metrics");
        QCOMPARE(r.status, 200);
        QCOMPARE(ExporterProcess::parseMetrics(r.body).value("delayq_up", -1), 1.0);
        // And the exporter closes them once they have been idle for the client timeout.
        for (auto& s : slow)
            QTRY_COMPARE_WITH_TIMEOUT(s.state(), QAbstractSocket::UnconnectedState, 10000);
    }

    // Scrapes that arrive together are all answered, each from a whole read: the HTTP threads
    // take turns on the one Redis connection.
    void concurrentScrapes()
    {
        fillKnownStates();
        QVERIFY(m_exporter->start());
        std::list<QTcpSocket> clients(8);
        for (auto& c : clients) {
            c.connectToHost(QStringLiteral("127.0.0.1"), m_exporter->port());
            QVERIFY(c.waitForConnected(5000));
        }
        for (auto& c : clients)
            c.write("GET /metrics HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        for (auto& c : clients) {
            const QByteArray all = readUntilClosed(c, 10000);
            QVERIFY2(all.startsWith("HTTP/1.1 200"), all.left(200).constData());
            const auto m = ExporterProcess::parseMetrics(all.mid(all.indexOf("\r\n\r\n") + 4));
            QCOMPARE(m.value(sample("delayq_tasks", "orders", "pending"), -1), 5.0);
            QCOMPARE(m.value("delayq_up", -1), 1.0);
        }
    }

    void stopsOnSignal_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << SIGINT;
        QTest::newRow("SIGTERM") << SIGTERM;
    }
    void stopsOnSignal()
    {
        QFETCH(int, signal);
        QVERIFY(m_exporter->start());
        QCOMPARE(m_exporter->get("/metrics").status, 200);
        QCOMPARE(m_exporter->stop(signal), 0);
        QVERIFY(m_exporter->process().readAllStandardError().contains("exporter stopping"));
        QTcpSocket s;
        s.connectToHost(QStringLiteral("127.0.0.1"), m_exporter->port());
        QVERIFY(!s.waitForConnected(2000));
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no port") << QStringList{"--listen", "127.0.0.1"} << 2 << "HOST:PORT";
        QTest::newRow("port too big")
            << QStringList{"--listen", "127.0.0.1:70000"} << 2 << "from 0 to 65535";
        QTest::newRow("port not a number")
            << QStringList{"--listen", "127.0.0.1:http"} << 2 << "from 0 to 65535";
        QTest::newRow("unknown host")
            << QStringList{"--listen", "no-such-host.invalid:9464"} << 1 << "cannot listen on";
        QTest::newRow("bad queue name") << QStringList{"--queues", "a,b c"} << 2 << "queue name";
        QTest::newRow("empty queue name") << QStringList{"--queues", "a,,b"} << 2 << "empty";
        QTest::newRow("client timeout") << QStringList{"--client-timeout", "0s"} << 2 << "1s to 1h";
        QTest::newRow("positional") << QStringList{"orders"} << 2 << "";
        QTest::newRow("redis away")
            << QStringList{"--url", "redis://127.0.0.1:1"} << 3 << "cannot connect";
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliRun r = m_cli->run(QStringList{"exporter"} + args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    void portInUseIsRefused()
    {
        QVERIFY(m_exporter->start());
        const QString taken = "127.0.0.1:" + QString::number(m_exporter->port());
        const CliRun r = m_cli->run({"exporter", "--listen", taken});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("Address already in use"), r.err.constData());
    }

    void promtoolFindsNothingToSay()
    {
        const QString promtool = PrometheusServer::promtoolBinary();
        if (promtool.isEmpty())
            QSKIP("promtool not found on PATH (Debian package prometheus; scripts/setup "
                  "installs it)");
        fillKnownStates();
        QVERIFY(m_exporter->start());
        const HttpReply r = m_exporter->get("/metrics");
        QCOMPARE(r.status, 200);
        QProcess check;
        check.setProcessChannelMode(QProcess::MergedChannels);
        check.start(promtool, {"check", "metrics"});
        check.write(r.body);
        check.closeWriteChannel();
        QVERIFY(check.waitForFinished(30000));
        const QByteArray said = check.readAll();
        QVERIFY2(said.isEmpty(), said.constData());
        QCOMPARE(check.exitCode(), 0);
    }

    void prometheusScrapesIt()
    {
        if (PrometheusServer::prometheusBinary().isEmpty())
            QSKIP("prometheus not found on PATH (Debian package prometheus; scripts/setup "
                  "installs it)");
        fillKnownStates();
        QVERIFY(m_exporter->start());
        PrometheusServer prometheus;
        QVERIFY(prometheus.start(m_exporter->port()));
        QTRY_COMPARE_WITH_TIMEOUT(
            prometheus.query(R"(delayq_tasks{queue="orders",state="pending"})").value_or(-1), 5.0,
            20000);
        QCOMPARE(prometheus.query(R"(delayq_tasks_acked_total{queue="orders"})").value_or(-1), 1.0);
        QCOMPARE(prometheus.query(R"(up{job="delayq"})").value_or(-1), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestCliExporter)
#include "tst_cliexporter.moc"
