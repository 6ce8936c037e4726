#include <delayq/connectionoptions.h>
#include <delayq/error.h>

#include <QTest>

#include <cstdlib>
#include <random>

using namespace delayq;

namespace {

// A row of parses_data; what a row leaves out is the default.
void parsedRow(const char* name, const QString& url, const QString& host, int port = 6379,
               int db = 0, const QString& user = {}, const QString& password = {},
               const QString& socket = {})
{
    QTest::newRow(name) << url << host << port << socket << user << password << db;
}

// A row of sentinelParses_data; credentials are the user, password, sentinel user and
// sentinel password, each empty when not given.
void sentinelRow(const char* name, const QString& url, const QString& nodes, const QString& master,
                 int db = 0, bool tls = false, const QStringList& credentials = {})
{
    QTest::newRow(name) << url << nodes << master << credentials.value(0) << credentials.value(1)
                        << credentials.value(2) << credentials.value(3) << db << tls;
}

// A row of parsesTls_data; files are the ca, ca_dir, cert, key and sni values, each empty when
// not given.
void tlsRow(const char* name, const QString& url, const QStringList& files = {},
            bool insecure = false)
{
    QTest::newRow(name) << url << files.value(0) << files.value(1) << files.value(2)
                        << files.value(3) << files.value(4) << insecure;
}

} // namespace

// Parsing of Redis URLs: every accepted form lands in the right fields, every malformed
// one is refused with a message that names the bad part and never echoes the password.
class TestConnectionOptions : public QObject
{
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("socket");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<int>("db");

