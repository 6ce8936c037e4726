#include "export/exportaction.h"
#include "export/exportdialog.h"
#include "queue/purgedialog.h"
#include "queue/queueactions.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"

#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace delayq::ui;
using delayq::TaskSet;

// Queue → Export… in the whole window (offscreen) against a real redis-server: the file it
// writes for each choice, and the purge dialog's Export first….
class TestExportAction : public WindowSuite
{
    Q_OBJECT

public:
    TestExportAction() : WindowSuite(QStringLiteral("tst_exportaction")) {}

private slots:
    void exportWritesTheChosenTasks_data()
    {
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("match");
        QTest::addColumn<QStringList>("ids");
        QTest::newRow("whole queue") << "whole" << QString() << QStringList{"a", "b", "c", "gone"};
        QTest::newRow("the dead tab") << "tab" << QString() << QStringList{"gone"};
        QTest::newRow("the selection") << "selection" << QString() << QStringList{"a", "c"};
        QTest::newRow("a filter's matches") << "whole"
                                            << "\"n\":1" << QStringList{"b"};
    }
    void exportWritesTheChosenTasks()
    {
        QFETCH(QString, scope);
        QFETCH(QString, match);
        QFETCH(QStringList, ids);
        m_fixture.pushDead("orders", {"gone"});
        m_fixture.pushTasks("orders", {"a", "b", "c"});
        m_fixture.openQueue("orders");
        if (scope == "selection")
            m_fixture.selectRows(m_fixture.pending(), {0, 2});
        if (scope == "tab")
            m_fixture.window()->tabs()->setCurrentSet(TaskSet::Dead);

        ExportDialog* dialog = openDialog();
        QVERIFY(dialog);
        QRadioButton* choice = scope == "tab"         ? dialog->currentSetButton()
                               : scope == "selection" ? dialog->selectionButton()
                                                      : dialog->wholeQueueButton();
        QVERIFY(choice->isEnabled());
        choice->setChecked(true);
        dialog->matchEdit()->setText(match);
        const QString path = m_dir.filePath("orders.jsonl");
        dialog->pathEdit()->setText(path);

        QSignalSpy finished(exporter(), &ExportAction::finished);
        dialog->exportButton()->click();
        QVERIFY(finished.wait(10000));
        const auto result = finished.first().at(0).value<ExportResult>();
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error.message));
        QCOMPARE(result.written, qint64(ids.size()));

        QStringList written;
        for (const QJsonObject& line : readLines(path)) {
            written << line.value("id").toString();
            for (const char* field : {"state", "due", "created", "attempts", "max_attempts",
                                      "backoff", "last_error", "payload"})
                QVERIFY(line.contains(QLatin1String(field)));
            if (line.value("id").toString() == "gone")
                QCOMPARE(line.value("state").toString(), QStringLiteral("dead"));
        }
        written.sort();
        QCOMPARE(written, ids);
        QTRY_VERIFY(m_fixture.window()->statusBar()->currentMessage().contains("Exported"));
    }

    void selectionIsOffWithoutSelectedRows()
    {
        m_fixture.pushTasks("orders", {"a"});
        m_fixture.openQueue("orders");
        m_fixture.pending()->view()->clearSelection();
        ExportDialog* dialog = openDialog();
        QVERIFY(dialog);
        QVERIFY(!dialog->selectionButton()->isEnabled());
        dialog->pathEdit()->clear();
        QVERIFY(!dialog->exportButton()->isEnabled());
        dialog->reject();
    }

    void purgeDialogOffersAnExportFirst()
    {
        m_fixture.pushTasks("orders", {"a", "b"});
        m_fixture.openQueue("orders");
        QueueActions* actions = m_fixture.window()->queueActions();
        QSignalSpy purgeOpened(actions, &QueueActions::dialogOpened);
        actions->purge()->trigger();
        QVERIFY(purgeOpened.wait(5000));
        PurgeDialog* purge = actions->purgeDialog();
        QVERIFY(purge);

        QSignalSpy opened(exporter(), &ExportAction::dialogOpened);
        purge->exportButton()->click();
        QVERIFY(opened.count() == 1 || opened.wait(5000));
        ExportDialog* dialog = exporter()->dialog();
        QVERIFY(dialog);
        QVERIFY(dialog->wholeQueueButton()->isChecked());
        const QString path = m_dir.filePath("backup.jsonl");
        dialog->pathEdit()->setText(path);
        QSignalSpy finished(exporter(), &ExportAction::finished);
        dialog->exportButton()->click();
        QVERIFY(finished.wait(10000));
        QCOMPARE(readLines(path).size(), 2);
        // The purge still waits for its name: the export only came first.
        QVERIFY(purge->isVisible());
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:pending"}).trimmed(), QByteArray("2"));
        purge->reject();
    }

    void aCancelledExportLeavesNoFile()
    {
        QStringList ids;
        for (int i = 0; i < 3000; ++i)
            ids << QStringLiteral("t%1").arg(i);
        m_fixture.pushTasks("orders", ids);
        m_fixture.openQueue("orders");
        ExportRequest request;
        request.queue = "orders";
        request.sets = {TaskSet::Pending};
        request.path = m_dir.filePath("cancelled.jsonl");
        QSignalSpy finished(exporter(), &ExportAction::finished);
        exporter()->start(request);
        exporter()->cancelRunning();
        QVERIFY(finished.wait(10000));
        QVERIFY(finished.first().at(0).value<ExportResult>().cancelled);
        QVERIFY(!QFile::exists(request.path));
        QVERIFY(exporter()->action()->isEnabled());
    }

private:
    ExportAction* exporter() const { return m_fixture.window()->exportAction(); }
    ExportDialog* openDialog()
    {
        QSignalSpy opened(exporter(), &ExportAction::dialogOpened);
        exporter()->action()->trigger();
        if (opened.isEmpty() && !opened.wait(5000))
            return nullptr;
        return exporter()->dialog();
    }
    static QList<QJsonObject> readLines(const QString& path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        QList<QJsonObject> out;
        for (const QByteArray& line : file.readAll().split('\n'))
            if (!line.isEmpty())
                out << QJsonDocument::fromJson(line).object();
        return out;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestExportAction)
#include "tst_exportaction.moc"
