#include "clisuite.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// delayq doctor (docs/cli.md, "doctor") and the warning line of delayq work: each finding on
// a server configured for it, and a Redis that really evicts a queue's tasks under an
// eviction policy, which doctor and the worker name before it happens.
class TestCliDoctor : public CliSuite
{
    Q_OBJECT

    // The finding of `check` in doctor's JSON.
    QJsonObject finding(const CliRun& r, const QString& check)
    {
        for (const auto& f : json(r).object().value("findings").toArray())
            if (f.toObject().value("check").toString() == check)
                return f.toObject();
        return {};
    }

    void config(const QByteArray& key, const QByteArray& value)
    {
        QCOMPARE(m_server.cli({"CONFIG", "SET", key, value}).trimmed(), QByteArray("OK"));
    }

    long long usedMemory()
    {
        for (const QByteArray& l : m_server.cli({"INFO", "memory"}).split('\n'))
            if (l.startsWith("used_memory:"))
                return l.mid(12).trimmed().toLongLong();
        return 0;
    }

protected:
    void cleanupTest() override
    {
        config("maxmemory-policy", "noeviction");
        config("maxmemory", "0");
        config("appendonly", "no");
        config("save", "");
    }

private slots:

    void findings_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("check");
        QTest::addColumn<QString>("level");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("noeviction")
            << QByteArray("maxmemory-policy") << QByteArray("noeviction") << "eviction"
            << "ok"
            << "never deletes a task";
        QTest::newRow("allkeys-lru")
            << QByteArray("maxmemory-policy") << QByteArray("allkeys-lru") << "eviction"
            << "problem"
            << "tasks included";
        QTest::newRow("volatile-ttl")
            << QByteArray("maxmemory-policy") << QByteArray("volatile-ttl") << "eviction"
            << "warning"
            << "per-minute counters";
        QTest::newRow("no persistence") << QByteArray("save") << QByteArray("") << "persistence"
                                        << "problem"
                                        << "a restart loses every task";
        QTest::newRow("snapshots") << QByteArray("save") << QByteArray("3600 1") << "persistence"
                                   << "warning"
                                   << "since the last snapshot";
        QTest::newRow("aof") << QByteArray("appendonly") << QByteArray("yes") << "persistence"
                             << "ok"
                             << "AOF on";
        QTest::newRow("nearly full") << QByteArray("maxmemory") << QByteArray("near") << "memory"
                                     << "warning"
                                     << "over 90 % full";
    }

    void findings()
    {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, value);
        QFETCH(QString, check);
        QFETCH(QString, level);
        QFETCH(QString, mentions);
        if (value == "near")
            value = QByteArray::number(usedMemory() * 21 / 20); // 95 % full
        config(key, value);
        const CliRun r = delayq({"--json", "doctor", "--sample", "100ms"});
        const QJsonObject f = finding(r, check);
        QCOMPARE(f.value("level").toString(), level);
        const QString text = f.value("what").toString() + " " + f.value("risk").toString();
        QVERIFY2(text.contains(mentions), qPrintable(text));
        if (level != "ok")
            QVERIFY(!f.value("fix").toString().isEmpty());
        const bool problem = json(r).object().value("problems").toBool();
        QCOMPARE(r.exitCode, problem ? 1 : 0);
        for (const char* c : {"version", "role", "clock"})
            QCOMPARE(finding(r, c).value("level").toString(), QStringLiteral("ok"));
    }

    // Under allkeys-lru and a small maxmemory, Redis deletes a queue's keys to make room:
    // tasks pushed are gone without an error. doctor and the worker say so beforehand.
    void evictionLosesTasksAndIsNamedFirst()
    {
        config("maxmemory-policy", "allkeys-lru");
        CliRun r = delayq({"doctor", "--sample", "100ms"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("problem eviction"), r.out.constData());
        auto worker = m_cli.start({"work", "orders", "--until-empty"});
        QVERIFY(CliRunner::finished(*worker));
        const QByteArray banner = worker->readAllStandardError();
        QVERIFY2(banner.contains("delayq: problem: maxmemory-policy allkeys-lru"),
                 banner.constData());

        // Filler the size of a few MB, then a limit just above: the pushes that follow make
        // Redis evict.
        QVERIFY(delayq({"push", "filler", std::string(2000, 'x').c_str(), "--count", "3000", "--in",
                        "1d"})
                    .exitCode == 0);
        const long long used = usedMemory();
        config("maxmemory", QByteArray::number(used + 500'000));
        QCOMPARE(delayq({"push", "orders", std::string(4000, 'y').c_str(), "--count", "4000",
                         "--in", "1d"})
                     .exitCode,
                 0);
        long long evictedKeys = 0;
        for (const QByteArray& l : m_server.cli({"INFO", "stats"}).split('\n'))
            if (l.startsWith("evicted_keys:"))
                evictedKeys = l.mid(13).trimmed().toLongLong();
        QVERIFY(evictedKeys > 0);
        const long long left =
            json(delayq({"--json", "stats", "filler"})).object().value("pending").toInteger() +
            json(delayq({"--json", "stats", "orders"})).object().value("pending").toInteger();
        QVERIFY2(left < 7000, qPrintable(QString::number(left))); // tasks went with the keys
        const QJsonObject evicted =
            finding(delayq({"--json", "doctor", "--sample", "100ms"}), "eviction");
        QCOMPARE(evicted.value("level").toString(), QStringLiteral("problem"));
        qInfo("pushed 7000 tasks under allkeys-lru: %lld left after Redis evicted %lld keys", left,
              evictedKeys);
    }
};

QTEST_GUILESS_MAIN(TestCliDoctor)
#include "tst_clidoctor.moc"
