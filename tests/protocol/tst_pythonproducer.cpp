// docs/protocol.md is enough to produce for delayq from another language: the Python producer
// in examples/python, written from that page alone, loads the scripts `delayq scripts --dump`
// wrote, pushes tasks that `delayq work` runs exactly once with their bytes, and cancels a
// task the CLI then no longer sees; the consumer beside it runs (nacks, then acks) what the CLI
// pushed.
#include "clisuite.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace {

const QString kQueue = QStringLiteral("orders");

// The python3 that can `import redis`: Debian's python3-redis lives in /usr/bin/python3's
// path, which another python3 first on PATH (pyenv, a venv) does not see.
QString findPython()
{
    for (const QString& candidate : {QStandardPaths::findExecutable(QStringLiteral("python3")),
                                     QStringLiteral("/usr/bin/python3")}) {
        if (candidate.isEmpty())
            continue;
        QProcess p;
        p.start(candidate, {QStringLiteral("-c"), QStringLiteral("import redis")});
        if (p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return candidate;
    }
    return {};
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Payloads no text protocol would carry: every byte value, NUL and '|' (the record's field
// separator), bytes that are not UTF-8, markup, an empty one and a long one.
QList<QByteArray> binaryPayloads(int n)
{
    QList<QByteArray> out;
    QByteArray everyByte;
    for (int b = 0; b < 256; ++b)
        everyByte.append(static_cast<char>(b));
    out << everyByte << QByteArray() << QByteArray("a|b||c|", 7) << QByteArray("\0\0|\n\xff\xfe", 6)
        << QByteArray("<b>x</b><img src=x>") << QByteArray("任务 \xe2\x82")
        << QByteArray(60000, '\x80');
    QRandomGenerator random(16);
    while (out.size() < n) {
        QByteArray bytes(static_cast<int>(random.bounded(1, 200)), Qt::Uninitialized);
        for (char& c : bytes)
            c = static_cast<char>(random.bounded(256));
        out << bytes;
    }
    return out.mid(0, n);
}

} // namespace

class TestPythonProducer : public CliSuite
{
    Q_OBJECT

private slots:
    // The dump is byte for byte what delayq sends: a file's SHA1 is the listed one, and it is
    // the script delayq's own push put into the server's cache. The listing's version is the
    // one docs/protocol.md states, and the page covers every script.
    void dumpIsWhatDelayqSends()
    {
        const CliRun listing = delayq({"scripts"});
        QCOMPARE(listing.exitCode, 0);
        QCOMPARE(listing.out, readFile(m_scripts.filePath(QStringLiteral("PROTOCOL"))));
        const QList<QByteArray> lines = listing.out.trimmed().split('\n');
        QVERIFY(lines.size() > 1);
        QVERIFY2(lines[0].startsWith("delayq-protocol: "), lines[0].constData());
        const QByteArray version = lines[0].mid(17);
        const QByteArray doc = readFile(QStringLiteral(DELAYQ_SOURCE_DIR "/docs/protocol.md"));
        QVERIFY2(doc.contains("**Protocol version: " + version + "**"), version.constData());

        // Every script of lua/ is dumped (a new one must join the list in scriptscommand.cpp).
        QStringList sources = QDir(QStringLiteral(DELAYQ_SOURCE_DIR "/lua"))
                                  .entryList({QStringLiteral("*.lua")}, QDir::Files, QDir::Name);
        sources.removeAll(QStringLiteral("common.lua"));
        sources.removeAll(QStringLiteral("buckets.lua")); // sent ahead of every script
        QStringList dumped =
            QDir(m_scripts.path()).entryList({QStringLiteral("*.lua")}, QDir::Files, QDir::Name);
        QCOMPARE(dumped, sources);
        QCOMPARE(lines.size() - 1, sources.size());

        m_server.cli({"SCRIPT", "FLUSH"});
        QCOMPARE(delayq({"push", kQueue, "x"}).exitCode, 0);
        for (const QByteArray& line : lines.mid(1)) {
            const QList<QByteArray> fields = line.split(' ');
            QCOMPARE(fields.size(), 2);
            const QByteArray file = readFile(m_scripts.filePath(QString::fromLatin1(fields[0])));
            QVERIFY2(file.startsWith("-- delayq script: "), fields[0].constData());
            QCOMPARE(QCryptographicHash::hash(file, QCryptographicHash::Sha1).toHex(), fields[1]);
            const QByteArray name = fields[0].chopped(4);
            QVERIFY2(doc.contains("`" + name + "`") || doc.contains("### " + name),
                     name.constData());
            if (name == "push")
                QCOMPARE(
                    m_server.cli({"SCRIPT", "EXISTS", QString::fromLatin1(fields[1])}).trimmed(),
                    QByteArray("1"));
        }
    }

    void dumpOntoAFileChangesNothing()
    {
        const QString path = m_dir.filePath(QStringLiteral("a-file"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep");
        f.close();
        const CliRun r = delayq({"scripts", "--dump", path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("exists and is not a folder"), r.err.constData());
        QCOMPARE(readFile(path), QByteArray("keep"));
    }

    void pushedTasksRunOnce_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("delayMs");
        QTest::newRow("due now") << 40 << qint64(0);
        QTest::newRow("due in 2 s") << 25 << qint64(2000);
    }
    void pushedTasksRunOnce()
    {
        QFETCH(int, count);
        QFETCH(qint64, delayMs);
        const QList<QByteArray> payloads = binaryPayloads(count);
        QStringList args = {kQueue, "push", "--in", QString::number(delayMs), "--base64"};
        for (const QByteArray& p : payloads)
            args << QString::fromLatin1(p.toBase64());
        const qint64 before = serverNowMs();
        const CliRun pushed = producer(args);
        const qint64 after = serverNowMs();
        QVERIFY2(pushed.exitCode == 0, pushed.err.constData());

        // "created ID DUE" per payload, in order; the due time is the server's now + delay.
        QHash<QString, QByteArray> expected;
        qint64 latestDue = 0;
        const QList<QByteArray> lines = pushed.out.trimmed().split('\n');
        QCOMPARE(lines.size(), count);
        for (int i = 0; i < count; ++i) {
            const QList<QByteArray> f = lines[i].split(' ');
            QCOMPARE(f.size(), 3);
            QCOMPARE(f[0], QByteArray("created"));
            const qint64 due = f[2].toLongLong();
            QVERIFY2(due >= before + delayMs && due <= after + delayMs, lines[i].constData());
            latestDue = std::max(latestDue, due);
            expected.insert(QString::fromLatin1(f[1]), payloads[i]);
        }
        QCOMPARE(expected.size(), count);
        const CliRun listed = delayq({"ls", kQueue, "--json", "--limit", "1000"});
        QCOMPARE(json(listed).object().value("tasks").toArray().size(), count);
        QVERIFY(delayq({"queues", "--names-only"}).out.split('\n').contains(kQueue.toLatin1()));

        QTRY_VERIFY_WITH_TIMEOUT(serverNowMs() >= latestDue, 30000);
        const QString out = m_dir.filePath(QStringLiteral("ran-") + QTest::currentDataTag());
        QVERIFY(QDir().mkpath(out));
        const QString log = out + QStringLiteral(".log");
        const CliRun worked = delayq({"work", kQueue, "--until-empty", "--quiet", "--log", log,
                                      "--handler", "exec:cat > '" + out + "'/\"$DELAYQ_TASK_ID\""});
        QVERIFY2(worked.exitCode == 0, worked.err.constData());

        QSet<QString> ran;
        for (const QJsonObject& line : readLines(log)) {
            const QString id = line.value("id").toString();
            QVERIFY2(!ran.contains(id), qPrintable("ran twice: " + id));
            ran.insert(id);
            QCOMPARE(line.value("outcome").toString(), QStringLiteral("acked"));
            QCOMPARE(line.value("attempt").toInt(), 1);
        }
        QCOMPARE(ran.size(), count);
        for (auto it = expected.cbegin(); it != expected.cend(); ++it)
            QVERIFY2(readFile(out + "/" + it.key()) == it.value(), qPrintable(it.key()));
        const QJsonObject stats = json(delayq({"stats", kQueue, "--json"})).object();
        QCOMPARE(stats.value("pending").toInt(), 0);
        QCOMPARE(stats.value("active").toInt(), 0);
        QCOMPARE(stats.value("dead").toInt(), 0);
    }

    void cancelFromPythonSeenByTheCli()
    {
        CliRun r = producer({kQueue, "push", "--id", "order-42", "--in", "3600000", "cancel me"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("created order-42 "));
        r = delayq({"show", kQueue, "order-42", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject task = json(r).object().value("task").toObject();
        QCOMPARE(task.value("payload").toString(), QStringLiteral("cancel me"));
        QCOMPARE(task.value("max_attempts").toInt(), 5); // 0 sent: the queue's default
        // Pushing the id again is reported, and keeps the first task.
        r = producer({kQueue, "push", "--id", "order-42", "other"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.startsWith("exists order-42 "));

        r = producer({kQueue, "cancel", "order-42"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("done order-42\n"));
        QCOMPARE(delayq({"show", kQueue, "order-42"}).exitCode, 1);
        QCOMPARE(json(delayq({"ls", kQueue, "--json"})).object().value("tasks").toArray().size(),
                 0);
        const QJsonObject stats = json(delayq({"stats", kQueue, "--json"})).object();
        QCOMPARE(stats.value("counters").toObject().value("cancelled").toInt(), 1);

        r = producer({kQueue, "cancel", "order-42"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QByteArray("not_found order-42\n"));
    }

    // The other way round: tasks the CLI pushed, run by the Python consumer (also written from
    // docs/protocol.md): every first attempt fails (nack, retry in 0 ms), every second acks.
    void consumerRunsWhatTheCliPushed()
    {
        const QList<QByteArray> payloads = binaryPayloads(12);
        for (int i = 0; i < payloads.size(); ++i) {
            const CliRun r =
                delayq({"push", kQueue, "-", "--id", "t" + QString::number(i)}, payloads[i]);
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        const CliRun r = consumer({kQueue, "--until-empty", "--fail-first", "--batch", "5"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QHash<QString, QStringList> outcomes;
        for (const QByteArray& line : r.out.trimmed().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const QString id = o.value("id").toString();
            const int i = id.mid(1).toInt();
            QVERIFY2(id.startsWith('t') && i >= 0 && i < payloads.size(), line.constData());
            QCOMPARE(QByteArray::fromBase64(o.value("payload_base64").toString().toLatin1()),
                     payloads[i]);
            outcomes[id] << o.value("outcome").toString() + "@" +
                                QString::number(o.value("attempt").toInt());
        }
        QCOMPARE(outcomes.size(), payloads.size());
        for (auto it = outcomes.cbegin(); it != outcomes.cend(); ++it)
            QCOMPARE(it.value(), QStringList({"retry@1", "acked@2"}));
        const QJsonObject stats = json(delayq({"stats", kQueue, "--json"})).object();
        const QJsonObject counters = stats.value("counters").toObject();
        QCOMPARE(counters.value("acked").toInt(), payloads.size());
        QCOMPARE(counters.value("retried").toInt(), payloads.size());
        QCOMPARE(stats.value("pending").toInt() + stats.value("active").toInt() +
                     stats.value("dead").toInt(),
                 0);
    }

    void refusalsChangeNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("protocol");
        QTest::addColumn<QString>("message");
        const QByteArray current = readFile(m_scripts.filePath(QStringLiteral("PROTOCOL")));
        QTest::newRow("control character in an id")
            << QStringList{kQueue, "push", "--id", "a\tb", "x"} << current << "control character";
        QTest::newRow("id over 256 bytes")
            << QStringList{kQueue, "push", "--id", QString(257, 'i'), "x"} << current << "1 to 256";
        QTest::newRow("queue name with a brace")
            << QStringList{"a{b}", "push", "x"} << current << "the queue name";
        QTest::newRow("payload not base64")
            << QStringList{kQueue, "push", "--base64", "%%%"} << current << "not base64";
        QTest::newRow("negative delay")
            << QStringList{kQueue, "push", "--in", "-5", "x"} << current << "negative";
        QByteArray other = current;
        other.replace("layout 3", "layout 999");
        QTest::newRow("scripts of another protocol")
            << QStringList{kQueue, "push", "x"} << other << "layout 999";
    }
    void refusalsChangeNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, protocol);
        QFETCH(QString, message);
        QTemporaryDir scripts;
        for (const QString& name : QDir(m_scripts.path()).entryList(QDir::Files))
            QVERIFY(QFile::copy(m_scripts.filePath(name), scripts.filePath(name)));
        QFile f(scripts.filePath(QStringLiteral("PROTOCOL")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(protocol);
        f.close();
        const CliRun r = producer(args, scripts.path());
        expectUsageError(r, message);
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
    }

private:
    void initTest() override
    {
        if (!m_pythonLooked) {
            m_pythonLooked = true;
            m_python = findPython();
            if (!m_python.isEmpty()) {
                const CliRun r = delayq({"scripts", "--dump", m_scripts.path()});
                QVERIFY2(r.exitCode == 0, r.err.constData());
            }
        }
        if (m_python.isEmpty())
            QSKIP("needs python3 with the redis module (Debian: python3-redis; scripts/setup "
                  "installs it)");
    }

    CliRun producer(const QStringList& args, const QString& scripts = {}) const
    {
        return python(QStringLiteral("producer.py"), args, scripts);
    }
    CliRun consumer(const QStringList& args) const
    {
        return python(QStringLiteral("consumer.py"), args, {});
    }

    // examples/python/SCRIPT against the suite's server, with the dumped scripts.
    CliRun python(const QString& script, const QStringList& args, const QString& scripts) const
    {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("REDIS_URL"));
        // consumer.py imports producer.py: no __pycache__ in the source tree.
        env.insert(QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1"));
        p.setProcessEnvironment(env);
        p.start(m_python,
                QStringList{QStringLiteral(DELAYQ_SOURCE_DIR "/examples/python/") + script, "--url",
                            QString::fromStdString(m_server.tcpUrl()), "--scripts",
                            scripts.isEmpty() ? m_scripts.path() : scripts} +
                    args);
        return finish(p);
    }

    qint64 serverNowMs() const
    {
        const QList<QByteArray> t = m_server.cli({"TIME"}).trimmed().split('\n');
        return t.size() == 2
                   ? t[0].trimmed().toLongLong() * 1000 + t[1].trimmed().toLongLong() / 1000
                   : 0;
    }

    QTemporaryDir m_dir;
    QTemporaryDir m_scripts;
    QString m_python;
    bool m_pythonLooked = false;
};

QTEST_GUILESS_MAIN(TestPythonProducer)
#include "tst_pythonproducer.moc"
