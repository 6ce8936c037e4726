#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QTest>

using namespace delayq;

// A native queue's settings (delayq/queue.h): what setConfig accepts and stores, and defaults for
// garbage.
class TestQueueConfig : public QueueSuite
{
    Q_OBJECT

private slots:
    void config_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("stored"); // "" = refused
        QTest::newRow("max_attempts") << "max_attempts"
                                      << "3"
                                      << "3";
        QTest::newRow("max_attempts 0") << "max_attempts"
                                        << "0"
                                        << "";
        QTest::newRow("max_attempts text") << "max_attempts"
                                           << "three"
                                           << "";
        QTest::newRow("max_attempts negative") << "max_attempts"
                                               << "-2"
                                               << "";
        QTest::newRow("backoff list") << "backoff"
                                      << "5s,1m"
                                      << "5000,60000";
        QTest::newRow("backoff exp") << "backoff"
                                     << "exp:1s:1m"
                                     << "exp:1000:60000";
        QTest::newRow("backoff empty") << "backoff"
                                       << ""
                                       << "";
        QTest::newRow("backoff no unit") << "backoff"
                                         << "5,20"
                                         << "";
        QTest::newRow("backoff exp inverted") << "backoff"
                                              << "exp:1m:1s"
                                              << "";
        QTest::newRow("backoff exp zero") << "backoff"
                                          << "exp:0s:1s"
                                          << "";
        QTest::newRow("backoff empty step") << "backoff"
                                            << "5s,,6s"
                                            << "";
        QTest::newRow("lease_ms duration") << "lease_ms"
                                           << "30s"
                                           << "30000";
        QTest::newRow("lease_ms number") << "lease_ms"
                                         << "100"
                                         << "100";
        QTest::newRow("lease_ms too short") << "lease_ms"
                                            << "50"
                                            << "";
        QTest::newRow("lease_ms too long") << "lease_ms"
                                           << "8d"
                                           << "";
        QTest::newRow("max_payload") << "max_payload"
                                     << "2048"
                                     << "2048";
        QTest::newRow("max_payload 0") << "max_payload"
                                       << "0"
                                       << "";
        QTest::newRow("paused true") << "paused"
                                     << "true"
                                     << "1";
        QTest::newRow("paused 0") << "paused"
                                  << "0"
                                  << "0";
        QTest::newRow("paused maybe") << "paused"
                                      << "maybe"
                                      << "";
        QTest::newRow("unknown key") << "color"
                                     << "red"
                                     << "";
    }
    void config()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, stored);
        Queue& q = *m_queue;
        const auto digest = snapshot(m_server);
        if (stored.isEmpty()) {
            EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                         q.setConfig(key.toStdString(), value.toStdString()));
            QVERIFY(m_message.find(key.toStdString()) != std::string::npos ||
                    m_message.find("backoff") != std::string::npos);
            QCOMPARE(snapshot(m_server), digest);
            return;
        }
        q.setConfig(key.toStdString(), value.toStdString());
        QCOMPARE(m_server.cli({"HGET", "dq:{orders}:config", key}).trimmed(), stored.toUtf8());
        const QueueConfig c = q.config();
        if (key == "max_attempts")
            QCOMPARE(QString::number(c.maxAttempts), stored);
        else if (key == "backoff")
            QCOMPARE(QString::fromStdString(c.backoff), stored);
        else if (key == "lease_ms")
            QCOMPARE(QString::number(c.leaseMs), stored);
        else if (key == "max_payload")
            QCOMPARE(QString::number(c.maxPayload), stored);
        else if (key == "paused")
            QCOMPARE(c.paused, stored == "1");
    }

    // A form's Save: the values in one call, each checked before any is written.
    void severalSettingsAtOnce()
    {
        Queue& q = *m_queue;
        q.setConfig({{"max_attempts", "3"}, {"backoff", "exp:1s:5s"}, {"lease_ms", "45s"}});
        QueueConfig c = q.config();
        QCOMPARE(c.maxAttempts, 3);
        QCOMPARE(c.backoff, std::string("exp:1000:5000"));
        QCOMPARE(c.leaseMs, 45000LL);
        const auto digest = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     q.setConfig({{"max_attempts", "4"}, {"lease_ms", "1ms"}}));
        QVERIFY(m_message.find("lease_ms") != std::string::npos);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     q.setConfig({{"max_attempts", "4"}, {"max_attempts", "6"}}));
        QVERIFY(m_message.find("max_attempts is given twice") != std::string::npos);
        QCOMPARE(snapshot(m_server), digest);
        QCOMPARE(q.config().maxAttempts, 3);
    }

    // A group cap changed from one limit to another: a group waiting at the old cap with
    // fewer tasks running than the new one is handed out by the next claim, not only once one
    // of its tasks ends (the model check found it held). Lowered, the new cap holds.
    void groupCapChangeTakesEffectAtOnce_data()
    {
        QTest::addColumn<QString>("cap");
        QTest::addColumn<int>("second");
        QTest::newRow("raised 1 -> 2") << "2" << 1;
        QTest::newRow("raised 1 -> 5") << "5" << 2;
        QTest::newRow("kept at 1") << "1" << 0;
    }
    void groupCapChangeTakesEffectAtOnce()
    {
        QFETCH(QString, cap);
        QFETCH(int, second);
        Queue& q = *m_queue;
        q.setConfig({{"order", "fair"}, {"group_cap", "1"}});
        for (const char* id : {"a", "b", "c"}) {
            PushRequest r = request("p", 0, id);
            r.group = "tenant";
            q.push(r);
        }
        QCOMPARE(q.claim(10, 60000, "w").tasks.size(), size_t(1));
        q.setConfig("group_cap", cap.toStdString());
        QCOMPARE(static_cast<int>(q.claim(10, 60000, "w").tasks.size()), second);
    }

    void configDefaultsAndGarbage()
    {
        Queue& q = *m_queue;
        QueueConfig c = q.config();
        QCOMPARE(c.maxAttempts, 5);
        QCOMPARE(c.backoff, std::string("5000,20000,30000"));
        QCOMPARE(c.leaseMs, 30000LL);
        QVERIFY(!c.paused);
        // Garbage written by hand is read as the default, like the scripts do.
        m_server.cli({"HSET", "dq:{orders}:config", "max_attempts", "lots", "lease_ms", "-4"});
        c = q.config();
        QCOMPARE(c.maxAttempts, 5);
        QCOMPARE(c.leaseMs, 30000LL);
        q.push(request("a"));
        const auto claim = q.claim(1, 0, "w");
        QCOMPARE(claim.tasks.at(0).leaseDeadline, claim.serverNow + 30'000);
        QCOMPARE(claim.tasks.at(0).maxAttempts, 5);
    }
};

QTEST_GUILESS_MAIN(TestQueueConfig)
#include "tst_queueconfig.moc"
