// delayq-admin as an operator meets it: the built binary on a real X server (Xvfb) with a
// window manager (openbox), driven only by pointer and keys through xdotool, against the
// suite's own redis-server. What happened is read from Redis (which task was cancelled or
// rescheduled, and to when) and from the window titles (which dialog opened, what the window
// says about its connection). On a failure the screen is saved, and its path printed.
#include "accessibilitybus.h"
#include "adminprocess.h"
#include "clirunner.h"
#include "redissuite.h"
#include "xsession.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTest>

namespace {

// Bounds on waits for what a passing case sees in well under a second (a window, a drawn
// cell, a key in Redis); they only stretch a failure.
// Under ASan and UBSan (DELAYQ_SANITIZED) the app takes seconds to start and to answer.
#ifdef DELAYQ_SANITIZED
constexpr int kSlowdown = 4;
#else
constexpr int kSlowdown = 1;
#endif
constexpr int kStartMs = 15000 * kSlowdown;
constexpr int kWaitMs = 10000 * kSlowdown;
const QString kQueue = QStringLiteral("orders");
// The confirmation Delete opens when tasks are selected (TaskActions::onCancel).
const QString kCancelTitle = QStringLiteral("^Cancel (tasks|messages)");

} // namespace

// QTRY_* count their polls, not the time: with a check that takes a second (a walk of the
// window over AT-SPI, slow when the app is busy) a 30 s bound lasted minutes, and a failure
// waited it out three times. These wait on the clock, once.
#define WAIT_VERIFY2(expr, message, timeoutMs)                                                     \
    QVERIFY2(QTest::qWaitFor([&] { return static_cast<bool>(expr); }, timeoutMs), message)
#define WAIT_VERIFY(expr, timeoutMs) WAIT_VERIFY2(expr, "not in time: " #expr, timeoutMs)

class TestOperator : public RedisSuite
{
    Q_OBJECT

protected:
    void initSuite() override
    {
        for (const QString& missing : {XSession::missingTools(), AccessibilityBus::missingTools()})
            if (!missing.isEmpty())
                QSKIP(qPrintable(missing));
        QVERIFY2(m_x.start(), qPrintable(m_x.errorString()));
        QVERIFY2(m_a11y.start(m_x), qPrintable(m_a11y.errorString()));
        m_app = std::make_unique<AdminProcess>(m_x, m_a11y.sessionAddress());
        m_cli = std::make_unique<CliRunner>(m_server.tcpUrl());
    }
    void cleanupTest() override
    {
        if (QTest::currentTestFailed())
            keepEvidence();
        if (m_app)
            m_app->stop();
        m_other.stop();
    }

private slots:
    // Opening a queue selects nothing: Delete right after offers to cancel no task.
    void openingSelectsNothing();
    // Click a row, Ctrl+R, type 3m, Enter: that task, and only it, is due in 3 minutes.
    void typedDelayReschedules();
    // The selected task is consumed by a worker: the selection clears, Delete cancels nothing.
    void consumedTaskLeavesNothingSelected();
    // On the Overview page no task of the queue behind it is a target.
    void overviewDeleteCancelsNothing();
    // Issue 49, path 1: on the Overview, the toolbar's Pause acts on the row selected there,
    // and asks first, naming it; the queue open behind the page is left alone.
    void overviewPauseAsksForTheSelectedRow();
    // Issue 49, path 2: a click on a find match whose task went shows why without moving the
    // list; a second click on the same spot selects nothing.
    void secondClickOnAGoneMatchSelectsNothing();
    // Issue 49, path 3: workers consume the head while a task further down is selected: it
    // stays selected where it was on the screen, and Reschedule names it.
    void consumedHeadLeavesTheSelectedTaskInPlace();
    // A server the app cannot use: the window says why, as the CLI does.
    void connectionErrorNamesCause_data();
    void connectionErrorNamesCause();

private:
    void pushTasks(int count, qint64 firstInMs = 3600 * 1000);
    bool startApp(const QString& url);
    QPoint cellOf(const QString& name);
    // The first shown node whose role and name match (regular expressions); null when none.
    AccessibilityBus::Node nodeOf(const QString& role, const QString& name);
    void waitForCell(const QString& name);
    void clickCell(const QString& name);
    QString shownTexts();
    void expectNoCancelOffered(const QString& after);
    QMap<QString, qint64> dueTimes() const;
    qint64 cancelledCount() const;
    void keepEvidence();

