#include "find/findbar.h"
#include "overview/overviewmodel.h"
#include "overview/overviewpage.h"
#include "overview/serverview.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include "worker/workerdock.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace delayq::ui;
using delayq::TaskSet;

// The window at a laptop's 1024 x 700 and at 1600 x 1000: every page shows the columns an
// operator needs, and none makes the window wider than the screen.
class TestWindowLayout : public WindowSuite
{
    Q_OBJECT

public:
    TestWindowLayout() : WindowSuite(QStringLiteral("tst_windowlayout")) {}

private:
    MainWindow* window() const { return m_fixture.window(); }

    // A queue with a task in each set, a long payload and a long error, opened.
    void openFullQueue()
    {
        m_fixture.pushDead(QStringLiteral("orders"), {QStringLiteral("gone")});
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        delayq::PushRequest r;
        r.payload = "{\"order\":" + std::string(300, '7') + "}";
        for (int i = 0; i < 3; ++i)
            q.push(r);
        QVERIFY(q.claim(1, 600000, "worker-0123456789ab").tasks.size() == 1);
        m_fixture.openQueue(QStringLiteral("orders"));
    }

    void showAt(const QSize& size)
    {
        window()->resize(size);
        QVERIFY(QTest::qWaitForWindowExposed(window()));
        QTRY_COMPARE(window()->size(), size);
        QCoreApplication::sendPostedEvents();
    }

    // The section is inside the viewport, whole, and at least `chars` characters wide.
    static bool isReadable(QTableView* view, int column, int chars, QString* why)
    {
        const QHeaderView* header = view->horizontalHeader();
        const QString name = view->model()->headerData(column, Qt::Horizontal).toString();
        const int at = header->sectionViewportPosition(column);
        const int width = header->sectionSize(column);
        const int room = view->viewport()->width();
        const int least = view->fontMetrics().averageCharWidth() * chars;
        if (header->isSectionHidden(column) || at < 0 || at + width > room || width < least) {
            *why = QStringLiteral("%1: at %2, %3 px wide, viewport %4 px, wanted %5 px")
                       .arg(name)
                       .arg(at)
                       .arg(width)
                       .arg(room)
                       .arg(least);
            return false;
        }
        return true;
    }

    static void checkTable(QTableView* view, const QList<QPair<int, int>>& columns)
    {
        for (const auto& [column, chars] : columns) {
            QString why;
            QVERIFY2(isReadable(view, column, chars, &why), qPrintable(why));
        }
    }

    void checkMinimumWidth(const char* page)
    {
        QCoreApplication::sendPostedEvents();
        const int least = window()->minimumSizeHint().width();
        QVERIFY2(least <= 1024, qPrintable(QStringLiteral("%1: %2 px").arg(page).arg(least)));
        QVERIFY2(window()->width() <= qMax(1024, m_size.width()),
                 qPrintable(QStringLiteral("%1: grew to %2 px").arg(page).arg(window()->width())));
    }

    QSize m_size;

private slots:
    void pagesAtSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("laptop 1024x700") << QSize(1024, 700);
        QTest::newRow("desktop 1600x1000") << QSize(1600, 1000);
    }
    void pagesAtSize()
    {
        QFETCH(QSize, size);
        m_size = size;
        openFullQueue();
        showAt(size);
        TaskTabs* tabs = window()->tabs();
        // The columns of each set: all of them but the relative time on the dead tab, the
        // payload (the last one) with room for a readable start.
        const struct
        {
            TaskSet set;
            QList<QPair<TaskModel::Field, int>> fields;
        } sets[] = {
            {TaskSet::Pending,
             {{TaskModel::Field::Time, 12},
              {TaskModel::Field::Relative, 6},
              {TaskModel::Field::Id, 8},
              {TaskModel::Field::Attempts, 3},
              {TaskModel::Field::Payload, 12}}},
            {TaskSet::Active,
             {{TaskModel::Field::Time, 12},
              {TaskModel::Field::Relative, 6},
              {TaskModel::Field::Id, 8},
              {TaskModel::Field::Worker, 8},
              {TaskModel::Field::Attempts, 3},
              {TaskModel::Field::Payload, 12}}},
            {TaskSet::Dead,
             {{TaskModel::Field::Time, 12},
              {TaskModel::Field::Id, 8},
              {TaskModel::Field::Attempts, 3},
              {TaskModel::Field::LastError, 8},
              {TaskModel::Field::Payload, 12}}},
        };
        for (const auto& s : sets) {
            tabs->setCurrentSet(s.set);
            TaskTable* table = tabs->table(s.set);
            QTRY_VERIFY(table->model()->total() > 0);
            QCoreApplication::sendPostedEvents();
            QList<QPair<int, int>> columns;
            for (const auto& [field, chars] : s.fields)
                columns.append({table->model()->columnOf(field), chars});
            checkTable(table->view(), columns);
            if (QTest::currentTestFailed())
                return;
            // Nothing to scroll sideways to: every column is on screen.
            QVERIFY(!table->view()->horizontalScrollBar()->isVisible() ||
                    table->view()->horizontalScrollBar()->maximum() == 0);
            checkMinimumWidth("tasks");
        }

        // The find bar open does not widen the window either.
        tabs->showFind();
        QVERIFY(tabs->findBar()->isVisible());
        checkMinimumWidth("tasks with the find bar");
        if (QTest::currentTestFailed())
            return;

        // The embedded worker's panel shown.
        window()->workerDock()->show();
        checkMinimumWidth("tasks with the worker panel");
        if (QTest::currentTestFailed())
            return;
    }

    void overviewAtSize_data() { pagesAtSize_data(); }
    // The overview: every column but the node (shown on a cluster only).
    void overviewAtSize()
    {
        QFETCH(QSize, size);
        m_size = size;
        openFullQueue();
        showAt(size);
        window()->showOverview();
        QTRY_VERIFY(window()->overview()->model()->rowCount() > 0);
        QCoreApplication::sendPostedEvents();
        QList<QPair<int, int>> columns;
        for (int c = OverviewModel::Name; c < OverviewModel::ColumnCount; ++c)
            if (c != OverviewModel::Node && c != OverviewModel::Server) // both hidden here
                columns.append({c, c == OverviewModel::Name ? 8 : 3});
        checkTable(window()->overview()->view(), columns);
        if (QTest::currentTestFailed())
            return;
        checkMinimumWidth("overview");
    }

    // The server view, with the open queue's shards, fits a laptop's screen.
    void serverViewFits()
    {
        openFullQueue();
        ServerView view(window()->client(), window()->queue(), window());
        QSignalSpy loaded(&view, &ServerView::loaded);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(view.shards()->rowCount(), 1);
        QVERIFY(view.sizeHint().width() <= 1024);
        QVERIFY(view.minimumSizeHint().width() <= 1024);
        QVERIFY(view.minimumSizeHint().height() <= 700);
        QVERIFY(view.width() <= 1024 && view.height() <= 700);
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
