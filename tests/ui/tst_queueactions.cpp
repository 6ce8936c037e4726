#include "client/adminclient.h"
#include "client/connectiontypes.h"
#include "client/queueclient.h"
#include "client/queuetypes.h"
#include "client/taskclient.h"
#include "client/tasktypes.h"
#include "find/matchactions.h"
#include "queue/purgedialog.h"
#include "queue/queueactions.h"
#include "redisserver.h"
#include "tasks/taskactions.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/queue.h>

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

#include <memory>

using namespace delayq::ui;
using delayq::TaskSet;

// The Queue menu's queue-wide actions in the whole window, against a real redis-server.
class TestQueueActions : public WindowSuite
{
    Q_OBJECT

public:
    TestQueueActions() : WindowSuite(QStringLiteral("tst_queueactions")) {}

protected:
    void initTest() override
    {
        WindowSuite::initTest();
        m_confirmation.clear();
        m_answer = true;
        queueActions()->setConfirmHandler([this](const Confirmation& confirmation) {
            m_confirmation = confirmation.text;
            return m_answer;
        });
    }
    void cleanupTest() override
    {
        WindowSuite::cleanupTest();
        m_server.cli({"ACL", "DELUSER", "viewer"}); // after the window has let go of it
    }

private slots:
    void menuHoldsTheActions()
    {
        QMenu* menu = nullptr;
        for (QAction* action : m_fixture.window()->menuBar()->actions())
            if (action->text() == QStringLiteral("&Queue"))
                menu = action->menu();
        QVERIFY(menu);
        for (QAction* action : queueActions()->actions())
            QVERIFY2(menu->actions().contains(action), qPrintable(action->text()));
    }

