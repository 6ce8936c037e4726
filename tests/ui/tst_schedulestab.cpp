#include "charts/timelinechart.h"
#include "client/adminclient.h"
#include "schedules/backfilldialog.h"
#include "schedules/scheduledialog.h"
#include "schedules/schedulestab.h"
#include "widgets/fielderror.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/schedules.h>
#include <delayq/timeparse.h>

#include <QAbstractItemModel>
#include <QComboBox>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <qcustomplot.h>

#include <memory>

using namespace delayq::ui;

// The Schedules tab against a real redis-server: the queue's schedules listed, nothing
// selected at first and the actions waiting for a selection that follows the name, pause and
// delete asked first and written to Redis, an edit that finds the schedule changed meanwhile,
// the dialog's preview computed from the rule, and the fires drawn on the timeline.
class TestSchedulesTab : public WindowSuite
{
    Q_OBJECT

public:
    TestSchedulesTab() : WindowSuite(QStringLiteral("tst_schedulestab")) {}

private:
    std::unique_ptr<delayq::Connection> m_core;
    int m_asked = 0;
    Confirmation m_lastAsked;
    bool m_answer = true;

    delayq::Schedules schedules(const std::string& queue)
    {
        if (!m_core)
            m_core = std::make_unique<delayq::Connection>(
                delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        return delayq::Schedules(*m_core, queue);
    }
    static delayq::ScheduleRule cronRule(const std::string& name, const std::string& cron)
    {
        delayq::ScheduleRule rule;
        rule.name = name;
        rule.cron = cron;
        rule.payload = "{\"job\":\"" + name + "\"}";
        return rule;
    }
    // The Schedules tab of `queue`, open, in front and loaded, its confirmations answered here.
    SchedulesTab* openTab(const QString& queue, int rows)
    {
        m_fixture.openQueue(queue);
        SchedulesTab* tab = m_fixture.window()->schedules();
        tab->setConfirmHandler([this](const Confirmation& c) {
            m_lastAsked = c;
            ++m_asked;
            return m_answer;
        });
        auto* dock = m_fixture.window()->findChild<QDockWidget*>(QStringLiteral("schedulesdock"));
        if (!dock)
            return nullptr;
        dock->raise();
        if (!QTest::qWaitFor([&] { return tab->view()->model()->rowCount() == rows; }, 5000)) {
            qWarning("the tab lists %d schedules, not %d", tab->view()->model()->rowCount(), rows);
            return nullptr;
        }
        return tab;
    }
    static QString cell(SchedulesTab* tab, int row, int column)
    {
        return tab->view()->model()->index(row, column).data().toString();
    }
    static bool nothingSelected(SchedulesTab* tab)
    {
        return tab->view()->selectionModel()->selectedRows().isEmpty() &&
               tab->selectedName().isEmpty();
    }

protected:
    void initTest() override
    {
        WindowSuite::initTest();
        m_asked = 0;
        m_lastAsked = {};
        m_answer = true;
    }
    void cleanupTest() override
    {
        m_core.reset();
        WindowSuite::cleanupTest();
    }

private slots:
    void listsPausesAndDeletes()
    {
        auto core = schedules("mail");
        core.add(cronRule("digest", "0 9 * * 1-5"));
        SchedulesTab* tab = openTab(QStringLiteral("mail"), 1);
        QVERIFY(tab);
        QVERIFY(!tab->isNoteShown());
        QCOMPARE(cell(tab, 0, SchedulesTab::Name), QStringLiteral("digest"));
        QCOMPARE(cell(tab, 0, SchedulesTab::Rule), QStringLiteral("cron 0 9 * * 1-5 (UTC)"));
        QCOMPARE(cell(tab, 0, SchedulesTab::State), QStringLiteral("active"));
        QCOMPARE(cell(tab, 0, SchedulesTab::LastFire), QStringLiteral("never"));
        QCOMPARE(cell(tab, 0, SchedulesTab::Fired), QStringLiteral("0"));
        QVERIFY(cell(tab, 0, SchedulesTab::NextFire).contains(QStringLiteral("in ")));

        // Nothing is chosen for the operator: only Add works.
        QVERIFY(nothingSelected(tab));
        QVERIFY(!tab->view()->currentIndex().isValid());
        QVERIFY(tab->addScheduleAction()->isEnabled());
        QVERIFY(!tab->editAction()->isEnabled());
        QVERIFY(!tab->pauseAction()->isEnabled());
        QVERIFY(!tab->deleteAction()->isEnabled());

        QVERIFY(tab->selectSchedule(QStringLiteral("digest")));
        QCOMPARE(tab->selectedName(), QStringLiteral("digest"));
        QVERIFY(tab->editAction()->isEnabled());
        QVERIFY(tab->pauseAction()->isEnabled());
        QVERIFY(tab->deleteAction()->isEnabled());

        // Pause asks, naming the schedule and the queue; kept running, nothing changes.
        m_answer = false;
        tab->pauseAction()->trigger();
        QCOMPARE(m_asked, 1);
        QVERIFY2(
            m_lastAsked.text.startsWith(QStringLiteral("Pause schedule 'digest' of queue 'mail'?")),
            qPrintable(m_lastAsked.text));
        QVERIFY(!core.get("digest")->rule.paused);
        m_answer = true;
        tab->pauseAction()->trigger();
        QCOMPARE(m_asked, 2);
        QTRY_VERIFY(core.get("digest")->rule.paused);
        QTRY_COMPARE(cell(tab, 0, SchedulesTab::State), QStringLiteral("paused"));
        QCOMPARE(tab->selectedName(), QStringLiteral("digest"));
        QCOMPARE(tab->pauseAction()->text(), QStringLiteral("Resume"));
        QVERIFY(!core.get("digest")->nextFire);

        // Resume asks nothing.
        tab->pauseAction()->trigger();
        QTRY_VERIFY(!core.get("digest")->rule.paused);
        QTRY_COMPARE(cell(tab, 0, SchedulesTab::State), QStringLiteral("active"));
        QCOMPARE(m_asked, 2);

        // Delete asks too; kept, it stays.
        m_answer = false;
        tab->deleteAction()->trigger();
        // The server too, on its own line.
        QVERIFY2(m_lastAsked.text.startsWith(QStringLiteral(
                     "Delete schedule 'digest' of queue 'mail'? The tasks it already made stay."
                     "\n\nServer: ")),
                 qPrintable(m_lastAsked.text));
        QVERIFY(core.get("digest"));
        m_answer = true;
        tab->deleteAction()->trigger();
        QTRY_VERIFY(!core.get("digest"));
        QTRY_COMPARE(tab->view()->model()->rowCount(), 0);
        QVERIFY(nothingSelected(tab));
        QVERIFY(!tab->deleteAction()->isEnabled());
        QCOMPARE(tab->message()->textFormat(), Qt::PlainText);
        QVERIFY2(tab->message()->text().contains(QStringLiteral("deleted")),
                 qPrintable(tab->message()->text()));
    }

    // The selection is the schedule's name: one added before it in the list does not move it.
    void selectionFollowsTheName()
    {
        auto core = schedules("mail");
        core.add(cronRule("m-report", "0 9 * * *"));
        core.add(cronRule("z-cleanup", "0 3 * * *"));
        SchedulesTab* tab = openTab(QStringLiteral("mail"), 2);
        QVERIFY(tab);
        QVERIFY(tab->selectSchedule(QStringLiteral("m-report")));
        QCOMPARE(tab->view()->selectionModel()->selectedRows().first().row(), 0);

        core.add(cronRule("a-first", "*/5 * * * *"));
        QSignalSpy loaded(tab, &SchedulesTab::loaded);
        m_fixture.window()->refreshAll();
        QVERIFY(loaded.wait(5000));
        QCOMPARE(tab->view()->model()->rowCount(), 3);
        QCOMPARE(cell(tab, 0, SchedulesTab::Name), QStringLiteral("a-first"));
        QCOMPARE(tab->selectedName(), QStringLiteral("m-report"));
        const auto rows = tab->view()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().row(), 1);
        QCOMPARE(cell(tab, rows.first().row(), SchedulesTab::Name), QStringLiteral("m-report"));

        // Deleted elsewhere, it takes the selection with it: nothing slides onto a neighbour.
        QVERIFY(core.remove("m-report"));
        m_fixture.window()->refreshAll();
        QVERIFY(loaded.wait(5000));
        QCOMPARE(tab->view()->model()->rowCount(), 2);
        QVERIFY(nothingSelected(tab));
        QVERIFY(!tab->editAction()->isEnabled());
    }

