#include "adminclient.h"
#include "fielderror.h"
#include "findbar.h"
#include "mainwindow.h"
#include "matchactions.h"
#include "matchclient.h"
#include "matchfilterdialog.h"
#include "taskactions.h"
#include "taskclipboard.h"
#include "taskmenu.h"
#include "taskmodel.h"
#include "tasktable.h"
#include "tasktabs.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace delayq::ui;

// Find by payload and by error on native queues, bulk actions on all tasks a filter matches,
// and the tables' context menus, against a real server.
class TestFindMatches : public WindowSuite
{
    Q_OBJECT

public:
    TestFindMatches() : WindowSuite(QStringLiteral("tst_findmatches")) {}

private slots:
    void searchesInSteps_data()
    {
        QTest::addColumn<bool>("dead");
        QTest::newRow("payloads of pending tasks") << false;
        QTest::newRow("last errors of dead tasks") << true;
    }
    void searchesInSteps()
    {
        QFETCH(bool, dead);
        // 20,000 tasks; every 1,000th holds the needle (in its payload, or its last error).
        seed(20000, dead);
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskTabs* tabs = m_fixture.window()->tabs();
        tabs->setCurrentSet(dead ? TaskSetKind::Dead : TaskSetKind::Pending);
        FindBar* bar = tabs->findBar();
        tabs->showFind();
        bar->fieldBox()->setCurrentIndex(dead ? 1 : 0);
        bar->input()->setText(QStringLiteral("needle"));
        QSignalSpy steps(tabs->matchClient(), &MatchClient::searched);
        bar->findTextButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            !steps.isEmpty() && steps.last().at(0).value<MatchScanResult>().finished, 20000);
        const auto last = steps.last().at(0).value<MatchScanResult>();
        QVERIFY(last.complete);
        QCOMPARE(last.read, 20000);
        QCOMPARE(last.found, 20);
        // 250 tasks a step: many steps, each reported as it came.
        QVERIFY2(steps.size() >= 40, qPrintable(QString::number(steps.size())));
        QCOMPARE(bar->matchList()->count(), 20);
        QVERIFY(bar->searchStatus()->text().contains(QStringLiteral("20 found")));
        QStringList found;
        for (const auto& step : steps)
            for (const TaskRow& row : step.at(0).value<MatchScanResult>().matches)
                found.append(row.id);
        QCOMPARE(found.size(), 20);
        for (const QString& id : found)
            QCOMPARE(id.mid(1).toInt() % 1000, 0);
        // Choosing a match selects its row, wherever it is.
        bar->matchList()->setCurrentRow(7);
        TaskTable* table = m_fixture.table(dead ? TaskSetKind::Dead : TaskSetKind::Pending);
        QTRY_VERIFY(table->currentTask() && table->currentTask()->id == found.at(7));
        const QByteArray rank = m_server.cli(
            {QStringLiteral("ZRANK"),
             dead ? QStringLiteral("dq:{orders}:dead") : QStringLiteral("dq:{orders}:pending"),
             found.at(7)});
        QCOMPARE(table->view()->currentIndex().row(), rank.trimmed().toInt());
    }

    void stopCancelsTheSearch()
    {
        seed(20000, false);
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskTabs* tabs = m_fixture.window()->tabs();
        FindBar* bar = tabs->findBar();
        tabs->showFind();
        bar->input()->setText(QStringLiteral("needle"));
        QSignalSpy steps(tabs->matchClient(), &MatchClient::searched);
        // Stop as the first step's matches are shown, as an operator's click would, but
        // without waiting for a poll: the search must still be running.
        bool clicked = false;
        bool visible = false;
        connect(tabs->matchClient(), &MatchClient::searched, bar, [&] {
            if (clicked)
                return;
            clicked = true;
            visible = bar->stopButton()->isVisible();
            bar->stopButton()->click();
        });
        bar->findTextButton()->click();
        QTRY_VERIFY(!steps.isEmpty() && steps.last().at(0).value<MatchScanResult>().finished);
        QVERIFY(visible);
        const auto last = steps.last().at(0).value<MatchScanResult>();
        QVERIFY(last.cancelled);
        QVERIFY(last.read > 0);
        QVERIFY(last.read < 20000);
        QVERIFY(bar->searchStatus()->text().startsWith(QStringLiteral("stopped")));
    }

    void filterWideRescheduleStopsAtTheConfirmedCount()
    {
        // 5,000 tasks match; 1,000 others do not.
        seed(6000, false, 5000);
        m_fixture.openQueue(QStringLiteral("orders"));
        MatchActions* actions = m_fixture.window()->actions()->matchActions();
        const qint64 to = QDateTime::currentMSecsSinceEpoch() + 86'400'000LL * 30;
        Confirmation asked;
        actions->setConfirmHandler([&](const Confirmation& c) {
            asked = c;
            // Matching tasks arrive between the count and the action.
            pushLate(300);
            return true;
        });
        QSignalSpy progress(actions, &MatchActions::progressed);
        QSignalSpy finished(actions, &MatchActions::finished);
        MatchFilter filter;
        filter.text = QStringLiteral("batch-A");
        actions->run(QStringLiteral("orders"), filter, TaskAction::Reschedule, to);
        QVERIFY(finished.wait(60000));
        QVERIFY2(asked.acceptText ==
                     QStringLiteral("Reschedule %1 tasks").arg(QLocale().toString(5000)),
                 qPrintable(asked.acceptText));
        QVERIFY(asked.text.contains(QStringLiteral("batch-A")));
        const auto result = finished.last().at(0).value<MatchApplyResult>();
        QCOMPARE(result.total, 5000);
        QCOMPARE(result.done, 5000);
        QCOMPARE(result.gone, 0);
        // 500 ids a step: it went in steps, with progress.
        QVERIFY(progress.size() >= 9);
        // Exactly the confirmed tasks moved; the late ones kept their time.
        QCOMPARE(zcount(QString::number(to), QString::number(to)), 5000);
        QCOMPARE(zcount(QStringLiteral("-inf"), QString::number(to - 1)), 1300);
    }

    void filtersByTimeAndError_data()
    {
        QTest::addColumn<int>("action");
        QTest::addColumn<bool>("dead");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("expected");
        // Pending tasks due one second apart from +1h: before +1h 100s are the first 100.
        QTest::newRow("cancel due before") << int(TaskAction::Cancel) << false << "" << 400 << 100;
        QTest::newRow("requeue by error")
            << int(TaskAction::Requeue) << true << "needle" << 4000 << 4;
        QTest::newRow("delete by error")
            << int(TaskAction::DeleteDead) << true << "needle" << 4000 << 4;
    }
    void filtersByTimeAndError()
    {
        QFETCH(int, action);
        QFETCH(bool, dead);
        QFETCH(QString, text);
        QFETCH(int, count);
        QFETCH(int, expected);
        seed(count, dead);
        m_fixture.openQueue(QStringLiteral("orders"));
        MatchActions* actions = m_fixture.window()->actions()->matchActions();
        MatchFilter filter;
        filter.set = dead ? TaskSetKind::Dead : TaskSetKind::Pending;
        filter.text = text;
        filter.inError = dead;
        if (!dead)
            filter.toMs = m_seedBase + 99'999;
        QSignalSpy finished(actions, &MatchActions::finished);
        actions->run(QStringLiteral("orders"), filter, TaskAction(action));
        QVERIFY(finished.wait(30000));
        const auto result = finished.last().at(0).value<MatchApplyResult>();
        QCOMPARE(result.total, expected);
        QCOMPARE(result.done, expected);
        const QByteArray left =
            m_server.cli({"ZCARD", dead ? "dq:{orders}:dead" : "dq:{orders}:pending"}).trimmed();
        QCOMPARE(left.toInt(), count - expected);
    }

    void dialogRefusesBadTimesThenActs()
    {
        seed(400, false);
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskActions* actions = m_fixture.window()->actions();
        QVERIFY(actions->actOnMatches()->isEnabled());
        actions->actOnMatches()->trigger();
        auto* dialog = qobject_cast<MatchFilterDialog*>(actions->activeDialog());
        QVERIFY(dialog);
        dialog->timeBox()->setCurrentIndex(2); // after
        dialog->timeEdit()->setText(QStringLiteral("next tuesday"));
        QSignalSpy finished(actions->matchActions(), &MatchActions::finished);
        dialog->accept();
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->error()->hasError());
        QCOMPARE(m_fixture.confirmations(), 0);
        // Due from the 301st task on: the last 100, cancelled.
        dialog->timeEdit()->setText(QDateTime::fromMSecsSinceEpoch(m_seedBase + 299'500, Qt::UTC)
                                        .toString(Qt::ISODateWithMs));
        dialog->actionBox()->setCurrentIndex(0);
        dialog->accept();
        QVERIFY2(!dialog->error()->hasError(), qPrintable(dialog->error()->text()));
        QVERIFY(finished.wait(20000));
        QCOMPARE(m_fixture.confirmations(), 1);
        QVERIFY2(m_fixture.lastConfirmation().acceptText == QStringLiteral("Cancel 100 tasks"),
                 qPrintable(m_fixture.lastConfirmation().acceptText));
        QCOMPARE(zcount(QStringLiteral("-inf"), QStringLiteral("+inf")), 300);
    }

    void contextMenuCopiesAndActs()
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        delayq::PushRequest big;
        big.id = "big";
        big.payload = std::string(10000, 'x') + "END";
        q.push(big);
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskTable* table = m_fixture.pending();
        m_fixture.selectRows(table, {0});
        TaskActions* actions = m_fixture.window()->actions();
        std::unique_ptr<QMenu> menu(actions->taskMenu()->build(table));
        QVERIFY(menu->actions().contains(actions->cancel()));
        QVERIFY(menu->actions().contains(actions->reschedule()));
        QVERIFY(menu->actions().contains(actions->runNow()));
        auto find = [&](const char* name) { return menu->findChild<QAction*>(name); };
        QClipboard* clipboard = QGuiApplication::clipboard();
        find("copyId")->trigger();
        QCOMPARE(clipboard->text(), QStringLiteral("big"));
        // The page holds 4 KiB of it: the whole payload is loaded first.
        find("copyPayload")->trigger();
        QTRY_COMPARE(clipboard->text().size(), 10003);
        QVERIFY(clipboard->text().endsWith(QStringLiteral("END")));
        clipboard->clear();
        find("copyJson")->trigger();
        QTRY_VERIFY(!clipboard->text().isEmpty());
        const QJsonObject o = QJsonDocument::fromJson(clipboard->text().toUtf8()).object();
        QCOMPARE(o.value("id").toString(), QStringLiteral("big"));
        QCOMPARE(o.value("state").toString(), QStringLiteral("pending"));
        QCOMPARE(o.value("payload").toString().size(), 10003);
        // The row's actions are the toolbar's: cancel asks, then cancels.
        m_fixture.setAnswer(true);
        actions->cancel()->trigger();
        QCOMPARE(m_fixture.confirmations(), 1);
        QTRY_COMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("0"));
    }

    void readOnlyOffersNoBulkWrites()
    {
        seed(50, false);
        m_fixture.connectWindow(true);
        m_fixture.window()->openQueue(QStringLiteral("orders"));
        QTRY_COMPARE(m_fixture.pending()->model()->rowCount(), 50);
        m_fixture.selectRows(m_fixture.pending(), {0});
        TaskActions* actions = m_fixture.window()->actions();
        QVERIFY(!actions->actOnMatches()->isEnabled());
        QVERIFY(!actions->runNow()->isEnabled());
        QVERIFY(!m_fixture.window()->tabs()->findBar()->actButton()->isEnabled());
        std::unique_ptr<QMenu> menu(actions->taskMenu()->build(m_fixture.pending()));
        for (QAction* a : menu->actions())
            if (actions->writeActions().contains(a))
                QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
        QVERIFY(menu->findChild<QAction*>("copyId")->isEnabled());
        // Asked anyway (a shortcut, a stale button): nothing opens, nothing changes.
        actions->actOn(MatchFilter{});
        QVERIFY(!actions->activeDialog());
        // The search itself is a read: it runs.
        FindBar* bar = m_fixture.window()->tabs()->findBar();
        m_fixture.window()->tabs()->showFind();
        bar->input()->setText(QStringLiteral("needle"));
        bar->findTextButton()->click();
        QTRY_VERIFY(bar->searchStatus()->text().contains(QStringLiteral("found")));
    }

