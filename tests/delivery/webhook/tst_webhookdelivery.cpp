#include "clisuite.h"
#include "testcertificates.h"
#include "webhookendpoint.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QLocale>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <csignal>
#include <memory>

// `delayq work QUEUE --handler http://…` end to end: the built binary, a private redis-server
// and webhookserver.py, an HTTP/1.1 endpoint written with Python's standard library that
// records every request and checks its Standard Webhooks signature with Python's hmac.
class TestWebhookDelivery : public CliSuite
{
    Q_OBJECT

    // The key the endpoint checks signatures with, as Standard Webhooks writes it, and the
    // same bytes as a raw secret.
    static constexpr const char* kRawSecret = "a-secret-of-at-least-24-bytes";
    static QByteArray whsecSecret() { return "whsec_" + QByteArray(kRawSecret).toBase64(); }

    std::unique_ptr<WebhookEndpoint> m_endpoint;
    QTemporaryDir m_dir;

    void initSuite() override
    {
        m_endpoint = std::make_unique<WebhookEndpoint>(whsecSecret());
        QVERIFY2(m_endpoint->start(), qPrintable(m_endpoint->errorString()));
    }

    void initTest() override { m_endpoint->clear(); }

    QString url(const QString& path) const { return m_endpoint->url(path); }

    // Pushes one task (its attempts and backoff fixed, so a retry's time is known); its id.
    QString push(const QString& queue, const QByteArray& payload, const QStringList& extra = {})
    {
        const CliRun r = delayq(
            QStringList{"push", queue, "-", "--json", "--max-attempts", "3", "--backoff", "1h"} +
                extra,
            payload);
        if (r.exitCode != 0)
            qWarning() << r.err;
        return json(r).object().value("id").toString();
    }

    QJsonObject show(const QString& queue, const QString& id)
    {
        return json(delayq({"show", queue, id, "--json"})).object().value("task").toObject();
    }

    CliRun work(const QString& queue, const QString& target, const QStringList& extra = {})
    {
        return delayq(QStringList{"work", queue, "--handler", target, "--quiet"} + extra);
    }

    static QString query(const QString& body, const QString& retryAfter = {})
    {
        QString q = QStringLiteral("?body=") + QString::fromLatin1(QUrl::toPercentEncoding(body));
        if (!retryAfter.isEmpty())
            q += QStringLiteral("&retry_after=") +
                 QString::fromLatin1(QUrl::toPercentEncoding(retryAfter));
        return q;
    }

    static QString httpDate(qint64 secondsFromNow)
    {
        return QLocale::c().toString(QDateTime::currentDateTimeUtc().addSecs(secondsFromNow),
                                     QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"));
    }

private slots:
    // What each answer does to the task: acked, retried on its backoff or at Retry-After,
    // dead at once; its error is the status and the start of the body as plain text.
    void answers_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("state"); // "gone": acked
        QTest::addColumn<QString>("error");
        QTest::addColumn<int>("retryInS"); // due this long after the push (-1: not retried)

        const QString longBody(1000, QLatin1Char('a'));
        QTest::newRow("200") << "/status/200" << QStringList() << "gone"
                             << "" << -1;
        QTest::newRow("204") << "/status/204" << QStringList() << "gone"
                             << "" << -1;
        QTest::newRow("404 with a body")
            << "/status/404" + query("no such hook") << QStringList() << "pending"
            << "HTTP 404 Not Found: no such hook" << 3600;
        QTest::newRow("500 body with line breaks and control characters")
            << "/status/500" + query("boom\n\tline\x01two\r\n") << QStringList() << "pending"
            << "HTTP 500 Internal Server Error: boom line two" << 3600;
        QTest::newRow("500 long body: its first 200 bytes")
            << "/status/500" + query(longBody) << QStringList() << "pending"
            << "HTTP 500 Internal Server Error: " + longBody.left(200) + "…" << 3600;
        QTest::newRow("301 is not followed") << "/status/301" << QStringList() << "pending"
                                             << "HTTP 301 Moved Permanently" << 3600;
        QTest::newRow("410 Gone: dead at once")
            << "/status/410" + query("unsubscribed") << QStringList() << "dead"
            << "HTTP 410 Gone: unsubscribed" << -1;
        QTest::newRow("429 Retry-After seconds")
            << "/status/429" + query("slow down", "30") << QStringList() << "pending"
            << "HTTP 429 Too Many Requests (Retry-After: 30): slow down" << 30;
        // HTTPDATE: two minutes after the row starts, as an HTTP date (see answers()).
        QTest::newRow("503 Retry-After date")
            << "/status/503" + query("", "HTTPDATE") << QStringList() << "pending"
            << "HTTP 503 Service Unavailable (Retry-After: HTTPDATE)" << 120;
        QTest::newRow("503 without Retry-After: the backoff")
            << "/status/503" << QStringList() << "pending"
            << "HTTP 503 Service Unavailable" << 3600;
        QTest::newRow("503 with a Retry-After that is neither: the backoff")
            << "/status/503" + query("", "soon") << QStringList() << "pending"
            << "HTTP 503 Service Unavailable" << 3600;
        QTest::newRow("timeout") << "/sleep/5000" << QStringList{"--http-timeout", "300ms"}
                                 << "pending"
                                 << "no answer within 300 ms" << 3600;
        QTest::newRow("closed mid-response")
            << "/close" << QStringList() << "pending"
            << "transfer closed with 90 bytes remaining to read" << 3600;
    }

