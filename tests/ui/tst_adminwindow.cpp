#include "charts/timelinechart.h"
#include "client/adminclient.h"
#include "client/matchclient.h"
#include "client/queueclient.h"
#include "client/taskclient.h"
#include "connection/connectiondialog.h"
#include "connection/connectionstatus.h"
#include "connection/sessionstore.h"
#include "find/findbar.h"
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
#include <delayq/keys.h>
#include <delayq/queue.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QClipboard>
#include <QMimeData>
#include <QGuiApplication>
#include <QTest>
#include <QTranslator>
#include <qcustomplot.h>

#include <memory>

using namespace delayq::ui;
using delayq::TaskSet;

// The whole window against a real redis-server: what an operator does goes to Redis.
class TestAdminWindow : public WindowSuite
{
    Q_OBJECT

public:
    TestAdminWindow() : WindowSuite(QStringLiteral("tst_adminwindow")) {}

private slots:

    void pushThroughTheDialog()
    {
        openQueue(QStringLiteral("orders"));
        m_fixture.window()->actions()->push()->trigger();
        auto* dialog = qobject_cast<PushDialog*>(m_fixture.window()->actions()->activeDialog());
        QVERIFY(dialog);
        QCOMPARE(dialog->queueEdit()->text(), QStringLiteral("orders"));
        dialog->payloadEdit()->setPlainText(QStringLiteral("{\"order\": 7}"));
        dialog->delayEdit()->setText(QStringLiteral("1h"));
        dialog->idEdit()->setText(QStringLiteral("order-7"));
        dialog->accept();
        TaskModel* model = pending()->model();
        QTRY_COMPARE(model->rowCount(), 1);
        QTRY_COMPARE(model->idAt(0), QStringLiteral("order-7"));
        const delayq::Keys keys("dq", "orders");
        QVERIFY(m_server.record(keys, "order-7").endsWith("|{\"order\": 7}"));
    }