private:
    // `count` tasks t00000.. due 1 s apart from +1h; every 1,000th (and t00000) holds
    // "needle". With dead, they died with the needle in their last error instead. The first
    // `batchA` payloads hold "batch-A".
    void seed(int count, bool dead, int batchA = 0)
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        m_seedBase = conn.serverNowMs() + 3'600'000;
        std::vector<delayq::PushRequest> batch;
        for (int i = 0; i < count; ++i) {
            delayq::PushRequest p;
            p.id = QStringLiteral("t%1").arg(i, 5, 10, QChar('0')).toStdString();
            p.dueAtMs = dead ? m_seedBase - 7'200'000 + i : m_seedBase + i * 1000LL;
            p.maxAttempts = 1;
            const bool needle = i % 1000 == 0 && !dead;
            p.payload = "{\"n\":" + std::to_string(i) + (needle ? ",\"needle\":1" : "") +
                        (i < batchA ? ",\"batch-A\":1" : "") + "}";
            batch.push_back(std::move(p));
        }
        q.pushBatch(batch);
        if (!dead)
            return;
        while (true) {
            const auto claimed = q.claim(1000, 600000, "w").tasks;
            if (claimed.empty())
                break;
            for (const auto& t : claimed)
                q.nack(t.id, t.token,
                       std::stoi(t.id.substr(1)) % 1000 == 0 ? "boom: needle in the error"
                                                             : "boom");
        }
    }

    void pushLate(int n)
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        std::vector<delayq::PushRequest> batch;
        for (int i = 0; i < n; ++i) {
            delayq::PushRequest p;
            p.payload = "{\"late\":" + std::to_string(i) + ",\"batch-A\":1}";
            p.delayMs = 3'600'000;
            batch.push_back(std::move(p));
        }
        q.pushBatch(batch);
    }

    int zcount(const QString& from, const QString& to)
    {
        return m_server
            .cli({QStringLiteral("ZCOUNT"), QStringLiteral("dq:{orders}:pending"), from, to})
            .trimmed()
            .toInt();
    }

    qint64 m_seedBase = 0;
};

QTEST_MAIN(TestFindMatches)
#include "tst_findmatches.moc"