    void purgeNeedsTheExactName_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("armed");
        QTest::newRow("nothing") << QString() << false;
        QTest::newRow("another queue") << QStringLiteral("emails") << false;
        QTest::newRow("a prefix of it") << QStringLiteral("order") << false;
        QTest::newRow("other case") << QStringLiteral("ORDERS") << false;
        QTest::newRow("trailing space") << QStringLiteral("orders ") << false;
        QTest::newRow("the exact name") << QStringLiteral("orders") << true;
    }
    void purgeNeedsTheExactName()
    {
        QFETCH(QString, typed);
        QFETCH(bool, armed);
        fillQueue(QStringLiteral("orders"), 5, 2, 3);
        fillQueue(QStringLiteral("emails"), 2, 0, 0);
        openQueue(QStringLiteral("orders"));
        const QByteArray before = digest();

        PurgeDialog* dialog = openPurgeDialog();
        QVERIFY(dialog);
        const QString summary = dialog->summaryLabel()->text();
        for (const char* part : {"orders", "5 pending", "2 active", "3 dead", "config and stats"})
            QVERIFY2(summary.contains(QLatin1String(part)), qPrintable(summary));
        for (QLabel* label : dialog->findChildren<QLabel*>())
            QCOMPARE(label->textFormat(), Qt::PlainText);
        QVERIFY(!dialog->purgeButton()->isEnabled());
        QTest::keyClicks(dialog->nameEdit(), typed);
        QCOMPARE(dialog->purgeButton()->isEnabled(), armed);

        QSignalSpy reported(queueActions(), &QueueActions::resultReported);
        if (!armed) {
            // Neither the button, nor Enter, nor an accept gets past a wrong name.
            dialog->purgeButton()->click();
            QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);
            dialog->accept();
            QVERIFY(dialog->isVisible());
            QVERIFY(!queueActions()->isRunning());
            drainRequests();
            QCOMPARE(digest(), before);
            dialog->reject();
            return;
        }
        dialog->purgeButton()->click();
        QVERIFY(reported.wait(10000));
        QCOMPARE(reported.first().at(0).toString(), QStringLiteral("Purged 10 tasks from orders."));
        QCOMPARE(reported.first().at(1).toBool(), true);
        for (const char* set : {"pending", "active", "dead"})
            QCOMPARE(cli({"ZCARD", QStringLiteral("dq:{orders}:%1").arg(QLatin1String(set))}),
                     QByteArray("0"));
        // No bucket is left, only the record table's state.
        QCOMPARE(cli({"KEYS", "dq:{orders}:d:*"}), QByteArray("dq:{orders}:d:layout"));
        QCOMPARE(cli({"EXISTS", "dq:{orders}:run", "dq:{orders}:errors"}), QByteArray("0"));
        // Config and stats stay; another queue is untouched.
        QCOMPARE(cli({"HGET", "dq:{orders}:config", "max_attempts"}), QByteArray("7"));
        QCOMPARE(cli({"HGET", "dq:{orders}:stats", "pushed"}), QByteArray("10"));
        QCOMPARE(cli({"ZCARD", "dq:{emails}:pending"}), QByteArray("2"));
        // The views are refreshed.
        QTRY_COMPARE(pending()->model()->rowCount(), 0);
        QVERIFY(m_fixture.window()->statusBar()->currentMessage().contains(
            QStringLiteral("Purged 10")));
    }

    void deadTasksAllAtOnce_data()
    {
        QTest::addColumn<bool>("requeue");
        QTest::addColumn<bool>("answer");
        QTest::newRow("requeue, confirmed") << true << true;
        QTest::newRow("requeue, declined") << true << false;
        QTest::newRow("delete, confirmed") << false << true;
        QTest::newRow("delete, declined") << false << false;
    }
    void deadTasksAllAtOnce()
    {
        QFETCH(bool, requeue);
        QFETCH(bool, answer);
        fillQueue(QStringLiteral("orders"), 4, 0, 3);
        openQueue(QStringLiteral("orders"));
        const QByteArray before = digest();
        m_answer = answer;
        QSignalSpy reported(queueActions(), &QueueActions::resultReported);
        QSignalSpy finished(m_fixture.window()->client()->queues(), &QueueClient::bulkFinished);
        QAction* action =
            requeue ? queueActions()->requeueAllDead() : queueActions()->deleteAllDead();
        QVERIFY(action->isEnabled());
        action->trigger();
        QTRY_VERIFY(!m_confirmation.isEmpty());
        QVERIFY2(m_confirmation.contains(QStringLiteral("3 dead tasks of queue orders")),
                 qPrintable(m_confirmation));
        if (!answer) {
            QVERIFY(!queueActions()->isRunning());
            drainRequests();
            QCOMPARE(finished.count(), 0);
            QCOMPARE(digest(), before);
            return;
        }
        // The answer may already be in while the confirmation was being waited for.
        QTRY_COMPARE_WITH_TIMEOUT(reported.count(), 1, 10000);
        const QString summary = reported.first().at(0).toString();
        QCOMPARE(cli({"ZCARD", "dq:{orders}:dead"}), QByteArray("0"));
        if (requeue) {
            QCOMPARE(summary, QStringLiteral("Requeued 3 dead tasks of orders: they are pending "
                                             "again, due now."));
            QCOMPARE(cli({"ZCARD", "dq:{orders}:pending"}), QByteArray("7"));
            QVERIFY(!cli({"ZSCORE", "dq:{orders}:pending", "dead-0"}).isEmpty());
            // Attempts start again: no run entry.
            QCOMPARE(cli({"HEXISTS", "dq:{orders}:run", "dead-0"}), QByteArray("0"));
        } else {
            QCOMPARE(summary, QStringLiteral("Deleted 3 dead tasks of orders for good."));
            QCOMPARE(cli({"ZCARD", "dq:{orders}:pending"}), QByteArray("4"));
            const delayq::Keys keys("dq", "orders");
            QCOMPARE(m_server.record(keys, "dead-0"), QByteArray());
        }
        QCOMPARE(finished.count(), 1);
        const auto result = finished.first().at(0).value<BulkActionResult>();
        QCOMPARE(result.done, 3LL);
        QCOMPARE(result.total, 3LL);
        m_fixture.window()->tabs()->setCurrentSet(TaskSet::Dead);
        QTRY_COMPARE(m_fixture.window()->tabs()->table(TaskSet::Dead)->model()->rowCount(), 0);
    }

    // The status line and the progress of an action on what a filter matched name the
    // action, the set and the queue ("Requeued 15 of 15 dead tasks in orders"), not only counts.
    void matchActionsNameActionAndQueue_data()
    {
        QTest::addColumn<int>("action");
        QTest::addColumn<bool>("dead");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QString>("progress"); // after the first of two steps; "" in one step
        const QString outcomes = QStringLiteral("; already gone: 0; running: 0; in another set: 0");
        QTest::newRow("requeue in steps") << int(TaskAction::Requeue) << true << 600
                                          << "Requeued 600 of 600 dead tasks in orders" + outcomes
                                          << "Requeued 500 of 600 dead tasks in orders…";
        QTest::newRow("delete") << int(TaskAction::DeleteDead) << true << 3
                                << "Deleted 3 of 3 dead tasks in orders" + outcomes << "";
        QTest::newRow("cancel") << int(TaskAction::Cancel) << false << 3
                                << "Cancelled 3 of 3 pending tasks in orders" + outcomes << "";
        QTest::newRow("run now") << int(TaskAction::Reschedule) << false << 3
                                 << "Rescheduled 3 of 3 pending tasks in orders" + outcomes << "";
    }
    void matchActionsNameActionAndQueue()
    {
        QFETCH(int, action);
        QFETCH(bool, dead);
        QFETCH(int, count);
        QFETCH(QString, progress);
        fillQueue(QStringLiteral("orders"), dead ? 0 : count, 0, dead ? count : 0);
        openQueue(QStringLiteral("orders"));
        MatchActions* actions = m_fixture.window()->actions()->matchActions();
        actions->setConfirmHandler([](const Confirmation&) { return true; });
        QStringList labels;
        connect(actions, &MatchActions::progressed, this,
                [&] { labels.append(actions->progress()->labelText()); });
        QSignalSpy reported(actions, &MatchActions::resultReported);
        MatchFilter filter;
        filter.set = dead ? TaskSet::Dead : TaskSet::Pending;
        actions->run(QStringLiteral("orders"), filter, TaskAction(action));
        QVERIFY(reported.wait(30000));
        QTEST(reported.first().at(0).toString(), "summary");
        QVERIFY(reported.first().at(1).toBool());
        if (!progress.isEmpty())
            QVERIFY2(labels.contains(progress), qPrintable(labels.join(QLatin1Char('|'))));
    }

    void nothingToDoAsksNothing_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("report");
        QTest::newRow("requeue all") << 0 << QStringLiteral("Queue orders has no dead tasks.");
        QTest::newRow("delete all") << 1 << QStringLiteral("Queue orders has no dead tasks.");
        QTest::newRow("purge") << 2
                               << QStringLiteral("Queue orders has no tasks: nothing to purge.");
    }
    void nothingToDoAsksNothing()
    {
        QFETCH(int, which);
        QFETCH(QString, report);
        if (which < 2)
            fillQueue(QStringLiteral("orders"), 2, 0, 0);
        else
            delayq::Queue(*connection(), "orders").setConfig("max_attempts", "7");
        openQueue(QStringLiteral("orders"));
        QSignalSpy reported(queueActions(), &QueueActions::resultReported);
        queueActions()->actions().at(which)->trigger();
        QVERIFY(reported.wait(5000));
        QCOMPARE(reported.first().at(0).toString(), report);
        QVERIFY(m_confirmation.isEmpty());
        QVERIFY(!queueActions()->purgeDialog());
    }

    void offWhereTheyDoNotApply_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<QString>("why");
        QTest::newRow("native queue, writable") << QStringLiteral("native") << true << QString();
        QTest::newRow("no queue open")
            << QStringLiteral("none") << false << QStringLiteral("Open a queue, or select one in the Overview");
        QTest::newRow("read-only session")
            << QStringLiteral("read-only") << false << QStringLiteral("Read-only: ");
        QTest::newRow("user without write access")
            << QStringLiteral("acl") << false << QStringLiteral("refuses writes");
        QTest::newRow("plain sorted set")
            << QStringLiteral("plain") << false << QStringLiteral("plain sorted set");
    }
    void offWhereTheyDoNotApply()
    {
        QFETCH(QString, mode);
        QFETCH(bool, enabled);
        QFETCH(QString, why);
        fillQueue(QStringLiteral("orders"), 2, 0, 2);
        const qint64 due = QDateTime::currentMSecsSinceEpoch() + 3600000;
        m_server.cli({"ZADD", "legacy:delay", QString::number(due), "{\"id\":1}"});
        const bool readOnly = mode == QLatin1String("read-only");
        QString url = QString::fromStdString(m_server.unixUrl());
        if (mode == QLatin1String("acl")) {
            m_server.cli({"ACL", "SETUSER", "viewer", "on", ">viewer-pw", "~*", "&*", "+@read",
                          "+@connection", "+info", "+time", "+select"});
            url = QStringLiteral("redis://viewer:viewer-pw@127.0.0.1:%1").arg(m_server.port());
        }
        m_fixture.connectWindow(readOnly, url);
        if (mode == QLatin1String("plain"))
            m_fixture.window()->openPlainKey(QStringLiteral("legacy:delay"), QStringLiteral("ms"));
        else if (mode != QLatin1String("none"))
            m_fixture.window()->openQueue(QStringLiteral("orders"));
        const QByteArray before = digest();
        for (QAction* action : queueActions()->actions()) {
            QCOMPARE(action->isEnabled(), enabled);
            if (!enabled)
                QVERIFY2(action->toolTip().contains(why), qPrintable(action->toolTip()));
        }
        if (enabled)
            return;
        for (QAction* action : queueActions()->actions())
            action->trigger();
        drainRequests();
        QVERIFY(m_confirmation.isEmpty());
        QVERIFY(!queueActions()->purgeDialog());
        QCOMPARE(digest(), before);
    }

    void bigPurgeStepsWhilePagesAreAnswered()
    {
        const qint64 count = 30000;
        // Small steps: hundreds of them, so the page request has many chances to be answered
        // before the last one (the test waits for that, it does not time it).
        AdminClient* client = openBigQueue(count, 50);
        QSignalSpy progress(client->queues(), &QueueClient::bulkProgressed);
        QSignalSpy finished(client->queues(), &QueueClient::bulkFinished);
        startPurge(QStringLiteral("big"));
        QVERIFY(progress.wait(10000));

        // A page asked for while the purge runs is answered before it ends.
        const quint64 tag = AdminClient::newTag();
        int finishedWhenPaged = -1;
        connect(client->tasks(), &TaskClient::pagesLoaded, this, [&](const PageResult& page) {
            if (page.tag == tag)
                finishedWhenPaged = static_cast<int>(finished.count());
        });
        client->tasks()->loadPages(tag, QStringLiteral("big"), TaskSet::Pending, {0}, 50);
        QTRY_VERIFY_WITH_TIMEOUT(finishedWhenPaged >= 0, 20000);
        QCOMPARE(finishedWhenPaged, 0);

        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const auto result = finished.first().at(0).value<BulkActionResult>();
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error.text()));
        QVERIFY(!result.cancelled);
        QCOMPARE(result.done, count);
        QCOMPARE(result.total, count);
        QVERIFY2(progress.count() > 1, qPrintable(QString::number(progress.count())));
        // Progress counts up to the total.
        QCOMPARE(progress.first().at(2).toLongLong(), count);
        QVERIFY(progress.last().at(1).toLongLong() > progress.first().at(1).toLongLong());
        QCOMPARE(cli({"ZCARD", "dq:{big}:pending"}), QByteArray("0"));
        QTRY_VERIFY(m_fixture.window()->statusBar()->currentMessage().contains(
            QStringLiteral("Purged %1 tasks from big").arg(QLocale().toString(count))));
        QVERIFY(!queueActions()->progressDialog() ||
                !queueActions()->progressDialog()->isVisible());
    }

    void cancelStopsBetweenSteps()
    {
        const qint64 count = 30000;
        // Thousands of small steps: the cancel lands long before the last one.
        AdminClient* client = openBigQueue(count, 10);
        QSignalSpy progress(client->queues(), &QueueClient::bulkProgressed);
        QSignalSpy finished(client->queues(), &QueueClient::bulkFinished);
        QSignalSpy reported(queueActions(), &QueueActions::resultReported);
        startPurge(QStringLiteral("big"));
        QVERIFY(progress.wait(10000));
        QProgressDialog* dialog = queueActions()->progressDialog();
        QVERIFY(dialog);
        auto* cancel = dialog->findChild<QPushButton*>();
        QVERIFY(cancel);
        cancel->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        const auto result = finished.first().at(0).value<BulkActionResult>();
        QVERIFY(result.cancelled);
        QVERIFY(result.done > 0);
        QVERIFY2(result.done < count, qPrintable(QString::number(result.done)));
        QCOMPARE(cli({"ZCARD", "dq:{big}:pending"}), QByteArray::number(count - result.done));
        QTRY_COMPARE(reported.count(), 1);
        QVERIFY2(reported.first().at(0).toString().startsWith(QStringLiteral("Cancelled: ")),
                 qPrintable(reported.first().at(0).toString()));
        QCOMPARE(reported.first().at(1).toBool(), false);
        QVERIFY(queueActions()->purge()->isEnabled());
    }

    void bulkStopsAtTheConfirmedCount_data()
    {
        QTest::addColumn<int>("action"); // TaskAction
        QTest::newRow("delete dead") << int(TaskAction::DeleteDead);
        QTest::newRow("requeue dead") << int(TaskAction::Requeue);
        QTest::newRow("purge") << int(TaskAction::Purge);
    }
    void bulkStopsAtTheConfirmedCount()
    {
        // 7 dead tasks, of which the operator confirmed 3 (the others "died meanwhile").
        QFETCH(int, action);
        fillQueue(QStringLiteral("orders"), 0, 0, 7);
        openQueue(QStringLiteral("orders"));
        AdminClient* client = m_fixture.window()->client();
        QSignalSpy finished(client->queues(), &QueueClient::bulkFinished);
        const quint64 tag = AdminClient::newTag();
        switch (TaskAction(action)) {
        case TaskAction::DeleteDead:
            client->queues()->deleteAllDead(tag, QStringLiteral("orders"), 3, 2);
            break;
        case TaskAction::Requeue:
            client->queues()->requeueAllDead(tag, QStringLiteral("orders"), 3, 2);
            break;
        case TaskAction::Purge:
            client->queues()->purge(tag, QStringLiteral("orders"), 3, 2);
            break;
        default:
            QFAIL("not a queue-wide change");
        }
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().at(0).value<BulkActionResult>();
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error.text()));
        QVERIFY(!result.error.code); // a success carries no error code
        QCOMPARE(result.done, 3LL);
        QCOMPARE(result.left, 4LL);
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:dead"}).trimmed(), QByteArray("4"));
        QVERIFY(QueueActions::summarize(result).contains(QStringLiteral("4 ")));
    }

    void everyActionRefusesAQueueWhoseUpgradeIsUnfinished_data()
    {
        QTest::addColumn<QString>("action");
        for (const char* action :
             {"requeue", "delete dead", "requeue all dead", "delete all dead", "purge", "settings"})
            QTest::newRow(action) << QString::fromLatin1(action);
    }
    void everyActionRefusesAQueueWhoseUpgradeIsUnfinished()
    {
        // An upgrade left half done: acting on the queue now could change what the upgrade
        // reads, so every request says how to finish it and changes nothing.
        QFETCH(QString, action);
        fillQueue(QStringLiteral("orders"), 2, 0, 2);
        m_server.cli({"HSET", "dq:{orders}:config", "upgrade_cursor", "0"});
        m_fixture.connectWindow();
        const QByteArray before = digest();
        AdminClient* client = m_fixture.window()->client();
        QSignalSpy acted(client->tasks(), &TaskClient::actionFinished);
        QSignalSpy bulk(client->queues(), &QueueClient::bulkFinished);
        QSignalSpy configured(client->queues(), &QueueClient::configLoaded);
        const QString queue = QStringLiteral("orders");
        const QStringList dead = {QStringLiteral("dead-0"), QStringLiteral("dead-1")};
        const quint64 tag = AdminClient::newTag();
        if (action == QLatin1String("requeue"))
            client->tasks()->requeue(tag, queue, dead);
        else if (action == QLatin1String("delete dead"))
            client->tasks()->deleteDead(tag, queue, dead);
        else if (action == QLatin1String("requeue all dead"))
            client->queues()->requeueAllDead(tag, queue, 2);
        else if (action == QLatin1String("delete all dead"))
            client->queues()->deleteAllDead(tag, queue, 2);
        else if (action == QLatin1String("purge"))
            client->queues()->purge(tag, queue, 2);
        else
            client->queues()->writeConfig(tag, queue,
                                          {{QStringLiteral("max_attempts"), QStringLiteral("3")}});
        QTRY_COMPARE(acted.count() + bulk.count() + configured.count(), 1);
        const RequestError error =
            !acted.isEmpty()  ? acted.first().at(0).value<ActionResult>().error
            : !bulk.isEmpty() ? bulk.first().at(0).value<BulkActionResult>().error
                              : configured.first().at(0).value<QueueConfigResult>().error;
        QVERIFY2(error.code == delayq::ErrorCode::OldLayout, qPrintable(error.text()));
        QVERIFY2(error.message.contains(QStringLiteral("'delayq upgrade orders'")),
                 qPrintable(error.message));
        QCOMPARE(digest(), before);
    }

    void bulkStopsWhenTheServerChanges()
    {
        // Confirmed on one server, the purge must not go on against the next one.
        RedisServer other;
        QVERIFY2(other.start(), qPrintable(other.errorString()));
        fillQueue(QStringLiteral("orders"), 3000, 0, 0);
        {
            delayq::Connection conn(delayq::ConnectionOptions::fromUrl(other.unixUrl()));
            delayq::Queue q(conn, "orders");
            q.pushBatch(std::vector<delayq::PushRequest>(50, delayq::PushRequest{}));
        }
        openQueue(QStringLiteral("orders"));
        AdminClient* client = m_fixture.window()->client();
        QSignalSpy finished(client->queues(), &QueueClient::bulkFinished);
        // The switch is posted after the first step's answer: later steps meet the new server.
        connect(
            client->queues(), &QueueClient::bulkProgressed, m_fixture.window(),
            [this, &other] {
                m_fixture.window()->connectTo(
                    ConnectionSettings::forUrl(QString::fromStdString(other.unixUrl())));
            },
            Qt::SingleShotConnection);
        client->queues()->purge(AdminClient::newTag(), QStringLiteral("orders"), 3000, 1);
        QVERIFY(finished.wait(10000));
        const auto result = finished.first().at(0).value<BulkActionResult>();
        QVERIFY2(result.error.message.contains(QStringLiteral("another server")),
                 qPrintable(result.error.text()));
        QVERIFY2(result.error.code == delayq::ErrorCode::Connection,
                 qPrintable(result.error.text()));
        QCOMPARE(result.error.operation, QStringLiteral("purge"));
        QVERIFY(result.done < 3000);
        QCOMPARE(other.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("50"));
    }

