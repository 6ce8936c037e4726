#include "overview/overviewmodel.h"
#include "overview/overviewpage.h"
#include "queue/queuecontrol.h"
#include "queue/queuesettingsdialog.h"
#include "queue/thresholds.h"
#include "redisserver.h"
#include "widgets/fielderror.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QColor>
#include <QCoreApplication>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace delayq::ui;

// A queue's flow limits in the app (issue 51): the settings dialog's rate, burst and cap with
// what they mean and the core's refusals, and the Overview's mark on a queue its limit holds
// back, against a real redis-server.
class TestFlowLimits : public WindowSuite
{
    Q_OBJECT

public:
    TestFlowLimits() : WindowSuite(QStringLiteral("tst_flowlimits")) {}

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
    void settingsPreview_data();
    void settingsPreview();
    void overviewMarksALimitedQueue();
    void overdueSaysItIsLimited_data();
    void overdueSaysItIsLimited();
};

void TestFlowLimits::settingsPreview_data()
{
    QTest::addColumn<QString>("rate");
    QTest::addColumn<QString>("burst");
    QTest::addColumn<QString>("cap");
    QTest::addColumn<QString>("preview"); // "—" when a limit is refused
    QTest::addColumn<int>("refused");     // the refused field (5 rate, 6 burst, 7 cap), or -1
    QTest::addColumn<QString>("named");   // in its refusal

    QTest::newRow("all three") << "50/s"
                               << "100"
                               << "5"
                               << "at most 50 tasks start per second, 100 at once after a quiet "
                                  "spell; at most 5 run at once across every worker"
                               << -1 << "";
    QTest::newRow("rate, burst off") << "3000/1m"
                                     << "off"
                                     << "off"
                                     << "at most 3,000 tasks start per minute, 3,000 at once "
                                        "after a quiet spell"
                                     << -1 << "";
    QTest::newRow("odd interval") << "5/250ms"
                                  << ""
                                  << ""
                                  << "at most 5 tasks start every 250ms, 5 at once after a quiet "
                                     "spell"
                                  << -1 << "";
    QTest::newRow("cap, rate empty") << ""
                                     << ""
                                     << "5"
                                     << "at most 5 run at once across every worker" << -1 << "";
    QTest::newRow("none") << "off"
                          << "off"
                          << "off"
                          << "no limit: tasks start as fast as the workers claim them" << -1 << "";
    QTest::newRow("rate 0") << "0"
                            << ""
                            << ""
                            << "—" << 5 << "rate '0'";
    QTest::newRow("rate without interval") << "50"
                                           << ""
                                           << ""
                                           << "—" << 5 << "rate '50'";
    QTest::newRow("cap 0") << ""
                           << ""
                           << "0"
                           << "—" << 7 << "cap of 0";
    QTest::newRow("cap -1") << ""
                            << ""
                            << "-1"
                            << "—" << 7 << "cap";
    QTest::newRow("burst x") << "50/s"
                             << "x"
                             << ""
                             << "—" << 6 << "burst";
}

void TestFlowLimits::settingsPreview()
{
    QFETCH(QString, rate);
    QFETCH(QString, burst);
    QFETCH(QString, cap);
    QFETCH(int, refused);
    QFETCH(QString, named);

    m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
    m_fixture.openQueue(QStringLiteral("orders"));
    QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
    QVERIFY(dialog);
    // Loaded: no limits, said so.
    QCOMPARE(dialog->rateField()->text(), QStringLiteral("off"));
    QCOMPARE(dialog->capField()->text(), QStringLiteral("off"));
    dialog->rateField()->setText(rate);
    dialog->burstField()->setText(burst);
    dialog->capField()->setText(cap);
    QTEST(dialog->flowPreview()->text(), "preview");
    // Whole on the lines kept for it (the sentence with all three was cut at 72 characters).
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QCoreApplication::sendPostedEvents(); // the layout runs
    QLabel* said = refused < 0 ? dialog->flowPreview() : dialog->errorOf(refused);
    QVERIFY(said->isVisible());
    QVERIFY2(said->height() >= said->heightForWidth(said->width()), qPrintable(said->text()));
    QCOMPARE(dialog->saveButton()->isEnabled(), refused < 0);
    for (int field = 5; field <= 7; ++field) {
        const QString error = dialog->errorOf(field)->text();
        QVERIFY2(field == refused ? error.contains(named) : error.isEmpty(), qPrintable(error));
    }
    if (QTest::currentDataTag() != QByteArray("all three")) {
        dialog->reject();
        return;
    }
    // Saved as the CLI would, and read back the way it was typed.
    QSignalSpy saved(dialog, &QueueSettingsDialog::saved);
    dialog->saveButton()->click();
    QVERIFY(saved.wait(5000));
    const auto conn = connection();
    const delayq::QueueConfig config = delayq::Queue(*conn, "orders").config();
    QCOMPARE(config.rateTasks, 50LL);
    QCOMPARE(config.rateMs, 1000LL);
    QCOMPARE(config.burst, 100LL);
    QCOMPARE(config.cap, 5LL);
    dialog = openLoaded(QStringLiteral("orders"));
    QVERIFY(dialog);
    QCOMPARE(dialog->rateField()->text(), QStringLiteral("50/s"));
    QCOMPARE(dialog->burstField()->text(), QStringLiteral("100"));
    QCOMPARE(dialog->capField()->text(), QStringLiteral("5"));
    dialog->reject();
}

