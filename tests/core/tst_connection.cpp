#include "expecterror.h"
#include "frozenserver.h"
#include "redissuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QCryptographicHash>
#include <QTest>
#include <QThread>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace delayq;
using namespace std::chrono_literals;

namespace {

ConnectionOptions optionsFor(const std::string& url)
{
    return ConnectionOptions::fromUrl(url);
}

// A script of our own, so the NOSCRIPT path is tested without the queue's scripts.
struct OwnScript
{
    std::string source;
    std::string sha1;
    Script script() const { return {"test", source, sha1}; }
};

OwnScript ownScript(const std::string& source)
{
    OwnScript s;
    s.source = source;
    s.sha1 = QCryptographicHash::hash(QByteArray::fromStdString(source), QCryptographicHash::Sha1)
                 .toHex()
                 .toStdString();
    return s;
}

// "calls" of one command from INFO commandstats; 0 when it was not called.
int callsOf(const QByteArray& commandStats, const QByteArray& command)
{
    const QByteArray key = "cmdstat_" + command + ":calls=";
    const int at = commandStats.indexOf(key);
    if (at < 0)
        return 0;
    const int start = at + key.size();
    const int end = commandStats.indexOf(',', start);
    return commandStats.mid(start, end - start).toInt();
}

} // namespace

class TestConnection : public RedisSuite
{
    Q_OBJECT

private slots:
    void pingMeasuresRoundTrip_data() { transportRows(); }
    void pingMeasuresRoundTrip()
    {
        QFETCH(bool, unix);
        Connection conn(optionsFor(unix ? m_server.unixUrl() : m_server.tcpUrl()));
        QVERIFY(!conn.isConnected());
        const auto rtt = conn.ping();
        QVERIFY(conn.isConnected());
        QVERIFY(rtt.count() > 0);
        QVERIFY(rtt < 10s);
    }

    void serverVersionAndTime()
    {
        Connection conn(optionsFor(m_server.unixUrl()));
        const QByteArray info = m_server.cli({"INFO", "server"});
        const int at = info.indexOf("redis_version:");
        QVERIFY(at >= 0);
        const QByteArray expected = info.mid(at + 14, info.indexOf('\r', at) - at - 14);
        QCOMPARE(QByteArray::fromStdString(conn.serverVersion()), expected);

        // Same machine, so the server's clock is the local one within a generous margin.
        const long long local = QDateTime::currentMSecsSinceEpoch();
        const long long server = conn.serverTimeMs();
        QVERIFY2(std::llabs(server - local) < 5000, qPrintable(QString::number(server - local)));
        QVERIFY(std::llabs(conn.clockOffsetMs()) < 5000);
        QVERIFY(std::llabs(conn.serverNowMs() - server) < 5000);
    }

    // A server busy when the connection measures its clock (DEBUG SLEEP, as a slow script or
    // a fork would) answers that TIME a second late: the offset is taken again, not left half
    // a second off (both ends share this machine's clock, so the truth is 0).
    void clockOffsetSurvivesABusyServer()
    {
        Connection sleeper(ConnectionOptions::fromUrl(m_server.unixUrl()));
        sleeper.pipeline({}); // connected now, so the sleep starts at once below
        std::thread busy([&] { sleeper.command({"DEBUG", "SLEEP", "1"}); });
        QThread::msleep(100);
        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
        const long long now = conn.serverNowMs();
        busy.join();
        QVERIFY2(std::llabs(conn.clockOffsetMs()) < 50,
                 qPrintable(QString("offset %1 ms").arg(conn.clockOffsetMs())));
        QVERIFY(now > 0);
    }

    void serverNowConnectsAndNeverThrows()
    {
        Connection conn(optionsFor(m_server.unixUrl()));
        const long long now = conn.serverNowMs();
        QVERIFY(conn.isConnected()); // the offset was measured, not assumed 0
        QVERIFY(std::llabs(now - QDateTime::currentMSecsSinceEpoch()) < 5000);

        Connection nowhere(
            optionsFor("redis://127.0.0.1:" + std::to_string(RedisServer::freePort())));
        const long long guess = nowhere.serverNowMs();
        QVERIFY(std::llabs(guess - QDateTime::currentMSecsSinceEpoch()) < 5000);
        QVERIFY(!nowhere.isConnected());
    }