    void pushDialogRefusesBadJsonAndSendsNothing()
    {
        openQueue(QStringLiteral("orders"));
        m_fixture.window()->actions()->push()->trigger();
        auto* dialog = qobject_cast<PushDialog*>(m_fixture.window()->actions()->activeDialog());
        QVERIFY(dialog);
        dialog->payloadEdit()->setPlainText(QStringLiteral("{oops"));
        dialog->accept();
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->payloadError()->isVisible());
        drainRequests();
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("0"));
    }

    void cancelThroughTheAction()
    {
        pushTasks(QStringLiteral("orders"), {"a", "b", "c"});
        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 3);
        selectRows({0, 1});
        QVERIFY(m_fixture.window()->actions()->cancel()->isEnabled());
        QSignalSpy reported(m_fixture.window()->actions(), &TaskActions::resultReported);
        QTest::keyClick(pending()->view(), Qt::Key_Delete);
        QVERIFY(reported.wait(5000));
        QVERIFY2(
            m_fixture.lastConfirmation().text.contains(QStringLiteral("Cancel 2 pending task")),
            qPrintable(m_fixture.lastConfirmation().text));
        QVERIFY2(reported.first().at(0).toString().contains(QStringLiteral("Cancelled 2 of 2")),
                 qPrintable(reported.first().at(0).toString()));
        QCOMPARE(m_server.cli({"ZRANGE", "dq:{orders}:pending", "0", "-1"}).trimmed(),
                 QByteArray("c"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
    }

    void cancelReportsTasksAlreadyRunning()
    {
        pushTasks(QStringLiteral("orders"), {"a", "b"});
        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 2);
        selectRows({0, 1});
        // A worker takes "a" between the operator's look and the click.
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        QCOMPARE(q.claim(1, 60000, "w").tasks.size(), size_t(1));
        QSignalSpy reported(m_fixture.window()->actions(), &TaskActions::resultReported);
        m_fixture.window()->actions()->cancel()->trigger();
        QVERIFY(reported.wait(5000));
        const QString summary = reported.first().at(0).toString();
        QVERIFY2(summary.contains(QStringLiteral("Cancelled 1 of 2")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("1 was already running")), qPrintable(summary));
        QCOMPARE(reported.first().at(1).toBool(), false);
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:active"}).trimmed(), QByteArray("1"));
    }

    void rescheduleThroughTheAction()
    {
        pushTasks(QStringLiteral("orders"), {"a"});
        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
        selectRows({0});
        m_fixture.rescheduleSelectionTo(QStringLiteral("2030-01-02T03:04:05.678Z"));
        QCOMPARE(m_server.cli({"ZSCORE", "dq:{orders}:pending", "a"}).trimmed(),
                 QByteArray("1893553445678"));
        QTRY_COMPARE(pending()->model()->taskAt(0) ? pending()->model()->taskAt(0)->score : 0,
                     qint64(1893553445678));
    }

    // Workers consume the head while a task is selected further down: it stays selected at
    // the same place on the screen (the rows around it move, not it); when it leaves, it is
    // unselected and the status bar says so (issue 49, path 3).
    void tableKeepsItsPlaceByTask()
    {
        QStringList ids;
        for (int i = 0; i < 60; ++i)
            ids.append(QStringLiteral("t%1").arg(i, 2, 10, QLatin1Char('0')));
        pushTasks(QStringLiteral("orders"), ids);
        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 60);
        QTableView* view = pending()->view();
        view->scrollTo(pending()->model()->index(20, 0), QAbstractItemView::PositionAtCenter);
        selectRows({20});
        QTRY_VERIFY(view->visualRect(pending()->model()->index(20, 0)).isValid());
        const int y = view->visualRect(view->currentIndex()).top();
        QVERIFY(y > 0);
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        std::vector<std::string> head;
        for (int i = 0; i < 10; ++i)
            head.push_back(ids.at(i).toStdString());
        q.cancel(head);
        m_fixture.window()->refreshAll();
        QTRY_COMPARE(pending()->model()->rowCount(), 50);
        QTRY_COMPARE(pending()->selectedIds(), QStringList{QStringLiteral("t20")});
        QCOMPARE(view->currentIndex().row(), 10);
        QCOMPARE(view->visualRect(view->currentIndex()).top(), y);
        // The selected task itself goes: nothing is selected, and the window says so.
        q.cancel({"t20"});
        m_fixture.window()->refreshAll();
        QTRY_COMPARE(pending()->model()->rowCount(), 49);
        QTRY_VERIFY(pending()->selectedIds().isEmpty());
        const QString said = m_fixture.window()->statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("Task t20 left the pending tasks of orders")),
                 qPrintable(said));
    }

    void openingAQueueSelectsNothing()
    {
        pushTasks(QStringLiteral("orders"), {"a", "b", "c"});
        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 3);
        drainRequests();
        QCOMPARE(pending()->selectedIds(), QStringList());
        QVERIFY(!pending()->currentTask());
        QVERIFY(m_fixture.window()->details()->idText().isEmpty());
        QVERIFY(!m_fixture.window()->actions()->cancel()->isEnabled());
        // Delete on the table, as an operator would after opening the queue: nothing is
        // asked, nothing is cancelled.
        pending()->view()->setFocus();
        QTest::keyClick(pending()->view(), Qt::Key_Delete);
        QTest::keyClick(m_fixture.window(), Qt::Key_Delete);
        drainRequests();
        QCOMPARE(m_fixture.confirmations(), 0);
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("3"));
    }

    void overviewShortcutsReachNoHiddenTask()
    {
        m_fixture.pushDead(QStringLiteral("orders"), {"x"}); // first: it claims what is due
        pushTasks(QStringLiteral("orders"), {"a", "b"});
        openQueue(QStringLiteral("orders"));
        selectRows({0});
        TaskActions* actions = m_fixture.window()->actions();
        QVERIFY(actions->cancel()->isEnabled());
        m_fixture.window()->showOverview();
        QVERIFY(m_fixture.window()->isOverviewShown());
        for (QAction* a : {actions->cancel(), actions->reschedule(), actions->runNow(),
                           actions->requeue(), actions->deleteDead(), actions->actOnMatches()})
            QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
        QTest::keyClick(m_fixture.window(), Qt::Key_Delete);
        QTest::keyClick(m_fixture.window(), Qt::Key_R, Qt::ControlModifier);
        QTest::keyClick(m_fixture.window(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        // Triggered anyway (a menu, a stale button): nothing is asked.
        actions->cancel()->trigger();
        drainRequests();
        QCOMPARE(m_fixture.confirmations(), 0);
        QVERIFY(!actions->activeDialog());
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("2"));
    }

    void ctrlRTakesTheTypedDelay()
    {
        pushTasks(QStringLiteral("orders"), {"a"});
        openQueue(QStringLiteral("orders"));
        selectRows({0});
        const QByteArray before = m_server.cli({"ZSCORE", "dq:{orders}:pending", "a"}).trimmed();
        TaskActions* actions = m_fixture.window()->actions();
        QTest::keyClick(pending()->view(), Qt::Key_R, Qt::ControlModifier);
        auto* dialog = qobject_cast<RescheduleDialog*>(actions->activeDialog());
        QVERIFY(dialog);
        QCOMPARE(dialog->windowTitle(), QStringLiteral("Reschedule: orders"));
        // It names what it acts on, as Cancel does: the queue, the id, the due time, the payload.
        QCOMPARE(dialog->introText(), QStringLiteral("Reschedule this task of queue orders:"));
        QVERIFY2(dialog->tasksText().startsWith(QStringLiteral("• a — due ")),
                 qPrintable(dialog->tasksText()));
        QTRY_COMPARE(QApplication::focusWidget(), dialog->delayEdit());
        QVERIFY(dialog->delayEdit()->text().isEmpty());
        // Enter at once accepts nothing unseen: it asks for a delay, and changes nothing.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->timeError()->isVisible());
        drainRequests();
        QCOMPARE(m_server.cli({"ZSCORE", "dq:{orders}:pending", "a"}).trimmed(), before);

        QSignalSpy reported(actions, &TaskActions::resultReported);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("3m"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QVERIFY(reported.wait(5000));
        const qint64 due =
            m_server.cli({"ZSCORE", "dq:{orders}:pending", "a"}).trimmed().toLongLong();
        QVERIFY2(qAbs(due - (now + 180000)) < 10000, qPrintable(QString::number(due - now)));
    }

    void requeueAndDeleteDeadTasks()
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        for (const char* id : {"d1", "d2", "d3"}) {
            delayq::PushRequest r;
            r.id = id;
            r.maxAttempts = 1;
            r.payload = "{}";
            q.push(r);
        }
        for (const auto& t : q.claim(3, 60000, "w").tasks)
            QVERIFY(q.nack(t.id, t.token, "boom").dead);
        openQueue(QStringLiteral("orders"));
        m_fixture.window()->tabs()->setCurrentSet(TaskSet::Dead);
        TaskTable* dead = m_fixture.window()->tabs()->table(TaskSet::Dead);
        QTRY_COMPARE(dead->model()->rowCount(), 3);
        QTRY_VERIFY(dead->model()->taskAt(2));
        QVERIFY(!m_fixture.window()->actions()->cancel()->isEnabled());
        dead->view()->setFocus();
        dead->view()->selectRow(0);
        QSignalSpy reported(m_fixture.window()->actions(), &TaskActions::resultReported);
        m_fixture.window()->actions()->requeue()->trigger();
        QVERIFY(reported.wait(5000));
        QVERIFY2(m_fixture.lastConfirmation().text.contains(QStringLiteral("1 dead task")),
                 qPrintable(m_fixture.lastConfirmation().text));
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("1"));
        QTRY_COMPARE(dead->model()->rowCount(), 2);
        dead->view()->selectAll();
        QTest::keyClick(dead->view(), Qt::Key_Delete, Qt::ShiftModifier);
        QVERIFY(reported.wait(5000));
        QVERIFY2(m_fixture.lastConfirmation().text.contains(QStringLiteral("Delete 2 dead task")),
                 qPrintable(m_fixture.lastConfirmation().text));
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:dead"}).trimmed(), QByteArray("0"));
        QTRY_COMPARE(dead->model()->rowCount(), 0);
    }

    void connectionDialogIsRememberedWithoutPassword()
    {
        m_server.cli({"ACL", "SETUSER", "ops", "on", ">ops-secret", "~*", "&*", "+@all"});
        QAction* connectAction = nullptr;
        for (QAction* action : m_fixture.window()->findChildren<QAction*>())
            if (action->iconText() == QStringLiteral("Connect…")) // the text less its &
                connectAction = action;
        QVERIFY(connectAction);
        connectAction->trigger();
        auto* dialog = m_fixture.window()->findChild<ConnectionDialog*>();
        QVERIFY(dialog);
        dialog->urlEdit()->setText(
            QStringLiteral("redis://ops:ops-secret@127.0.0.1:%1").arg(m_server.port()));
        dialog->accept();
        QTRY_VERIFY(m_fixture.window()->connectionStatus()->isUp());
        QVERIFY(!m_fixture.window()->actions()->isReadOnly());
        ConnectionSettings last;
        QVERIFY(SessionStore::lastConnection(&last));
        // Stored in the one spelling the core reads back the same, without the password.
        QCOMPARE(last.url, QStringLiteral("redis://127.0.0.1:%1/0?user=ops").arg(m_server.port()));
        QVERIFY(!last.url.contains(QStringLiteral("ops-secret")));
        m_server.cli({"ACL", "DELUSER", "ops"});
    }

    void readOnlyDisablesWrites()
    {
        pushTasks(QStringLiteral("orders"), {"a"});
        m_fixture.connectWindow(true);
        m_fixture.window()->openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
        selectRows({0});
        for (QAction* action : m_fixture.window()->actions()->writeActions()) {
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
            QVERIFY2(action->toolTip().contains(QStringLiteral("read-only"), Qt::CaseInsensitive),
                     qPrintable(action->toolTip()));
        }
        QVERIFY(!m_fixture.window()->workerDock()->startButton()->isEnabled());
        QVERIFY(m_fixture.window()->workerDock()->startButton()->toolTip().contains(
            QStringLiteral("read-only"), Qt::CaseInsensitive));
        QTest::keyClick(pending()->view(), Qt::Key_Delete);
        m_fixture.window()->actions()->push()->trigger();
        QVERIFY(!m_fixture.window()->actions()->activeDialog());
        drainRequests();
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("1"));
        // Reads still work.
        QVERIFY(m_fixture.window()->actions()->refresh()->isEnabled());
    }

    void aclReadOnlyUserGetsNoWrites()
    {
        pushTasks(QStringLiteral("orders"), {"a", "b"});
        // No script: task records are read with HGET where lua/buckets.lua puts them
        // (RecordTable), so the read-only user of admin.md needs no +eval (-@scripting here).
        m_server.cli({"ACL", "SETUSER", "viewer", "on", ">viewer-pw", "~*", "&*", "+@read",
                      "+@connection", "+info", "+time", "+select", "-@scripting"});
        m_fixture.connectWindow(
            false, QStringLiteral("redis://viewer:viewer-pw@127.0.0.1:%1").arg(m_server.port()));
        m_fixture.window()->openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 2);
        // The page read the records: payloads, not broken rows.
        QTRY_VERIFY(pending()->model()->taskAt(1));
        QCOMPARE(pending()->model()->taskAt(1)->payload, QByteArray("{\"n\":1}"));
        // Find id reads the task whole; find text scans the records.
        QSignalSpy shown(pending(), &TaskTable::rowShown);
        m_fixture.window()->tabs()->findId(QStringLiteral("b"));
        QVERIFY(shown.wait(5000));
        QTRY_COMPARE(m_fixture.window()->details()->idText(), QStringLiteral("b"));
        QVERIFY2(m_fixture.window()->details()->payloadText().contains(QStringLiteral("\"n\"")),
                 qPrintable(m_fixture.window()->details()->payloadText()));
        TaskTabs* tabs = m_fixture.window()->tabs();
        tabs->showFind();
        tabs->findBar()->input()->setText(QStringLiteral("\"n\":0"));
        QSignalSpy steps(tabs->matchClient(), &MatchClient::searched);
        tabs->findBar()->findTextButton()->click();
        QTRY_VERIFY(!steps.isEmpty() && steps.last().at(0).value<MatchScanResult>().finished);
        const auto found = steps.last().at(0).value<MatchScanResult>();
        QVERIFY2(found.error.isEmpty(), qPrintable(found.error.message));
        QCOMPARE(found.found, 1);
        selectRows({0});
        for (QAction* action : m_fixture.window()->actions()->writeActions()) {
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
            QVERIFY2(action->toolTip().contains(QStringLiteral("refuses writes")),
                     qPrintable(action->toolTip()));
        }
        QVERIFY(!m_fixture.window()->workerDock()->startButton()->isEnabled());
        m_server.cli({"ACL", "DELUSER", "viewer"});
    }

    // The write probe passed, then an ACL change refuses a request. Writes taken away make
    // the whole window read-only and stop the embedded worker (it logs in as the same user and
    // would fail every claim); one read refused leaves writes and the worker alone.
    void refusedRequestMakesReadOnlyOnlyWithoutWrites_data()
    {
        QTest::addColumn<QStringList>("refuse");
        QTest::addColumn<bool>("write");
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("writes taken away, a reschedule refused")
            << QStringList{"-@write", "-evalsha", "-eval"} << true << true;
        QTest::newRow("one read taken away, the audit refused")
            << QStringList{"-xrevrange"} << false << false;
    }
    void refusedRequestMakesReadOnlyOnlyWithoutWrites()
    {
        QFETCH(QStringList, refuse);
        QFETCH(bool, write);
        QFETCH(bool, readOnly);
        pushTasks(QStringLiteral("orders"), {"a"});
        m_fixture.connectWindow(false);
        m_fixture.window()->openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
        WorkerDock* dock = m_fixture.window()->workerDock();
        dock->startWorker();
        QVERIFY(dock->isRunning());
        AdminClient* client = m_fixture.window()->client();
        QSignalSpy actionDone(client->tasks(), &TaskClient::actionFinished);
        QSignalSpy auditDone(client->queues(), &QueueClient::auditLoaded);
        m_server.cli(QStringList{"ACL", "SETUSER", "default"} + refuse);
        const auto restore = qScopeGuard([&] {
            m_server.cli({"ACL", "SETUSER", "default", "+@all"});
        });
        if (write)
            client->tasks()->reschedule(AdminClient::newTag(), QStringLiteral("orders"),
                                        {QStringLiteral("a")}, -1, 3600000);
        else
            client->queues()->loadAudit(AdminClient::newTag(), QStringLiteral("orders"), 10);
        QSignalSpy& refused = write ? actionDone : auditDone;
        QVERIFY(refused.wait(5000));
        drainRequests();
        QTRY_COMPARE(dock->isRunning(), !readOnly);
        QCOMPARE(dock->startButton()->isEnabled(), !readOnly);
        if (readOnly)
            QVERIFY2(dock->startButton()->toolTip().contains(QStringLiteral("refused a write")),
                     qPrintable(dock->startButton()->toolTip()));
        QCOMPARE(m_fixture.window()->actions()->isReadOnly(), readOnly);
        if (dock->isRunning()) {
            QSignalSpy stopped(dock, &WorkerDock::runningChanged);
            dock->stopWorker();
            QVERIFY(stopped.wait(5000));
        }
    }

    void payloadIsShownLiterally()
    {
        const std::string html = "<b>x</b><img src=x>";
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        delayq::PushRequest r;
        r.id = "<i>id</i>";
        r.payload = html;
        q.push(r);
        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
        selectRows({0});
        TaskDetails* details = m_fixture.window()->details();
        QTRY_COMPARE(details->payloadText(), QString::fromStdString(html));
        QCOMPARE(details->idText(), QStringLiteral("<i>id</i>"));
        for (QLabel* label : details->findChildren<QLabel*>())
            QVERIFY2(label->textFormat() == Qt::PlainText, qPrintable(label->text()));
        const QModelIndex payload =
            pending()->model()->index(0, pending()->model()->columnOf(TaskModel::Field::Payload));
        QCOMPARE(payload.data().toString(), QString::fromStdString(html));
    }

    // The pane reads the selected task's recorded events, as plain text, and says when the
    // queue records none.
    void detailsShowTheTaskHistory()
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        q.setConfig("history", "10");
        delayq::PushRequest r;
        r.id = "t1";
        q.push(r);
        const auto claimed = q.claim(1, 60'000, "worker-7");
        QCOMPARE(claimed.tasks.size(), size_t(1));
        q.nack("t1", claimed.tasks[0].token, "<b>refused</b>", 0);
        delayq::Queue quiet(conn, "quiet");
        quiet.push(r);

        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
        TaskDetails* details = m_fixture.window()->details();
        QCOMPARE(details->historyText(), QString()); // nothing selected: nothing shown
        selectRows({0});
        // The date, then one line an event (a test run across midnight has two dates).
        QTRY_VERIFY2(details->historyText().count(QLatin1Char('\n')) >= 3,
                     qPrintable(details->historyText()));
        QStringList lines = details->historyText().split(QLatin1Char('\n'));
        QVERIFY2(QRegularExpression("^\\d{4}-\\d\\d-\\d\\d$").match(lines[0]).hasMatch(),
                 qPrintable(lines[0]));
        lines.removeIf([](const QString& l) { return !l.contains(QLatin1String("  ")); });
        QCOMPARE(lines.size(), 3);
        const QString time = QStringLiteral("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  ");
        QVERIFY2(QRegularExpression(time + "pushed  due \\d\\d:").match(lines[0]).hasMatch(),
                 qPrintable(lines[0]));
        QVERIFY2(QRegularExpression(time + "claimed  by worker-7, attempt 1, was due ")
                     .match(lines[1])
                     .hasMatch(),
                 qPrintable(lines[1]));
        QVERIFY2(QRegularExpression(time + "failed  by worker-7, <b>refused</b>, retry at ")
                     .match(lines[2])
                     .hasMatch(),
                 qPrintable(lines[2]));

        openQueue(QStringLiteral("quiet"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
        selectRows({0});
        QTRY_VERIFY2(details->historyText().startsWith(QStringLiteral("Not recorded")),
                     qPrintable(details->historyText()));
    }

    void bigPayloadIsShownWhole()
    {
        // Pages keep the first 4 KiB of a payload; the details pane fetches all of it.
        std::string big = "{\"blob\":\"" + std::string(100000, 'x') + "\"}";
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        delayq::PushRequest r;
        r.payload = big;
        q.push(r);
        openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
        QVERIFY(pending()->model()->taskAt(0)->payload.size() < 5000);
        selectRows({0});
        QTRY_COMPARE(m_fixture.window()->details()->payload().size(), qsizetype(big.size()));
        QCOMPARE(m_fixture.window()->details()->payloadText().count(QLatin1Char('x')), 100000);
    }

    // As the view draws it (its item options leave the group separator out): "1,200", as the
    // Pending tab and the Overview write it; it showed "1200".
    void queueListGroupsCountsLikeTheTabs()
    {
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        const auto restore = qScopeGuard([&] { QLocale::setDefault(before); });
        QStringList ids;
        for (int i = 0; i < 1200; ++i)
            ids.append(QStringLiteral("t%1").arg(i));
        pushTasks(QStringLiteral("orders"), ids);
        openQueue(QStringLiteral("orders"));
        QueueList* list = m_fixture.window()->queueList();
        QTRY_COMPARE(list->names(), (QStringList{"orders"}));
        QTableView* view = list->view();
        QStyleOptionViewItem option;
        option.locale = view->locale(); // what the view gives its delegate
        const QModelIndex pending = view->model()->index(0, 1);
        auto* delegate = qobject_cast<QStyledItemDelegate*>(view->itemDelegateForIndex(pending));
        QVERIFY(delegate);
        QTRY_COMPARE(delegate->displayText(pending.data(), option.locale), QStringLiteral("1,200"));
    }

    void queueListFiltersAndOpensByName()
    {
        pushTasks(QStringLiteral("orders"), {"a", "b"});
        pushTasks(QStringLiteral("emails"), {"c"});
        openQueue(QStringLiteral("orders"));
        QueueList* list = m_fixture.window()->queueList();
        QTRY_COMPARE(list->names(), (QStringList{"emails", "orders"}));
        auto* view = list->findChild<QTableView*>();
        list->filter()->setText(QStringLiteral("ema"));
        QCOMPARE(view->model()->rowCount(), 1);
        QCOMPARE(view->model()->index(0, 1).data().toLongLong(), 1LL);
        // A name that is not listed opens too; a bad one is refused next to the filter.
        list->filter()->setText(QStringLiteral("bad name"));
        QTest::keyClick(list->filter(), Qt::Key_Return);
        QCOMPARE(m_fixture.window()->queue(), QStringLiteral("orders"));
        QVERIFY(list->findChild<FieldError*>()->isVisible());
        list->filter()->setText(QStringLiteral("fresh"));
        QTest::keyClick(list->filter(), Qt::Key_Return);
        QCOMPARE(m_fixture.window()->queue(), QStringLiteral("fresh"));
        QVERIFY(m_fixture.window()->windowTitle().contains(QStringLiteral("fresh")));
    }

    void jsonPayloadIsPrettyPrinted()
    {
        bool json = false;
        QCOMPARE(TaskDetails::formatPayload("{\"a\":[1,2]}", &json),
                 QStringLiteral("{\n    \"a\": [\n        1,\n        2\n    ]\n}"));
        QVERIFY(json);
        QCOMPARE(TaskDetails::formatPayload("not {json", &json), QStringLiteral("not {json"));
        QVERIFY(!json);
    }

    // As sent: QJsonDocument's indenting sorted the keys (note before order).
    void jsonPayloadKeepsItsKeysInTheOrderSent()
    {
        QCOMPARE(TaskDetails::formatPayload("{\"order\":7,\"note\":\"x\"}"),
                 QStringLiteral("{\n    \"order\": 7,\n    \"note\": \"x\"\n}"));
        QCOMPARE(TaskDetails::formatPayload(" {\"b\": [ ], \"a\" : {\"s\":\"x,{y}:\\\"z\\\\\"}} "),
                 QStringLiteral("{\n    \"b\": [],\n    \"a\": {\n        \"s\": "
                                "\"x,{y}:\\\"z\\\\\"\n    }\n}"));
    }

    // Copy payload copies the bytes as stored, not the indented text the pane shows.
    void copyPayloadCopiesTheBytesAsStored()
    {
        TaskDetails details;
        TaskRow task;
        task.id = QStringLiteral("t1");
        task.state = QStringLiteral("pending");
        task.payload = QByteArray("{\"order\":7,\"note\":\"x\"}");
        task.payloadSize = task.payload.size();
        details.showTask(task, TaskSet::Pending);
        QPushButton* copy = nullptr;
        for (QPushButton* b : details.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Copy payload"))
                copy = b;
        QVERIFY(copy && copy->isEnabled());
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), QString::fromUtf8(task.payload));
        QCOMPARE(QGuiApplication::clipboard()->mimeData()->data(QStringLiteral("application/octet-stream")),
                 task.payload);
    }

    // The details pane's label for a shown task's payload, in English with its plurals.
    static QString payloadLabel(const QByteArray& payload)
    {
        QTranslator english;
        if (!english.load(QStringLiteral(":/i18n/delayq-admin_en.qm")))
            return QStringLiteral("no :/i18n/delayq-admin_en.qm");
        QCoreApplication::installTranslator(&english);
        const auto restore = qScopeGuard([&] { QCoreApplication::removeTranslator(&english); });
        TaskDetails details;
        TaskRow task;
        task.id = QStringLiteral("t1");
        task.state = QStringLiteral("pending");
        task.payload = payload;
        task.payloadSize = payload.size();
        details.showTask(task, TaskSet::Pending);
        return details.findChild<QLabel*>(QStringLiteral("payloadformat"))->text();
    }

    void payloadSizeSaysOneByteInTheSingular()
    {
        QCOMPARE(payloadLabel("x"), QStringLiteral("Payload (text, 1 byte)"));
        QCOMPARE(payloadLabel("xy"), QStringLiteral("Payload (text, 2 bytes)"));
    }

    void binaryPayloadIsSaidToBeBinary()
    {
        QCOMPARE(payloadLabel(QByteArray("\x00\x01"
                                         "bin\xff",
                                         6)),
                 QStringLiteral("Payload (binary, 6 bytes)"));
        QCOMPARE(payloadLabel("caf\xc3\xa9"), QStringLiteral("Payload (text, 5 bytes)"));
    }

    // A string longer than a display line is cut in pieces, each after the first marked:
    // unmarked, the cut read as a line break in the data.
    void aLongJsonStringIsNotShownWithALineBreak()
    {
        TaskDetails details;
        TaskRow task;
        task.id = QStringLiteral("t1");
        task.state = QStringLiteral("pending");
        task.payload = "{\"s\":\"" + QByteArray(2500, 'x') + "\"}";
        task.payloadSize = task.payload.size();
        details.showTask(task, TaskSet::Pending);
        const QStringList lines = details.payloadText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 5); // {, "s": "x…, ↪x…, ↪x…", }
        QVERIFY(!lines.at(1).startsWith(QChar(0x21AA)));
        QVERIFY(lines.at(2).startsWith(QChar(0x21AA)));
        QVERIFY(lines.at(3).startsWith(QChar(0x21AA)));
        QCOMPARE(details.payloadText().count(QLatin1Char('x')), 2500);
        QVERIFY(details.findChild<QLabel*>(QStringLiteral("payloadformat"))
                    ->text()
                    .contains(QChar(0x21AA)));
    }

    void embeddedWorkerDrainsTheQueue()
    {
        QStringList ids;
        for (int i = 0; i < 40; ++i)
            ids.append(QStringLiteral("t%1").arg(i));
        pushTasks(QStringLiteral("jobs"), ids);
        openQueue(QStringLiteral("jobs"));
        QCOMPARE(m_fixture.window()->workerDock()->targetText(),
                 QStringLiteral("Consumes queue jobs"));
        WorkerDock* dock = m_fixture.window()->workerDock();
        dock->sleepSpin()->setValue(0);
        dock->concurrencySpin()->setValue(2);
        dock->behaviourBox()->setCurrentIndex(dock->behaviourBox()->findData(WorkerDock::Ack));
        QVERIFY(dock->startButton()->isEnabled());
        dock->startButton()->click();
        QVERIFY(dock->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(m_server.cli({"ZCARD", "dq:{jobs}:pending"}).trimmed(),
                                  QByteArray("0"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(m_server.cli({"ZCARD", "dq:{jobs}:active"}).trimmed(),
                                  QByteArray("0"), 20000);
        QTRY_COMPARE(dock->acked(), 40LL);
        QTRY_VERIFY(dock->log()->toPlainText().contains(QStringLiteral("acked t")));
        QCOMPARE(m_server.cli({"HGET", "dq:{jobs}:stats", "acked"}).trimmed(), QByteArray("40"));
        dock->startButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isRunning(), 10000);
    }

    void embeddedWorkerFailsTasksOnRequest()
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "jobs");
        for (int i = 0; i < 5; ++i) {
            delayq::PushRequest r;
            r.maxAttempts = 1;
            r.payload = "{}";
            q.push(r);
        }
        openQueue(QStringLiteral("jobs"));
        WorkerDock* dock = m_fixture.window()->workerDock();
        dock->sleepSpin()->setValue(0);
        dock->behaviourBox()->setCurrentIndex(dock->behaviourBox()->findData(WorkerDock::FailSome));
        dock->failPercentSpin()->setValue(100);
        dock->startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(m_server.cli({"ZCARD", "dq:{jobs}:dead"}).trimmed(),
                                  QByteArray("5"), 20000);
        QTRY_VERIFY(dock->log()->toPlainText().contains(QStringLiteral("simulated failure")));
        dock->startButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isRunning(), 10000);
    }

    void showsDisconnectedAndReconnects()
    {
        openQueue(QStringLiteral("orders"));
        ConnectionStatus* status = m_fixture.window()->connectionStatus();
        QVERIFY(status->isUp());
        m_server.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!status->isUp(), 10000);
        QVERIFY(status->text().contains(QStringLiteral("Disconnected")));
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(status->isUp(), 10000);
        pushTasks(QStringLiteral("orders"), {"after"});
        m_fixture.window()->refreshAll();
        QTRY_COMPARE(pending()->model()->rowCount(), 1);
    }

    void timelineCountsTheQueue()
    {
        pushTasks(QStringLiteral("orders"), {"a", "b", "c"});
        openQueue(QStringLiteral("orders"));
        QTRY_VERIFY(m_fixture.window()->timeline()->hasData());
        QVERIFY(m_fixture.window()->timeline()->findChild<QLabel*>()->text().startsWith(
            QStringLiteral("3 tasks")));
    }

    void zoomingRecountsTheWindow()
    {
        const qint64 base = m_fixture.pushEveryMinute(QStringLiteral("orders"), 100);
        openQueue(QStringLiteral("orders"));
        TimelineChart* chart = m_fixture.window()->timeline();
        QTRY_VERIFY(chart->hasData());
        // Zoom to the ten minutes holding tasks 20..29 (as a wheel or drag would).
        QSignalSpy loaded(chart, &TimelineChart::loaded);
        const double from = static_cast<double>(base + 20 * 60000LL) / 1000.0;
        chart->plot()->xAxis->setRange(from, from + 600);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(chart->bucketStart(0), base + 20 * 60000LL);
        auto* caption = chart->findChild<QLabel*>();
        QVERIFY2(caption->text().startsWith(QStringLiteral("10 tasks")),
                 qPrintable(caption->text()));
        // A live refresh keeps the zoomed window.
        m_fixture.window()->refreshAll();
        QVERIFY(loaded.wait(5000));
        QCOMPARE(chart->bucketStart(0), base + 20 * 60000LL);
        chart->resetWindow();
        QVERIFY(loaded.wait(5000));
        QVERIFY(caption->text().startsWith(QStringLiteral("100 tasks")));
    }

    void clickingABarScrollsTheTable()
    {
        const qint64 base = m_fixture.pushEveryMinute(QStringLiteral("orders"), 600);
        openQueue(QStringLiteral("orders"));
        QSignalSpy shown(pending(), &TaskTable::rowShown);
        // What a click on the bar starting at the 400th task's due time asks for.
        emit m_fixture.window()->timeline()->timeClicked(base + 400 * 60000LL);
        QVERIFY(shown.wait(5000));
        QCOMPARE(shown.first().at(0).toInt(), 400);
        QVERIFY(pending()->view()->viewport()->rect().intersects(
            pending()->view()->visualRect(pending()->model()->index(400, 0))));
        // Scrolled, not selected: the next Delete must not aim at a task the chart picked.
        QVERIFY(!pending()->view()->selectionModel()->isRowSelected(400, QModelIndex()));
        // The row's page may still be on its way; the details must not show it once it is.
        QTRY_VERIFY(!pending()->model()->idAt(400).isEmpty());
        const QString shownId = pending()->model()->idAt(400);
        QVERIFY2(m_fixture.window()->details()->idText() != shownId,
                 qPrintable(m_fixture.window()->details()->idText()));
        QVERIFY(!m_fixture.window()->actions()->cancel()->isEnabled() ||
                !pending()->selectedIds().contains(pending()->model()->idAt(400)));
    }

    void utcAndLastQueueAreRemembered()
    {
        pushTasks(QStringLiteral("orders"), {"a"});
        pushTasks(QStringLiteral("emails"), {"b"});
        openQueue(QStringLiteral("emails"));
        m_fixture.window()->setUtc(true);
        QVERIFY(pending()
                    ->model()
                    ->headerData(0, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("(UTC)")));
        m_fixture.window()->close();

        // The next start on the same server: UTC on, the same queue open.
        m_fixture.reopen();
        QVERIFY(!m_fixture.window()->isUtc());
        m_fixture.window()->restoreLayout();
        QVERIFY(m_fixture.window()->isUtc());
        m_fixture.connectWindow();
        QVERIFY(m_fixture.window()->openLastQueue());
        QCOMPARE(m_fixture.window()->queue(), QStringLiteral("emails"));
        m_fixture.window()->setUtc(false);
        m_fixture.window()->close();

        // Another server: its queue of the same name is another queue, so nothing opens.
        m_fixture.reopen();
        m_fixture.window()->restoreLayout();
        QVERIFY(!m_fixture.window()->isUtc());
        m_fixture.window()->connectTo(
            ConnectionSettings::forUrl(QString::fromStdString(m_server.tcpUrl())));
        QVERIFY(!m_fixture.window()->openLastQueue());
        QVERIFY(m_fixture.window()->queue().isEmpty());
    }

private:
    TaskTable* pending() const { return m_fixture.window()->tabs()->table(TaskSet::Pending); }

    void openQueue(const QString& name) { m_fixture.openQueue(name); }
    void drainRequests() { m_fixture.drainRequests(); }
    void selectRows(const QList<int>& rows) { m_fixture.selectRows(pending(), rows); }
    void pushTasks(const QString& queue, const QStringList& ids)
    {
        m_fixture.pushTasks(queue, ids);
    }
};

QTEST_MAIN(TestAdminWindow)
#include "tst_adminwindow.moc"