    // Add through the dialog, then an edit that another client overtook: refused, said, and
    // the list reloaded; edited again, it is saved with the version read.
    void addAndEditThroughTheDialog()
    {
        auto core = schedules("mail");
        core.add(cronRule("other", "0 0 * * *"));
        SchedulesTab* tab = openTab(QStringLiteral("mail"), 1);
        QVERIFY(tab);
        QSignalSpy opened(tab, &SchedulesTab::dialogOpened);
        tab->addScheduleAction()->trigger();
        QCOMPARE(opened.size(), 1);
        ScheduleDialog* dialog = tab->activeDialog();
        QVERIFY(dialog);
        QVERIFY(!dialog->okButton()->isEnabled()); // no name, no rule yet
        dialog->nameField()->setText(QStringLiteral("digest"));
        dialog->cronField()->setText(QStringLiteral("30 8 * * *"));
        dialog->payloadField()->setPlainText(QStringLiteral("<b>send</b>"));
        dialog->maxAttemptsField()->setValue(3);
        QVERIFY(dialog->okButton()->isEnabled());
        dialog->okButton()->click();
        QTRY_COMPARE(tab->view()->model()->rowCount(), 2);
        std::optional<delayq::ScheduleInfo> stored = core.get("digest");
        QVERIFY(stored);
        QCOMPARE(stored->rule.cron, std::string("30 8 * * *"));
        QCOMPARE(stored->rule.payload, std::string("<b>send</b>"));
        QCOMPARE(stored->rule.maxAttempts, 3);
        // What was just made is selected.
        QTRY_COMPARE(tab->selectedName(), QStringLiteral("digest"));

        // Someone else edits it while the dialog is open.
        tab->editAction()->trigger();
        dialog = tab->activeDialog();
        QVERIFY(dialog && dialog->isEdit());
        QCOMPARE(dialog->version(), stored->version);
        QVERIFY(dialog->nameField()->isReadOnly());
        QCOMPARE(dialog->cronField()->text(), QStringLiteral("30 8 * * *"));
        dialog->cronField()->setText(QStringLiteral("0 7 * * *"));
        delayq::ScheduleRule theirs = stored->rule;
        theirs.cron = "45 6 * * *";
        QVERIFY(core.replace(theirs, stored->version));
        QSignalSpy finished(tab, &SchedulesTab::changeFinished);
        dialog->okButton()->click();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QVERIFY2(tab->message()->text().contains(QStringLiteral("changed by someone else")),
                 qPrintable(tab->message()->text()));
        QCOMPARE(core.get("digest")->rule.cron, std::string("45 6 * * *"));
        // Reloaded: the tab shows their rule, and a second edit reads the new version.
        QTRY_VERIFY(cell(tab, 0, SchedulesTab::Rule).contains(QStringLiteral("45 6 * * *")));
        tab->editAction()->trigger();
        dialog = tab->activeDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->cronField()->text(), QStringLiteral("45 6 * * *"));
        dialog->cronField()->setText(QStringLiteral("0 7 * * *"));
        dialog->okButton()->click();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.last().at(1).toBool(), true);
        QCOMPARE(core.get("digest")->rule.cron, std::string("0 7 * * *"));
        QCOMPARE(core.get("digest")->rule.payload, std::string("<b>send</b>"));

        // A refusal from Redis names the cause, as plain text.
        tab->addScheduleAction()->trigger();
        dialog = tab->activeDialog();
        dialog->nameField()->setText(QStringLiteral("other"));
        dialog->cronField()->setText(QStringLiteral("0 1 * * *"));
        dialog->okButton()->click();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.last().at(1).toBool(), false);
        QCOMPARE(tab->message()->textFormat(), Qt::PlainText);
        QVERIFY2(tab->message()->text().contains(QStringLiteral("'other'")),
                 qPrintable(tab->message()->text()));
        QCOMPARE(core.get("other")->rule.cron, std::string("0 0 * * *"));
    }

    // The preview is the rule's next fires, computed in the dialog; a refused cron or zone
    // shows the core's message under its field, no preview, and OK stays off.
    void dialogPreviewsTheNextFires()
    {
        ScheduleDialog dialog(QStringLiteral("mail"), std::nullopt, true);
        // 2026-01-01 00:00:00 UTC, a Thursday.
        dialog.setNow(1'767'225'600'000);
        dialog.nameField()->setText(QStringLiteral("digest"));
        dialog.cronField()->setText(QStringLiteral("0 9 * * 1-5"));
        QCOMPARE(dialog.preview()->count(), ScheduleDialog::kPreviewFires);
        QVERIFY2(
            dialog.preview()->item(0)->text().startsWith(QStringLiteral("2026-01-01 09:00:00")),
            qPrintable(dialog.preview()->item(0)->text()));
        // Friday, then Monday: the weekend is skipped.
        QVERIFY(dialog.preview()->item(1)->text().startsWith(QStringLiteral("2026-01-02 09:00")));
        QVERIFY(dialog.preview()->item(2)->text().startsWith(QStringLiteral("2026-01-05 09:00")));
        QVERIFY(dialog.okButton()->isEnabled());
        QVERIFY(!dialog.cronError()->hasError());

        dialog.cronField()->setText(QStringLiteral("0 24 * * *"));
        QCOMPARE(dialog.preview()->count(), 0);
        QVERIFY(dialog.cronError()->hasError());
        QVERIFY2(dialog.cronError()->text().contains(QStringLiteral("hour")) &&
                     dialog.cronError()->text().contains(QStringLiteral("24")),
                 qPrintable(dialog.cronError()->text()));
        QCOMPARE(dialog.cronError()->textFormat(), Qt::PlainText);
        QVERIFY(!dialog.okButton()->isEnabled());

        dialog.cronField()->setText(QStringLiteral("0 9 * * *"));
        QVERIFY(!dialog.cronError()->hasError());
        QVERIFY(dialog.okButton()->isEnabled());
        dialog.zoneField()->setCurrentText(QStringLiteral("Mars/Olympus_Mons"));
        QVERIFY(dialog.zoneError()->hasError());
        QCOMPARE(dialog.preview()->count(), 0);
        QVERIFY(!dialog.okButton()->isEnabled());
        // Berlin is an hour ahead of UTC in winter: 09:00 there is 08:00 UTC.
        dialog.zoneField()->setCurrentText(QStringLiteral("Europe/Berlin"));
        QVERIFY(!dialog.zoneError()->hasError());
        QVERIFY(dialog.preview()->item(0)->text().startsWith(QStringLiteral("2026-01-01 08:00")));
        QCOMPARE(dialog.rule().zone, std::string("Europe/Berlin"));

        // An interval: from now + every, every 30 s.
        dialog.kindField()->setCurrentIndex(1);
        dialog.everyField()->setText(QStringLiteral("30s"));
        QCOMPARE(dialog.preview()->count(), ScheduleDialog::kPreviewFires);
        QVERIFY(
            dialog.preview()->item(0)->text().startsWith(QStringLiteral("2026-01-01 00:00:30")));
        QVERIFY(
            dialog.preview()->item(9)->text().startsWith(QStringLiteral("2026-01-01 00:05:00")));
        QVERIFY(dialog.okButton()->isEnabled());
        QCOMPARE(dialog.rule().everyMs, 30'000LL);
        QVERIFY(dialog.rule().cron.empty());
        dialog.everyField()->setText(QStringLiteral("0s"));
        QCOMPARE(dialog.preview()->count(), 0);
        QVERIFY(!dialog.okButton()->isEnabled());
    }

    // The timeline draws the coming fires in the visible window, at most kMaxFireMarkers.
    // The dialog sets the overlap policy and the jitter: a jitter longer than the interval is
    // refused under its field, naming the interval, and OK waits; the edit dialog shows both.
    void dialogSetsOverlapAndJitter()
    {
        auto core = schedules("mail");
        core.add(cronRule("other", "0 0 * * *"));
        SchedulesTab* tab = openTab(QStringLiteral("mail"), 1);
        QVERIFY(tab);
        tab->addScheduleAction()->trigger();
        ScheduleDialog* dialog = tab->activeDialog();
        QVERIFY(dialog);
        dialog->nameField()->setText(QStringLiteral("sync"));
        dialog->kindField()->setCurrentIndex(1); // an interval (the second row)
        dialog->everyField()->setText(QStringLiteral("1m"));
        dialog->jitterField()->setText(QStringLiteral("2m"));
        QVERIFY(!dialog->okButton()->isEnabled());
        QVERIFY2(dialog->jitterError()->text().contains(
                     QStringLiteral("must not be longer than the interval (1m)")),
                 qPrintable(dialog->jitterError()->text()));
        dialog->jitterField()->setText(QStringLiteral("20s"));
        dialog->overlapField()->setCurrentIndex(1);
        QVERIFY(!dialog->jitterError()->hasError());
        QVERIFY(dialog->okButton()->isEnabled());
        dialog->okButton()->click();
        QTRY_VERIFY(core.get("sync").has_value());
        const delayq::ScheduleRule stored = core.get("sync")->rule;
        QCOMPARE(stored.jitterMs, 20'000LL);
        QVERIFY(stored.overlap == delayq::ScheduleRule::Overlap::Skip);
        QTRY_COMPARE(tab->selectedName(), QStringLiteral("sync"));
        QTRY_VERIFY(tab->editAction()->isEnabled());
        tab->editAction()->trigger();
        dialog = tab->activeDialog();
        QVERIFY(dialog && dialog->isEdit());
        QCOMPARE(dialog->jitterField()->text(), QStringLiteral("20s"));
        QCOMPARE(dialog->overlapField()->currentIndex(), 1);
        dialog->reject();
    }

    // Run now and Backfill: both wait for a selection, ask first naming the schedule, the queue
    // and the server, and make exactly their fires; the list shows the overlap policy and the
    // jitter.
    void runNowAndBackfill()
    {
        auto core = schedules("mail");
        const qint64 now = m_core ? m_core->serverTimeMs() : 0;
        delayq::ScheduleRule rule;
        rule.name = "beat";
        rule.everyMs = 600'000;
        rule.anchorMs = now - 6 * 3'600'000 + 300'000; // fires 5 minutes off now's ten
        rule.overlap = delayq::ScheduleRule::Overlap::Skip;
        rule.jitterMs = 120'000;
        core.add(rule);
        SchedulesTab* tab = openTab(QStringLiteral("mail"), 1);
        QVERIFY(tab);
        QCOMPARE(cell(tab, 0, SchedulesTab::Rule),
                 QStringLiteral("every 10m, skips a fire while the last one runs, jitter 2m"));
        QVERIFY(!tab->runNowAction()->isEnabled());
        QVERIFY(!tab->backfillAction()->isEnabled());
        QVERIFY(tab->selectSchedule(QStringLiteral("beat")));
        QVERIFY(tab->runNowAction()->isEnabled());
        QVERIFY(tab->backfillAction()->isEnabled());
        delayq::Queue queue(*m_core, "mail");

        // Run now, declined: nothing. Accepted: one task, due now; the rule stays.
        m_answer = false;
        tab->runNowAction()->trigger();
        QCOMPARE(m_asked, 1);
        QVERIFY2(
            m_lastAsked.text.startsWith(QStringLiteral("Run schedule 'beat' of queue 'mail' now?")),
            qPrintable(m_lastAsked.text));
        QVERIFY2(m_lastAsked.text.contains(QStringLiteral("\n\nServer: ")),
                 qPrintable(m_lastAsked.text));
        QCOMPARE(m_lastAsked.acceptText, QStringLiteral("Run beat now"));
        m_answer = true;
        tab->runNowAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(queue.counts().pending, 1LL, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(tab->message()->text().contains(QStringLiteral("ran now")), 5000);
        QVERIFY(tab->message()->text().contains(QStringLiteral("s:beat:run:app-")));
        QCOMPARE(*core.get("beat")->nextFire, *schedules("mail").get("beat")->nextFire);

        // Backfill: the dialog refuses a window that ends before it starts, then the last
        // hour's six fires are asked about and made, once.
        tab->backfillAction()->trigger();
        BackfillDialog* dialog = tab->activeBackfill();
        QVERIFY(dialog);
        dialog->fromField()->setText(
            QString::fromStdString(delayq::formatTime(now - 3'600'000 + 1000)));
        dialog->toField()->setText(QString::fromStdString(delayq::formatTime(now - 7'200'000)));
        QVERIFY(!dialog->okButton()->isEnabled());
        QVERIFY2(dialog->summary()->text().contains(QStringLiteral("start before it ends")),
                 qPrintable(dialog->summary()->text()));
        dialog->toField()->setText(QString::fromStdString(delayq::formatTime(now - 1000)));
        QVERIFY(dialog->okButton()->isEnabled());
        QCOMPARE(dialog->fires(), 6);
        const int asked = m_asked;
        dialog->okButton()->click();
        QCOMPARE(m_asked, asked + 1);
        QVERIFY2(m_lastAsked.text.startsWith(
                     QStringLiteral("Make the fires of schedule 'beat' of queue 'mail' from ")),
                 qPrintable(m_lastAsked.text));
        QVERIFY(m_lastAsked.text.contains(QStringLiteral("(6 fire(s))")));
        QVERIFY(m_lastAsked.text.contains(QStringLiteral("\n\nServer: ")));
        QTRY_COMPARE_WITH_TIMEOUT(queue.counts().pending, 7LL, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(
            tab->message()->text().contains(QStringLiteral("6 of 6 fires made")), 5000);

        // The same window again: nothing more.
        QVERIFY(tab->selectSchedule(QStringLiteral("beat")));
        tab->backfillAction()->trigger();
        dialog = tab->activeBackfill();
        QVERIFY(dialog);
        dialog->fromField()->setText(
            QString::fromStdString(delayq::formatTime(now - 3'600'000 + 1000)));
        dialog->toField()->setText(QString::fromStdString(delayq::formatTime(now - 1000)));
        dialog->okButton()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(
            tab->message()->text().contains(QStringLiteral("0 of 6 fires made, 6 made before")),
            qPrintable(tab->message()->text()), 5000);
        QCOMPARE(queue.counts().pending, 7LL);
    }

    // A read-only session can neither run a schedule now nor backfill it.
    void runNowAndBackfillWaitForWrites()
    {
        schedules("ro").add(cronRule("digest", "0 9 * * *"));
        m_fixture.connectWindow(true);
        SchedulesTab* tab = openTab(QStringLiteral("ro"), 1);
        QVERIFY(tab);
        QVERIFY(tab->selectSchedule(QStringLiteral("digest")));
        QVERIFY(!tab->runNowAction()->isEnabled());
        QVERIFY(!tab->backfillAction()->isEnabled());
        QVERIFY(tab->runNowAction()->toolTip().contains(QStringLiteral("read-only")));
        tab->runNowSelected();
        tab->backfillSelected();
        QCOMPARE(m_asked, 0);
        QVERIFY(!tab->activeBackfill());
    }

    void timelineDrawsTheFires()
    {
        schedules("hourly").add(cronRule("tick", "0 * * * *"));
        m_fixture.openQueue(QStringLiteral("hourly"));
        TimelineChart* chart = m_fixture.window()->timeline();
        // The default window runs through the next 24 h: 24 (or 25) hour marks.
        QTRY_VERIFY_WITH_TIMEOUT(chart->firesShown().size() >= 24, 5000);
        QVERIFY(chart->firesShown().size() <= 25);
        QVERIFY(!chart->firesCapped());
        for (qint64 fire : chart->firesShown())
            QCOMPARE(fire % 3'600'000, 0LL);
        QCOMPARE(chart->plot()->legend->hasItemWithPlottable(chart->plot()->graph(0)), true);

        // An every-second schedule over a day is capped, and asks no more of the GUI.
        delayq::ScheduleRule every;
        every.name = "heartbeat";
        every.everyMs = 1000;
        schedules("busy").add(every);
        m_fixture.window()->openQueue(QStringLiteral("busy"));
        QTRY_VERIFY_WITH_TIMEOUT(chart->firesCapped(), 5000);
        QCOMPARE(chart->firesShown().size(), TimelineChart::kMaxFireMarkers);
        const QList<qint64>& fires = chart->firesShown();
        for (int i = 1; i < fires.size(); ++i)
            QCOMPARE(fires.at(i) - fires.at(i - 1), 1000LL);

        // Paused, it has no next fire: nothing is drawn.
        schedules("busy").setPaused("heartbeat", true);
        m_fixture.window()->refreshAll();
        QTRY_VERIFY_WITH_TIMEOUT(chart->firesShown().isEmpty(), 5000);
        QVERIFY(!chart->firesCapped());
    }
};

QTEST_MAIN(TestSchedulesTab)
#include "tst_schedulestab.moc"
