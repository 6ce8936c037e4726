#include "client/adminclient.h"
#include "queue/purgedialog.h"
#include "queue/queueactions.h"
#include "queue/recyclebinactions.h"
#include "queue/recyclebindialog.h"
#include "redisserver.h"
#include "tasks/taskactions.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

using namespace delayq::ui;
using delayq::TaskSet;

// The recycle bin in the window (docs/design/bin.md): the status bar's Undo right after a
// removal, and Queue → Recycle Bin…, against a real redis-server.
class TestRecycleBinUi : public WindowSuite
{
    Q_OBJECT

public:
    TestRecycleBinUi() : WindowSuite(QStringLiteral("tst_recyclebinui")) {}

private slots:
    void undoRightAfterACancel()
    {
        m_fixture.connectWindow();
        m_fixture.pushTasks(QStringLiteral("orders"), {"a", "b", "c"});
        m_fixture.openQueue(QStringLiteral("orders"));
        TaskTable* pending = m_fixture.pending();
        QTRY_COMPARE(pending->model()->rowCount(), 3);
        const QByteArray payload = m_server.cli({"HGETALL", "dq:{orders}:pending"});
        RecycleBinActions* bin = m_fixture.window()->recycleBin();
        QVERIFY(!bin->undoButton()->isVisible());

        m_fixture.selectRows(pending, {0, 1});
        QAction* cancel = m_fixture.window()->actions()->cancel();
        QVERIFY(cancel->isEnabled());
        cancel->trigger();
        QTRY_COMPARE(pending->model()->rowCount(), 1);
        QTRY_VERIFY(bin->undoButton()->isVisible());
        QVERIFY(bin->undoButton()->toolTip().contains(QStringLiteral("2 tasks")));

        bin->undoButton()->click();
        QTRY_COMPARE(pending->model()->rowCount(), 3);
        QTRY_VERIFY(m_fixture.window()->statusBar()->currentMessage().contains(
            QStringLiteral("Restored 2 tasks to queue orders")));
        QVERIFY(!bin->undoButton()->isVisible());
        QCOMPARE(m_server.cli({"HGETALL", "dq:{orders}:pending"}), payload);
        QCOMPARE(m_server.cli({"HLEN", "dq:{orders}:bin"}).trimmed(), QByteArray("0"));
    }

    // The Undo names what it will undo on its face, not only in its tooltip: the removal, how
    // many tasks and, for a purge, the queue. Clicked, it restores them all.
    void undoNamesWhatItUndoes_data()
    {
        QTest::addColumn<QString>("removal");
        QTest::addColumn<int>("tasks"); // selected (cancel, delete dead); all for a purge
        QTest::addColumn<QString>("text");
        QTest::newRow("cancel one") << "cancel" << 1 << "Undo cancel of 1 task";
        QTest::newRow("cancel three") << "cancel" << 3 << "Undo cancel of 3 tasks";
        QTest::newRow("delete dead") << "delete dead" << 2 << "Undo delete of 2 dead tasks";
        QTest::newRow("purge") << "purge" << 4 << "Undo purge of orders (4 tasks)";
    }
    void undoNamesWhatItUndoes()
    {
        QFETCH(QString, removal);
        QFETCH(int, tasks);
        QFETCH(QString, text);
        m_fixture.connectWindow();
        const bool dead = removal == QLatin1String("delete dead");
        const QStringList ids{"a", "b", "c", "d"};
        if (dead)
            m_fixture.pushDead(QStringLiteral("orders"), ids.mid(0, tasks));
        else
            m_fixture.pushTasks(QStringLiteral("orders"), ids);
        m_fixture.openQueue(QStringLiteral("orders"));
        RecycleBinActions* bin = m_fixture.window()->recycleBin();
        TaskTable* table = m_fixture.table(dead ? TaskSet::Dead : TaskSet::Pending);
        if (dead)
            m_fixture.window()->tabs()->setCurrentSet(TaskSet::Dead);
        QTRY_COMPARE(table->model()->rowCount(), dead ? tasks : 4);
        if (removal == QLatin1String("purge")) {
            QueueActions* queueActions = m_fixture.window()->queueActions();
            QSignalSpy opened(queueActions, &QueueActions::dialogOpened);
            queueActions->purge()->trigger();
            QVERIFY(opened.wait(5000));
            PurgeDialog* dialog = queueActions->purgeDialog();
            QVERIFY(dialog);
            QTest::keyClicks(dialog->nameEdit(), QStringLiteral("orders"));
            dialog->purgeButton()->click();
        } else {
            QList<int> rows;
            for (int i = 0; i < tasks; ++i)
                rows.append(i);
            m_fixture.selectRows(table, rows);
            QAction* action = dead ? m_fixture.window()->actions()->deleteDead()
                                   : m_fixture.window()->actions()->cancel();
            QVERIFY(action->isEnabled());
            action->trigger();
        }
        QTRY_VERIFY(bin->undoButton()->isVisible());
        QCOMPARE(bin->undoButton()->text(), text);
        // The longest an Undo says still leaves the window a laptop's 1024 px wide.
        bin->undoButton()->setText(
            undoText(TaskAction::Purge, QString(64, QLatin1Char('q')), 10000000));
        QVERIFY2(m_fixture.window()->minimumSizeHint().width() <= 1024,
                 qPrintable(QString::number(m_fixture.window()->minimumSizeHint().width())));
        bin->undoButton()->click();
        QTRY_COMPARE(table->model()->rowCount(), dead ? tasks : 4);
        QVERIFY(!bin->undoButton()->isVisible());
    }