    void answers()
    {
        QFETCH(QString, path);
        QFETCH(QStringList, args);
        QFETCH(QString, state);
        QFETCH(QString, error);
        QFETCH(int, retryInS);
        const QString date = httpDate(120);
        path.replace(QStringLiteral("HTTPDATE"),
                     QString::fromLatin1(QUrl::toPercentEncoding(date)));
        error.replace(QStringLiteral("HTTPDATE"), date);
        const QString id = push("hooks", R"({"order":42})");
        QVERIFY(!id.isEmpty());
        const CliRun r = work("hooks", url(path), args + QStringList{"--max-tasks", "1"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(m_endpoint->requests().size(), 1);

        const QJsonObject task = show("hooks", id);
        if (state == QLatin1String("gone")) {
            QVERIFY(task.isEmpty());
            const QJsonObject stats = json(delayq({"stats", "hooks", "--json"})).object();
            QCOMPARE(stats.value("counters").toObject().value("acked").toInt(), 1);
            return;
        }
        QCOMPARE(task.value("state").toString(), state);
        QCOMPARE(task.value("attempts").toInt(), 1);
        const QString lastError = task.value("last_error").toString();
        if (path == QLatin1String("/close")) // curl's own words
            QVERIFY2(lastError.contains(error), qPrintable(lastError));
        else
            QCOMPARE(lastError, error);
        if (retryInS >= 0) {
            const qint64 in =
                qint64(task.value("due").toDouble() - task.value("created").toDouble());
            QVERIFY2(qAbs(in - retryInS * 1000LL) < 3000, qPrintable(QString::number(in)));
        }
    }

    // What the consumer receives: the payload as the body, its content type, the task's id,
    // queue, attempt and due time in headers, the extra headers and method asked for, and a
    // signature Python's hmac accepts when a secret is given (file or environment).
    void requestAndSignature_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("secretFrom"); // "file", "env", "none"
        QTest::addColumn<QByteArray>("secret");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("contentType");

        const QByteArray json = R"({"order":42,"items":["a","b"]})";
        QTest::newRow("JSON, whsec_ secret from a file")
            << json << "file" << whsecSecret() << "valid"
            << "application/json";
        QTest::newRow("bytes, raw secret from the environment")
            << QByteArray("not json \x01\xff", 11) << "env" << QByteArray(kRawSecret) << "valid"
            << "application/octet-stream";
        QTest::newRow("another secret: Python refuses it")
            << json << "env" << QByteArray("some-other-secret-entirely") << "invalid"
            << "application/json";
        QTest::newRow("no secret: unsigned") << json << "none" << QByteArray() << "absent"
                                             << "application/json";
    }

    void requestAndSignature()
    {
        QFETCH(QByteArray, payload);
        QFETCH(QString, secretFrom);
        QFETCH(QByteArray, secret);
        QFETCH(QString, verdict);
        QFETCH(QString, contentType);
        const QString id = push("orders:eu", payload);
        const QJsonObject pushed = show("orders:eu", id);
        QStringList args{"--max-tasks",   "1",
                         "--http-method", "put",
                         "--http-header", "X-Team: billing",
                         "--http-header", "Authorization: Bearer t0ken"};
        const QString file = m_dir.filePath(QStringLiteral("secret"));
        if (secretFrom == QLatin1String("file")) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(secret + "\n");
            f.close();
            args << "--webhook-secret-file" << file;
        }
        if (secretFrom == QLatin1String("env"))
            qputenv("DELAYQ_WEBHOOK_SECRET", secret);
        const CliRun r = work("orders:eu", url("/status/204"), args);
        qunsetenv("DELAYQ_WEBHOOK_SECRET");
        QVERIFY2(r.exitCode == 0, r.err.constData());

        const QList<QJsonObject> requests = m_endpoint->requests();
        QCOMPARE(requests.size(), 1);
        const QJsonObject req = requests[0];
        const QJsonObject h = req.value("headers").toObject();
        QCOMPARE(req.value("method").toString(), QStringLiteral("PUT"));
        QCOMPARE(req.value("path").toString(), QStringLiteral("/status/204"));
        QCOMPARE(QByteArray::fromBase64(req.value("body").toString().toLatin1()), payload);
        QCOMPARE(h.value("content-type").toString(), contentType);
        QCOMPARE(h.value("webhook-id").toString(), id);
        const double sentAt = h.value("webhook-timestamp").toString().toDouble();
        QVERIFY(qAbs(sentAt - req.value("time").toDouble()) < 10);
        QCOMPARE(h.value("delayq-queue").toString(), QStringLiteral("orders:eu"));
        QCOMPARE(h.value("delayq-attempt").toString(), QStringLiteral("1"));
        QCOMPARE(h.value("delayq-max-attempts").toString(), QStringLiteral("3"));
        QCOMPARE(h.value("delayq-due").toString().toLongLong(),
                 qint64(pushed.value("due").toDouble()));
        QCOMPARE(h.value("x-team").toString(), QStringLiteral("billing"));
        QCOMPARE(h.value("authorization").toString(), QStringLiteral("Bearer t0ken"));
        QCOMPARE(req.value("signature").toString(), verdict);
        QVERIFY(show("orders:eu", id).isEmpty()); // the 204 acked it, signed or not
    }