    // Declared in the order they start: destroyed app first, X server last.
    XSession m_x;
    AccessibilityBus m_a11y;
    std::unique_ptr<AdminProcess> m_app;
    RedisServer m_other; // a second server, for the connection cases
    std::unique_ptr<CliRunner> m_cli;
};

void TestOperator::pushTasks(int count, qint64 firstInMs)
{
    // order-1 is due first, order-2 an hour later, …: the pending table lists them in that
    // order.
    for (int i = 1; i <= count; ++i) {
        const qint64 inMs = firstInMs + (i - 1) * 3600 * 1000;
        const CliRun run =
            m_cli->run({QStringLiteral("push"), kQueue, QStringLiteral("{\"order\":%1}").arg(i),
                        QStringLiteral("--id"), QStringLiteral("order-%1").arg(i),
                        QStringLiteral("--in"), QStringLiteral("%1ms").arg(inMs)});
        QVERIFY2(run.exitCode == 0, run.err.constData());
    }
}

bool TestOperator::startApp(const QString& url)
{
    if (!m_app->start({QStringLiteral("--url"), url, QStringLiteral("--queue"), kQueue},
                      kStartMs)) {
        qWarning("%s", qPrintable(m_app->errorString()));
        return false;
    }
    return true;
}

// Where the operator clicks to select a task: the middle of the shown cell with that text (a
// task's id), as the app tells a screen reader where it drew it; null when none is shown.
QPoint TestOperator::cellOf(const QString& name)
{
    for (const AccessibilityBus::Node& node : m_a11y.nodes(m_app->pid()))
        if (node.role == QLatin1String("cell") && node.name == name && !node.extents.isEmpty())
            return node.extents.center();
    return {};
}

AccessibilityBus::Node TestOperator::nodeOf(const QString& role, const QString& name)
{
    const QRegularExpression roleRe(role);
    const QRegularExpression nameRe(name);
    for (const AccessibilityBus::Node& node : m_a11y.nodes(m_app->pid()))
        if (roleRe.match(node.role).hasMatch() && nameRe.match(node.name).hasMatch() &&
            !node.extents.isEmpty())
            return node;
    return {};
}

// Until the window shows a cell with that text: the rows read from Redis are drawn.
void TestOperator::waitForCell(const QString& name)
{
    WAIT_VERIFY2(!cellOf(name).isNull(),
                 qPrintable(QStringLiteral("no cell \"%1\" shown").arg(name)), kWaitMs);
}

void TestOperator::clickCell(const QString& name)
{
    QPoint at;
    WAIT_VERIFY2(!(at = cellOf(name)).isNull(),
                 qPrintable(QStringLiteral("no cell \"%1\" shown").arg(name)), kWaitMs);
    QVERIFY(m_app->click(m_app->mainWindow(), at));
}

// What the window shows in its labels (the status bar, a banner), as a screen reader reads
// them, and its windows' titles.
QString TestOperator::shownTexts()
{
    QStringList texts = m_app->titles();
    for (const AccessibilityBus::Node& node : m_a11y.nodes(m_app->pid()))
        if (node.role == QLatin1String("label") || node.role == QLatin1String("status bar"))
            texts << node.name;
    texts.removeAll(QString());
    return texts.join(QLatin1Char('\n'));
}