        parsedRow("host only", "redis://localhost", "localhost");
        parsedRow("host and port", "redis://10.0.0.5:7000", "10.0.0.5", 7000);
        parsedRow("db", "redis://h:6380/3", "h", 6380, 3);
        parsedRow("trailing slash", "redis://h/", "h");
        parsedRow("user and password", "redis://alice:s3cret@h:1234/2", "h", 1234, 2, "alice",
                  "s3cret");
        parsedRow("empty user, password", "redis://:s3cret@h", "h", 6379, 0, "", "s3cret");
        parsedRow("password only (redis-cli form)", "redis://s3cret@h", "h", 6379, 0, "", "s3cret");
        parsedRow("password with @ and :", "redis://bob:p@ss:w@h", "h", 6379, 0, "bob", "p@ss:w");
        parsedRow("percent-decoded", "redis://us%40er:p%2Fw%3a%25@h", "h", 6379, 0, "us@er",
                  "p/w:%");
        parsedRow("unencoded / and ? in the password", "redis://u:a/b?c@h:7/1", "h", 7, 1, "u",
                  "a/b?c");
        parsedRow("db in the query", "redis://h:7?db=4", "h", 7, 4);
        parsedRow("user and password in the query", "redis://h/2?user=al&password=p%20w", "h", 6379,
                  2, "al", "p w");
        parsedRow("ipv6 loopback", "redis://[::1]", "::1");
        parsedRow("ipv6 with port and db", "redis://u:p@[fe80::1:2]:6390/5", "fe80::1:2", 6390, 5,
                  "u", "p");
        parsedRow("lowest port", "redis://h:1", "h", 1);
        parsedRow("highest port", "redis://h:65535", "h", 65535);
        parsedRow("unix socket", "unix:///run/redis/redis.sock", "127.0.0.1", 6379, 0, "", "",
                  "/run/redis/redis.sock");
        parsedRow("unix socket with db", "unix:///tmp/r.sock?db=7", "127.0.0.1", 6379, 7, "", "",
                  "/tmp/r.sock");
        parsedRow("unix socket percent-decoded",
                  "unix:///tmp/my%20dir/r.sock?db=1&user=al%3Ace&password=p%26w", "127.0.0.1", 6379,
                  1, "al:ce", "p&w", "/tmp/my dir/r.sock");
    }
    void parses()
    {
        QFETCH(QString, url);
        const auto o = ConnectionOptions::fromUrl(url.toStdString());
        QTEST(QString::fromStdString(o.host), "host");
        QTEST(o.port, "port");
        QTEST(QString::fromStdString(o.unixSocket), "socket");
        QTEST(QString::fromStdString(o.user), "user");
        QTEST(QString::fromStdString(o.password), "password");
        QTEST(o.db, "db");
        QVERIFY(!o.readOnly);
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("mentions"); // a word the message must hold

        QTest::newRow("empty") << ""
                               << "empty";
        QTest::newRow("no scheme") << "localhost:6379"
                                   << "scheme";
        QTest::newRow("http") << "http://h"
                              << "scheme";
        QTest::newRow("tls parameter on redis://") << "redis://h?ca=/x.crt"
                                                   << "rediss://";
        QTest::newRow("tls parameter on unix://") << "unix:///tmp/r.sock?insecure=1"
                                                  << "rediss://";
        QTest::newRow("tls cert without key") << "rediss://h?cert=/c.crt"
                                              << "key=";
        QTest::newRow("tls key without cert") << "rediss://h?key=/c.key"
                                              << "cert=";
        QTest::newRow("tls empty ca") << "rediss://h?ca="
                                      << "empty";
        QTest::newRow("tls insecure not a switch") << "rediss://h?insecure=maybe"
                                                   << "1 or 0";
        QTest::newRow("tls NUL in a path") << "rediss://h?ca=/x%00.crt"
                                           << "control";
        QTest::newRow("tls unknown parameter") << "rediss://h?cafile=/x"
                                               << "sni";
        QTest::newRow("tls passphrase in the query") << "rediss://h?key_passphrase=x"
                                                     << "unknown";
        QTest::newRow("no host") << "redis://"
                                 << "host";
        QTest::newRow("no host, port") << "redis://:6379"
                                       << "host";
        QTest::newRow("port 0") << "redis://h:0"
                                << "port";
        QTest::newRow("port 65536") << "redis://h:65536"
                                    << "port";
        QTest::newRow("port negative") << "redis://h:-1"
                                       << "port";
        QTest::newRow("port empty") << "redis://h:"
                                    << "port";
        QTest::newRow("port text") << "redis://h:abc"
                                   << "port";
        QTest::newRow("two ports") << "redis://h:1:2"
                                   << "host";
        QTest::newRow("bare ipv6") << "redis://::1"
                                   << "host";
        QTest::newRow("unclosed ipv6") << "redis://[::1"
                                       << "IPv6";
        QTest::newRow("junk after ipv6") << "redis://[::1]x"
                                         << "IPv6";
        QTest::newRow("empty ipv6") << "redis://[]:6379"
                                    << "host";
        QTest::newRow("db text") << "redis://h/abc"
                                 << "database";
        QTest::newRow("db negative") << "redis://h/-1"
                                     << "database";
        QTest::newRow("unknown parameter") << "redis://h/1?timeout=3"
                                           << "parameter";
        QTest::newRow("query db text") << "redis://h?db=x"
                                       << "database";
        QTest::newRow("space in host") << "redis://my host"
                                       << "host";
        QTest::newRow("control character") << "redis://h\n:6379"
                                           << "control";
        QTest::newRow("truncated escape") << "redis://u:pw%4@h"
                                          << "escape";
        QTest::newRow("bad escape") << "redis://u:pw%zz@h"
                                    << "escape";
        QTest::newRow("unix relative") << "unix://tmp/r.sock"
                                       << "absolute";
        QTest::newRow("unix empty") << "unix://"
                                    << "absolute";
        QTest::newRow("unix db text") << "unix:///tmp/r.sock?db=x"
                                      << "database";
        QTest::newRow("unix unknown parameter") << "unix:///tmp/r.sock?timeout=3"
                                                << "parameter";
        QTest::newRow("unix NUL in path") << "unix:///tmp/r%00.sock"
                                          << "control";
        QTest::newRow("unix path too long") << "unix:///" + QString(120, QLatin1Char('a')) << "107";
    }
    void refuses()
    {
        QFETCH(QString, url);
        QFETCH(QString, mentions);
        expectRefused(url, mentions, "invalid Redis URL");
    }

    // A refused URL's message never carries the password, whatever part is wrong.
    void refusalHidesPassword_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("bad port") << "redis://u:Hunter2Pw@h:99999";
        QTest::newRow("bad db") << "redis://u:Hunter2Pw@h/x";
        QTest::newRow("bad scheme") << "redis:/u:Hunter2Pw@h";
        QTest::newRow("bad escape") << "redis://u:Hunter2Pw%g@h";
        QTest::newRow("unix bad db") << "unix:///tmp/s?password=Hunter2Pw&db=x";
    }
    void refusalHidesPassword()
    {
        QFETCH(QString, url);
        try {
            ConnectionOptions::fromUrl(url.toStdString());
            QFAIL("the URL was accepted");
        } catch (const Error& e) {
            QVERIFY2(!QString::fromStdString(e.what()).contains(QLatin1String("Hunter2")),
                     e.what());
        }
    }

    void parsesTls_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("ca");
        QTest::addColumn<QString>("caDir");
        QTest::addColumn<QString>("cert");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("sni");
        QTest::addColumn<bool>("insecure");
        tlsRow("defaults", "rediss://h:6380/1");
        tlsRow("every key",
               "rediss://h?ca=/a/ca.crt&ca_dir=/etc/ssl/certs&cert=/c.crt"
               "&key=/c.key&sni=redis.internal&insecure=0",
               {"/a/ca.crt", "/etc/ssl/certs", "/c.crt", "/c.key", "redis.internal"});
        tlsRow("percent-decoded paths", "rediss://u:p@h/2?ca=/my%20dir/c%26a.crt",
               {"/my dir/c&a.crt"});
        tlsRow("insecure", "rediss://h?insecure=1", {}, true);
        tlsRow("insecure=true", "rediss://h?insecure=true", {}, true);
    }
    void parsesTls()
    {
        QFETCH(QString, url);
        const auto o = ConnectionOptions::fromUrl(url.toStdString());
        QVERIFY(o.tls.enabled);
        QTEST(QString::fromStdString(o.tls.caFile), "ca");
        QTEST(QString::fromStdString(o.tls.caDir), "caDir");
        QTEST(QString::fromStdString(o.tls.certFile), "cert");
        QTEST(QString::fromStdString(o.tls.keyFile), "key");
        QTEST(QString::fromStdString(o.tls.serverName), "sni");
        QTEST(o.tls.insecure, "insecure");
        QVERIFY(!ConnectionOptions::fromUrl("redis://h").tls.enabled);
    }

    // displayUrl() and urlWithoutPassword() keep every TLS option but the passphrase, so the
    // URL shown or stored is the connection that was used.
    void tlsRoundTrips_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("stripped");
        QTest::newRow("plain rediss") << "rediss://:Hunter2Pw@h"
                                      << "rediss://h:6379/0";
        QTest::newRow("every key") << "rediss://al:Hunter2Pw@h:6380/3?insecure=1&sni=n.example"
                                      "&key=/k%20k.pem&cert=/c.pem&ca_dir=/d&ca=/ca%3F.crt"
                                   << "rediss://h:6380/3?user=al&ca=/ca%3F.crt&ca_dir=/d"
                                      "&cert=/c.pem&key=/k%20k.pem&sni=n.example&insecure=1";
        QTest::newRow("ipv6") << "rediss://[::1]:7000?ca=/ca.crt"
                              << "rediss://[::1]:7000/0?ca=/ca.crt";
    }
    void tlsRoundTrips()
    {
        QFETCH(QString, url);
        QFETCH(QString, stripped);
        auto o = ConnectionOptions::fromUrl(url.toStdString());
        o.tls.keyPassphrase = "Hunter2Key";
        const std::string result = o.urlWithoutPassword();
        QCOMPARE(QString::fromStdString(result), stripped);
        const std::string shown = o.displayUrl();
        QVERIFY(shown.find("Hunter2") == std::string::npos);
        for (const std::string& again : {result, shown}) {
            auto back = ConnectionOptions::fromUrl(again);
            QVERIFY(back.tls.keyPassphrase.empty());
            back.tls.keyPassphrase = o.tls.keyPassphrase;
            QVERIFY2(back.tls == o.tls, again.c_str());
            QCOMPARE(back.host, o.host);
            QCOMPARE(back.port, o.port);
            QCOMPARE(back.db, o.db);
        }
    }

    void displayUrl_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain") << "redis://h"
                               << "redis://h:6379";
        QTest::newRow("user and password") << "redis://al:Hunter2Pw@h:7/3"
                                           << "redis://al:***@h:7/3";
        QTest::newRow("password only") << "redis://:Hunter2Pw@h"
                                       << "redis://***@h:6379";
        QTest::newRow("user only") << "redis://al:@h"
                                   << "redis://al@h:6379";
        QTest::newRow("ipv6") << "redis://:Hunter2Pw@[::1]:6380"
                              << "redis://***@[::1]:6380";
        QTest::newRow("unix") << "unix:///tmp/r.sock?db=2&password=Hunter2Pw"
                              << "unix:///tmp/r.sock?db=2";
    }
    void displayUrl()
    {
        QFETCH(QString, url);
        const auto o = ConnectionOptions::fromUrl(url.toStdString());
        const QString shown = QString::fromStdString(o.displayUrl());
        QTEST(shown, "shown");
        QVERIFY(!shown.contains(QLatin1String("Hunter2")));
    }

    // Every form fromUrl() takes a password from loses it, and nothing else: the result
    // parses back to the same server, user and db.
    void withoutPassword_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("stripped");
        QTest::addColumn<QString>("password");

        QTest::newRow("no password") << "redis://h"
                                     << "redis://h:6379/0"
                                     << "";
        QTest::newRow("user and password") << "redis://al:Hunter2Pw@h:7/3"
                                           << "redis://h:7/3?user=al"
                                           << "Hunter2Pw";
        QTest::newRow("empty user") << "redis://:Hunter2Pw@h"
                                    << "redis://h:6379/0"
                                    << "Hunter2Pw";
        QTest::newRow("password only (redis-cli form)") << "redis://Hunter2Pw@h:7/1"
                                                        << "redis://h:7/1"
                                                        << "Hunter2Pw";
        QTest::newRow("user only") << "redis://al:@h"
                                   << "redis://h:6379/0?user=al"
                                   << "";
        QTest::newRow("password in the query") << "redis://h/2?password=Hunter2Pw&user=al"
                                               << "redis://h:6379/2?user=al"
                                               << "Hunter2Pw";
        QTest::newRow("db after the password in the query") << "redis://h?password=Hunter2Pw&db=4"
                                                            << "redis://h:6379/4"
                                                            << "Hunter2Pw";
        QTest::newRow("unencoded / ? # @ in the password") << "redis://u:Hu/nt?er#2@Pw@h:7/1"
                                                           << "redis://h:7/1?user=u"
                                                           << "Hu/nt?er#2@Pw";
        QTest::newRow("percent-encoded password") << "redis://u%26x:Hunter%32Pw%40@h"
                                                  << "redis://h:6379/0?user=u%26x"
                                                  << "Hunter2Pw@";
        QTest::newRow("ipv6") << "redis://:Hunter2Pw@[::1]:6380/2"
                              << "redis://[::1]:6380/2"
                              << "Hunter2Pw";
        QTest::newRow("unix, password in the query") << "unix:///tmp/r.sock?db=2&password=Hunter2Pw"
                                                     << "unix:///tmp/r.sock?db=2"
                                                     << "Hunter2Pw";
        QTest::newRow("unix, user, odd path")
            << "unix:///tmp/my%20d%3Fir/r.sock?user=al&password=Hunter2Pw"
            << "unix:///tmp/my%20d%3Fir/r.sock?user=al"
            << "Hunter2Pw";
        QTest::newRow("unix, no password") << "unix:///tmp/r.sock"
                                           << "unix:///tmp/r.sock"
                                           << "";
    }
    void withoutPassword()
    {
        QFETCH(QString, url);
        QFETCH(QString, stripped);
        const auto o = ConnectionOptions::fromUrl(url.toStdString());
        QTEST(QString::fromStdString(o.password), "password");
        const std::string result = o.urlWithoutPassword();
        QCOMPARE(QString::fromStdString(result), stripped);
        QVERIFY(result.find("Hunter") == std::string::npos);

        const auto back = ConnectionOptions::fromUrl(result);
        QVERIFY(back.password.empty());
        QCOMPARE(back.host, o.host);
        QCOMPARE(back.port, o.port);
        QCOMPARE(back.unixSocket, o.unixSocket);
        QCOMPARE(back.user, o.user);
        QCOMPARE(back.db, o.db);
        QCOMPARE(back.urlWithoutPassword(), result);
    }

    // redis+sentinel:// and rediss+sentinel://: the group lands in options.sentinel, the user
    // info (and ?user=, ?password=, ?db=) stays Redis's own.
    void sentinelParses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("nodes"); // SentinelOptions::nodeList()
        QTest::addColumn<QString>("master");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("sentinelUser");
        QTest::addColumn<QString>("sentinelPassword");
        QTest::addColumn<int>("db");
        QTest::addColumn<bool>("tls");

        sentinelRow("one sentinel, default port", "redis+sentinel://s1/mymaster", "s1:26379",
                    "mymaster");
        sentinelRow("three sentinels and a db",
                    "redis+sentinel://s1:26379,s2:26380,10.0.0.3/mymaster/2",
                    "s1:26379,s2:26380,10.0.0.3:26379", "mymaster", 2);
        sentinelRow("redis credentials in the user info", "redis+sentinel://al:p%40w@s1:1,s2:2/m",
                    "s1:1,s2:2", "m", 0, false, {"al", "p@w"});
        sentinelRow("sentinel credentials in the query",
                    "redis+sentinel://:pw@s1/m?sentinel_user=sen&sentinel_password=s%26p@ss",
                    "s1:26379", "m", 0, false, {"", "pw", "sen", "s&p@ss"});
        sentinelRow("password only, / and @ in it", "redis+sentinel://a/b@c@s1/m", "s1:26379", "m",
                    0, false, {"", "a/b@c"});
        sentinelRow("db and user in the query", "redis+sentinel://s1/m?db=5&user=al&password=x",
                    "s1:26379", "m", 5, false, {"al", "x"});
        sentinelRow("ipv6 sentinels", "redis+sentinel://[::1]:5000,[fe80::2]/m",
                    "[::1]:5000,[fe80::2]:26379", "m");
        sentinelRow("master name percent-decoded", "redis+sentinel://s1/my%2Fmaster.1", "s1:26379",
                    "my/master.1");
        sentinelRow("trailing slash after the master", "redis+sentinel://s1/m/", "s1:26379", "m");
        sentinelRow("tls", "rediss+sentinel://s1,s2/m/1", "s1:26379,s2:26379", "m", 1, true);
    }
    void sentinelParses()
    {
        QFETCH(QString, url);
        const auto o = ConnectionOptions::fromUrl(url.toStdString());
        QVERIFY(o.sentinel.enabled());
        QTEST(QString::fromStdString(o.sentinel.nodeList()), "nodes");
        QTEST(QString::fromStdString(o.sentinel.masterName), "master");
        QTEST(QString::fromStdString(o.user), "user");
        QTEST(QString::fromStdString(o.password), "password");
        QTEST(QString::fromStdString(o.sentinel.user), "sentinelUser");
        QTEST(QString::fromStdString(o.sentinel.password), "sentinelPassword");
        QTEST(o.db, "db");
        QTEST(o.tls.enabled, "tls");
        QVERIFY(o.unixSocket.empty());
    }

    void sentinelRefuses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("mentions"); // the bad part the message names

        QTest::newRow("no nodes") << "redis+sentinel:///mymaster"
                                  << "no sentinel";
        QTest::newRow("nothing at all") << "redis+sentinel://"
                                        << "no sentinel";
        QTest::newRow("no master name") << "redis+sentinel://s1:26379"
                                        << "master name";
        QTest::newRow("empty master name") << "redis+sentinel://s1:26379//2"
                                           << "master name";
        QTest::newRow("master name with a space") << "redis+sentinel://s1/my%20master"
                                                  << "master name";
        QTest::newRow("empty host between commas") << "redis+sentinel://s1,,s3/m"
                                                   << "host of sentinel 2";
        QTest::newRow("trailing comma") << "redis+sentinel://s1,/m"
                                        << "host of sentinel 2";
        QTest::newRow("port only") << "redis+sentinel://:26379/m"
                                   << "host of sentinel 1";
        QTest::newRow("bad port") << "redis+sentinel://s1:26379,s2:abc/m"
                                  << "port of sentinel 2";
        QTest::newRow("port 0") << "redis+sentinel://s1:0/m"
                                << "port of sentinel 1";
        QTest::newRow("port too high") << "redis+sentinel://s1,s2,s3:70000/m"
                                       << "port of sentinel 3";
        QTest::newRow("bare ipv6") << "redis+sentinel://::1/m"
                                   << "brackets";
        QTest::newRow("unclosed ipv6") << "redis+sentinel://[::1/m"
                                       << "IPv6";
        QTest::newRow("db text") << "redis+sentinel://s1/m/x"
                                 << "database";
        QTest::newRow("extra path") << "redis+sentinel://s1/m/1/2"
                                    << "after the database";
        QTest::newRow("unknown parameter") << "redis+sentinel://s1/m?sentinel_pass=x"
                                           << "unknown parameter 'sentinel_pass'";
        QTest::newRow("TLS key without TLS") << "redis+sentinel://s1/m?ca=/etc/ca.pem"
                                             << "needs a rediss+sentinel:// URL";
        QTest::newRow("certificate without its key") << "rediss+sentinel://s1/m?cert=/etc/c.pem"
                                                     << "needs both cert= and key=";
        QTest::newRow("parameter without value") << "redis+sentinel://s1/m?sentinel_user"
                                                 << "sentinel_user";
        QTest::newRow("query db text") << "redis+sentinel://s1/m?db=x"
                                       << "database";
        QTest::newRow("bad escape") << "redis+sentinel://s1/m?sentinel_password=a%zz"
                                    << "escape in the sentinel password";
        QTest::newRow("too many sentinels")
            << "redis+sentinel://" + QStringLiteral("h,").repeated(33) + "h/m"
            << "more than 32";
    }
    void sentinelRefuses()
    {
        QFETCH(QString, url);
        QFETCH(QString, mentions);
        expectRefused(url, mentions, "invalid Redis Sentinel URL");
        QVERIFY2(!m_message.contains(QLatin1String("Hunter2")), qPrintable(m_message));
    }

    // Both passwords are hidden, and the stored form parses back to the same group less them.
    void sentinelWithoutPassword_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("stripped");

        QTest::newRow("plain") << "redis+sentinel://s1,s2:7/m"
                               << "redis+sentinel://s1:26379,s2:7/m"
                               << "redis+sentinel://s1:26379,s2:7/m/0";
        QTest::newRow("all four credentials")
            << "redis+sentinel://al:Hunter2Pw@s1/m/3?sentinel_user=sen&sentinel_password=Hunter2Sp"
            << "redis+sentinel://al:***@s1:26379/m/3?sentinel_user=sen&sentinel_password=***"
            << "redis+sentinel://s1:26379/m/3?user=al&sentinel_user=sen";
        QTest::newRow("passwords only")
            << "redis+sentinel://Hunter2Pw@s1/m?sentinel_password=Hunter2Sp"
            << "redis+sentinel://***@s1:26379/m?sentinel_password=***"
            << "redis+sentinel://s1:26379/m/0";
        QTest::newRow("odd master name and user")
            << "redis+sentinel://[::1]/a%2Fb%3Fc?user=u%26v&password=Hunter2Pw"
            << "redis+sentinel://u&v:***@[::1]:26379/a/b?c"
            << "redis+sentinel://[::1]:26379/a%2Fb%3Fc/0?user=u%26v";
        QTest::newRow("tls") << "rediss+sentinel://s1/m/1"
                             << "rediss+sentinel://s1:26379/m/1"
                             << "rediss+sentinel://s1:26379/m/1";
        QTest::newRow("tls with its keys")
            << "rediss+sentinel://:Hunter2Pw@s1/m/1?ca=/etc/ca.pem&sni=db.internal&insecure=1"
            << "rediss+sentinel://***@s1:26379/m/1?ca=/etc/ca.pem&sni=db.internal&insecure=1"
            << "rediss+sentinel://s1:26379/m/1?ca=/etc/ca.pem&sni=db.internal&insecure=1";
    }
    void sentinelWithoutPassword()
    {
        QFETCH(QString, url);
        const auto o = ConnectionOptions::fromUrl(url.toStdString());
        QTEST(QString::fromStdString(o.displayUrl()), "shown");
        const std::string stripped = o.urlWithoutPassword();
        QTEST(QString::fromStdString(stripped), "stripped");
        QVERIFY(stripped.find("Hunter") == std::string::npos);

        const auto back = ConnectionOptions::fromUrl(stripped);
        QVERIFY(back.password.empty());
        QVERIFY(back.sentinel.password.empty());
        QCOMPARE(back.sentinel.nodeList(), o.sentinel.nodeList());
        QCOMPARE(back.sentinel.masterName, o.sentinel.masterName);
        QCOMPARE(back.sentinel.user, o.sentinel.user);
        QVERIFY(back.tls == o.tls);
        QCOMPARE(back.user, o.user);
        QCOMPARE(back.db, o.db);
        QCOMPARE(back.urlWithoutPassword(), stripped);
    }

    // Random text made of URL characters: every outcome is a parse or InvalidArgument,
    // never another exception or a crash (run under DELAYQ_SANITIZE to catch over-reads).
    void garbageNeverCrashes()
    {
        const std::string alphabet = "redis:/unix@[]%?&=#:,0123456789abcdefAF.-_ \x01\xff";
        const std::vector<std::string> seeds = {"redis://",          "unix://",
                                                "redis://u:p@",      "redis://[",
                                                "redis+sentinel://", "rediss+sentinel://s,"};
        std::mt19937 gen(11);
        for (int i = 0; i < 20'000; ++i) {
            std::string url = seeds[gen() % seeds.size()];
            const size_t length = gen() % 24;
            for (size_t k = 0; k < length; ++k)
                url += alphabet[gen() % alphabet.size()];
            try {
                const auto o = ConnectionOptions::fromUrl(url);
                QVERIFY(o.port >= 1 && o.port <= 65535);
                QVERIFY(o.db >= 0);
                QVERIFY(!o.displayUrl().empty());
                // Whatever was parsed can be stored without its password and read back.
                const auto back = ConnectionOptions::fromUrl(o.urlWithoutPassword());
                QVERIFY(back.password.empty());
                QCOMPARE(back.urlWithoutPassword(), o.urlWithoutPassword());
            } catch (const Error& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            }
        }
    }

    void defaultUrlFollowsEnvironment()
    {
        const QByteArray saved = qgetenv("REDIS_URL");
        qunsetenv("REDIS_URL");
        QCOMPARE(ConnectionOptions::defaultUrl(), std::string("redis://127.0.0.1:6379"));
        qputenv("REDIS_URL", "redis://elsewhere:7000/1");
        QCOMPARE(ConnectionOptions::defaultUrl(), std::string("redis://elsewhere:7000/1"));
        if (saved.isNull())
            qunsetenv("REDIS_URL");
        else
            qputenv("REDIS_URL", saved);
    }

private:
    // url is refused as InvalidArgument with a message (kept in m_message) that starts with
    // kind and names what is wrong (mentions, in any case).
    void expectRefused(const QString& url, const QString& mentions, const char* kind)
    {
        m_message.clear();
        try {
            ConnectionOptions::fromUrl(url.toStdString());
            QFAIL("the URL was accepted");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            m_message = QString::fromStdString(e.what());
        }
        QVERIFY2(m_message.contains(mentions, Qt::CaseInsensitive), qPrintable(m_message));
        QVERIFY2(m_message.startsWith(QLatin1String(kind)), qPrintable(m_message));
    }

    QString m_message;
};

QTEST_GUILESS_MAIN(TestConnectionOptions)
#include "tst_connectionoptions.moc"
