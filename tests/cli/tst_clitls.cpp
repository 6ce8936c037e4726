#include "clirunner.h"
#include "tlssuite.h"

#include <QJsonArray>
#include <QTest>

// delayq over TLS, end to end: the rediss:// URL with the --tls-* flags, --verbose, the
// --tls-insecure warning, and the exit codes of a refusal (3) and of a missing file (2).
class TestCliTls : public TlsSuite
{
    Q_OBJECT

private:
    CliRun delayq(const QStringList& args) const { return CliRunner(m_server.tlsUrl()).run(args); }

private slots:
    void pushesAndListsOverTls()
    {
        CliRun r = delayq(
            {"--tls-ca", m_certs.cert("ca"), "--verbose", "push", "mail", "hello", "--id", "t1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("over TLSv1."), r.err.constData());
        QVERIFY2(r.err.contains("(certificate verified)"), r.err.constData());

        // The same options as the URL's query.
        const QString url = QString::fromStdString(
            m_server.tlsUrl("?ca=" + m_certs.cert("ca").toStdString() + "&sni=localhost"));
        r = delayq({"--url", url, "--json", "ls", "mail"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray tasks = json(r).object().value("tasks").toArray();
        QCOMPARE(tasks.size(), 1);
        QCOMPARE(tasks[0].toObject().value("id").toString(), QStringLiteral("t1"));

        // A worker (its threads, lease keeper and wake subscriber) on the same options.
        r = delayq({"--url", url, "work", "mail", "--until-empty", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        r = delayq({"--url", url, "--json", "stats", "mail"});
        QCOMPARE(json(r).object().value("counters").toObject().value("acked").toInt(), 1);
    }

    void mutualTlsWithFlags()
    {
        m_server.cli({"CONFIG", "SET", "tls-auth-clients", "yes"});
        CliRun r = delayq({"--tls-ca", m_certs.cert("ca"), "--tls-cert", m_certs.cert("client"),
                           "--tls-key", m_certs.key("client"), "push", "mail", "x"});
        QCOMPARE(r.exitCode, 0);
        r = delayq({"--tls-ca", m_certs.cert("ca"), "push", "mail", "x"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("requires a client certificate"), r.err.constData());
    }

    void wrongCaExits3()
    {
        const CliRun r = delayq({"--tls-ca", m_certs.cert("unknownCa"), "push", "mail", "x"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("unknown CA"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
    }

    void insecureWarns()
    {
        const CliRun r = delayq({"--tls-insecure", "-v", "stats", "mail"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("WARNING: TLS certificate verification is off"), r.err.constData());
        QVERIFY2(r.err.contains("NOT verified"), r.err.constData());
    }

    void badFlagsExit2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("missing CA file") << QStringList{"--tls-ca", "/nonexistent/ca.crt"}
                                         << "cannot read the CA file /nonexistent/ca.crt";
        QTest::newRow("missing key")
            << QStringList{"--tls-cert", "{cert}", "--tls-key", "/nonexistent/c.key"}
            << "cannot read the client key /nonexistent/c.key";
        QTest::newRow("certificate without key")
            << QStringList{"--tls-cert", "{cert}"} << "both --tls-cert and --tls-key";
        QTest::newRow("TLS flag on a plain URL")
            << QStringList{"--url", "redis://127.0.0.1:1", "--tls-insecure"} << "rediss://";
        QTest::newRow("flag without its value") << QStringList{"--tls-ca"} << "needs a value";
    }
    void badFlagsExit2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        args.replaceInStrings(QStringLiteral("{cert}"), m_certs.cert("client"));
        expectUsageError(delayq(QStringList{"stats", "mail"} + args), mentions);
    }

    void helpShowsTheFlags()
    {
        const CliRun r = delayq({"--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* flag :
             {"--tls-ca FILE", "--tls-ca-dir DIR", "--tls-cert FILE", "--tls-key FILE",
              "--tls-server-name NAME", "--tls-insecure", "rediss://"})
            QVERIFY2(r.out.contains(flag), flag);
    }
};

QTEST_GUILESS_MAIN(TestCliTls)
#include "tst_clitls.moc"