// After the keys just sent: no confirmation to cancel opened. Ctrl+N (Push…) is pressed as
// a marker: its dialog can only open once the keys before it were handled, and not while a
// modal confirmation holds the window.
void TestOperator::expectNoCancelOffered(const QString& after)
{
    // When a modal confirmation holds the window, the main window cannot take the focus and
    // the marker goes nowhere: what opened is looked for either way.
    m_app->key(m_app->mainWindow(), {QStringLiteral("ctrl+n")});
    QString push;
    QString cancel;
    WAIT_VERIFY(!(push = m_app->findWindow(QStringLiteral("^Push"))).isEmpty() ||
                    !(cancel = m_app->findWindow(kCancelTitle)).isEmpty(),
                kWaitMs);
    if (!cancel.isEmpty()) {
        // Answer it as an operator pressing Enter would, to see what that does too.
        const QString title = m_app->title(cancel);
        QVERIFY(m_app->key(cancel, {QStringLiteral("Return")}));
        WAIT_VERIFY(m_app->findWindow(kCancelTitle).isEmpty(), kWaitMs);
        QFAIL(qPrintable(QStringLiteral("%1 opened a confirmation to cancel (\"%2\"); cancelled "
                                        "after Enter: %3")
                             .arg(after, title)
                             .arg(cancelledCount())));
    }
    QVERIFY(m_app->findWindow(kCancelTitle).isEmpty());
    QVERIFY(m_app->key(push, {QStringLiteral("Escape")}));
    WAIT_VERIFY(m_app->findWindow(QStringLiteral("^Push")).isEmpty(), kWaitMs);
}

QMap<QString, qint64> TestOperator::dueTimes() const
{
    const QByteArray reply =
        m_server.cli({QStringLiteral("ZRANGE"), QStringLiteral("dq:{%1}:pending").arg(kQueue),
                      QStringLiteral("0"), QStringLiteral("-1"), QStringLiteral("WITHSCORES")});
    const QList<QByteArray> lines = reply.trimmed().split('\n');
    QMap<QString, qint64> due;
    for (qsizetype i = 0; i + 1 < lines.size(); i += 2)
        due.insert(QString::fromUtf8(lines[i].trimmed()), lines[i + 1].trimmed().toLongLong());
    return due;
}

qint64 TestOperator::cancelledCount() const
{
    return m_server
        .cli({QStringLiteral("HGET"), QStringLiteral("dq:{%1}:stats").arg(kQueue),
              QStringLiteral("cancelled")})
        .trimmed()
        .toLongLong();
}

void TestOperator::keepEvidence()
{
    // Outside any temporary folder that is removed at the end: kept for a look afterwards.
    const QString dir = QDir::temp().filePath(QStringLiteral("tst_operator-%1-%2")
                                                  .arg(QCoreApplication::applicationPid())
                                                  .arg(QTest::currentTestFunction()));
    QDir().mkpath(dir);
    const QString shot = dir + QStringLiteral("/screen.png");
    if (m_x.screenshot(shot))
        qWarning("screen at the failure: %s", qPrintable(shot));
    else
        qWarning("no screenshot (ImageMagick's import is not installed)");
    qWarning("windows: %s", qPrintable(m_app->titles().join(QStringLiteral(" | "))));
    qWarning("delayq-admin said: %s", m_app->output().right(4000).constData());
}

void TestOperator::openingSelectsNothing()
{
    pushTasks(5);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(startApp(QString::fromStdString(m_server.tcpUrl())));
    // Opened and drawn: the rows read from Redis are on the screen (the old code selected the
    // first of them as they came).
    waitForCell(QStringLiteral("order-1"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("Delete")}));
    expectNoCancelOffered(QStringLiteral("Delete right after opening the queue"));
    QCOMPARE(dueTimes().size(), 5);
    QCOMPARE(cancelledCount(), 0);
}

