#include "clisuite.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

// The Java examples of examples/java/ (built by its CMakeLists with the JDK's javac) driven by
// the real delayq work on a private redis-server: WebhookReceiver, on the JDK's HTTP server,
// takes delayq's signed requests and refuses a wrong or missing signature; PipeConsumer
// answers the pipe protocol.
class TestJavaExamples : public CliSuite
{
    Q_OBJECT

protected:
    void initSuite() override
    {
        if (!QStringLiteral(JAVA_MISSING).isEmpty())
            QSKIP(JAVA_MISSING);
        QVERIFY(m_dir.isValid());
    }

    // java -cp CLASSES:JARS MAIN ARGS, its stdout read by the test (stderr passed on).
    std::unique_ptr<QProcess> startJava(const QString& main, const QStringList& args,
                                        const QByteArray& secret)
    {
        auto p = std::make_unique<QProcess>();
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("WEBHOOK_SECRET"), QString::fromLatin1(secret));
        p->setProcessEnvironment(env);
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start(QStringLiteral(JAVA),
                 QStringList{QStringLiteral("-cp"), QStringLiteral(JAVA_CLASSPATH), main} + args);
        return p;
    }

    // Lines the Java process printed so far, kept across calls.
    QStringList linesOf(QProcess& p)
    {
        p.waitForReadyRead(50);
        m_out += QString::fromUtf8(p.readAllStandardOutput());
        return m_out.split(u'\n', Qt::SkipEmptyParts);
    }

    QJsonObject stats(const QString& queue)
    {
        return json(delayq({QStringLiteral("--json"), QStringLiteral("stats"), queue})).object();
    }

    QJsonArray tasks(const QString& queue, const QString& state)
    {
        return json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), queue,
                            QStringLiteral("--state"), state, QStringLiteral("--limit"),
                            QStringLiteral("10000")}))
            .object()
            .value(QStringLiteral("tasks"))
            .toArray();
    }

    QTemporaryDir m_dir;
    QString m_out;

