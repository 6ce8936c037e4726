#include "charts/throughputchart.h"
#include "client/adminclient.h"
#include "client/plainclient.h"
#include "find/findbar.h"
#include "plain/plainkeybar.h"
#include "queue/queuelist.h"
#include "redisserver.h"
#include "tasks/pushdialog.h"
#include "tasks/rescheduledialog.h"
#include "tasks/taskactions.h"
#include "tasks/taskdetails.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "widgets/fielderror.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include "worker/workerdock.h"
#include <delayq/connection.h>
#include <delayq/plainqueue.h>
#include <delayq/queue.h>

#include <QAbstractItemModel>
#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace delayq::ui;
using delayq::TaskSet;

// Plain sorted-set queues (members are the messages, scores the due times) in the window,
// against a real redis-server filled the way home-grown delay queues fill their keys.
class TestPlainQueueView : public WindowSuite
{
    Q_OBJECT

public:
    TestPlainQueueView() : WindowSuite(QStringLiteral("tst_plainqueueview")) {}

private slots:

    void discoveredKeysAreListedWithUnitAndSize_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("seconds");
        QTest::addColumn<int>("count");
        QTest::newRow("json with uuid, ms") << QStringLiteral("order:delay") << false << 3;
        QTest::newRow("json task, s") << QStringLiteral("jobs_delayed") << true << 2;
    }
    void discoveredKeysAreListedWithUnitAndSize()
    {
        QFETCH(QString, key);
        QFETCH(bool, seconds);
        QFETCH(int, count);
        fillPlain(key, seconds, count);
        // Not delay queues: a leaderboard (small scores) and a native queue's own set.
        m_server.cli({"ZADD", "leaderboard", "12", "alice", "40", "bob"});
        pushNative(QStringLiteral("orders"));

        QueueList* list = m_fixture.window()->queueList();
        QSignalSpy listed(list, &QueueList::plainKeysListed);
        connectWindow();
        QVERIFY(listed.wait(5000));
        QCOMPARE(list->plainKeys(), QStringList{key});
        QAbstractItemModel* model = list->plainView()->model();
        QCOMPARE(model->index(0, 0).data().toString(), key);
        QCOMPARE(model->index(0, 1).data().toString(),
                 seconds ? QStringLiteral("s") : QStringLiteral("ms"));
        QCOMPARE(model->index(0, 2).data().toLongLong(), qint64(count));

        // Opening one says which key and which unit.
        QSignalSpy opened(list, &QueueList::plainKeyOpened);
        const QModelIndex index = model->index(0, 0);
        emit list->plainView()->activated(index);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().at(0).toString(), key);
        QCOMPARE(opened.first().at(1).toString(), model->index(0, 1).data().toString());
    }

    void openedKeyIsListedCancelledAndRescheduled_data()
    {
        discoveredKeysAreListedWithUnitAndSize_data();
    }
    void openedKeyIsListedCancelledAndRescheduled()
    {
        QFETCH(QString, key);
        QFETCH(bool, seconds);
        QFETCH(int, count);
        const QStringList members = fillPlain(key, seconds, count);
        QueueList* list = m_fixture.window()->queueList();
        QSignalSpy listed(list, &QueueList::plainKeysListed);
        connectWindow();
        QVERIFY(listed.wait(5000));
        QSignalSpy loaded(m_fixture.window(), &MainWindow::queueLoaded);
        emit list->plainView()->activated(list->plainView()->model()->index(0, 0));
        QVERIFY(loaded.wait(5000));
        QVERIFY(m_fixture.window()->isPlain());
        // The open key is the one marked in the list.
        QCOMPARE(list->plainView()->selectionModel()->currentIndex().row(), 0);
        QVERIFY(list->plainView()->selectionModel()->isRowSelected(0));

        // Due order, though they were added latest first; the member is the row.
        TaskModel* model = pending()->model();
        QTRY_COMPARE(model->rowCount(), count);
        for (int i = 0; i < count; ++i) {
            QTRY_VERIFY(model->taskAt(i));
            QCOMPARE(model->idAt(i), members.at(i));
        }
        auto* tabs = m_fixture.window()->tabs()->findChild<QTabWidget*>();
        QCOMPARE(tabs->count(), 3);
        int visible = 0;
        for (int i = 0; i < tabs->count(); ++i)
            visible += tabs->isTabVisible(i) ? 1 : 0;
        QCOMPARE(visible, 2); // Pending, and Dead for the members a forwarder parked
        QVERIFY(!tabs->isTabVisible(static_cast<int>(TaskSet::Active)));
        QVERIFY(!m_fixture.window()->actions()->requeue()->isEnabled());

        // Cancel: the member leaves Redis.
        selectRow(0);
        QTRY_COMPARE(m_fixture.window()->details()->payload(), members.at(0).toUtf8());
        // The embedded worker pops plain keys too (workerPopsAndForwards).
        QVERIFY(m_fixture.window()->workerDock()->startButton()->isEnabled());
        QVERIFY(m_fixture.window()->actions()->cancel()->isEnabled());
        QSignalSpy reported(m_fixture.window()->actions(), &TaskActions::resultReported);
        QTest::keyClick(pending()->view(), Qt::Key_Delete);
        QVERIFY(reported.wait(5000));
        QCOMPARE(m_server.cli({QStringLiteral("ZSCORE"), key, members.at(0)}).trimmed(),
                 QByteArray());
        QCOMPARE(m_server.cli({QStringLiteral("ZCARD"), key}).trimmed(),
                 QByteArray::number(count - 1));
        QTRY_COMPARE(model->rowCount(), count - 1);

        // Reschedule: the member stays, due at the new time in the key's unit.
        QTRY_COMPARE(model->idAt(0), members.at(1));
        selectRow(0);
        m_fixture.rescheduleSelectionTo(QStringLiteral("2030-01-02T03:04:05.678Z"));
        const double score =
            m_server.cli({QStringLiteral("ZSCORE"), key, members.at(1)}).trimmed().toDouble();
        QVERIFY2(qAbs(score * (seconds ? 1000.0 : 1.0) - 1893553445678.0) < 1000.0,
                 qPrintable(QString::number(score, 'f')));
        QTRY_COMPARE(model->idAt(count - 2), members.at(1));

        // A member a poller took between the look and the click is reported, not hidden.
        selectRow(count - 2);
        m_server.cli({QStringLiteral("ZREM"), key, members.at(1)});
        reported.clear();
        m_fixture.window()->actions()->cancel()->trigger();
        QVERIFY(reported.wait(5000));
        const QString summary = reported.first().at(0).toString();
        QVERIFY2(summary.contains(QStringLiteral("no longer existed")), qPrintable(summary));
        QVERIFY(!reported.first().at(1).toBool());
        QCOMPARE(m_server.cli({QStringLiteral("ZCARD"), key}).trimmed(),
                 QByteArray::number(count - 2));

        // Push: the payload is the new member, added once (ZADD NX).
        const QString fresh = QStringLiteral("{\"id\":\"fresh\",\"msg\":\"x\"}");
        for (int round = 0; round < 2; ++round) {
            m_fixture.window()->actions()->push()->trigger();
            auto* push = qobject_cast<PushDialog*>(m_fixture.window()->actions()->activeDialog());
            QVERIFY(push);
            QCOMPARE(push->queueEdit()->text(), key);
            push->payloadEdit()->setPlainText(fresh);
            push->delayEdit()->setText(QStringLiteral("1h"));
            reported.clear();
            push->accept();
            QVERIFY(reported.wait(5000));
            QCOMPARE(reported.first().at(1).toBool(), round == 0);
        }
        QVERIFY(!m_server.cli({QStringLiteral("ZSCORE"), key, fresh}).trimmed().isEmpty());
        QCOMPARE(m_server.cli({QStringLiteral("ZCARD"), key}).trimmed(),
                 QByteArray::number(count - 1));
    }

    void binaryMembersAreShownEscapedAndCancelledExactly()
    {
        // A member that is not UTF-8 (Latin-1 text, a serialized binary id) must still be
        // the member the actions send back to Redis.
        const std::string binary = std::string("caf\xe9-order-\xff\x01", 13);
        const std::string text = "{\"id\":\"plain-text\"}";
        {
            auto conn = connection();
            const qint64 base = QDateTime::currentMSecsSinceEpoch() + 3600000;
            conn.command({"ZADD", "binkey", std::to_string(base), binary});
            conn.command({"ZADD", "binkey", std::to_string(base + 1000), text});
        }
        openKey(QStringLiteral("binkey"), QStringLiteral("ms"));
        TaskModel* model = pending()->model();
        QTRY_COMPARE(model->rowCount(), 2);
        QTRY_VERIFY(model->taskAt(0));
        const QString shown =
            model->index(0, model->columnOf(TaskModel::Field::Id)).data().toString();
        QCOMPARE(shown, QStringLiteral("caf\\xe9-order-\\xff\\x01"));
        selectRow(0);
        QTRY_COMPARE(m_fixture.window()->details()->payloadText(),
                     QStringLiteral("caf\\xe9-order-\\xff\\x01"));

        QSignalSpy reported(m_fixture.window()->actions(), &TaskActions::resultReported);
        m_fixture.window()->actions()->cancel()->trigger();
        QVERIFY(reported.wait(5000));
        QVERIFY2(reported.first().at(1).toBool(), qPrintable(reported.first().at(0).toString()));
        auto conn = connection();
        QVERIFY(conn.command({"ZSCORE", "binkey", binary}).isNil());
        QVERIFY(!conn.command({"ZSCORE", "binkey", text}).isNil());
    }

    void keyNameThatIsNotUtf8Opens()
    {
        // Key names are bytes too: one written by a Latin-1 service must still open.
        const std::string key = std::string("legacy:caf\xe9-delay", 17);
        {
            auto conn = connection();
            const qint64 base = QDateTime::currentMSecsSinceEpoch() + 3600000;
            conn.command({"ZADD", key, std::to_string(base), "a", std::to_string(base + 1), "b"});
        }
        QueueList* list = m_fixture.window()->queueList();
        QSignalSpy listed(list, &QueueList::plainKeysListed);
        connectWindow();
        QVERIFY(listed.wait(5000));
        QCOMPARE(list->plainKeys().size(), 1);
        QSignalSpy loaded(m_fixture.window(), &MainWindow::queueLoaded);
        emit list->plainView()->activated(list->plainView()->model()->index(0, 0));
        QVERIFY(loaded.wait(5000));
        QTRY_COMPARE(pending()->model()->rowCount(), 2);
        selectRow(0);
        QSignalSpy reported(m_fixture.window()->actions(), &TaskActions::resultReported);
        m_fixture.window()->actions()->cancel()->trigger();
        QVERIFY(reported.wait(5000));
        QVERIFY2(reported.first().at(1).toBool(), qPrintable(reported.first().at(0).toString()));
        QCOMPARE(connection().command({"ZCARD", key}).toInteger(), 1LL);
    }

    void findTextListsMatchesAndShowsTheChosenOne()
    {
        // More members than one scan step reads, a few of which hold the text.
        QStringList needles;
        {
            auto conn = connection();
            delayq::PlainQueue plain(conn, "bigkey", delayq::PlainQueue::ScoreUnit::Milliseconds);
            const qint64 base = QDateTime::currentMSecsSinceEpoch() + 3600000;
            std::vector<std::string> batch;
            for (int i = 0; i < 5000; ++i) {
                std::string member = "{\"order\":" + std::to_string(i) + "}";
                if (i % 1700 == 7) {
                    member = "{\"order\":" + std::to_string(i) + ",\"note\":\"refund-me\"}";
                    needles.append(QString::fromStdString(member));
                }
                conn.command({"ZADD", "bigkey", std::to_string(base + i * 1000), member});
            }
        }
        openKey(QStringLiteral("bigkey"), QStringLiteral("ms"));
        QTRY_COMPARE(pending()->model()->rowCount(), 5000);

        FindBar* bar = m_fixture.window()->tabs()->findBar();
        m_fixture.window()->actions()->find()->trigger();
        bar->input()->setText(QStringLiteral("refund-me"));
        QCOMPARE(bar->findButton()->text(), QStringLiteral("Find text"));
        QSignalSpy steps(m_fixture.window()->client()->plain(), &PlainClient::plainScanned);
        bar->findButton()->click();
        QTRY_VERIFY(!steps.isEmpty() && steps.last().at(0).value<PlainScanResult>().finished);
        // One bounded ZSCAN per step: a key this size takes several.
        QVERIFY2(steps.count() > 1, qPrintable(QString::number(steps.count())));
        const auto last = steps.last().at(0).value<PlainScanResult>();
        QVERIFY(last.complete);
        QCOMPARE(bar->matchList()->count(), needles.size());
        QVERIFY2(bar->searchStatus()->text().contains(QStringLiteral("3 found")),
                 qPrintable(bar->searchStatus()->text()));

        // Choosing a match selects its row in the table.
        bar->matchList()->setCurrentRow(1);
        const QString chosen = bar->matchList()->currentItem()->data(Qt::UserRole + 1).toString();
        QVERIFY(needles.contains(chosen));
        QTRY_VERIFY(pending()->currentTask() && pending()->currentTask()->id == chosen);
    }

    void searchStopsWhenCancelled()
    {
        // Enough members, read one step of ~1 at a time, that the search cannot end before
        // the first step's answer reaches the GUI thread and stops it.
        constexpr int kMembers = 20000;
        {
            std::vector<std::string> zadd{"ZADD", "stopkey"};
            const qint64 base = QDateTime::currentMSecsSinceEpoch() + 3600000;
            for (int i = 0; i < kMembers; ++i) {
                zadd.push_back(std::to_string(base + i));
                zadd.push_back("m" + std::to_string(i));
            }
            connection().command(zadd);
        }
        openKey(QStringLiteral("stopkey"), QStringLiteral("ms"));
        AdminClient* client = m_fixture.window()->client();
        QSignalSpy steps(client->plain(), &PlainClient::plainScanned);
        connect(client->plain(), &PlainClient::plainScanned, client->plain(),
                &PlainClient::cancelScan, Qt::SingleShotConnection);
        client->plain()->scanPlain(AdminClient::newTag(), QStringLiteral("stopkey"),
                                   QStringLiteral("m"), kMembers, 1);
        QTRY_VERIFY(!steps.isEmpty() && steps.last().at(0).value<PlainScanResult>().finished);
        const auto last = steps.last().at(0).value<PlainScanResult>();
        QVERIFY(last.cancelled);
        QVERIFY(!last.complete);
        QVERIFY2(last.scanned < kMembers, qPrintable(QString::number(last.scanned)));
    }

    void unitIsRememberedPerKey()
    {
        QSettings().remove(QStringLiteral("plain/units"));
        // Scores in seconds; the user says they are milliseconds (say, a key whose first
        // members were test data), and the app keeps that choice for the key.
        fillPlain(QStringLiteral("unitkey"), true, 2);
        openKey(QStringLiteral("unitkey"), QStringLiteral("s"));
        QComboBox* unit = m_fixture.window()->plainBar()->unitBox();
        QCOMPARE(unit->currentData().toString(), QStringLiteral("s"));
        QSignalSpy loaded(m_fixture.window(), &MainWindow::queueLoaded);
        unit->setCurrentIndex(unit->findData(QStringLiteral("ms")));
        QVERIFY(loaded.wait(5000));
        QCOMPARE(PlainKeyBar::rememberedUnit(QStringLiteral("unitkey")), QStringLiteral("ms"));
        // Read as ms, the seconds scores are in January 1970.
        QTRY_VERIFY(pending()->model()->taskAt(0));
        QTRY_VERIFY(pending()->model()->taskAt(0)->due < 365LL * 24 * 3600 * 1000);

        // A new window opened on the detected unit uses the remembered one instead.
        m_fixture.reopen();
        openKey(QStringLiteral("unitkey"), QStringLiteral("s"));
        QCOMPARE(m_fixture.window()->plainBar()->unitBox()->currentData().toString(),
                 QStringLiteral("ms"));
        // Another key is not affected.
        QCOMPARE(PlainKeyBar::rememberedUnit(QStringLiteral("otherkey")), QString());
    }

    void workerPopsAndForwards_data()
    {
        QTest::addColumn<QString>("forwardTo");
        QTest::newRow("pop only") << QString();
        QTest::newRow("forward to a list") << QStringLiteral("handoff");
    }
    void workerPopsAndForwards()
    {
        QFETCH(QString, forwardTo);
        {
            auto conn = connection();
            const qint64 past = QDateTime::currentMSecsSinceEpoch() - 1000;
            for (int i = 0; i < 6; ++i)
                conn.command(
                    {"ZADD", "popkey", std::to_string(past + i), "job-" + std::to_string(i)});
            // Not due for an hour: the worker must leave it.
            conn.command({"ZADD", "popkey", std::to_string(past + 3600000), "later"});
        }
        openKey(QStringLiteral("popkey"), QStringLiteral("ms"));
        WorkerDock* dock = m_fixture.window()->workerDock();
        QVERIFY(dock->forwardEdit()->isVisibleTo(dock));
        QVERIFY(!dock->leaseEdit()->isVisibleTo(dock));
        dock->forwardEdit()->setText(forwardTo);
        dock->sleepSpin()->setValue(0);
        dock->startWorker();
        QVERIFY(dock->isRunning());
        QTRY_COMPARE(m_server.cli({QStringLiteral("ZCARD"), QStringLiteral("popkey")}).trimmed(),
                     QByteArray("1"));
        QTRY_COMPARE(dock->acked(), 6LL);
        QSignalSpy stopped(dock, &WorkerDock::runningChanged);
        dock->stopWorker();
        QVERIFY(stopped.wait(5000));
        QVERIFY(!m_server.cli({"ZSCORE", "popkey", "later"}).trimmed().isEmpty());
        if (!forwardTo.isEmpty()) {
            QCOMPARE(m_server.cli({QStringLiteral("LLEN"), forwardTo}).trimmed(), QByteArray("6"));
            const QByteArray listed = m_server.cli(
                {QStringLiteral("LRANGE"), forwardTo, QStringLiteral("0"), QStringLiteral("-1")});
            for (int i = 0; i < 6; ++i)
                QVERIFY(listed.contains("job-" + QByteArray::number(i)));
        }
    }

    void whatDoesNotApplyIsHidden()
    {
        fillPlain(QStringLiteral("hidekey"), false, 2);
        openKey(QStringLiteral("hidekey"), QStringLiteral("ms"));
        m_fixture.window()->actions()->push()->trigger();
        auto* push = qobject_cast<PushDialog*>(m_fixture.window()->actions()->activeDialog());
        QVERIFY(push);
        QVERIFY(push->payloadEdit()->isVisibleTo(push));
        for (QWidget* field :
             {static_cast<QWidget*>(push->idEdit()), static_cast<QWidget*>(push->backoffEdit()),
              static_cast<QWidget*>(push->maxAttemptsSpin()),
              static_cast<QWidget*>(push->countSpin())})
            QVERIFY(!field->isVisibleTo(push));
        // An empty message is refused; nothing is added.
        push->payloadEdit()->setPlainText(QString());
        QVERIFY(!push->validate());
        QVERIFY(push->payloadError()->hasError());
        push->reject();
        QCOMPARE(m_server.cli({QStringLiteral("ZCARD"), QStringLiteral("hidekey")}).trimmed(),
                 QByteArray("2"));

        // The per-minute chart has nothing to show for a plain key, and says why.
        auto* note = m_fixture.window()->throughput()->findChild<QLabel*>();
        QVERIFY(note && note->isVisibleTo(m_fixture.window()->throughput()));
        QVERIFY(note->text().contains(QStringLiteral("plain sorted set")));

        // Back on a native queue, everything is there again.
        pushNative(QStringLiteral("orders"));
        m_fixture.window()->openQueue(QStringLiteral("orders"));
        QVERIFY(!note->isVisibleTo(m_fixture.window()->throughput()));
        QVERIFY(!m_fixture.window()->plainBar()->isVisibleTo(m_fixture.window()));
        m_fixture.window()->actions()->push()->trigger();
        push = qobject_cast<PushDialog*>(m_fixture.window()->actions()->activeDialog());
        QVERIFY(push && push->idEdit()->isVisibleTo(push));
        push->reject();
    }

    // A forwarder's failures are on the key's members (attempts, last error in the details),
    // and the members it parked are the Dead tab, read-only (the CLI requeues or deletes).
    void failuresAndParkedMembersAreShown()
    {
        const QStringList members = fillPlain(QStringLiteral("failing"), false, 2);
        m_server.cli({QStringLiteral("HSET"), QStringLiteral("dq:plain:{failing}:failures"),
                      members.at(0), QStringLiteral("4|1700000000000|NO_ROUTE order.x"),
                      QStringLiteral("gone-member"),
                      QStringLiteral("20|1700000000000|HTTP 500 from the endpoint")});
        m_server.cli({QStringLiteral("ZADD"), QStringLiteral("dq:plain:{failing}:parked"),
                      QStringLiteral("1700000000000"), QStringLiteral("gone-member")});
        openKey(QStringLiteral("failing"), QStringLiteral("ms"));
        TaskModel* model = pending()->model();
        QTRY_COMPARE(model->rowCount(), 2);
        QTRY_VERIFY(model->taskAt(0) && model->taskAt(1));
        QCOMPARE(model->taskAt(0)->attempts, 4);
        QCOMPARE(model->taskAt(0)->lastError, QStringLiteral("NO_ROUTE order.x"));
        QCOMPARE(model->taskAt(1)->attempts, 0);
        const int attempts = model->columnOf(TaskModel::Field::Attempts);
        QVERIFY(attempts >= 0 && !pending()->view()->isColumnHidden(attempts));

        TaskTable* dead = m_fixture.window()->tabs()->table(TaskSet::Dead);
        m_fixture.window()->tabs()->setCurrentSet(TaskSet::Dead);
        QTRY_COMPARE(dead->model()->rowCount(), 1);
        QTRY_VERIFY(dead->model()->taskAt(0));
        QCOMPARE(dead->model()->idAt(0), QStringLiteral("gone-member"));
        QCOMPARE(dead->model()->taskAt(0)->attempts, 20);
        QCOMPARE(dead->model()->taskAt(0)->lastError, QStringLiteral("HTTP 500 from the endpoint"));
        m_fixture.selectRows(dead, {0});
        QVERIFY(!m_fixture.window()->actions()->requeue()->isEnabled());
    }