private:
    QueueActions* queueActions() const { return m_fixture.window()->queueActions(); }
    TaskTable* pending() const { return m_fixture.window()->tabs()->table(TaskSet::Pending); }

    std::unique_ptr<delayq::Connection> connection() const
    {
        return std::make_unique<delayq::Connection>(
            delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    }

    // dead-0.. (died after their one attempt), active-0.. (leased for an hour) and pending
    // tasks due in an hour; max_attempts 7 in the queue's config.
    void fillQueue(const QString& name, qint64 pendingCount, int activeCount, int deadCount)
    {
        auto conn = connection();
        delayq::Queue q(*conn, name.toStdString());
        q.setConfig("max_attempts", "7");
        auto pushNow = [&](const char* prefix, int n) {
            std::vector<delayq::PushRequest> requests;
            for (int i = 0; i < n; ++i) {
                delayq::PushRequest r;
                r.id = prefix + std::to_string(i);
                r.maxAttempts = 1;
                r.payload = "{}";
                requests.push_back(r);
            }
            q.pushBatch(requests);
        };
        pushNow("dead-", deadCount);
        if (deadCount > 0)
            for (const auto& t : q.claim(deadCount, 60000, "w").tasks)
                QVERIFY(q.nack(t.id, t.token, "boom").dead);
        pushNow("active-", activeCount);
        if (activeCount > 0)
            QCOMPARE(q.claim(activeCount, 3600000, "w").tasks.size(), size_t(activeCount));
        std::vector<delayq::PushRequest> requests;
        for (qint64 i = 0; i < pendingCount; ++i) {
            delayq::PushRequest r;
            r.delayMs = 3600000;
            r.payload = "{}";
            requests.push_back(r);
        }
        if (!requests.empty())
            q.pushBatch(requests);
    }

    void openQueue(const QString& name) { m_fixture.openQueue(name); }

    PurgeDialog* openPurgeDialog()
    {
        QSignalSpy opened(queueActions(), &QueueActions::dialogOpened);
        queueActions()->purge()->trigger();
        if (!opened.wait(5000))
            return nullptr;
        return queueActions()->purgeDialog();
    }

    void startPurge(const QString& name)
    {
        PurgeDialog* dialog = openPurgeDialog();
        QVERIFY(dialog);
        QTest::keyClicks(dialog->nameEdit(), name);
        QVERIFY(dialog->purgeButton()->isEnabled());
        dialog->purgeButton()->click();
        QVERIFY(queueActions()->isRunning());
    }

    // The queue "big" of count pending tasks, open, its bulk actions in steps of batch tasks;
    // the window's client.
    AdminClient* openBigQueue(qint64 count, int batch)
    {
        fillQueue(QStringLiteral("big"), count, 0, 0);
        openQueue(QStringLiteral("big"));
        queueActions()->setBatch(batch);
        return m_fixture.window()->client();
    }

    // Requests run in order: once a page posted now is answered, whatever the actions had
    // sent before it has reached Redis.
    void drainRequests()
    {
        QSignalSpy loaded(m_fixture.window()->client()->tasks(), &TaskClient::pagesLoaded);
        const quint64 tag = AdminClient::newTag();
        m_fixture.window()->client()->tasks()->loadPages(tag, QStringLiteral("orders"),
                                                         TaskSet::Pending, {0}, 1);
        QTRY_VERIFY(std::any_of(loaded.cbegin(), loaded.cend(), [tag](const QList<QVariant>& a) {
            return a.at(0).value<PageResult>().tag == tag;
        }));
    }

    QByteArray digest() const { return m_server.cli({"DEBUG", "DIGEST"}); }
    QByteArray cli(const QStringList& args) const { return m_server.cli(args).trimmed(); }

    QString m_confirmation;
    bool m_answer = true;
};

QTEST_MAIN(TestQueueActions)
#include "tst_queueactions.moc"
