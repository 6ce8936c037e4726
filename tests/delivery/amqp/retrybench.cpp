// Not a test: the retry loop's figures (docs/targets/amqp-retry.md, "Measured"), on a private
// rabbitmq-server node and redis-server:
//
//   build/tests/delivery/amqp/amqpretrybench [--short] [MESSAGES]
//
// 1. the broker's ceiling: MESSAGES confirmed persistent publishes (CeilingPublisher, the amqp
//    target's own connection and message) to the durable work queue;
// 2. the loop: MESSAGES dead letters into the dead-letter queue while `delayq work Q
//    --retry-from …&backoff=1ms` runs, timed until all are back in the work queue (rate, and
//    its multiple of 1.);
// 3. the delays: 10 messages rejected three times each with backoff 5s,20s,30s (--short:
//    1s,2s,3s); each delay measured from the reject to the next delivery (basic.get polled
//    every ms), and its error against the step;
// 4. faults: MESSAGES/10 messages failed once each by examples/java/RetryingListener, through
//    three SIGKILLs of the worker and a broker restart: lost and duplicates by message_id.
#include "clirunner.h"
#include "rabbitnode.h"
#include "redisserver.h"
#include "rejectingconsumer.h"
#include <delayq/ceilingpublisher.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMap>
#include <QThread>

#include <algorithm>
#include <csignal>
#include <cstdio>

namespace {

void fail(const QString& why)
{
    std::fprintf(stderr, "amqpretrybench: %s\n", qPrintable(why));
    std::exit(1);
}

bool waitFor(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QThread::msleep(5);
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    const bool shortDelays = args.removeAll(QStringLiteral("--short")) > 0;
    const int n = args.isEmpty() ? 20000 : args.first().toInt();
    const QList<int> steps =
        shortDelays ? QList<int>{1000, 2000, 3000} : QList<int>{5000, 20000, 30000};

    RedisServer redis;
    RabbitNode node;
    if (!redis.start())
        fail(redis.errorString());
    if (!node.start())
        fail(node.errorString());
    CliRunner cli(redis.unixUrl());
    const QString exchange = QStringLiteral("orders"), work = QStringLiteral("order.cancel"),
                  dlq = QStringLiteral("order.dlq");
    RejectingConsumer client(node.port());
    if (!client.makeLoop(exchange, QStringLiteral("k"), work, dlq))
        fail(client.lastError());

    // 1. the ceiling
    const std::string target = node.url("exchange=orders&routing_key=k");
    double ceiling = 0;
    {
        delayq::amqp::CeilingPublisher publisher(target, "bench", 200, 30000);
        QElapsedTimer t;
        t.start();
        publisher.publish(0, n, [](long long i) {
            delayq::ClaimedTask task;
            task.id = "c" + std::to_string(i);
            task.payload = "{\"order\":" + std::to_string(i) + "}";
            task.attempts = 1;
            return task;
        });
        ceiling = n * 1000.0 / std::max<qint64>(t.elapsed(), 1);
    }
    if (!waitFor([&] { return client.messageCount(work) == n; }, 60000))
        fail(QStringLiteral("the ceiling's messages did not all arrive"));
    node.ctl({QStringLiteral("purge_queue"), work});
    std::printf("ceiling: %d confirmed publishes in %.0f/s\n", n, ceiling);

    // 2. the loop's rate
    const std::string retry = node.url("queue=order.dlq&backoff=1ms&max_attempts=1000000");
    auto worker =
        cli.start({QStringLiteral("work"), QStringLiteral("retries"),
                   QStringLiteral("--retry-from"), QString::fromStdString(retry),
                   QStringLiteral("--quiet"), QStringLiteral("--batch"), QStringLiteral("200")});
    QThread::msleep(1500);
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; ++i)
        if (!client.publish(QString(), dlq, QStringLiteral("m%1").arg(i),
                            "{\"order\":" + QByteArray::number(i) + "}", work, exchange,
                            QStringLiteral("k")))
            fail(QStringLiteral("publish to the dead-letter queue failed"));
    if (!waitFor([&] { return client.messageCount(work) >= n; }, 600000))
        fail(QStringLiteral("the loop did not republish them all"));
    const double loop = n * 1000.0 / std::max<qint64>(t.elapsed(), 1);
    std::printf("loop: %d dead letters republished in %lld ms: %.0f/s = %.2f x the ceiling\n", n,
                t.elapsed(), loop, loop / ceiling);
    worker->terminate();
    worker->waitForFinished(20000);
    node.ctl({QStringLiteral("purge_queue"), work});