    // --http-header Content-Type replaces delayq's own.
    void ownContentType()
    {
        push("hooks", R"({"a":1})");
        const CliRun r = work(
            "hooks", url("/status/200"),
            {"--max-tasks", "1", "--http-header", "Content-Type: application/cloudevents+json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject h = m_endpoint->requests().value(0).value("headers").toObject();
        QCOMPARE(h.value("content-type").toString(),
                 QStringLiteral("application/cloudevents+json"));
    }

    // 50 tasks in claims of 10 go over at most 8 connections per thread, kept alive from one
    // claim to the next: no handshake per task.
    void keepAlive()
    {
        QCOMPARE(delayq({"push", "hooks", "x", "--count", "50"}).exitCode, 0);
        const CliRun r = work("hooks", url("/status/204"),
                              {"--until-empty", "--batch", "10", "--max-batch", "10"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(m_endpoint->requests().size(), 50);
        const int connections = int(m_endpoint->connections().size());
        QVERIFY2(connections >= 1 && connections <= 8, qPrintable(QString::number(connections)));
        const QJsonObject stats = json(delayq({"stats", "hooks", "--json"})).object();
        QCOMPARE(stats.value("counters").toObject().value("acked").toInt(), 50);
        QCOMPARE(stats.value("pending").toInt(), 0);
    }

    // The second Ctrl-C (here SIGTERM) stops a worker waiting on a slow endpoint at once; the
    // task goes back to the queue instead of waiting out the 10 s timeout.
    void stopAtOnce()
    {
        const QString id = push("hooks", "slow");
        auto p = m_cli.start({"work", "hooks", "--handler", url("/sleep/20000"), "--quiet"});
        QTRY_COMPARE_WITH_TIMEOUT(m_endpoint->requests().size(), 1, 10000);
        QElapsedTimer timer;
        timer.start();
        ::kill(static_cast<pid_t>(p->processId()), SIGTERM);
        QTest::qWait(200);
        ::kill(static_cast<pid_t>(p->processId()), SIGTERM);
        QVERIFY(p->waitForFinished(10000));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        const QJsonObject task = show("hooks", id);
        QCOMPARE(task.value("state").toString(), QStringLiteral("pending"));
    }

    // Refused before anything is claimed: exit 2 for a bad command line, 3 for an endpoint
    // that does not answer; the task stays as it was, and a password is never printed.
    void refusals_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");

        const QString ok = QStringLiteral("http://127.0.0.1:1/x"); // never reached
        QTest::newRow("webhook option with exec:")
            << "exec:true" << QStringList{"--http-method", "PUT"} << 2
            << "--http-method applies to a webhook target";
        QTest::newRow("webhook option with ack")
            << "ack" << QStringList{"--http-header", "A: b"} << 2
            << "--http-header applies to a webhook target";
        QTest::newRow("secret on the command line")
            << ok << QStringList{"--webhook-secret", "s"} << 2 << "never goes on the command line";
        QTest::newRow("method GET") << ok << QStringList{"--http-method", "GET"} << 2
                                    << "the webhook method must be POST, PUT or PATCH";
        QTest::newRow("header without a colon: its value not shown")
            << ok << QStringList{"--http-header", "Authorization Bearer s3cret"} << 2
            << "a webhook header must be 'Name: value', the name of letters, digits and "
               "-_.!#$%&'*+^`|~ (got 'Authorization…')";
        QTest::newRow("header delayq sets") << ok << QStringList{"--http-header", "Webhook-Id: 1"}
                                            << 2 << "is set by delayq itself";
        QTest::newRow("timeout too short")
            << ok << QStringList{"--http-timeout", "1ms"} << 2 << "--http-timeout must be";
        QTest::newRow("CA file with http://") << ok << QStringList{"--http-ca", "/etc/hostname"}
                                              << 2 << "a CA file applies to https:// webhooks only";
        QTest::newRow("secret file missing")
            << ok << QStringList{"--webhook-secret-file", "/nonexistent/secret"} << 1
            << "cannot read the webhook secret file '/nonexistent/secret'";
        QTest::newRow("bad whsec_ secret")
            << ok << QStringList{"--webhook-secret-file", "WHSEC_FILE"} << 2
            << "what follows is not base64";
        QTest::newRow("no host") << "http:///path" << QStringList() << 2 << "invalid webhook URL";
        QTest::newRow("bad port") << "http://127.0.0.1:99999/x" << QStringList() << 2
                                  << "invalid webhook URL";
        QTest::newRow("nothing listens: exit 3, password hidden")
            << "http://alice:s3cret@127.0.0.1:1/x" << QStringList() << 3
            << "the delivery target http://alice:***@127.0.0.1:1/x refused or did not answer: "
               "cannot connect to 127.0.0.1:1";
        QTest::newRow("host does not resolve")
            << "http://no-such-host.invalid/x" << QStringList{"--http-timeout", "3s"} << 3
            << "no-such-host.invalid";
    }

    void refusals()
    {
        QFETCH(QString, target);
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString id = push("hooks", "x");
        const QString bad = m_dir.filePath(QStringLiteral("whsec"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("whsec_not*base64\n");
        f.close();
        args.replaceInStrings(QStringLiteral("WHSEC_FILE"), bad);
        const CliRun r = work("hooks", target, args + QStringList{"--max-tasks", "1"});
        expectRefusal(r, exitCode, message);
        QVERIFY2(!r.err.contains("s3cret"), r.err.constData());
        const QJsonObject task = show("hooks", id);
        QCOMPARE(task.value("state").toString(), QStringLiteral("pending"));
        QCOMPARE(task.value("attempts").toInt(), 0);
    }

    // https:// is verified: an endpoint whose certificate no trusted CA signed is refused before
    // anything is claimed (exit 3); trusted through --http-ca, the task goes over TLS.
    void https()
    {
        TestCertificates certs;
        QVERIFY2(certs.create(), qPrintable(certs.errorString()));
        WebhookEndpoint tls(whsecSecret(), certs.cert("server"), certs.key("server"));
        QVERIFY2(tls.start(), qPrintable(tls.errorString()));
        const QString id = push("hooks", R"({"tls":true})");

        CliRun r = work("hooks", tls.url("/status/204"), {"--max-tasks", "1"});
        expectRefusal(r, 3, "certificate");
        QCOMPARE(show("hooks", id).value("attempts").toInt(), 0);

        r = work("hooks", tls.url("/status/204"),
                 {"--max-tasks", "1", "--http-ca", certs.cert("ca")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(tls.requests().size(), 1);
        QVERIFY(show("hooks", id).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWebhookDelivery)
#include "tst_webhookdelivery.moc"
