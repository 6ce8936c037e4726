#include "audit/audittab.h"
#include "client/adminclient.h"
#include "client/queueclient.h"
#include "client/taskclient.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/version.h>

#include <QAbstractItemModel>
#include <QDateTime>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimeZone>

using namespace delayq::ui;

// The Audit tab: the open queue's trail, with the changes made through the window itself.
class TestAuditTab : public WindowSuite
{
    Q_OBJECT

public:
    TestAuditTab() : WindowSuite(QStringLiteral("tst_audittab")) {}

private slots:
    void showsTheWindowsOwnChanges()
    {
        MainWindow* window = m_fixture.window();
        AuditTab* audit = window->audit();
        QVERIFY(audit->isNoteShown()); // no queue open yet
        // Pushed by the fixture's own connection, which has no actor: no entry.
        m_fixture.pushTasks(QStringLiteral("orders"), {"<b>t1</b>", "t2", "t3"});
        m_fixture.openQueue(QStringLiteral("orders"));
        QVERIFY(!audit->isNoteShown());

        AdminClient* client = window->client();
        QSignalSpy acted(client->tasks(), &TaskClient::actionFinished);
        client->tasks()->cancel(AdminClient::newTag(), QStringLiteral("orders"),
                                {"<b>t1</b>", "t2"});
        QVERIFY(acted.wait(5000));
        QSignalSpy purged(client->queues(), &QueueClient::bulkFinished);
        client->queues()->purge(AdminClient::newTag(), QStringLiteral("orders"), 10);
        QVERIFY(purged.wait(5000));

        // Behind the history chart it loads nothing; brought to the front it loads.
        auto* dock = window->findChild<QDockWidget*>(QStringLiteral("auditdock"));
        QVERIFY(dock);
        dock->raise();
        QAbstractItemModel* rows = audit->view()->model();
        QTRY_COMPARE(rows->rowCount(), 2);
        auto cell = [&](int row, int column) { return rows->index(row, column).data().toString(); };
        // Newest first.
        QCOMPARE(cell(0, 4), QStringLiteral("purge"));
        QCOMPARE(cell(0, 5), QStringLiteral("1"));
        QCOMPARE(cell(1, 4), QStringLiteral("cancel"));
        QCOMPARE(cell(1, 5), QStringLiteral("2"));
        // Ids are untrusted text: shown as the characters they are.
        QCOMPARE(cell(1, 6), QStringLiteral("<b>t1</b> t2"));
        QCOMPARE(cell(1, 1), QStringLiteral("default"));
        QCOMPARE(cell(1, 3), QStringLiteral("delayq-admin " DELAYQ_VERSION));
        QVERIFY(cell(1, 2).contains(QLatin1Char('@')));

        // The filter looks at every column, ignoring case.
        audit->filter()->setText(QStringLiteral("CANCEL"));
        QCOMPARE(rows->rowCount(), 1);
        audit->filter()->setText(QStringLiteral("nobody-by-that-name"));
        QCOMPARE(rows->rowCount(), 0);
        audit->filter()->clear();
        QCOMPARE(rows->rowCount(), 2);

        // Refreshed with the others: a change made elsewhere shows up.
        client->tasks()->deleteDead(AdminClient::newTag(), QStringLiteral("orders"), {"none"});
        QVERIFY(acted.wait(5000)); // changed nothing: no entry
        PushSpec spec;
        spec.queue = QStringLiteral("orders");
        client->tasks()->push(AdminClient::newTag(), spec);
        QVERIFY(acted.wait(5000));
        window->refreshAll();
        QTRY_COMPARE(rows->rowCount(), 3);
        QCOMPARE(cell(0, 4), QStringLiteral("push"));
    }

    // A reschedule's new due time reads as a time in the zone of the Time column, not as
    // epoch milliseconds; other details stay as they are.
    void rescheduleDetailIsATime_data()
    {
        QTest::addColumn<bool>("utc");
        QTest::newRow("local") << false;
        QTest::newRow("utc") << true;
    }
    void rescheduleDetailIsATime()
    {
        QFETCH(bool, utc);
        MainWindow* window = m_fixture.window();
        window->setUtc(utc);
        m_fixture.pushTasks(QStringLiteral("orders"), {"t1", "t2"});
        m_fixture.openQueue(QStringLiteral("orders"));
        const qint64 due = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000 + 86'400'000;
        AdminClient* client = window->client();
        QSignalSpy acted(client->tasks(), &TaskClient::actionFinished);
        client->tasks()->reschedule(AdminClient::newTag(), QStringLiteral("orders"), {"t1"}, due,
                                    0);
        QVERIFY(acted.wait(5000));
        client->tasks()->cancel(AdminClient::newTag(), QStringLiteral("orders"), {"t2"});
        QVERIFY(acted.wait(5000));
        AuditTab* audit = window->audit();
        window->findChild<QDockWidget*>(QStringLiteral("auditdock"))->raise();
        QAbstractItemModel* rows = audit->view()->model();
        QTRY_COMPARE(rows->rowCount(), 2);
        const QDateTime at = utc ? QDateTime::fromMSecsSinceEpoch(due, QTimeZone::utc())
                                 : QDateTime::fromMSecsSinceEpoch(due);
        const QString expected = QStringLiteral("t1  due ") +
                                 at.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
                                 (utc ? QStringLiteral(" UTC") : QString());
        QCOMPARE(rows->index(1, 4).data().toString(), QStringLiteral("reschedule"));
        QCOMPARE(rows->index(1, 6).data().toString(), expected);
        QCOMPARE(rows->index(0, 6).data().toString(), QStringLiteral("t2"));
    }

    // "Entries shown" is what the filter lets through, of what was loaded.
    void footerCountsWhatIsShown_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("footer");
        QTest::newRow("no filter") << QString() << "Entries shown: 3 (newest first)";
        QTest::newRow("one action") << "cancel"
                                    << "Entries shown: 2 of 3 (newest first)";
        QTest::newRow("nothing") << "nobody"
                                 << "Entries shown: 0 of 3 (newest first)";
    }
    void footerCountsWhatIsShown()
    {
        QFETCH(QString, filter);
        m_fixture.pushTasks(QStringLiteral("orders"), {"t1", "t2", "t3"});
        m_fixture.openQueue(QStringLiteral("orders"));
        AdminClient* client = m_fixture.window()->client();
        QSignalSpy acted(client->tasks(), &TaskClient::actionFinished);
        for (const char* id : {"t1", "t2"}) {
            client->tasks()->cancel(AdminClient::newTag(), QStringLiteral("orders"), {id});
            QVERIFY(acted.wait(5000));
        }
        client->tasks()->reschedule(AdminClient::newTag(), QStringLiteral("orders"), {"t3"}, -1, 0);
        QVERIFY(acted.wait(5000));
        AuditTab* audit = m_fixture.window()->audit();
        m_fixture.window()->findChild<QDockWidget*>(QStringLiteral("auditdock"))->raise();
        QTRY_COMPARE(audit->view()->model()->rowCount(), 3);
        audit->filter()->setText(filter);
        QTEST(audit->footer()->text(), "footer");
    }
};

QTEST_MAIN(TestAuditTab)
#include "tst_audittab.moc"