void TestOperator::typedDelayReschedules()
{
    pushTasks(5);
    if (QTest::currentTestFailed())
        return;
    const QMap<QString, qint64> before = dueTimes();
    QVERIFY(startApp(QString::fromStdString(m_server.tcpUrl())));
    clickCell(QStringLiteral("order-3"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("ctrl+r")}));
    QString dialog;
    WAIT_VERIFY(!(dialog = m_app->findWindow(QStringLiteral("^Reschedule"))).isEmpty(), kWaitMs);
    QVERIFY(m_app->type(dialog, QStringLiteral("3m")));
    const qint64 typedAt = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(m_app->key(dialog, {QStringLiteral("Return")}));
    WAIT_VERIFY(dueTimes().value(QStringLiteral("order-3")) !=
                    before.value(QStringLiteral("order-3")),
                kWaitMs);
    const QMap<QString, qint64> after = dueTimes();
    const qint64 due = after.value(QStringLiteral("order-3"));
    const qint64 wanted = typedAt + 3 * 60 * 1000;
    QVERIFY2(qAbs(due - wanted) <= 5000,
             qPrintable(QStringLiteral("order-3 is due %1 s from the Enter, not 180 s")
                            .arg(static_cast<double>(due - typedAt) / 1000.0, 0, 'f', 1)));
    QCOMPARE(after.size(), before.size());
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        if (it.key() != QLatin1String("order-3"))
            QVERIFY2(after.value(it.key()) == it.value(), qPrintable(it.key() + " moved too"));
}

void TestOperator::consumedTaskLeavesNothingSelected()
{
    // order-1 due now, for the worker; order-2 … order-5 an hour apart after it.
    pushTasks(5, 0);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(startApp(QString::fromStdString(m_server.tcpUrl())));
    clickCell(QStringLiteral("order-1"));
    if (QTest::currentTestFailed())
        return;
    // Consumed behind the window's back: a worker claims and acks it.
    const CliRun work = m_cli->run({QStringLiteral("work"), kQueue, QStringLiteral("--max-tasks"),
                                    QStringLiteral("1"), QStringLiteral("--quiet")});
    QVERIFY2(work.exitCode == 0, work.err.constData());
    QVERIFY(!dueTimes().contains(QStringLiteral("order-1")));
    // The window has read the queue since (its refresh runs every 2 s): order-1's row is gone
    // (the old code then selected the row that slid into its place).
    WAIT_VERIFY2(cellOf(QStringLiteral("order-1")).isNull() &&
                     !cellOf(QStringLiteral("order-2")).isNull(),
                 "order-1 is still shown, or order-2 is not", kWaitMs);
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("Delete")}));
    expectNoCancelOffered(QStringLiteral("Delete after the selected task was consumed"));
    QCOMPARE(dueTimes().size(), 4);
    QCOMPARE(cancelledCount(), 0);
}

void TestOperator::overviewDeleteCancelsNothing()
{
    pushTasks(5);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(startApp(QString::fromStdString(m_server.tcpUrl())));
    clickCell(QStringLiteral("order-2")); // selected on the queue's page
    if (QTest::currentTestFailed())
        return;
    // View → Overview, by keyboard: the menu opens on its first entry.
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("alt+v"), QStringLiteral("Return")}));
    // On the Overview: the task table is hidden and the overview's row of the queue is shown,
    // its state "running" in a cell no task table has.
    WAIT_VERIFY2(cellOf(QStringLiteral("order-2")).isNull() &&
                     !cellOf(QStringLiteral("running")).isNull(),
                 "the Overview page is not shown", kWaitMs);
    // The operator clicks the queue's row there. It takes the keyboard focus from the page's
    // filter field, which the switch gives it and where Delete only edits text.
    clickCell(QStringLiteral("running"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("Delete")}));
    expectNoCancelOffered(QStringLiteral("Delete on the Overview page"));
    QCOMPARE(dueTimes().size(), 5);
    QCOMPARE(cancelledCount(), 0);
}

