#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QTest>

#include <algorithm>

using namespace delayq;

// What a native queue (delayq/queue.h) refuses and survives: read-only sessions, bad names, ids and
// pushes, broken task data, keys of the wrong type, a flushed script cache. (tst_refusals is about
// a server that refuses writes.)
class TestQueueRefusals : public QueueSuite
{
    Q_OBJECT

private slots:
    void readOnlySessionRefusesWrites()
    {
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        q.push(request("b", 60'000, "b"));
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));

        auto options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.readOnly = true;
        Connection conn(options);
        Queue ro(conn, "orders");
        Queue fresh(conn, "newqueue");
        const auto digest = snapshot(m_server);
        const std::string token = claim.tasks[0].token;
        const auto refused = [&](const std::function<void()>& f) {
            const auto e = errorOf(f);
            return e && e->code() == ErrorCode::NoPermission &&
                   std::string(e->what()).find("read-only") != std::string::npos;
        };
        QVERIFY(refused([&] { ro.push(request("x")); }));
        QVERIFY(refused([&] { fresh.push(request("x")); }));
        QVERIFY(refused([&] { ro.pushBatch({request("x"), request("y")}); }));
        QVERIFY(refused([&] { ro.cancel({"b"}); }));
        QVERIFY(refused([&] { ro.cancel({"a"}, true); }));
        QVERIFY(refused([&] { ro.reschedule({"b"}, std::nullopt, 0); }));
        QVERIFY(refused([&] { ro.claim(1, 1000, "w"); }));
        QVERIFY(refused([&] { ro.ack("a", token); }));
        QVERIFY(refused([&] { ro.ack({{"a", token}}); }));
        QVERIFY(refused([&] { ro.nack("a", token, "e"); }));
        QVERIFY(refused([&] { ro.extend("a", token, 1000); }));
        QVERIFY(refused([&] { ro.reap(10); }));
        QVERIFY(refused([&] { ro.requeue({"a"}); }));
        QVERIFY(refused([&] { ro.requeueAll(); }));
        QVERIFY(refused([&] { ro.deleteDead({"a"}); }));
        QVERIFY(refused([&] { ro.deleteAllDead(); }));
        QVERIFY(refused([&] { ro.purge(); }));
        QVERIFY(refused([&] { ro.setConfig("paused", "1"); }));
        QCOMPARE(snapshot(m_server), digest);

        // Reads work.
        QCOMPARE(ro.counts().pending, 1LL);
        QCOMPARE(ro.counts().active, 1LL);
        QCOMPARE(ro.page(TaskSet::Pending, 0, 10).size(), size_t(1));
        QCOMPARE(ro.find("a")->first, TaskSet::Active);
        QCOMPARE(ro.stats()["pushed"], 2LL);
        QCOMPARE(ro.config().maxAttempts, 5);
        QCOMPARE(Queue::listQueues(conn), std::vector<std::string>{"orders"});
        QCOMPARE(snapshot(m_server), digest);
    }

