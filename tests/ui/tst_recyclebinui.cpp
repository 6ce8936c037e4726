#include "client/adminclient.h"
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
#include <QPushButton>
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