    // A long queue name is cut on the button (whole in the tooltip); an & in it is shown, not
    // taken for a shortcut.
    void undoTextOfAPurge_data()
    {
        QTest::addColumn<QString>("queue");
        QTest::addColumn<qint64>("tasks");
        QTest::addColumn<QString>("text");
        QTest::newRow("thousands") << "orders" << 1204LL << "Undo purge of orders (1,204 tasks)";
        QTest::newRow("one") << "orders" << 1LL << "Undo purge of orders (1 task)";
        QTest::newRow("long name") << "eu-west-1.billing.invoices.retry" << 7LL
                                   << "Undo purge of eu-west-1.billing.invoi… (7 tasks)";
        QTest::newRow("ampersand") << "r&d" << 2LL << "Undo purge of r&&d (2 tasks)";
    }
    void undoTextOfAPurge()
    {
        QFETCH(QString, queue);
        QFETCH(qint64, tasks);
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        const QString text = undoText(TaskAction::Purge, queue, tasks);
        QLocale::setDefault(before);
        QTEST(text, "text");
    }

    void theViewListsRemovalsWithTheirAuditEntryAndRestores()
    {
        m_fixture.connectWindow();
        m_fixture.pushDead(QStringLiteral("orders"), {"d1", "d2"});
        m_fixture.openQueue(QStringLiteral("orders"));
        m_fixture.window()->tabs()->setCurrentSet(TaskSet::Dead);
        TaskTable* dead = m_fixture.table(TaskSet::Dead);
        QTRY_COMPARE(dead->model()->rowCount(), 2);
        m_fixture.selectRows(dead, {0, 1});
        m_fixture.window()->actions()->deleteDead()->trigger();
        QTRY_COMPARE(dead->model()->rowCount(), 0);

        RecycleBinActions* bin = m_fixture.window()->recycleBin();
        QVERIFY(bin->viewAction()->isEnabled());
        bin->viewAction()->trigger();
        RecycleBinDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = m_fixture.window()->findChild<RecycleBinDialog*>()) != nullptr);
        QTRY_COMPARE(dialog->table()->rowCount(), 1);
        QCOMPARE(dialog->table()->item(0, 2)->text(), QStringLiteral("2"));
        const QString entry = dialog->table()->item(0, 3)->text();
        const QByteArray audit = m_server.cli({"XRANGE", "dq:{orders}:audit", "-", "+"});
        QVERIFY2(!entry.isEmpty() && audit.contains(entry.toUtf8()), audit.constData());

        dialog->table()->selectRow(0);
        QVERIFY(dialog->restoreButton()->isEnabled());
        dialog->restoreButton()->click();
        QTRY_COMPARE(dead->model()->rowCount(), 2);
        QTRY_COMPARE(dialog->table()->rowCount(), 0);
        dialog->close();
    }
};

QTEST_MAIN(TestRecycleBinUi)
#include "tst_recyclebinui.moc"