    void pipelineKeepsOrderAndErrors()
    {
        Connection conn(optionsFor(m_server.unixUrl()));
        std::vector<std::vector<std::string>> commands;
        for (int i = 0; i < 500; ++i)
            commands.push_back({"SET", "k" + std::to_string(i), std::to_string(i * 7)});
        commands.push_back({"SET", "text", "abc"});
        commands.push_back({"INCR", "text"}); // an error reply in the middle
        for (int i = 0; i < 500; ++i)
            commands.push_back({"GET", "k" + std::to_string(i)});
        commands.push_back({"GET", "missing"});
        const auto replies = conn.pipeline(commands);
        QCOMPARE(replies.size(), commands.size());
        QCOMPARE(replies[0].toString(), std::string("OK"));
        QVERIFY(replies[501].isError());
        QVERIFY(replies[501].str.find("not an integer") != std::string::npos);
        for (int i = 0; i < 500; ++i)
            QCOMPARE(replies[502 + static_cast<size_t>(i)].toInteger(), i * 7LL);
        QVERIFY(replies.back().isNil());
        // The connection is still usable after an error reply.
        QCOMPARE(conn.command({"GET", "k3"}).toString(), std::string("21"));
        QVERIFY(conn.pipeline({}).empty());
    }

    void binaryArgumentsRoundTrip()
    {
        Connection conn(optionsFor(m_server.unixUrl()));
        static const char bytes[] = "\0\xff\xfe\r\n$3\r\nbad";
        const std::string value(bytes, sizeof bytes - 1);
        const std::string key("k\0ey", 4);
        conn.command({"SET", key, value});
        QCOMPARE(conn.command({"GET", key}).toString(), value);
        QCOMPARE(conn.command({"STRLEN", key}).toInteger(), 12LL);
    }