void TestOperator::overviewPauseAsksForTheSelectedRow()
{
    pushTasks(3);
    const CliRun mail = m_cli->run({QStringLiteral("push"), QStringLiteral("mail"),
                                    QStringLiteral("{\"to\":\"a\"}"), QStringLiteral("--in"),
                                    QStringLiteral("1h")});
    QVERIFY2(mail.exitCode == 0, mail.err.constData());
    if (QTest::currentTestFailed())
        return;
    QVERIFY(startApp(QString::fromStdString(m_server.tcpUrl()))); // orders open
    waitForCell(QStringLiteral("order-1"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("alt+v"), QStringLiteral("Return")}));
    clickCell(QStringLiteral("mail")); // the mail row of the Overview
    if (QTest::currentTestFailed())
        return;
    // The toolbar's pause button, as the operator sees it after the click.
    AccessibilityBus::Node pause;
    WAIT_VERIFY2(
        !(pause = nodeOf(QStringLiteral("button"), QStringLiteral("^Pause"))).extents.isEmpty(),
        "no Pause button shown", kWaitMs);
    QVERIFY2(pause.name.contains(QStringLiteral("mail")),
             qPrintable(QStringLiteral("the Pause button names no mail: \"%1\"").arg(pause.name)));
    QVERIFY(m_app->click(m_app->mainWindow(), pause.extents.center()));
    QString dialog;
    WAIT_VERIFY2(!(dialog = m_app->findWindow(QStringLiteral("^Pause queue"))).isEmpty(),
                 qPrintable(QStringLiteral("no confirmation; orders paused: %1")
                                .arg(QString::fromUtf8(m_server.cli(
                                    {QStringLiteral("HGET"), QStringLiteral("dq:{orders}:config"),
                                     QStringLiteral("paused")})))),
                 kWaitMs);
    QCOMPARE(m_app->title(dialog), QStringLiteral("Pause queue mail"));
    // It names the queue and the server.
    const QString shown = shownTexts();
    QVERIFY2(shown.contains(QStringLiteral("Pause queue mail on ")), qPrintable(shown));
    AccessibilityBus::Node yes;
    WAIT_VERIFY(
        !(yes = nodeOf(QStringLiteral("button"), QStringLiteral("^Pause mail$"))).extents.isEmpty(),
        kWaitMs);
    QVERIFY(m_app->click(dialog, yes.extents.center()));
    auto paused = [this](const QString& queue) {
        return m_server
                   .cli({QStringLiteral("HGET"), QStringLiteral("dq:{%1}:config").arg(queue),
                         QStringLiteral("paused")})
                   .trimmed() == "1";
    };
    WAIT_VERIFY2(paused(QStringLiteral("mail")), "mail is not paused", kWaitMs);
    QVERIFY2(!paused(kQueue), "orders, open behind the Overview, was paused");
}

