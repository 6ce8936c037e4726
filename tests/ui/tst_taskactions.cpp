#include "client/adminclient.h"
#include "client/taskclient.h"
#include "redisserver.h"
#include "tasks/pushdialog.h"
#include "tasks/rescheduledialog.h"
#include "tasks/taskactions.h"
#include "tasks/taskdetails.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QAction>
#include <QCheckBox>
#include <QDateTime>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace delayq::ui;
using delayq::TaskSet;

// What the task actions touch, against a real server: the confirmation names the tasks, a
// destructive action leaves nothing selected, and a push shows the task it made.
class TestTaskActions : public WindowSuite
{
    Q_OBJECT

public:
    TestTaskActions() : WindowSuite(QStringLiteral("tst_taskactions")) {}

private slots:

    void confirmationNamesTheTasks_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("selected");
        QTest::addColumn<QString>("accept");
        QTest::addColumn<QString>("reject");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("cancel one") << "cancel" << 1 << "Cancel 1 task"
                                    << "Keep" << QStringList{"Cancel 1 pending task", "due "};
        QTest::newRow("cancel seven")
            << "cancel" << 7 << "Cancel 7 tasks"
            << "Keep" << QStringList{"Cancel 7 pending tasks", "and 2 more", "{\"n\":0}"};
        QTest::newRow("requeue") << "requeue" << 2 << "Requeue 2 tasks"
                                 << "Leave dead"
                                 << QStringList{"attempts start again", "died ", "boom: t0"};
        QTest::newRow("delete") << "delete" << 3 << "Delete 3 tasks"
                                << "Keep" << QStringList{"cannot be undone", "died "};
    }
    void confirmationNamesTheTasks()
    {
        QFETCH(QString, action);
        QFETCH(int, selected);
        QFETCH(QString, accept);
        QFETCH(QString, reject);
        QFETCH(QStringList, words);
        QStringList ids;
        for (int i = 0; i < 8; ++i)
            ids.append(QStringLiteral("t%1").arg(i));
        TaskTable* table = openWith(action == QLatin1String("cancel"), ids);
        QList<int> rows;
        for (int i = 0; i < selected; ++i)
            rows.append(i);
        m_fixture.selectRows(table, rows);
        m_fixture.setAnswer(false); // "Keep": nothing may change
        trigger(action);
        QCOMPARE(m_fixture.confirmations(), 1);
        const Confirmation& asked = m_fixture.lastConfirmation();
        QCOMPARE(asked.acceptText, accept);
        QCOMPARE(asked.rejectText, reject);
        for (const QString& word : words)
            QVERIFY2(asked.text.contains(word),
                     qPrintable(word + QStringLiteral(" in ") + asked.text));
        // The server too: the same queue name elsewhere is another queue.
        QVERIFY2(asked.text.contains(QStringLiteral("\n\nServer: unix://") + m_server.socketPath()),
                 qPrintable(asked.text));
        // Up to five ids are named; the rest are counted.
        for (int i = 0; i < qMin(selected, 5); ++i)
            QVERIFY2(asked.text.contains(table->model()->idAt(i)), qPrintable(asked.text));
        if (selected > 5)
            QVERIFY(!asked.text.contains(table->model()->idAt(5)));
        // Kept: every task is still there and still selected.
        m_fixture.drainRequests();
        QCOMPARE(table->model()->rowCount(), 8);
        QCOMPARE(table->selectedIds().size(), qsizetype(selected));
    }

    // One task is "it", several are "they"; a death is "ago", never "overdue". The words are
    // patterns.
    void confirmationWordsFitTheCount_data()
    {
        // "died 22:30:23, 21m 53s ago" (a date before the time when that was yesterday).
        const QString kDiedAgo =
            QStringLiteral("died [-0-9 ]*\\d\\d:\\d\\d:\\d\\d, 2\\dm \\d+s ago");
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("selected");
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("cancel one")
            << "cancel" << 1 << QStringList{"It is deleted"} << QStringList{"They are deleted"};
        QTest::newRow("cancel two")
            << "cancel" << 2 << QStringList{"They are deleted"} << QStringList{"It is deleted"};
        QTest::newRow("run one now")
            << "run" << 1 << QStringList{"A worker takes it at once"} << QStringList{"them"};
        QTest::newRow("run two now")
            << "run" << 2 << QStringList{"A worker takes them at once"} << QStringList{"takes it"};
        QTest::newRow("requeue one")
            << "requeue" << 1 << QStringList{"Its attempts start again", kDiedAgo}
            << QStringList{"Their attempts", "overdue"};
        QTest::newRow("requeue two") << "requeue" << 2 << QStringList{"Their attempts", kDiedAgo}
                                     << QStringList{"Its attempts", "overdue"};
        QTest::newRow("delete one")
            << "delete" << 1 << QStringList{kDiedAgo} << QStringList{"overdue"};
    }
    void confirmationWordsFitTheCount()
    {
        QFETCH(QString, action);
        QFETCH(int, selected);
        QFETCH(QStringList, words);
        QFETCH(QStringList, absent);
        const bool pending = action == QLatin1String("cancel") || action == QLatin1String("run");
        const QStringList ids{"t0", "t1", "t2"};
        if (!pending) {
            // Died 21 minutes 53 seconds before the server's now.
            m_fixture.pushDead(QStringLiteral("orders"), ids);
            const QString died = QString::number(
                m_server.cli({"TIME"}).split('\n').first().trimmed().toLongLong() * 1000 -
                (21 * 60 + 53) * 1000);
            for (const QString& id : ids)
                m_server.cli({"ZADD", "dq:{orders}:dead", "XX", died, id});
        }
        TaskTable* table = openWith(pending, ids, pending);
        QList<int> rows;
        for (int i = 0; i < selected; ++i)
            rows.append(i);
        m_fixture.selectRows(table, rows);
        m_fixture.setAnswer(false);
        TaskActions* actions = m_fixture.window()->actions();
        if (action == QLatin1String("run"))
            actions->runNow()->trigger();
        else
            trigger(action);
        QCOMPARE(m_fixture.confirmations(), 1);
        const QString text = m_fixture.lastConfirmation().text;
        for (const QString& word : words)
            QVERIFY2(text.contains(QRegularExpression(word)),
                     qPrintable(word + QStringLiteral(" in ") + text));
        for (const QString& word : absent)
            QVERIFY2(!text.contains(QRegularExpression(word)),
                     qPrintable(word + QStringLiteral(" in ") + text));
    }

    void nothingSelectedAfterTheAction_data()
    {
        QTest::addColumn<QString>("action");
        QTest::newRow("cancel") << "cancel";
        QTest::newRow("reschedule") << "reschedule";
        QTest::newRow("requeue") << "requeue";
        QTest::newRow("delete") << "delete";
    }
    void nothingSelectedAfterTheAction()
    {
        QFETCH(QString, action);
        const QStringList ids{"a", "b", "c", "d"};
        TaskTable* table = openWith(
            action == QLatin1String("cancel") || action == QLatin1String("reschedule"), ids);
        m_fixture.selectRows(table, {1});
        QTRY_COMPARE(m_fixture.window()->details()->idText(), table->model()->idAt(1));
        QSignalSpy reported(m_fixture.window()->actions(), &TaskActions::resultReported);
        trigger(action);
        if (action == QLatin1String("reschedule")) {
            auto* dialog =
                qobject_cast<RescheduleDialog*>(m_fixture.window()->actions()->activeDialog());
            QVERIFY(dialog);
            dialog->delayEdit()->setText(QStringLiteral("in 2h"));
            dialog->accept();
        }
        QVERIFY(reported.wait(5000));
        QVERIFY2(reported.last().at(1).toBool(), qPrintable(reported.last().at(0).toString()));
        // After the refresh the next task sits in the row: it must not be the new target.
        QTRY_VERIFY(table->model()->rowCount() == 3 || action == QLatin1String("reschedule"));
        m_fixture.drainRequests();
        QVERIFY(!table->view()->selectionModel()->hasSelection());
        QVERIFY(!table->view()->selectionModel()->currentIndex().isValid());
        QVERIFY(!table->currentTask());
        QVERIFY(m_fixture.window()->details()->idText().isEmpty());
        TaskActions* actions = m_fixture.window()->actions();
        for (QAction* a :
             {actions->cancel(), actions->reschedule(), actions->requeue(), actions->deleteDead()})
            QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
    }

    void pushReportsAndSelectsTheTask()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {"first", "second"});
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskActions* actions = m_fixture.window()->actions();
        actions->push()->trigger();
        auto* dialog = qobject_cast<PushDialog*>(actions->activeDialog());
        QVERIFY(dialog);
        dialog->payloadEdit()->setPlainText(QStringLiteral("{\"order\": 42}"));
        dialog->idEdit()->setText(QStringLiteral("order-42"));
        dialog->delayEdit()->setText(QStringLiteral("in 45m"));
        QVERIFY2(dialog->dueText().contains(QStringLiteral("in 45m")),
                 qPrintable(dialog->dueText()));
        QSignalSpy reported(actions, &TaskActions::resultReported);
        dialog->accept();
        QVERIFY(reported.wait(5000));
        const QString summary = reported.first().at(0).toString();
        QVERIFY2(summary.startsWith(QStringLiteral("Pushed order-42 due ")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral(", in 4")), qPrintable(summary)); // 44m 59s or 45m
        // The new task is the selected one, shown in the details pane.
        TaskTable* pending = m_fixture.pending();
        QTRY_VERIFY(pending->currentTask() &&
                    pending->currentTask()->id == QStringLiteral("order-42"));
        QCOMPARE(pending->selectedIds(), QStringList{QStringLiteral("order-42")});
        QTRY_COMPARE(m_fixture.window()->details()->idText(), QStringLiteral("order-42"));
    }

    // Debounce and the dedup window from the push dialog (docs/design/keep.md), as the CLI's
    // push --debounce W [--debounce-payload] and --dedup D: what Redis holds after, and what
    // the summary says. "debounce": a pending remind-7 (due in 10m, {"v":1}) moves to the
    // dialog's 20m; "dedup": charge-42 pushed with a 1h window and acked is refused again.
    void pushDebouncesAndDedups_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("payloadToo");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QByteArray>("payload"); // of the task afterwards ("" = none)
        QTest::newRow("debounce, payload stays")
            << "debounce" << false << "Debounced remind-7 in queue orders: now due "
            << QByteArray("{\"v\":1}");
        QTest::newRow("debounce, payload moves")
            << "debounce" << true << "Debounced remind-7 in queue orders: now due "
            << QByteArray("{\"v\":2}");
        // remind-7 held by a worker: one follow-up is left, the running task untouched.
        QTest::newRow("debounce while running")
            << "running" << false << "remind-7 is running in queue orders: one follow-up is due "
            << QByteArray("{\"v\":1}");
        QTest::newRow("dedup window")
            << "dedup" << false
            << "Not pushed: charge-42 finished in queue orders within its dedup window, which "
               "ends "
            << QByteArray();
    }
    void pushDebouncesAndDedups()
    {
        QFETCH(QString, kind);
        QFETCH(bool, payloadToo);
        QFETCH(QString, summary);
        QFETCH(QByteArray, payload);
        const bool running = kind == QLatin1String("running");
        const bool debounce = kind == QLatin1String("debounce") || running;
        const QString id = debounce ? QStringLiteral("remind-7") : QStringLiteral("charge-42");
        m_fixture.pushTasks(QStringLiteral("orders"), {"first"});
        auto conn = std::make_unique<delayq::Connection>(
            delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(*conn, "orders");
        const long long now = conn->serverTimeMs();
        if (debounce) {
            delayq::PushRequest first;
            first.id = "remind-7";
            first.payload = "{\"v\":1}";
            first.delayMs = running ? 0 : 600000;
            QCOMPARE(q.push(first).status, delayq::PushResult::Status::Created);
        }
        if (running) {
            bool held = false;
            for (const auto& task : q.claim(10, 600000, "test").tasks)
                held = held || task.id == "remind-7";
            QVERIFY(held);
        }
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskActions* actions = m_fixture.window()->actions();
        QSignalSpy reported(actions, &TaskActions::resultReported);
        auto pushFromDialog = [&](const QString& delay) {
            actions->push()->trigger();
            auto* dialog = qobject_cast<PushDialog*>(actions->activeDialog());
            QVERIFY(dialog);
            dialog->payloadEdit()->setPlainText(QStringLiteral("{\"v\":2}"));
            dialog->idEdit()->setText(id);
            dialog->delayEdit()->setText(delay);
            if (debounce) {
                dialog->debounceEdit()->setText(QStringLiteral("1h"));
                dialog->debouncePayload()->setChecked(payloadToo);
            } else {
                dialog->dedupEdit()->setText(QStringLiteral("1h"));
            }
            dialog->accept();
            QVERIFY(reported.wait(5000));
        };
        if (!debounce) {
            // Pushed with its window, run and acked: the window starts.
            pushFromDialog(QStringLiteral("0"));
            QVERIFY2(reported.takeFirst().at(0).toString().startsWith(
                         QStringLiteral("Pushed charge-42 due ")),
                     "first push");
            const auto claimed = q.claim(10, 30000, "test");
            bool acked = false;
            for (const auto& task : claimed.tasks)
                if (task.id == "charge-42") {
                    q.ack(task.id, task.token);
                    acked = true;
                }
            QVERIFY(acked);
        }
        pushFromDialog(QStringLiteral("20m"));
        const QString said = reported.first().at(0).toString();
        QVERIFY2(said.startsWith(summary), qPrintable(said));
        const auto found = q.find(id.toStdString());
        if (payload.isEmpty()) {
            QVERIFY(!found); // not pushed again
            return;
        }
        QVERIFY(found);
        QCOMPARE(QByteArray::fromStdString(found->second.payload), payload);
        if (running) {
            QCOMPARE(found->first, TaskSet::Active); // still the worker's, as it was
            return;
        }
        // Moved from 10m to about 20m from now, within the 1h max wait.
        QVERIFY2(found->second.due >= now + 1190000 && found->second.due <= now + 1260000,
                 qPrintable(QString::number(found->second.due - now)));
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("2"));
    }

    // A refused write reaches the view with the core's code and what was being done, so the
    // app tells "no right" from "the server refuses writes" without reading the text.
    void refusalsCarryTheirCode_data()
    {
        QTest::addColumn<QStringList>("refuse");
        QTest::addColumn<QStringList>("restore");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("word");
        QTest::newRow("out of memory")
            << QStringList{"CONFIG", "SET", "maxmemory", "1"}
            << QStringList{"CONFIG", "SET", "maxmemory", "0"} << int(delayq::ErrorCode::OutOfMemory)
            << QStringLiteral("OOM");
        QTest::newRow("too few replicas")
            << QStringList{"CONFIG", "SET", "min-replicas-to-write", "1"}
            << QStringList{"CONFIG", "SET", "min-replicas-to-write", "0"}
            << int(delayq::ErrorCode::NoReplicas) << QStringLiteral("NOREPLICAS");
        QTest::newRow("ACL user without write rights")
            << QStringList{"ACL", "SETUSER", "default", "-@write", "-evalsha", "-eval"}
            << QStringList{"ACL", "SETUSER", "default", "+@all"}
            << int(delayq::ErrorCode::NoPermission) << QStringLiteral("NOPERM");
    }
    void refusalsCarryTheirCode()
    {
        QFETCH(QStringList, refuse);
        QFETCH(QStringList, restore);
        QFETCH(int, code);
        QFETCH(QString, word);
        m_fixture.pushTasks(QStringLiteral("orders"), {"kept"});
        m_fixture.openQueue(QStringLiteral("orders"));
        AdminClient* client = m_fixture.window()->client();
        QSignalSpy finished(client->tasks(), &TaskClient::actionFinished);
        m_server.cli(refuse);
        // A reschedule writes (ZADD): a cancel only frees memory, which Redis allows under OOM.
        client->tasks()->reschedule(AdminClient::newTag(), QStringLiteral("orders"),
                                    {QStringLiteral("kept")}, -1, 3600000);
        QVERIFY(finished.wait(5000));
        m_server.cli(restore);
        const auto result = finished.first().at(0).value<ActionResult>();
        QCOMPARE(result.action, TaskAction::Reschedule);
        QVERIFY2(result.error.code && int(*result.error.code) == code,
                 qPrintable(result.error.text()));
        QCOMPARE(result.error.operation, QStringLiteral("reschedule"));
        QVERIFY2(result.error.message.contains(word), qPrintable(result.error.text()));
        const QByteArray score = m_server.cli({"ZSCORE", "dq:{orders}:pending", "kept"}).trimmed();
        QVERIFY2(score.toLongLong() < QDateTime::currentMSecsSinceEpoch() + 600000, score);
    }

    void detailsFollowTheSelection()
    {
        m_fixture.pushDead(QStringLiteral("orders"), {"gone"}); // first: it claims what is due
        m_fixture.pushTasks(QStringLiteral("orders"), {"a", "b"});
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskTable* pending = m_fixture.pending();
        m_fixture.selectRows(pending, {1});
        QTRY_COMPARE(m_fixture.window()->details()->idText(), QStringLiteral("b"));
        // Ctrl+click on the selected row: still current, no longer selected.
        pending->view()->selectionModel()->select(pending->model()->index(1, 0),
                                                  QItemSelectionModel::Deselect |
                                                      QItemSelectionModel::Rows);
        QVERIFY(pending->view()->selectionModel()->currentIndex().isValid());
        QVERIFY(m_fixture.window()->details()->idText().isEmpty());
        QVERIFY(!m_fixture.window()->actions()->cancel()->isEnabled());

        // The Dead tab shows no task until one is selected there.
        m_fixture.selectRows(pending, {0});
        QTRY_COMPARE(m_fixture.window()->details()->idText(), QStringLiteral("a"));
        m_fixture.window()->tabs()->setCurrentSet(TaskSet::Dead);
        TaskTable* dead = m_fixture.table(TaskSet::Dead);
        QTRY_COMPARE(dead->model()->rowCount(), 1);
        QVERIFY(m_fixture.window()->details()->idText().isEmpty());
        QVERIFY(!m_fixture.window()->actions()->requeue()->isEnabled());
        m_fixture.selectRows(dead, {0});
        QTRY_COMPARE(m_fixture.window()->details()->idText(), QStringLiteral("gone"));
        QVERIFY(m_fixture.window()->actions()->requeue()->isEnabled());
    }

private:
    // A queue holding `ids` as pending tasks, or as dead ones; opened on that tab.
    TaskTable* openWith(bool pending, const QStringList& ids, bool push = true)
    {
        if (push && pending)
            m_fixture.pushTasks(QStringLiteral("orders"), ids);
        else if (push)
            m_fixture.pushDead(QStringLiteral("orders"), ids);
        m_fixture.openQueue(QStringLiteral("orders"));
        const TaskSet set = pending ? TaskSet::Pending : TaskSet::Dead;
        m_fixture.window()->tabs()->setCurrentSet(set);
        TaskTable* table = m_fixture.table(set);
        [&] { QTRY_COMPARE(table->model()->rowCount(), int(ids.size())); }();
        return table;
    }

    void trigger(const QString& action)
    {
        TaskActions* actions = m_fixture.window()->actions();
        QAction* a = action == QLatin1String("cancel")       ? actions->cancel()
                     : action == QLatin1String("reschedule") ? actions->reschedule()
                     : action == QLatin1String("requeue")    ? actions->requeue()
                                                             : actions->deleteDead();
        QVERIFY2(a->isEnabled(), qPrintable(action));
        a->trigger();
    }
};

QTEST_MAIN(TestTaskActions)
#include "tst_taskactions.moc"