    void commandErrorIsThrownWithCode()
    {
        Connection conn(optionsFor(m_server.unixUrl()));
        try {
            conn.command({"NOSUCHCOMMAND"});
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Protocol);
            QVERIFY(std::string(e.what()).find("unknown command") != std::string::npos);
        }
        QVERIFY(conn.isConnected());
    }

    void authWithPasswordOnly()
    {
        m_server.cli({"CONFIG", "SET", "requirepass", "Hunter2pw"});
        auto restore = qScopeGuard([this] {
            Connection admin(optionsFor(m_server.tcpUrl()));
            try {
                admin.command({"AUTH", "Hunter2pw"});
                admin.command({"CONFIG", "SET", "requirepass", ""});
            } catch (const Error&) {
            }
        });
        const std::string base = "redis://127.0.0.1:" + std::to_string(m_server.port());

        Connection good(
            optionsFor("redis://:Hunter2pw@127.0.0.1:" + std::to_string(m_server.port())));
        good.command({"SET", "a", "1"});
        QCOMPARE(good.command({"GET", "a"}).toString(), std::string("1"));

        Connection unixGood(optionsFor(m_server.unixUrl() + "?password=Hunter2pw"));
        QCOMPARE(unixGood.command({"GET", "a"}).toString(), std::string("1"));

        Connection none(optionsFor(base));
        EXPECT_ERROR(ErrorCode::Auth, "Hunter2pw", none.command({"GET", "a"}));

        Connection wrong(
            optionsFor("redis://:Wrong7pw@127.0.0.1:" + std::to_string(m_server.port())));
        EXPECT_ERROR(ErrorCode::Auth, "Wrong7pw", wrong.ping());
        QVERIFY2(m_message.find("password") != std::string::npos, m_message.c_str());
        QVERIFY(!wrong.isConnected());
    }

    void authWithAclUser()
    {
        m_server.cli({"ACL", "SETUSER", "alice", "on", ">Alice9pw", "~*", "&*", "+@all"});
        const std::string port = std::to_string(m_server.port());

        Connection good(optionsFor("redis://alice:Alice9pw@127.0.0.1:" + port));
        QCOMPARE(good.command({"ACL", "WHOAMI"}).toString(), std::string("alice"));
        good.disconnect(); // a reconnect authenticates again
        QCOMPARE(good.command({"ACL", "WHOAMI"}).toString(), std::string("alice"));
        Connection unixGood(optionsFor(m_server.unixUrl() + "?user=alice&password=Alice9pw"));
        QCOMPARE(unixGood.command({"ACL", "WHOAMI"}).toString(), std::string("alice"));

        Connection wrong(optionsFor("redis://alice:Nope5pw@127.0.0.1:" + port));
        EXPECT_ERROR(ErrorCode::Auth, "Nope5pw", wrong.ping());
        QVERIFY2(m_message.find("127.0.0.1:" + port) != std::string::npos, m_message.c_str());

        Connection unknown(optionsFor("redis://bob:Alice9pw@127.0.0.1:" + port));
        EXPECT_ERROR(ErrorCode::Auth, "Alice9pw", unknown.ping());

        // Password-only AUTH against a server where the default user has none.
        Connection needless(optionsFor("redis://:Extra3pw@127.0.0.1:" + port));
        EXPECT_ERROR(ErrorCode::Auth, "Extra3pw", needless.ping());
    }

    void selectsDatabase_data()
    {
        QTest::addColumn<bool>("unix");
        QTest::newRow("tcp /3") << false;
        QTest::newRow("unix ?db=3") << true;
    }
    void selectsDatabase()
    {
        QFETCH(bool, unix);
        const std::string url = unix ? m_server.unixUrl() + "?db=3" : m_server.tcpUrl() + "/3";
        Connection conn(optionsFor(url));
        conn.command({"SET", "where", "three"});
        QCOMPARE(m_server.cli({"-n", "3", "GET", "where"}).trimmed(), QByteArray("three"));
        QCOMPARE(m_server.cli({"GET", "where"}).trimmed(), QByteArray());
        // A reconnect selects the database again.
        conn.disconnect();
        QVERIFY(!conn.isConnected());
        conn.command({"SET", "again", "three"});
        QCOMPARE(m_server.cli({"-n", "3", "GET", "again"}).trimmed(), QByteArray("three"));
    }

    void selectOutOfRangeIsRefused()
    {
        Connection conn(optionsFor(m_server.unixUrl() + "?db=99"));
        EXPECT_ERROR(ErrorCode::Protocol, "", conn.ping());
        QVERIFY2(m_message.find("SELECT") != std::string::npos, m_message.c_str());
    }

    void connectFailureOnClosedPort()
    {
        const int port = RedisServer::freePort();
        Connection conn(optionsFor("redis://:Secret1pw@127.0.0.1:" + std::to_string(port)));
        EXPECT_ERROR(ErrorCode::Connection, "Secret1pw", conn.ping());
        QVERIFY2(m_message.find("cannot connect to redis://***@127.0.0.1:" +
                                std::to_string(port)) != std::string::npos,
                 m_message.c_str());
        QVERIFY2(m_message.find("refused") != std::string::npos, m_message.c_str());
        QVERIFY(!conn.isConnected());
    }

    void connectFailureOnMissingSocket()
    {
        Connection conn(optionsFor("unix://" + m_server.dataDir().toStdString() + "/none.sock"));
        EXPECT_ERROR(ErrorCode::Connection, "", conn.ping());
        QVERIFY2(m_message.find("none.sock") != std::string::npos, m_message.c_str());
    }

    void connectTimeoutIsReported()
    {
        // A listener that never accepts, with its tiny backlog filled: the next SYN is dropped,
        // so a connect hangs until the connect timeout.
        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(listener >= 0);
        auto closeAll = qScopeGuard([&] { ::close(listener); });
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        QCOMPARE(::listen(listener, 0), 0);
        socklen_t length = sizeof address;
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
        std::vector<int> fillers;
        auto closeFillers = qScopeGuard([&] {
            for (int fd : fillers)
                ::close(fd);
        });
        for (int i = 0; i < 4; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
            fillers.push_back(fd);
        }
        auto options = optionsFor("redis://127.0.0.1:" + std::to_string(ntohs(address.sin_port)));
        options.connectTimeout = 300ms;
        Connection conn(options);
        EXPECT_ERROR(ErrorCode::Timeout, "", conn.ping());
        QVERIFY2(m_message.find("cannot connect") != std::string::npos, m_message.c_str());
    }

    void timeoutWhenServerFrozen()
    {
        auto options = optionsFor(m_server.unixUrl());
        options.commandTimeout = 300ms;
        Connection conn(options);
        auto thaw = qScopeGuard([this] { m_server.thaw(); });
        expectTimeoutOnceFrozen(conn, m_server);
        QVERIFY(!conn.isConnected());

        // A new connection to a frozen server times out in its handshake, too.
        Connection fresh(options);
        EXPECT_ERROR(ErrorCode::Timeout, "", fresh.ping());

        m_server.thaw();
        // The half-read reply was thrown away with the old socket: the next call is clean.
        QCOMPARE(conn.command({"ECHO", "after"}).toString(), std::string("after"));
    }

    void reconnectsAfterRestart_data() { transportRows(); }
    void reconnectsAfterRestart()
    {
        QFETCH(bool, unix);
        Connection conn(optionsFor(unix ? m_server.unixUrl() : m_server.tcpUrl()));
        conn.command({"SET", "x", "1"});
        m_server.stop();
        // While the server is gone every call fails with a connection error, never a crash.
        for (int i = 0; i < 2; ++i)
            EXPECT_ERROR(ErrorCode::Connection, "", conn.command({"GET", "x"}));
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QCOMPARE(conn.command({"PING"}).toString(), std::string("PONG"));

        // A restart under a connected client: the first call may fail, the next one works.
        m_server.stop();
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        try {
            conn.command({"PING"});
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Connection);
        }
        QCOMPARE(conn.command({"PING"}).toString(), std::string("PONG"));
    }

    void evalFallsBackOnNoScript()
    {
        Connection conn(optionsFor(m_server.unixUrl()));
        const auto own = ownScript("return {KEYS[1], ARGV[1]}");
        const Script script = own.script();
        m_server.cli({"SCRIPT", "FLUSH"});
        m_server.cli({"CONFIG", "RESETSTAT"});

        Reply r = conn.evalScript(script, {"key"}, {"arg"});
        QCOMPARE(r.elements.size(), size_t(2));
        QCOMPARE(r.elements[1].toString(), std::string("arg"));
        QByteArray stats = m_server.cli({"INFO", "commandstats"});
        QCOMPARE(callsOf(stats, "eval"), 1);

        // Known now: EVALSHA alone does it.
        m_server.cli({"CONFIG", "RESETSTAT"});
        QCOMPARE(conn.evalScript(script, {"k"}, {"again"}).elements[1].toString(),
                 std::string("again"));
        stats = m_server.cli({"INFO", "commandstats"});
        QCOMPARE(callsOf(stats, "eval"), 0);
        QCOMPARE(callsOf(stats, "evalsha"), 1);

        // Flushed again: a pipeline of calls is re-sent as a whole, in order.
        m_server.cli({"SCRIPT", "FLUSH"});
        std::vector<Connection::ScriptCall> calls;
        for (int i = 0; i < 5; ++i)
            calls.push_back({{"k"}, {std::to_string(i)}});
        auto replies = conn.evalPipeline(script, calls);
        QCOMPARE(replies.size(), size_t(5));
        for (size_t i = 0; i < 5; ++i)
            QCOMPARE(replies[i].elements[1].toString(), std::to_string(i));
    }

    void wrongTypeIsMapped()
    {
        Connection conn(optionsFor(m_server.unixUrl()));
        m_server.cli({"SET", "str", "x"});
        EXPECT_ERROR(ErrorCode::WrongType, "", conn.command({"LPUSH", "str", "a"}));
        // The same error raised inside a script.
        const auto own = ownScript("return redis.call('LPUSH', KEYS[1], 'a')");
        EXPECT_ERROR(ErrorCode::WrongType, "", conn.evalScript(own.script(), {"str"}, {}));
        QVERIFY2(m_message.find("wrong type") != std::string::npos, m_message.c_str());
        QCOMPARE(m_server.cli({"GET", "str"}).trimmed(), QByteArray("x"));
    }

    void noPermissionIsMapped()
    {
        m_server.cli({"ACL", "SETUSER", "reader", "on", ">Reader4pw", "~*", "+@read"});
        m_server.cli({"SET", "seen", "yes"});
        Connection conn(
            optionsFor("redis://reader:Reader4pw@127.0.0.1:" + std::to_string(m_server.port())));
        QCOMPARE(conn.command({"GET", "seen"}).toString(), std::string("yes"));
        EXPECT_ERROR(ErrorCode::NoPermission, "Reader4pw", conn.command({"SET", "seen", "no"}));
        QVERIFY2(m_message.find("ACL") != std::string::npos, m_message.c_str());

        Queue queue(conn, "orders");
        PushRequest request;
        request.payload = "p";
        EXPECT_ERROR(ErrorCode::NoPermission, "Reader4pw", queue.push(request));
        EXPECT_ERROR(ErrorCode::NoPermission, "Reader4pw", queue.claim(1, 1000, "w"));
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("1"));
        QCOMPARE(m_server.cli({"GET", "seen"}).trimmed(), QByteArray("yes"));
        // Reads still work for the reader.
        QCOMPARE(queue.counts().pending, 0LL);
    }

    void serverErrorsMapToCodes_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<int>("code");
        auto row = [](const char* name, const char* reply, ErrorCode code) {
            QTest::newRow(name) << QString::fromLatin1(reply) << static_cast<int>(code);
        };
        row("wrongtype", "WRONGTYPE Operation against a key", ErrorCode::WrongType);
        row("noperm", "NOPERM this user has no permissions", ErrorCode::NoPermission);
        row("noauth", "NOAUTH Authentication required.", ErrorCode::Auth);
        row("wrongpass", "WRONGPASS invalid username-password pair", ErrorCode::Auth);
        row("readonly replica", "READONLY You can't write against a read only replica.",
            ErrorCode::ReadOnlyReplica);
        row("out of memory", "OOM command not allowed when used memory > 'maxmemory'.",
            ErrorCode::OutOfMemory);
        row("disk error",
            "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to "
            "persist to disk.",
            ErrorCode::DiskError);
        row("no replicas", "NOREPLICAS Not enough good replicas to write.", ErrorCode::NoReplicas);
        row("busy", "BUSY Redis is busy running a script.", ErrorCode::Timeout);
        row("lease lost", "LEASE_LOST task x is no longer leased", ErrorCode::LeaseLost);
        row("not found", "NOT_FOUND task x", ErrorCode::NotFound);
        row("exists", "EXISTS task x", ErrorCode::Exists);
        row("too large", "TOO_LARGE payload", ErrorCode::TooLarge);
        row("invalid", "INVALID push: ARGV", ErrorCode::InvalidArgument);
        row("script",
            "ERR user_script:1: Script attempted to access nonexistent global variable "
            "'x' script: abc, on @user_script:1.",
            ErrorCode::Script);
        row("other", "ERR unknown command 'FOO'", ErrorCode::Protocol);
    }
    void serverErrorsMapToCodes()
    {
        QFETCH(QString, reply);
        QFETCH(int, code);
        const Error e = errorFromReply(reply.toStdString());
        QCOMPARE(static_cast<int>(e.code()), code);
        QVERIFY(std::string(e.what()).find(reply.toStdString()) != std::string::npos);
        // A refusal of the server's own is not a lack of rights, nor an outage.
        const bool refuses = reply.startsWith(QLatin1String("READONLY")) ||
                             reply.startsWith(QLatin1String("OOM")) ||
                             reply.startsWith(QLatin1String("MISCONF")) ||
                             reply.startsWith(QLatin1String("NOREPLICAS"));
        QCOMPARE(e.refusesWrites(), refuses);
        // BUSY (a script holds the server) is a timeout: it may pass, so retry later.
        QCOMPARE(e.isUnreachable(), reply.startsWith(QLatin1String("BUSY")));
        QVERIFY(std::string(errorCodeName(e.code())) != "unknown");
    }

private:
    // The column "unix" of the suites run over both the unix socket and TCP.
    static void transportRows()
    {
        QTest::addColumn<bool>("unix");
        QTest::newRow("unix socket") << true;
        QTest::newRow("tcp") << false;
    }

    std::string m_message; // of the last EXPECT_ERROR
};

QTEST_GUILESS_MAIN(TestConnection)
#include "tst_connection.moc"