    void invalidQueueNamesRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << "";
        QTest::newRow("space") << "my queue";
        QTest::newRow("brace") << "a{b}";
        QTest::newRow("closing brace") << "a}";
        QTest::newRow("slash") << "a/b";
        QTest::newRow("too long") << QString(129, QLatin1Char('q'));
        QTest::newRow("non-ascii") << QString::fromUtf8("caf\xc3\xa9");
        QTest::newRow("newline") << "a\nb";
    }
    void invalidQueueNamesRefused()
    {
        QFETCH(QString, name);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", (void)Queue(*m_conn, name.toStdString()));
        QVERIFY(m_message.find("queue name") != std::string::npos);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     (void)Queue(*m_conn, "ok", name.toStdString()));
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
        // The longest valid name works.
        Queue longest(*m_conn, std::string(128, 'q'));
        QCOMPARE(longest.push(request("x")).status, PushResult::Status::Created);
    }

    void invalidIdsRefused_data()
    {
        QTest::addColumn<QByteArray>("id");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("too long") << QByteArray(257, 'i');
        QTest::newRow("newline") << QByteArray("a\nb");
        QTest::newRow("NUL") << QByteArray("a\0b", 3);
        QTest::newRow("escape") << QByteArray("\x1b[31mred");
        QTest::newRow("DEL") << QByteArray("a\x7f");
    }
    void invalidIdsRefused()
    {
        QFETCH(QByteArray, id);
        const std::string bad = id.toStdString();
        Queue& q = *m_queue;
        q.push(request("a", 0, "good"));
        const auto claim = q.claim(1, 60'000, "w");
        const auto digest = snapshot(m_server);
        if (!bad.empty()) { // an empty id in a push means "generate one"
            EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.push(request("x", 0, bad)));
            // One bad id refuses the whole batch.
            EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                         q.pushBatch({request("x", 0, "fine"), request("y", 0, bad)}));
        }
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.cancel({"good", bad}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.reschedule({bad}, std::nullopt, 0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.requeue({bad}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.deleteDead({bad}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.find(bad));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.ack(bad, claim.tasks[0].token));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     q.ack({{"good", claim.tasks[0].token}, {bad, "t"}}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.nack(bad, "t", "e"));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.extend(bad, "t", 1000));
        // Untrusted text is never echoed raw into the message.
        QVERIFY(m_message.find('\x1b') == std::string::npos);
        QCOMPARE(snapshot(m_server), digest);
        // The longest valid id works.
        QCOMPARE(q.push(request("x", 0, std::string(256, 'i'))).status,
                 PushResult::Status::Created);
    }

    void invalidPushesRefused_data()
    {
        QTest::addColumn<qint64>("delay");
        QTest::addColumn<qint64>("dueAt"); // -1 = unset
        QTest::addColumn<int>("maxAttempts");
        QTest::addColumn<QString>("backoff");
        QTest::newRow("negative delay") << qint64(-1) << qint64(-1) << 0 << "";
        QTest::newRow("due before 1970") << qint64(0) << qint64(-2) << 0 << "";
        QTest::newRow("due after 9999") << qint64(0) << qint64(253'402'300'800'000) << 0 << "";
        QTest::newRow("delay past 9999") << qint64(253'402'300'799'999) << qint64(-1) << 0 << "";
        QTest::newRow("negative attempts") << qint64(0) << qint64(-1) << -1 << "";
        QTest::newRow("bad backoff") << qint64(0) << qint64(-1) << 0 << "soon";
        QTest::newRow("bad exp backoff") << qint64(0) << qint64(-1) << 0 << "exp:1s";
        QTest::newRow("too many steps")
            << qint64(0) << qint64(-1) << 0 << QString("1s,").repeated(40) + "1s";
    }
    void invalidPushesRefused()
    {
        QFETCH(qint64, delay);
        QFETCH(qint64, dueAt);
        QFETCH(int, maxAttempts);
        QFETCH(QString, backoff);
        PushRequest r = request("x", delay);
        if (dueAt != -1)
            r.dueAtMs = dueAt;
        r.maxAttempts = maxAttempts;
        r.backoff = backoff.toStdString();
        const auto digest = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_queue->push(r));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_queue->pushBatch({request("ok"), r}));
        QCOMPARE(snapshot(m_server), digest);
    }

    void brokenTaskIsHandled()
    {
        Queue& q = *m_queue;
        q.push(request("fine", 0, "fine"));
        // An id in pending without its hash (deleted by hand, or a bug elsewhere).
        m_server.cli({"ZADD", "dq:{orders}:pending", "1000", "ghost"});
        // One whose record holds garbage.
        q.push(request("garbled", 0, "garbled"));
        m_server.cli({"ZADD", "dq:{orders}:pending", "2000", "garbled"});
        QVERIFY(m_server.overwriteRecord(q.keys(), "garbled", "many|attempts"));
        // A score that is not a whole number.
        m_server.cli({"ZADD", "dq:{orders}:pending", "+inf", "infinite"});

        const auto page = q.page(TaskSet::Pending, 0, 10);
        QCOMPARE(page.size(), size_t(4));
        QCOMPARE(page[0].id, std::string("ghost"));
        QVERIFY(page[0].broken);
        QVERIFY(page[0].lastError.find("missing") != std::string::npos);
        QCOMPARE(page[1].id, std::string("garbled"));
        QVERIFY(page[1].broken);
        QVERIFY(!page[2].broken);
        QCOMPARE(page[3].id, std::string("infinite"));
        QVERIFY(page[3].broken);
        QVERIFY(q.find("ghost")->second.broken);
        QCOMPARE(q.pageFromScore(TaskSet::Pending, 0, 10).size(), size_t(4));

        // Rescheduling a broken id does not make it look whole.
        QCOMPARE(statusesOf(q.reschedule({"ghost"}, std::nullopt, 0)),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QVERIFY(q.find("ghost")->second.broken);
        QVERIFY(q.find("ghost")->second.lastError.find("missing") != std::string::npos);

        // A claim moves it to dead and hands out the real tasks only.
        std::vector<std::string> handed;
        for (int i = 0; i < 3; ++i)
            for (const auto& t : q.claim(10, 60'000, "w").tasks)
                handed.push_back(t.id);
        QVERIFY(std::find(handed.begin(), handed.end(), "ghost") == handed.end());
        QVERIFY(std::find(handed.begin(), handed.end(), "fine") != handed.end());
        QVERIFY(std::find(handed.begin(), handed.end(), "garbled") == handed.end());
        QCOMPARE(q.find("garbled")->first, TaskSet::Dead);
        const auto ghost = q.find("ghost");
        QCOMPARE(ghost->first, TaskSet::Dead);
        QVERIFY(ghost->second.lastError.find("missing") != std::string::npos);
        QVERIFY(q.stats()["died"] >= 1);
        QCOMPARE(q.stats()["broken"], 2LL); // ghost and garbled, counted for the operator
        QVERIFY(ghost->second.broken);
        // A requeue cannot turn it into an empty task: the next claim sends it back.
        QCOMPARE(statusesOf(q.requeue({"ghost"})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QVERIFY(q.find("ghost")->second.broken);
        for (const auto& t : q.claim(10, 60'000, "w").tasks)
            QVERIFY(t.id != "ghost");
        QCOMPARE(q.find("ghost")->first, TaskSet::Dead);
        // It can be deleted like any dead task.
        QCOMPARE(statusesOf(q.deleteDead({"ghost"})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QCOMPARE(q.counts().pending, 1LL); // "infinite" is never due
        QVERIFY(q.cancel({"infinite"}).at(0).status == IdResult::Status::Done);
    }

    void wrongTypeKeysAreReported()
    {
        m_server.cli({"SET", "dq:{orders}:pending", "not a zset"});
        Queue& q = *m_queue;
        EXPECT_ERROR(ErrorCode::WrongType, "", q.push(request("x")));
        EXPECT_ERROR(ErrorCode::WrongType, "", q.counts());
        EXPECT_ERROR(ErrorCode::WrongType, "", q.claim(1, 1000, "w"));
        EXPECT_ERROR(ErrorCode::WrongType, "", q.page(TaskSet::Pending, 0, 10));
        EXPECT_ERROR(ErrorCode::WrongType, "", q.histogram(0, 1000, 4));
        QCOMPARE(m_server.cli({"GET", "dq:{orders}:pending"}).trimmed(), QByteArray("not a zset"));
        const auto summaries = Queue::summaries(*m_conn, {"orders"});
        QCOMPARE(summaries.at(0).counts.pending, -1LL);
        // Other queues are not affected.
        Queue other(*m_conn, "other");
        QCOMPARE(other.push(request("x")).status, PushResult::Status::Created);
    }

    void scriptsSurviveFlush()
    {
        Queue& q = *m_queue;
        q.push(request("a"));
        m_server.cli({"SCRIPT", "FLUSH"});
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        m_server.cli({"SCRIPT", "FLUSH"});
        q.ack(claim.tasks[0].id, claim.tasks[0].token);
        m_server.cli({"SCRIPT", "FLUSH"});
        QCOMPARE(q.pushBatch(std::vector<PushRequest>(1500, request("b"))).size(), size_t(1500));
        QCOMPARE(q.size(TaskSet::Pending), 1500LL);
    }

    void backoffNormalization_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("normalized"); // "" = refused
        QTest::newRow("seed list") << "5s,20s,30s"
                                   << "5000,20000,30000";
        QTest::newRow("single") << "250ms"
                                << "250";
        QTest::newRow("zero step") << "0s,1s"
                                   << "0,1000";
        QTest::newRow("exp") << "exp:1s:5m"
                             << "exp:1000:300000";
        QTest::newRow("exp equal") << "exp:1s:1s"
                                   << "exp:1000:1000";
        QTest::newRow("none") << ""
                              << "<empty>";
        QTest::newRow("trailing comma") << "5s,"
                                        << "";
        QTest::newRow("space") << "5s, 6s"
                               << "";
        QTest::newRow("exp no max") << "exp:1s:"
                                    << "";
        QTest::newRow("exp garbage") << "exp:a:b"
                                     << "";
    }
    void backoffNormalization()
    {
        QFETCH(QString, text);
        QFETCH(QString, normalized);
        if (normalized.isEmpty()) {
            EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                         Queue::normalizeBackoff(text.toStdString()));
            return;
        }
        if (normalized == "<empty>")
            normalized.clear();
        QCOMPARE(QString::fromStdString(Queue::normalizeBackoff(text.toStdString())), normalized);
    }
};

QTEST_GUILESS_MAIN(TestQueueRefusals)
#include "tst_queuerefusals.moc"