private:
    delayq::Connection connection()
    {
        return delayq::Connection(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    }

    void openKey(const QString& key, const QString& unit) { m_fixture.openPlainKey(key, unit); }

    TaskTable* pending() const { return m_fixture.window()->tabs()->table(TaskSet::Pending); }

    void selectRow(int row) { m_fixture.selectRows(pending(), {row}); }
    void connectWindow() { m_fixture.connectWindow(); }

    // Members are JSON with a UUID, due from one hour ahead, one minute apart.
    // Returns the members in due order; they are added latest first.
    QStringList fillPlain(const QString& key, bool seconds, int count)
    {
        QStringList members;
        const qint64 base = QDateTime::currentMSecsSinceEpoch() + 3600000;
        for (int i = count - 1; i >= 0; --i) {
            const qint64 dueMs = base + i * 60000;
            const QString member = QStringLiteral("{\"id\":\"%1\",\"msg\":\"m%2\"}")
                                       .arg(QUuid::createUuid().toString(QUuid::WithoutBraces))
                                       .arg(i);
            m_server.cli({QStringLiteral("ZADD"), key,
                          QString::number(seconds ? dueMs / 1000 : dueMs), member});
            members.prepend(member);
        }
        return members;
    }

    void pushNative(const QString& queue)
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, queue.toStdString());
        delayq::PushRequest r;
        r.id = "a";
        r.payload = "{}";
        r.delayMs = 60000;
        q.pushBatch({r});
    }
};

QTEST_MAIN(TestPlainQueueView)
#include "tst_plainqueueview.moc"