private slots:
    void webhookReceiverChecksTheSignature_data()
    {
        QTest::addColumn<QByteArray>("receiverSecret");
        QTest::addColumn<QByteArray>("workerSecret"); // empty: delayq signs nothing
        QTest::addColumn<bool>("accepted");
        const QByteArray whsec = "whsec_" + QByteArray("a key of 24 bytes or so.").toBase64();
        QTest::newRow("whsec_ secret") << whsec << whsec << true;
        QTest::newRow("raw secret") << QByteArray("a-raw-secret-of-some-length")
                                    << QByteArray("a-raw-secret-of-some-length") << true;
        QTest::newRow("another secret")
            << whsec << "whsec_" + QByteArray("another key, not theirs").toBase64() << false;
        QTest::newRow("unsigned") << whsec << QByteArray() << false;
    }

    void webhookReceiverChecksTheSignature()
    {
        QFETCH(QByteArray, receiverSecret);
        QFETCH(QByteArray, workerSecret);
        QFETCH(bool, accepted);
        m_out.clear();
        auto receiver =
            startJava(QStringLiteral("WebhookReceiver"), {QStringLiteral("0")}, receiverSecret);
        const auto stop = qScopeGuard([&receiver] {
            receiver->kill();
            receiver->waitForFinished(5000);
        });
        QVERIFY2(receiver->waitForStarted(10000), qPrintable(receiver->errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(!linesOf(*receiver).isEmpty(), 20000);
        const QRegularExpressionMatch listening =
            QRegularExpression(QStringLiteral("^listening on (\\d+)$"))
                .match(linesOf(*receiver).first());
        QVERIFY2(listening.hasMatch(), qPrintable(m_out));
        const QString url = QStringLiteral("http://127.0.0.1:%1/hook").arg(listening.captured(1));

        const int n = 40;
        QCOMPARE(delayq({QStringLiteral("push"), QStringLiteral("hooks"),
                         QStringLiteral(R"({"order":42})"), QStringLiteral("--count"),
                         QString::number(n), QStringLiteral("--max-attempts"), QStringLiteral("1")})
                     .exitCode,
                 0);
        QStringList args{QStringLiteral("work"),          QStringLiteral("hooks"),
                         QStringLiteral("--handler"),     url,
                         QStringLiteral("--until-empty"), QStringLiteral("--quiet"),
                         QStringLiteral("--concurrency"), QStringLiteral("2")};
        if (!workerSecret.isEmpty()) {
            QFile f(m_dir.filePath(QStringLiteral("secret")));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(workerSecret + "\n");
            f.close();
            args << QStringLiteral("--webhook-secret-file") << f.fileName();
        }
        const CliRun run = delayq(args);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(linesOf(*receiver).size(), n + 1, 10000);
        const QStringList lines = linesOf(*receiver).mid(1);
        const QJsonObject counters = stats(QStringLiteral("hooks")).value("counters").toObject();
        if (accepted) {
            QCOMPARE(counters.value(QStringLiteral("acked")).toInt(), n);
            QSet<QString> ids;
            for (const QString& line : lines) {
                QVERIFY2(line.startsWith(QStringLiteral("acked ")), qPrintable(line));
                ids.insert(line.section(u' ', 1, 1));
            }
            QCOMPARE(ids.size(), n);
        } else {
            // Refused with 401: a failure with the receiver's reason, dead after its one attempt.
            QCOMPARE(counters.value(QStringLiteral("acked")).toInt(), 0);
            const QString why = workerSecret.isEmpty()
                                    ? QStringLiteral("unsigned: webhook-id, webhook-timestamp or "
                                                     "webhook-signature is missing")
                                    : QStringLiteral("bad signature");
            for (const QString& line : lines)
                QCOMPARE(line, QStringLiteral("refused ") + why);
            const QJsonArray dead = tasks(QStringLiteral("hooks"), QStringLiteral("dead"));
            QCOMPARE(dead.size(), n);
            QCOMPARE(dead.first().toObject().value(QStringLiteral("last_error")).toString(),
                     QStringLiteral("HTTP 401 Unauthorized: ") + why);
        }
    }

    void pipeConsumerAnswers()
    {
        const int n = 200;
        QCOMPARE(delayq({QStringLiteral("push"), QStringLiteral("orders"),
                         QStringLiteral(R"({"order":7})"), QStringLiteral("--count"),
                         QString::number(n)})
                     .exitCode,
                 0);
        QCOMPARE(delayq({QStringLiteral("push"), QStringLiteral("orders"),
                         QStringLiteral("bad order"), QStringLiteral("--id"),
                         QStringLiteral("bad-1"), QStringLiteral("--max-attempts"),
                         QStringLiteral("2"), QStringLiteral("--backoff"), QStringLiteral("100ms")})
                     .exitCode,
                 0);
        const QString consumer = QStringLiteral("pipe:exec '%1' -cp '%2' PipeConsumer")
                                     .arg(QStringLiteral(JAVA), QStringLiteral(JAVA_CLASSPATH));
        const CliRun run =
            delayq({QStringLiteral("work"), QStringLiteral("orders"), QStringLiteral("--handler"),
                    consumer, QStringLiteral("--until-empty"), QStringLiteral("--quiet"),
                    QStringLiteral("--concurrency"), QStringLiteral("2")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject s = stats(QStringLiteral("orders"));
        QCOMPARE(s.value("counters").toObject().value(QStringLiteral("acked")).toInt(), n);
        QCOMPARE(s.value(QStringLiteral("pending")).toInt(), 0);
        // The failing one: retried once on its backoff, then dead with the Java exception's text.
        const QJsonArray dead = tasks(QStringLiteral("orders"), QStringLiteral("dead"));
        QCOMPARE(dead.size(), 1);
        const QJsonObject task = dead.first().toObject();
        QCOMPARE(task.value(QStringLiteral("id")).toString(), QStringLiteral("bad-1"));
        QCOMPARE(task.value(QStringLiteral("attempts")).toInt(), 2);
        QCOMPARE(task.value(QStringLiteral("last_error")).toString(),
                 QStringLiteral("cannot process bad order (attempt 2 of 2)"));
    }
};

QTEST_GUILESS_MAIN(TestJavaExamples)
#include "tst_javaexamples.moc"