// "throttled" has tasks due that its rate holds back, claimed by a client that keeps no
// heartbeat (as one in another language may): limited, not "no consumer". "idle" has tasks
// due and nobody claiming: still the alarm.
void TestFlowLimits::overviewMarksALimitedQueue()
{
    const auto conn = connection();
    delayq::Queue throttled(*conn, "throttled");
    throttled.setConfig("rate", "2/1h");
    const qint64 past = QDateTime::currentMSecsSinceEpoch() - 5000;
    m_fixture.pushAt(QStringLiteral("throttled"), {past, past, past, past, past});
    QCOMPARE(throttled.claim(5, 600000, "foreign").tasks.size(), size_t(2));
    m_fixture.pushAt(QStringLiteral("idle"), {past});

    m_fixture.connectWindow();
    OverviewPage* page = m_fixture.window()->overview();
    QTRY_VERIFY(page->model()->rowNamed(QStringLiteral("throttled")));
    QTRY_VERIFY(page->model()->rowNamed(QStringLiteral("idle")));
    const OverviewRow* limited = page->model()->rowNamed(QStringLiteral("throttled"));
    QCOMPARE(limited->limitedBy, QStringLiteral("rate"));
    QCOMPARE(limited->consumerState, delayq::ConsumerState::Ok);
    const auto& rows = page->model()->rows();
    const int at = int(
        std::find_if(rows.begin(), rows.end(),
                     [](const OverviewRow& r) { return r.name == QLatin1String("throttled"); }) -
        rows.begin());
    const QModelIndex state = page->model()->index(at, OverviewModel::State);
    QCOMPARE(state.data().toString(), QStringLiteral("limited: 2/h, 3 waiting"));
    QVERIFY(state.data(Qt::ToolTipRole).toString().contains(QStringLiteral("not a queue without")));
    // Marked, calmly: its State cell only, not the row's warning.
    QCOMPARE(state.data(Qt::BackgroundRole).value<QColor>(), OverviewModel::limitedColor());
    QVERIFY(!state.data(OverviewModel::BreachedRole).toBool());
    QCOMPARE(page->model()->rowNamed(QStringLiteral("idle"))->consumerState,
             delayq::ConsumerState::NoConsumer);
    // The alarm under the table names the idle queue alone.
    const QStringList alarms = OverviewPage::consumerAlarms(rows);
    QCOMPARE(alarms.size(), 1);
    QVERIFY2(alarms[0].startsWith(QStringLiteral("idle: no consumer")), qPrintable(alarms[0]));
}

// The oldest-overdue threshold still applies to a limited queue, and its reason (the colour's
// tooltip, the alert's text) says the limit holds it back.
void TestFlowLimits::overdueSaysItIsLimited_data()
{
    QTest::addColumn<QString>("limitedBy");
    QTest::addColumn<QString>("text");
    QTest::newRow("rate") << "rate"
                          << "oldest overdue 5m is above 1m, held back by its rate limit 50/s";
    QTest::newRow("cap") << "cap"
                         << "oldest overdue 5m is above 1m, held back by its cap of 5";
    QTest::newRow("not limited") << ""
                                 << "oldest overdue 5m is above 1m";
}

void TestFlowLimits::overdueSaysItIsLimited()
{
    QFETCH(QString, limitedBy);
    OverviewRow row;
    row.name = QStringLiteral("q");
    row.dueNow = 12000;
    row.oldestOverdueMs = 300000;
    row.consumers = 2;
    row.limitedBy = limitedBy;
    row.rate = QStringLiteral("50/s");
    row.cap = 5;
    Thresholds::Limits limits;
    limits.overdueMs = 60000;
    const QList<Thresholds::Breach> breaches = Thresholds::breaches(row, limits);
    QCOMPARE(breaches.size(), 1);
    QCOMPARE(breaches[0].figure, Thresholds::Figure::OldestOverdue);
    QTEST(breaches[0].text, "text");
}

QTEST_MAIN(TestFlowLimits)
#include "tst_flowlimits.moc"
