#include "queue/groupstab.h"
#include "queue/queuecontrol.h"
#include "queue/queuesettingsdialog.h"
#include "redisserver.h"
#include "tasks/taskdetails.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "widgets/fielderror.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QAbstractItemModel>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace delayq::ui;

// Fair order in the app (issue 51): the queue settings' Order and Group cap (saved, read back,
// said in the limits' preview, a bad cap refused) and the details pane's priority and group of
// the selected task, against a real redis-server.
class TestFairOrderUi : public WindowSuite
{
    Q_OBJECT

public:
    TestFairOrderUi() : WindowSuite(QStringLiteral("tst_fairorderui")) {}

private:
    std::unique_ptr<delayq::Connection> connection() const
    {
        return std::make_unique<delayq::Connection>(
            delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    }

    QueueSettingsDialog* openLoaded(const QString& queue)
    {
        QueueSettingsDialog* dialog = m_fixture.window()->queueControl()->openSettings(queue);
        QSignalSpy loaded(dialog, &QueueSettingsDialog::loaded);
        return loaded.wait(5000) ? dialog : nullptr;
    }

private slots:
    void dialogSetsOrder_data();
    void dialogSetsOrder();
    void detailsShowTags_data();
    void detailsShowTags();
    void groupsTabShowsTheBusiest_data();
    void groupsTabShowsTheBusiest();
};

void TestFairOrderUi::dialogSetsOrder_data()
{
    QTest::addColumn<QString>("order");    // the combo's data
    QTest::addColumn<QString>("groupCap"); // typed
    QTest::addColumn<QString>("said");     // the preview ends so; "" = refused
    QTest::addColumn<qlonglong>("stored"); // group_cap read back

    QTest::newRow("fair, cap 1") << "fair"
                                 << "1"
                                 << "; groups take turns; at most 1 task of a group runs at once"
                                 << 1LL;
    QTest::newRow("fair, cap 3") << "fair"
                                 << "3"
                                 << "; groups take turns; at most 3 tasks of a group run at once"
                                 << 3LL;
    QTest::newRow("fair, no cap") << "fair"
                                  << ""
                                  << "claim them; groups take turns" << 0LL;
    QTest::newRow("due, cap 2") << "due"
                                << "2"
                                << "; the group cap holds only in fair order" << 2LL;
    QTest::newRow("cap 0 refused") << "fair"
                                   << "0"
                                   << "" << 0LL;
}

void TestFairOrderUi::dialogSetsOrder()
{
    QFETCH(QString, order);
    QFETCH(QString, groupCap);
    QFETCH(QString, said);
    QFETCH(qlonglong, stored);

    m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
    m_fixture.openQueue(QStringLiteral("orders"));
    QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
    QVERIFY(dialog);
    QCOMPARE(dialog->orderBox()->currentData().toString(), QStringLiteral("due"));
    QCOMPARE(dialog->groupCapField()->text(), QString());
    dialog->orderBox()->setCurrentIndex(dialog->orderBox()->findData(order));
    dialog->groupCapField()->setText(groupCap);
    if (said.isEmpty()) {
        QVERIFY2(dialog->errorOf(8)->text().contains(QLatin1String("group cap of 0")),
                 qPrintable(dialog->errorOf(8)->text()));
        QVERIFY(!dialog->saveButton()->isEnabled());
        dialog->reject();
        return;
    }
    QVERIFY2(dialog->flowPreview()->text().endsWith(said),
             qPrintable(dialog->flowPreview()->text()));
    QSignalSpy saved(dialog, &QueueSettingsDialog::saved);
    dialog->saveButton()->click();
    QVERIFY(saved.wait(5000));
    const auto conn = connection();
    const delayq::QueueConfig config = delayq::Queue(*conn, "orders").config();
    QCOMPARE(config.fair, order == QLatin1String("fair"));
    QCOMPARE(config.groupCap, stored);
    dialog = openLoaded(QStringLiteral("orders"));
    QVERIFY(dialog);
    QCOMPARE(dialog->orderBox()->currentData().toString(), order);
    QCOMPARE(dialog->groupCapField()->text(), groupCap);
    dialog->reject();
}

void TestFairOrderUi::detailsShowTags_data()
{
    QTest::addColumn<int>("priority");
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("shown");

    QTest::newRow("both") << 5 << "tenant-42"
                          << "priority 5, group tenant-42";
    QTest::newRow("priority") << -2 << ""
                              << "priority -2";
    QTest::newRow("none") << 0 << ""
                          << "-";
}

void TestFairOrderUi::detailsShowTags()
{
    QFETCH(int, priority);
    QFETCH(QString, group);

    const auto conn = connection();
    delayq::Queue queue(*conn, "orders");
    queue.setConfig("order", "fair");
    delayq::PushRequest r;
    r.id = "t1";
    r.priority = priority;
    r.group = group.toStdString();
    queue.push(r);
    m_fixture.openQueue(QStringLiteral("orders"));
    QTRY_COMPARE(m_fixture.pending()->model()->rowCount(), 1);
    m_fixture.selectRows(m_fixture.pending(), {0});
    TaskDetails* details = m_fixture.window()->details();
    QTRY_COMPARE(details->idText(), QStringLiteral("t1"));
    QFETCH(QString, shown);
    QTRY_COMPARE(details->orderText(), shown);
}

void TestFairOrderUi::groupsTabShowsTheBusiest_data()
{
    QTest::addColumn<QString>("order");      // the queue's
    QTest::addColumn<QStringList>("pushes"); // a task's group each ("-": none)
    QTest::addColumn<int>("claim");          // tasks claimed (then one claim more)
    // The rows: "GROUP|DUE|RUNNING|HELD BY"; none: the note is shown instead.
    QTest::addColumn<QStringList>("rows");
    QTest::addColumn<QString>("summary"); // in the line above the table

    QTest::newRow("due order") << "due" << QStringList{"-"} << 0 << QStringList{} << "";
    QTest::newRow("fair") << "fair" << QStringList{"b", "tenant:a", "tenant:a", "-"} << 0
                          << QStringList{"tenant:a|2|0|", "(no group)|1|0|", "b|1|0|"}
                          << "Fair order: 3 groups in turn with due tasks, 0 at their cap";
    QTest::newRow("fair, group cap 1")
        << "fair" << QStringList{"a", "a", "a", "b"} << 2
        << QStringList{"a|2|1|its group cap", "b|0|1|"}
        << "Fair order, group cap 1: 0 groups in turn with due tasks, 1 at their cap";
}

void TestFairOrderUi::groupsTabShowsTheBusiest()
{
    QFETCH(QString, order);
    QFETCH(QStringList, pushes);
    QFETCH(int, claim);
    QFETCH(QStringList, rows);
    QFETCH(QString, summary);

    const auto conn = connection();
    delayq::Queue queue(*conn, "orders");
    if (order == "fair")
        queue.setConfig("order", "fair");
    if (QTest::currentDataTag() == QByteArray("fair, group cap 1"))
        queue.setConfig("group_cap", "1");
    for (const QString& group : pushes) {
        delayq::PushRequest r;
        if (group != "-")
            r.group = group.toStdString();
        queue.push(r);
    }
    if (claim > 0) {
        queue.claim(claim, 60000, "w1");
        queue.claim(1, 60000, "w1"); // finds the groups at their cap
    }
    m_fixture.openQueue(QStringLiteral("orders"));
    GroupsTab* tab = m_fixture.window()->groups();
    QSignalSpy loaded(tab, &GroupsTab::loaded);
    // Behind the timeline it loads nothing; brought to the front it loads.
    QTest::qWait(200);
    QCOMPARE(loaded.count(), 0);
    auto* dock = m_fixture.window()->findChild<QDockWidget*>(QStringLiteral("groupsdock"));
    QVERIFY(dock);
    dock->raise();
    QVERIFY(loaded.wait(5000));
    QCOMPARE(tab->isNoteShown(), rows.isEmpty());
    if (rows.isEmpty()) {
        QVERIFY2(tab->note()->text().contains(QStringLiteral("due order")),
                 qPrintable(tab->note()->text()));
        return;
    }
    QAbstractItemModel* model = tab->view()->model();
    QStringList seen;
    for (int row = 0; row < model->rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < GroupsTab::ColumnCount; ++column)
            cells << model->index(row, column).data().toString();
        seen << cells.join('|');
    }
    QCOMPARE(seen, rows);
    QVERIFY2(tab->summary()->text().startsWith(summary), qPrintable(tab->summary()->text()));
    QCOMPARE(tab->summary()->textFormat(), Qt::PlainText);
    QCOMPARE(tab->footer()->text(),
             QStringLiteral("The busiest %1 of every group").arg(rows.size()));
}

QTEST_MAIN(TestFairOrderUi)
#include "tst_fairorderui.moc"