void TestOperator::secondClickOnAGoneMatchSelectsNothing()
{
    pushTasks(6);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(startApp(QString::fromStdString(m_server.tcpUrl())));
    waitForCell(QStringLiteral("order-1"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("ctrl+f")}));
    QVERIFY(m_app->type(m_app->mainWindow(), QStringLiteral("\"order\"")));
    AccessibilityBus::Node findText;
    WAIT_VERIFY(!(findText = nodeOf(QStringLiteral("button"), QStringLiteral("^Find text$")))
                     .extents.isEmpty(),
                kWaitMs);
    QVERIFY(m_app->click(m_app->mainWindow(), findText.extents.center()));
    AccessibilityBus::Node match;
    WAIT_VERIFY2(
        !(match = nodeOf(QStringLiteral("item"), QStringLiteral("order-4 "))).extents.isEmpty(),
        "no match of order-4 listed", kWaitMs);
    // Cancelled from the CLI after the search listed it.
    const CliRun cancel = m_cli->run({QStringLiteral("cancel"), kQueue, QStringLiteral("order-4")});
    QVERIFY2(cancel.exitCode == 0, cancel.err.constData());
    const QPoint spot = match.extents.center();
    QVERIFY(m_app->click(m_app->mainWindow(), spot));
    WAIT_VERIFY2(
        !nodeOf(QStringLiteral("item"), QStringLiteral("order-4 .*\\(gone\\)")).extents.isEmpty(),
        "the match of order-4 is not marked gone", kWaitMs);
    // The list did not move: the gone match is still under the pointer.
    const AccessibilityBus::Node gone =
        nodeOf(QStringLiteral("item"), QStringLiteral("order-4 .*\\(gone\\)"));
    QVERIFY2(gone.extents.contains(spot),
             qPrintable(QStringLiteral("the match moved from (%1, %2) to (%3, %4)")
                            .arg(spot.x())
                            .arg(spot.y())
                            .arg(gone.extents.center().x())
                            .arg(gone.extents.center().y())));
    // The same spot again (the pointer leaves it first: xdotool's --sync waits for a move).
    QVERIFY(
        m_x.xdotool({QStringLiteral("mousemove"), QStringLiteral("0"), QStringLiteral("0")}).ok);
    QVERIFY(m_app->click(m_app->mainWindow(), spot));
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("Delete")}));
    expectNoCancelOffered(QStringLiteral("Delete after a second click on a gone match"));
    QCOMPARE(dueTimes().size(), 5);
}

void TestOperator::consumedHeadLeavesTheSelectedTaskInPlace()
{
    // head-1 … head-5 due now, for the worker; order-1 … order-100 an hour apart after them:
    // enough rows that two pages down are mid-table, not at its end (where the old scroll
    // by row number happened to keep the rows in place).
    for (int i = 1; i <= 5; ++i) {
        const CliRun run =
            m_cli->run({QStringLiteral("push"), kQueue, QStringLiteral("{\"head\":%1}").arg(i),
                        QStringLiteral("--id"), QStringLiteral("head-%1").arg(i),
                        QStringLiteral("--in"), QStringLiteral("%1ms").arg(i)});
        QVERIFY2(run.exitCode == 0, run.err.constData());
    }
    pushTasks(100);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(startApp(QString::fromStdString(m_server.tcpUrl())));
    // Scrolled down the table as an operator reading it: a click, then Page Down twice.
    clickCell(QStringLiteral("order-1"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("Next"), QStringLiteral("Next")}));
    // The task on the second row shown: with the rows kept by number, five rows leaving
    // above it would take it out of sight.
    QString target;
    WAIT_VERIFY2(
        [&] {
            int top = INT_MAX;
            int second = INT_MAX;
            target.clear();
            QString topName;
            for (const AccessibilityBus::Node& node : m_a11y.nodes(m_app->pid())) {
                if (node.role != QLatin1String("cell") || !node.showing ||
                    !node.name.startsWith(QStringLiteral("order-")) || node.extents.isEmpty())
                    continue;
                const int y = node.extents.top();
                if (y < top) {
                    second = top;
                    target = topName;
                    top = y;
                    topName = node.name;
                } else if (y > top && y < second) {
                    second = y;
                    target = node.name;
                }
            }
            return !target.isEmpty() && target != QLatin1String("order-1") &&
                   target != QLatin1String("order-2");
        }(),
        "the table did not scroll down", kWaitMs);
    clickCell(target);
    if (QTest::currentTestFailed())
        return;
    // The screen-reader tree is rebuilt after a click; read the place once it shows the cell.
    QPoint before;
    WAIT_VERIFY2(!(before = cellOf(target)).isNull(),
                 qPrintable(QStringLiteral("%1 not shown after its click").arg(target)), kWaitMs);
    const CliRun work = m_cli->run({QStringLiteral("work"), kQueue, QStringLiteral("--max-tasks"),
                                    QStringLiteral("5"), QStringLiteral("--quiet")});
    QVERIFY2(work.exitCode == 0, work.err.constData());
    QCOMPARE(dueTimes().size(), 100);
    // Then a task due just before the target: once the table shows it, the table has read
    // the queue after the worker's consumption too.
    const int n = target.mid(6).toInt();
    const CliRun marker =
        m_cli->run({QStringLiteral("push"), kQueue, QStringLiteral("{}"), QStringLiteral("--id"),
                    QStringLiteral("marker"), QStringLiteral("--in"),
                    QStringLiteral("%1ms").arg(qint64(n) * 3600 * 1000 - 1800 * 1000)});
    QVERIFY2(marker.exitCode == 0, marker.err.constData());
    // The marker sits just above the target: shown once the table read the queue again, and
    // out of sight too if the rows slid.
    WAIT_VERIFY2(!cellOf(QStringLiteral("marker")).isNull(),
                 qPrintable(QStringLiteral("no marker shown above %1").arg(target)), kWaitMs);
    QPoint after;
    WAIT_VERIFY2(!(after = cellOf(target)).isNull(),
                 qPrintable(QStringLiteral("%1 out of sight").arg(target)), kWaitMs);
    QVERIFY2(after == before,
             qPrintable(QStringLiteral("%1 slid from y %2 to y %3")
                            .arg(target)
                            .arg(before.y())
                            .arg(after.y())));
    // Still the target, and the dialog names it.
    QVERIFY(m_app->key(m_app->mainWindow(), {QStringLiteral("ctrl+r")}));
    QString dialog;
    WAIT_VERIFY(!(dialog = m_app->findWindow(QStringLiteral("^Reschedule"))).isEmpty(), kWaitMs);
    const QString shown = shownTexts();
    QVERIFY2(shown.contains(QStringLiteral("Reschedule this task of queue orders")) &&
                 shown.contains(target + QStringLiteral(" — due ")) &&
                 shown.contains(QStringLiteral("{\"order\":%1}").arg(n)),
             qPrintable(shown));
    QVERIFY(m_app->key(dialog, {QStringLiteral("Escape")}));
    WAIT_VERIFY(m_app->findWindow(QStringLiteral("^Reschedule")).isEmpty(), kWaitMs);
}

