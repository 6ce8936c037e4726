// What `cmake --install` puts into a prefix is enough for a service: the examples/ producer,
// consumer and forwarder (delayq::delivery) build against it with find_package(delayq) and with pkg-config, and run
// against a private redis-server (the producer pushes, the consumer takes them all and exits).
#include "redissuite.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
};

// Runs program and returns its exit code and output (stderr merged, to show on failure).
Run run(const QString& program, const QStringList& args, const QProcessEnvironment& env = {})
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(240000)) {
        p.kill();
        p.waitForFinished();
        return {-1, p.readAll()};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAll()};
}

const QString kCmake = QStringLiteral(DELAYQ_CMAKE);

} // namespace

class TestInstall : public RedisSuite
{
    Q_OBJECT

private slots:
    void installedFiles_data()
    {
        QTest::addColumn<QString>("path");
        const QString lib = QStringLiteral(DELAYQ_LIBDIR);
        QStringList paths = {
            "bin/delayq",
            "include/delayq/queue.h",
            "include/delayq/worker.h",
            "include/delayq/version.h",
            "include/delayq/deliveries.h",
            lib + "/libdelayq.a",
            lib + "/libdelayq_delivery.a",
            lib + "/libdelayq_taskline.a",
            lib + "/cmake/delayq/delayqDeliveryTargets.cmake",
            lib + "/pkgconfig/delayq-delivery.pc",
            lib + "/cmake/delayq/delayqConfig.cmake",
            lib + "/cmake/delayq/delayqConfigVersion.cmake",
            lib + "/cmake/delayq/delayqTargets.cmake",
            lib + "/pkgconfig/delayq.pc",
            "share/man/man1/delayq.1.gz",
            "share/bash-completion/completions/delayq",
            "share/zsh/vendor-completions/_delayq",
            "share/doc/delayq/changelog.gz",
            "share/delayq/lua/PROTOCOL",
            "share/delayq/lua/push.lua",
        };
        if (DELAYQ_GUI)
            paths << "bin/delayq-admin"
                  << "share/man/man1/delayq-admin.1.gz"
                  << "share/applications/delayq-admin.desktop"
                  << "share/icons/hicolor/scalable/apps/delayq.svg"
                  << "share/icons/hicolor/256x256/apps/delayq.png"
                  << "share/icons/hicolor/64x64/apps/delayq.png";
        for (const QString& path : paths)
            QTest::newRow(qPrintable(path)) << path;
    }
    void installedFiles()
    {
        QFETCH(QString, path);
        QVERIFY(installed());
        QVERIFY2(QFileInfo::exists(m_prefix.filePath(path)), qPrintable(path));
    }

    void examplesWithFindPackage()
    {
        QVERIFY(installed());
        const QString build = m_prefix.filePath(QStringLiteral("build-examples"));
        Run r = run(kCmake,
                    {"-S", QStringLiteral(DELAYQ_EXAMPLES), "-B", build, "-G",
                     QStringLiteral(DELAYQ_GENERATOR), "-DCMAKE_PREFIX_PATH=" + m_prefix.path()});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        r = run(kCmake, {"--build", build, "--parallel", "2"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        produceAndConsume(build + "/producer", build + "/consumer");
        forward(build + "/producer", build + "/forwarder");
    }

    // `pkg-config --cflags --libs delayq` is all a Makefile needs: the producer built with
    // nothing else, the consumer (from the CMake build above) takes its tasks.
    void producerWithPkgConfig()
    {
        QVERIFY(installed());
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("PKG_CONFIG_PATH",
                   m_prefix.filePath(QStringLiteral(DELAYQ_LIBDIR "/pkgconfig")));
        Run flags = run("pkg-config", {"--cflags", "--libs", "delayq"}, env);
        QVERIFY2(flags.exitCode == 0, flags.out.constData());
        QVERIFY2(flags.out.contains("-I" + m_prefix.path().toUtf8() + "/include"), flags.out);
        QVERIFY2(flags.out.contains("-ldelayq") && flags.out.contains("-lhiredis"), flags.out);
        Run delivery = run("pkg-config", {"--libs", "delayq-delivery"}, env);
        QVERIFY2(delivery.exitCode == 0, delivery.out.constData());
        QVERIFY2(delivery.out.contains("-ldelayq_delivery") &&
                     delivery.out.contains("-lrabbitmq") && delivery.out.contains("-lcurl"),
                 delivery.out);
        const QString producer = m_prefix.filePath(QStringLiteral("pc-producer"));
        QStringList args = {"-std=c++20", "-o", producer,
                            QStringLiteral(DELAYQ_EXAMPLES "/producer.cpp")};
        args += QString::fromUtf8(flags.out).simplified().split(QLatin1Char(' '));
        const Run r = run("c++", args);
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QString consumer = m_prefix.filePath(QStringLiteral("build-examples/consumer"));
        if (!QFileInfo::exists(consumer))
            QSKIP("needs the consumer of examplesWithFindPackage");
        produceAndConsume(producer, consumer);
    }

private:
    void initTest() override
    {
        if (DELAYQ_SANITIZED)
            QSKIP("a sanitizer build installs an instrumented library, which plain programs "
                  "cannot link: the plain build checks the install");
    }

    // Installs the build once, into a temporary prefix, for every test function.
    bool installed()
    {
        if (m_installed)
            return true;
        const Run r = run(
            kCmake, {"--install", QStringLiteral(DELAYQ_BUILD_DIR), "--prefix", m_prefix.path()});
        if (r.exitCode != 0)
            qWarning("%s", r.out.constData());
        m_installed = r.exitCode == 0;
        return m_installed;
    }

    void produceAndConsume(const QString& producer, const QString& consumer)
    {
        const QString url = QString::fromStdString(m_server.tcpUrl());
        Run r = run(producer, {url, "orders", "200"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QCOMPARE(r.out, QByteArray("pushed 200\n"));
        // It stops once it has acked 200: only when it got every task pushed.
        r = run(consumer, {url, "orders", "200"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QCOMPARE(r.out, QByteArray("acked 200\n"));
    }

    // delayq::delivery from the installed prefix: the forwarder hands 50 tasks to a pipe
    // consumer, a shell loop that acks each line it reads (the id is the line's first field).
    void forward(const QString& producer, const QString& forwarder)
    {
        const QString url = QString::fromStdString(m_server.tcpUrl());
        Run r = run(producer, {url, "forwarded", "50"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QString consumer = QStringLiteral(
            "pipe:python3 -c 'import sys, json\n"
            "for l in sys.stdin: print(json.dumps({\"id\": json.loads(l)[\"id\"], "
            "\"ack\": True}), flush=True)'");
        r = run(forwarder, {url, "forwarded", consumer, "50"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QCOMPARE(r.out, QByteArray("delivered 50\n"));
    }

    QTemporaryDir m_prefix;
    bool m_installed = false;
};

QTEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