    // 3. the delays
    const QString spec = QStringLiteral("queue=order.dlq&max_attempts=4&backoff=%1ms,%2ms,%3ms")
                             .arg(steps[0])
                             .arg(steps[1])
                             .arg(steps[2]);
    worker = cli.start(
        {QStringLiteral("work"), QStringLiteral("delays"), QStringLiteral("--retry-from"),
         QString::fromStdString(node.url(spec.toStdString())), QStringLiteral("--quiet")});
    QThread::msleep(1500);
    const int m = 10;
    for (int i = 0; i < m; ++i)
        client.publish(exchange, QStringLiteral("k"), QStringLiteral("d%1").arg(i), "x");
    QMap<QString, qint64> rejectedAt;
    QList<QList<qint64>> errors(3);
    QElapsedTimer clock;
    clock.start();
    int acked = 0;
    while (acked < m && clock.elapsed() < 300000) {
        const auto got = client.take(work);
        if (!got) {
            QThread::usleep(500);
            continue;
        }
        const qint64 now = clock.elapsed();
        if (got->deaths > 0)
            errors[got->deaths - 1] << now - rejectedAt[got->messageId] - steps[got->deaths - 1];
        if (got->deaths < 3) {
            client.reject(got->tag);
            rejectedAt[got->messageId] = clock.elapsed();
        } else {
            client.ack(got->tag);
            ++acked;
        }
    }
    for (int s = 0; s < 3; ++s) {
        auto e = errors[s];
        std::sort(e.begin(), e.end());
        if (e.isEmpty())
            fail(QStringLiteral("no retry measured for step %1").arg(s + 1));
        qint64 sum = 0;
        for (qint64 x : e)
            sum += x;
        std::printf("delay %d ms: %lld retries, error min %lld ms, mean %lld ms, max %lld ms\n",
                    steps[s], static_cast<long long>(e.size()), e.first(), sum / e.size(),
                    e.last());
    }
    worker->terminate();
    worker->waitForFinished(20000);
    node.ctl({QStringLiteral("purge_queue"), work});

    // 4. faults: examples/java/RetryingListener fails each message once; the worker is
    //    SIGKILLed three times and the broker restarted once while they go around.
    if (!QStringLiteral(JAVA_MISSING).isEmpty()) {
        std::printf("faults: skipped (%s)\n", JAVA_MISSING);
        return 0;
    }
    const int nf = n / 10;
    cli.run({QStringLiteral("config"), QStringLiteral("faults"), QStringLiteral("max_attempts"),
             QStringLiteral("100")});
    const QStringList faultArgs{
        QStringLiteral("work"),
        QStringLiteral("faults"),
        QStringLiteral("--retry-from"),
        QString::fromStdString(node.url("queue=order.dlq&backoff=200ms&max_attempts=5")),
        QStringLiteral("--quiet"),
        QStringLiteral("--lease"),
        QStringLiteral("1s")};
    worker = cli.start(faultArgs);
    QProcess listener;
    listener.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    listener.start(QStringLiteral(JAVA),
                   {QStringLiteral("-cp"), QStringLiteral(JAVA_CLASSPATH),
                    QStringLiteral("RetryingListener"), QString::fromStdString(node.url("")), work,
                    QStringLiteral("1")});
    listener.waitForStarted();
    for (int i = 0; i < nf; ++i)
        client.publish(exchange, QStringLiteral("k"), QStringLiteral("f%1").arg(i), "x");
    QMap<QString, int> ackedTimes;
    int rejects = 0, kills = 0;
    bool restarted = false;
    QString partial;
    clock.restart();
    while (ackedTimes.size() < nf && clock.elapsed() < 300000) {
        listener.waitForReadyRead(50);
        partial += QString::fromUtf8(listener.readAllStandardOutput());
        const qsizetype end = partial.lastIndexOf(u'\n');
        if (end < 0)
            continue;
        for (const QString& line : partial.left(end).split(u'\n', Qt::SkipEmptyParts)) {
            const QStringList words = line.split(u' ');
            if (words.value(0) == QStringLiteral("acked"))
                ++ackedTimes[words.value(1)];
            else if (words.value(0) == QStringLiteral("rejected"))
                ++rejects;
        }
        partial = partial.mid(end + 1);
        if (kills < 3 && rejects >= nf * (kills + 1) / 5) {
            ::kill(static_cast<pid_t>(worker->processId()), SIGKILL);
            worker->waitForFinished();
            ++kills;
            worker = cli.start(faultArgs);
        } else if (kills == 3 && !restarted && rejects >= nf * 4 / 5) {
            restarted = true;
            node.stopApp();
            node.startApp();
        }
    }
    int duplicates = 0;
    for (int count : ackedTimes)
        duplicates += count - 1;
    std::printf("faults: %d messages, each failed once by the Java listener, %d SIGKILLs of the "
                "worker, broker restarted: %s; lost %d, duplicate deliveries acked %d, %lld ms\n",
                nf, kills, restarted ? "yes" : "no", nf - static_cast<int>(ackedTimes.size()),
                duplicates, clock.elapsed());
    listener.closeWriteChannel();
    listener.waitForFinished(10000);
    worker->terminate();
    worker->waitForFinished(20000);
    return 0;
}
