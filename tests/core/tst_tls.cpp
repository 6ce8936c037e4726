#include "expecterror.h"
#include "frozenserver.h"
#include "tlssuite.h"
#include "topologytasks.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/subscriber.h>

#include <QFile>
#include <QTest>

#include <chrono>
#include <string>
#include <thread>

using namespace delayq;
using namespace std::chrono_literals;

// TLS end to end against a redis-server with --tls-port and certificates made by the test:
// the happy path, mutual TLS, and each refusal with the message that names its cause.
class TestTls : public TlsSuite
{
    Q_OBJECT

private:
    std::string clientCertificate() const
    {
        return "&cert=" + m_certs.cert("client").toStdString() +
               "&key=" + m_certs.key("client").toStdString();
    }

private slots:
    void pushClaimAckOverTls_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("sni");
        QTest::newRow("IP address") << "127.0.0.1"
                                    << "";
        QTest::newRow("host name") << "localhost"
                                   << "";
        QTest::newRow("IP address, name to verify") << "127.0.0.1"
                                                    << "localhost";
    }
    void pushClaimAckOverTls()
    {
        QFETCH(QString, host);
        QFETCH(QString, sni);
        std::string url = "rediss://" + host.toStdString() + ":" +
                          std::to_string(m_server.tlsPort()) + "/0" + ca();
        if (!sni.isEmpty())
            url += "&sni=" + sni.toStdString();
        Connection conn(ConnectionOptions::fromUrl(url));
        QVERIFY(conn.securityDescription().empty()); // not connected yet
        Queue queue(conn, "orders");
        QCOMPARE(queue.push(task("t1")).status, PushResult::Status::Created);
        const std::string security = conn.securityDescription();
        QVERIFY2(security.rfind("TLSv1.", 0) == 0 && security.find(", ") != std::string::npos,
                 security.c_str());
        claimAndAckTheOnly(queue, "t1", "tls-worker");
        QCOMPARE(m_server.cli({"HGET", "dq:{orders}:stats", "acked"}).trimmed(), QByteArray("1"));
    }

    // Replies far larger than one TLS record (16 KiB) and a pipeline larger than the socket
    // buffers, both ways.
    void largePipelineOverTls()
    {
        Connection conn(ConnectionOptions::fromUrl(m_server.tlsUrl(ca())));
        const std::string big(200 * 1024, 'x');
        std::vector<std::vector<std::string>> commands;
        for (int i = 0; i < 40; ++i)
            commands.push_back({"SET", "k" + std::to_string(i), big + std::to_string(i)});
        for (int i = 0; i < 40; ++i)
            commands.push_back({"GET", "k" + std::to_string(i)});
        const auto replies = conn.pipeline(commands);
        QCOMPARE(replies.size(), size_t(80));
        for (int i = 0; i < 40; ++i)
            QCOMPARE(replies[40 + static_cast<size_t>(i)].toString(), big + std::to_string(i));
    }

    void plainConnectionsHaveNoSecurity()
    {
        Connection conn(ConnectionOptions::fromUrl(m_server.tcpUrl()));
        conn.ping();
        QVERIFY(conn.securityDescription().empty());
    }

    void mutualTls()
    {
        m_server.cli({"CONFIG", "SET", "tls-auth-clients", "yes"});
        Connection with(ConnectionOptions::fromUrl(m_server.tlsUrl(ca() + clientCertificate())));
        Queue queue(with, "orders");
        QCOMPARE(queue.push(task("t1")).status, PushResult::Status::Created);

        const QByteArray keys = m_server.cli({"DBSIZE"});
        Connection without(ConnectionOptions::fromUrl(m_server.tlsUrl(ca())));
        EXPECT_ERROR(ErrorCode::Tls, "", without.ping());
        QVERIFY2(m_message.find("requires a client certificate") != std::string::npos,
                 m_message.c_str());
        QVERIFY(!without.isConnected());
        QCOMPARE(m_server.cli({"DBSIZE"}), keys);
    }

    // An encrypted client key opens with its passphrase; without it, or with a wrong one, the
    // key is named (and nothing prompts on a terminal).
    void encryptedClientKey()
    {
        m_server.cli({"CONFIG", "SET", "tls-auth-clients", "yes"});
        auto options = ConnectionOptions::fromUrl(
            m_server.tlsUrl(ca() + "&cert=" + m_certs.cert("client").toStdString() +
                            "&key=" + m_certs.key("clientEncrypted").toStdString()));
        for (const char* wrong : {"", "Wrong5pass"}) {
            options.tls.keyPassphrase = wrong;
            Connection conn(options);
            EXPECT_ERROR(ErrorCode::Tls, wrong, conn.ping());
            QVERIFY2(m_message.find("client key " + m_certs.key("clientEncrypted").toStdString()) !=
                         std::string::npos,
                     m_message.c_str());
            QVERIFY2(m_message.find("passphrase") != std::string::npos, m_message.c_str());
        }
        options.tls.keyPassphrase = TestCertificates::kPassphrase;
        Connection conn(options);
        QCOMPARE(conn.command({"ECHO", "mutual"}).toString(), std::string("mutual"));
        QVERIFY(conn.options().displayUrl().find(TestCertificates::kPassphrase) ==
                std::string::npos);
    }

    // Each refusal names its cause, leaves the connection closed, and writes nothing.
    void refusals_data()
    {
        QTest::addColumn<QString>("served");   // the server's certificate
        QTest::addColumn<QString>("url");      // {tls}, {plain}: the ports; {ca}, {unknownCa}
        QTest::addColumn<int>("code");         // ErrorCode
        QTest::addColumn<QString>("mentions"); // in the message
        auto row = [](const char* name, const char* served, const char* url, ErrorCode code,
                      const char* mentions) {
            QTest::newRow(name) << served << url << static_cast<int>(code) << mentions;
        };
        row("wrong host name", "other", "rediss://127.0.0.1:{tls}/0?ca={ca}", ErrorCode::Tls,
            "certificate is for other.example, not 127.0.0.1");
        row("wrong server name asked", "server",
            "rediss://127.0.0.1:{tls}/0?ca={ca}&sni=db.example", ErrorCode::Tls,
            "certificate is for localhost, 127.0.0.1, not db.example");
        row("unknown CA", "server", "rediss://127.0.0.1:{tls}/0?ca={unknownCa}", ErrorCode::Tls,
            "signed by an unknown CA");
        row("system store only", "server", "rediss://127.0.0.1:{tls}/0", ErrorCode::Tls,
            "pass ?ca=");
        row("expired certificate", "expired", "rediss://127.0.0.1:{tls}/0?ca={ca}", ErrorCode::Tls,
            "certificate expired on ");
        row("plain server on a TLS URL", "server", "rediss://127.0.0.1:{plain}/0?ca={ca}",
            ErrorCode::Tls, "did not answer TLS");
        row("TLS server on a plain URL", "server", "redis://127.0.0.1:{tls}/0",
            ErrorCode::Connection, "is it a TLS port? use rediss://");
        row("missing CA file", "server", "rediss://127.0.0.1:{tls}/0?ca=/nonexistent/ca.crt",
            ErrorCode::Tls, "CA file /nonexistent/ca.crt: No such file");
        row("missing client key", "server",
            "rediss://127.0.0.1:{tls}/0?ca={ca}&cert={clientCert}&key=/nonexistent/c.key",
            ErrorCode::Tls, "client key /nonexistent/c.key: No such file");
        row("a CA file that is no certificate", "server",
            "rediss://127.0.0.1:{tls}/0?ca={clientKey}", ErrorCode::Tls, "CA file");
    }
    void refusals()
    {
        QFETCH(QString, served);
        QFETCH(QString, url);
        QFETCH(int, code);
        QFETCH(QString, mentions);
        serveCertificate(served);
        url.replace("{tls}", QString::number(m_server.tlsPort()))
            .replace("{plain}", QString::number(m_server.port()))
            .replace("{ca}", m_certs.cert("ca"))
            .replace("{unknownCa}", m_certs.cert("unknownCa"))
            .replace("{clientCert}", m_certs.cert("client"))
            .replace("{clientKey}", m_certs.key("client"));
        auto options = ConnectionOptions::fromUrl(url.toStdString());
        options.connectTimeout = 500ms; // a plain server never answers a ClientHello
        Connection conn(options);
        Queue queue(conn, "orders");
        const auto started = std::chrono::steady_clock::now();
        EXPECT_ERROR(static_cast<ErrorCode>(code), "", queue.push(task("t1")));
        QVERIFY2(m_message.find(mentions.toStdString()) != std::string::npos, m_message.c_str());
        QVERIFY(std::chrono::steady_clock::now() - started < 5s); // never a hang
        QVERIFY(!conn.isConnected());
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
    }

    void caDirectory()
    {
        Connection conn(ConnectionOptions::fromUrl(
            m_server.tlsUrl("?ca_dir=" + m_certs.caDir().toStdString())));
        QCOMPARE(conn.command({"ECHO", "trusted"}).toString(), std::string("trusted"));
        // A directory without the CA trusts nothing of ours.
        Connection elsewhere(
            ConnectionOptions::fromUrl(m_server.tlsUrl("?ca_dir=" + m_certs.dir().toStdString())));
        EXPECT_ERROR(ErrorCode::Tls, "", elsewhere.ping());
        QVERIFY2(m_message.find("unknown CA") != std::string::npos, m_message.c_str());
    }

    void insecureSkipsVerification()
    {
        serveCertificate("other"); // wrong name, and no CA given: both ignored
        Connection conn(ConnectionOptions::fromUrl(m_server.tlsUrl("?insecure=1")));
        QCOMPARE(conn.command({"ECHO", "encrypted"}).toString(), std::string("encrypted"));
        QVERIFY(!conn.securityDescription().empty());
    }

    void subscriberWakesOverTls()
    {
        Subscriber subscriber(ConnectionOptions::fromUrl(m_server.tlsUrl(ca())));
        const std::string channel = Keys("dq", "orders").wake();
        subscriber.subscribe(channel);
        QVERIFY(!subscriber.waitMessage(50ms).has_value());
        // A push of the earliest task publishes the wake, over a second TLS connection.
        Connection conn(ConnectionOptions::fromUrl(m_server.tlsUrl(ca())));
        Queue(conn, "orders").push(task("t1"));
        const auto message = subscriber.waitMessage(5s);
        QVERIFY(message.has_value());
        QVERIFY(!message->empty());

        // interrupt() from another thread ends a wait at once, as on a plain socket.
        std::thread waker([&subscriber] {
            std::this_thread::sleep_for(50ms);
            subscriber.interrupt();
        });
        const auto started = std::chrono::steady_clock::now();
        const auto interrupted = subscriber.waitMessage(10s);
        waker.join(); // before any check can return
        QVERIFY(!interrupted.has_value());
        QVERIFY(std::chrono::steady_clock::now() - started < 5s);
    }

    void throughASentinelOverTls()
    {
        // One sentinel that speaks TLS to us and to the master (tls-replication), watching this
        // suite's server on its TLS port: rediss+sentinel:// reaches the master by TLS both ways.
        RedisServer sentinel;
        sentinel.setTls({m_certs.cert("server"), m_certs.key("server"), m_certs.cert("ca")});
        const QString conf = sentinel.dataDir() + QStringLiteral("/sentinel.conf");
        QFile file(conf);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("sentinel monitor mymaster 127.0.0.1 " + QByteArray::number(m_server.tlsPort()) +
                   " 1\ntls-replication yes\n");
        file.close();
        sentinel.setConfigFile(conf);
        QVERIFY2(sentinel.start({QStringLiteral("--sentinel")}),
                 qPrintable(sentinel.errorString()));
        const std::string group =
            "rediss+sentinel://127.0.0.1:" + std::to_string(sentinel.tlsPort()) + "/mymaster";

        Connection conn(ConnectionOptions::fromUrl(group + ca()));
        Queue(conn, "viasentinel").push(task("t1"));
        QCOMPARE(conn.serverAddress(), "127.0.0.1:" + std::to_string(m_server.tlsPort()));
        QVERIFY(conn.securityDescription().rfind("TLS", 0) == 0);
        QCOMPARE(m_server.cli({"ZCARD", "dq:{viasentinel}:pending"}).trimmed(), QByteArray("1"));

        // The sentinel's certificate is checked as well: without our CA it is refused there.
        Connection unknownCa(ConnectionOptions::fromUrl(group));
        const auto error = errorOf([&] { unknownCa.connect(); });
        QVERIFY(error);
        QVERIFY2(QString(error->what()).contains(QStringLiteral("unknown CA")), error->what());
    }

    void timeoutAndReconnectOverTls()
    {
        auto options = ConnectionOptions::fromUrl(m_server.tlsUrl(ca()));
        options.commandTimeout = 300ms;
        Connection conn(options);
        auto thaw = qScopeGuard([this] { m_server.thaw(); });
        expectTimeoutOnceFrozen(conn, m_server);
        m_server.thaw();
        QCOMPARE(conn.command({"ECHO", "after"}).toString(), std::string("after"));

        m_server.stop();
        EXPECT_ERROR(ErrorCode::Connection, "", conn.ping());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QCOMPARE(conn.command({"ECHO", "back"}).toString(), std::string("back"));
    }

private:
    std::string m_message; // of the last EXPECT_ERROR
};

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