void TestOperator::connectionErrorNamesCause_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("cause"); // a regular expression, case-insensitive
    QTest::newRow("wrong password") << "password"
                                    << "password is wrong";
    QTest::newRow("nothing listening") << "port"
                                       << "refused";
    QTest::newRow("rediss:// to a plain server") << "tls"
                                                 << "did not answer TLS";
}

void TestOperator::connectionErrorNamesCause()
{
    QFETCH(QString, kind);
    QFETCH(QString, cause);
    QString url;
    if (kind == QLatin1String("password")) {
        QVERIFY2(m_other.start(), qPrintable(m_other.errorString()));
        m_other.cli({QStringLiteral("CONFIG"), QStringLiteral("SET"), QStringLiteral("requirepass"),
                     QStringLiteral("right")});
        url = QStringLiteral("redis://:wrong@127.0.0.1:%1").arg(m_other.port());
    } else if (kind == QLatin1String("port")) {
        url = QStringLiteral("redis://127.0.0.1:%1").arg(RedisServer::freePort());
    } else {
        url = QStringLiteral("rediss://127.0.0.1:%1").arg(m_server.port());
    }
    QVERIFY(startApp(url));
    const QRegularExpression re(cause, QRegularExpression::CaseInsensitiveOption);
    WAIT_VERIFY2(re.match(shownTexts()).hasMatch(),
                 qPrintable(QStringLiteral("the window does not name the cause "
                                           "\"%1\"; it shows: %2")
                                .arg(cause, shownTexts())),
                 kWaitMs);
    QVERIFY(m_app->isRunning());
}

QTEST_GUILESS_MAIN(TestOperator)
#include "tst_operator.moc"
