#include "adminclient.h"
#include "connection.h"
#include "mainwindow.h"
#include "pushdialog.h"
#include "queue.h"
#include "queuelist.h"
#include "redisserver.h"
#include "rescheduledialog.h"
#include "taskactions.h"
#include "taskdetails.h"
#include "taskmodel.h"
#include "tasktable.h"
#include "tasktabs.h"
#include "workerdock.h"

#include <QAbstractItemModel>
#include <QDateTime>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace delayq::ui;

// Plain sorted-set queues (members are the messages, scores the due times) in the window,
// against a real redis-server filled the way home-grown delay queues fill their keys.
class TestPlainQueueView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("delayq-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_plainqueueview"));
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    }
    void init()
    {
        m_server.cli({QStringLiteral("FLUSHALL")});
        m_window = std::make_unique<MainWindow>();
        m_window->actions()->setConfirmHandler([](const QString&, const QString&) { return true; });
        m_window->show();
    }
    void cleanup() { m_window.reset(); }

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

        QueueList* list = m_window->queueList();
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
        QueueList* list = m_window->queueList();
        QSignalSpy listed(list, &QueueList::plainKeysListed);
        connectWindow();
        QVERIFY(listed.wait(5000));
        QSignalSpy loaded(m_window.get(), &MainWindow::queueLoaded);
        emit list->plainView()->activated(list->plainView()->model()->index(0, 0));
        QVERIFY(loaded.wait(5000));
        QVERIFY(m_window->isPlain());

        // Due order, though they were added latest first; the member is the row.
        TaskModel* model = pending()->model();
        QTRY_COMPARE(model->rowCount(), count);
        for (int i = 0; i < count; ++i) {
            QTRY_VERIFY(model->taskAt(i));
            QCOMPARE(model->idAt(i), members.at(i));
        }
        auto* tabs = m_window->tabs()->findChild<QTabWidget*>();
        QCOMPARE(tabs->count(), 3);
        int visible = 0;
        for (int i = 0; i < tabs->count(); ++i)
            visible += tabs->isTabVisible(i) ? 1 : 0;
        QCOMPARE(visible, 1);
        QVERIFY(!m_window->actions()->requeue()->isEnabled());

        // Cancel: the member leaves Redis.
        selectRow(0);
        QTRY_COMPARE(m_window->details()->payload(), members.at(0).toUtf8());
        QVERIFY(!m_window->workerDock()->startButton()->isEnabled());
        QVERIFY(m_window->actions()->cancel()->isEnabled());
        QSignalSpy reported(m_window->actions(), &TaskActions::resultReported);
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
        QTest::keyClick(pending()->view(), Qt::Key_R, Qt::ControlModifier);
        auto* dialog = qobject_cast<RescheduleDialog*>(m_window->actions()->activeDialog());
        QVERIFY(dialog);
        dialog->atMode()->setChecked(true);
        dialog->atEdit()->setText(QStringLiteral("2030-01-02T03:04:05.678Z"));
        reported.clear();
        dialog->accept();
        QVERIFY(reported.wait(5000));
        const double score =
            m_server.cli({QStringLiteral("ZSCORE"), key, members.at(1)}).trimmed().toDouble();
        QVERIFY2(qAbs(score * (seconds ? 1000.0 : 1.0) - 1893553445678.0) < 1000.0,
                 qPrintable(QString::number(score, 'f')));
        QTRY_COMPARE(model->idAt(count - 2), members.at(1));

        // A member a poller took between the look and the click is reported, not hidden.
        selectRow(count - 2);
        m_server.cli({QStringLiteral("ZREM"), key, members.at(1)});
        reported.clear();
        m_window->actions()->cancel()->trigger();
        QVERIFY(reported.wait(5000));
        const QString summary = reported.first().at(0).toString();
        QVERIFY2(summary.contains(QStringLiteral("no longer existed")), qPrintable(summary));
        QVERIFY(!reported.first().at(1).toBool());
        QCOMPARE(m_server.cli({QStringLiteral("ZCARD"), key}).trimmed(),
                 QByteArray::number(count - 2));

        // Push: the payload is the new member, added once (ZADD NX).
        const QString fresh = QStringLiteral("{\"id\":\"fresh\",\"msg\":\"x\"}");
        for (int round = 0; round < 2; ++round) {
            m_window->actions()->push()->trigger();
            auto* push = qobject_cast<PushDialog*>(m_window->actions()->activeDialog());
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

private:
    TaskTable* pending() const { return m_window->tabs()->table(TaskSetKind::Pending); }

    void selectRow(int row)
    {
        QTableView* view = pending()->view();
        view->setFocus();
        view->clearSelection();
        QTRY_VERIFY(pending()->model()->taskAt(row));
        view->selectionModel()->select(pending()->model()->index(row, 0),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view->selectionModel()->setCurrentIndex(pending()->model()->index(row, 0),
                                                QItemSelectionModel::NoUpdate);
    }

    void connectWindow()
    {
        QSignalSpy connected(m_window->client(), &AdminClient::connected);
        m_window->connectTo(
            {QString::fromStdString(m_server.unixUrl()), QStringLiteral("dq"), false, QString()});
        QVERIFY(connected.wait(5000));
    }

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

    RedisServer m_server;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestPlainQueueView)
#include "tst_plainqueueview.moc"
