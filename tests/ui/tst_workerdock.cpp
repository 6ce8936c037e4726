#include "window/mainwindow.h"
#include "windowsuite.h"
#include "worker/workerdock.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/timeparse.h>

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace delayq::ui;

// The embedded worker's panel against a real redis-server: the lateness it shows is the
// tasks' own, and what it shows belongs to the queue and server open now.
class TestWorkerDock : public WindowSuite
{
    Q_OBJECT

public:
    TestWorkerDock() : WindowSuite(QStringLiteral("tst_workerdock")) {}

private slots:
    // Tasks 1 to 41 minutes overdue: the panel's p50, p99 and max, and each log line, read
    // the minutes the tasks waited by their own due times.
    void latenessIsTheTasksOwn()
    {
        constexpr int kTasks = 120;
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue queue(conn, "jobs");
        const qint64 base = conn.serverNowMs();
        std::map<QString, qint64> dueOf;
        std::vector<delayq::PushRequest> requests(kTasks);
        for (int i = 0; i < kTasks; ++i) {
            requests[i].id = "late-" + std::to_string(i);
            requests[i].dueAtMs = base - 60'000 - i * 20'000LL;
            dueOf[QString::fromStdString(requests[i].id)] = *requests[i].dueAtMs;
        }
        queue.pushBatch(requests);
        m_fixture.openQueue(QStringLiteral("jobs"));
        WorkerDock* dock = m_fixture.window()->workerDock();
        dock->sleepSpin()->setValue(0);
        const qint64 before = conn.serverNowMs();
        dock->startButton()->click();
        QVERIFY(dock->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(dock->acked(), static_cast<long long>(kTasks), 20000);
        const qint64 after = conn.serverNowMs();
        QSignalSpy stopped(dock, &WorkerDock::runningChanged);
        dock->stopWorker();
        QVERIFY(stopped.wait(10000));

        // Each task waited from its due time to its claim, between `before` and `after`.
        std::vector<qint64> lowest, highest;
        for (const auto& [id, due] : dueOf) {
            lowest.push_back(before - due);
            highest.push_back(after - due);
        }
        std::sort(lowest.begin(), lowest.end());
        std::sort(highest.begin(), highest.end());
        const QString counters = dock->countersLabel()->text();
        const QRegularExpression figures(QStringLiteral("lateness p50 (.+)  p99 (.+)  max (.+)$"),
                                         QRegularExpression::MultilineOption);
        const QRegularExpressionMatch shown = figures.match(counters);
        QVERIFY2(shown.hasMatch(), qPrintable(counters));
        const std::pair<double, int> quantiles[] = {{0.5, 1}, {0.99, 2}, {1.0, 3}};
        for (const auto& [q, group] : quantiles) {
            const size_t rank = static_cast<size_t>(std::ceil(q * kTasks)) - 1;
            const qint64 figure = durationMs(shown.captured(group));
            // Shown to the second; below max, at most 1% low (the histogram's buckets).
            const qint64 low = q < 1.0 ? lowest[rank] - lowest[rank] / 100 : lowest[rank];
            QVERIFY2(figure >= low - 1000 && figure <= highest[rank],
                     qPrintable(QStringLiteral("q %1: shown %2 (%3 ms), the tasks say %4..%5 ms")
                                    .arg(q)
                                    .arg(shown.captured(group))
                                    .arg(figure)
                                    .arg(lowest[rank])
                                    .arg(highest[rank])));
        }
        QVERIFY2(durationMs(shown.captured(1)) > 60'000, qPrintable(counters));

        const QRegularExpression line(
            QStringLiteral("acked (late-\\d+) \\(attempt 1, (.+) late\\)"));
        int lines = 0;
        for (const QString& text : dock->log()->toPlainText().split(QLatin1Char('\n'))) {
            const QRegularExpressionMatch m = line.match(text);
            if (!m.hasMatch())
                continue;
            ++lines;
            const qint64 due = dueOf.at(m.captured(1));
            const qint64 late = durationMs(m.captured(2));
            QVERIFY2(late >= before - due - 1000 && late <= after - due, qPrintable(text));
        }
        QCOMPARE(lines, kTasks);
    }

    // Another queue, a plain key or another server: the counters, the log and the worker
    // of the last one do not stay on screen under the new name.
    void startsAfreshForAnotherTarget_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("running");
        QTest::addColumn<QString>("title");
        QTest::newRow("another queue, stopped") << "queue" << false << "Embedded worker — other";
        QTest::newRow("another queue, running") << "queue" << true << "Embedded worker — other";
        QTest::newRow("a plain key, running") << "plain" << true << "Embedded worker — plainkey";
        // What the window shows of another server is not this panel's to say: no title.
        QTest::newRow("another server, running") << "server" << true << "";
    }
    void startsAfreshForAnotherTarget()
    {
        QFETCH(QString, target);
        QFETCH(bool, running);
        m_fixture.pushTasks(QStringLiteral("jobs"), {"a", "b", "c"});
        m_server.cli({"ZADD", "plainkey", "1", "m1"});
        m_fixture.openQueue(QStringLiteral("jobs"));
        WorkerDock* dock = m_fixture.window()->workerDock();
        dock->sleepSpin()->setValue(0);
        dock->startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(dock->acked(), 3LL, 20000);
        QTRY_VERIFY(dock->log()->toPlainText().contains(QStringLiteral("acked a")));
        QSignalSpy runningChanged(dock, &WorkerDock::runningChanged);
        if (!running) {
            dock->stopWorker();
            QVERIFY(runningChanged.wait(10000));
        }

        if (target == QLatin1String("queue"))
            m_fixture.openQueue(QStringLiteral("other"));
        else if (target == QLatin1String("plain"))
            m_fixture.openPlainKey(QStringLiteral("plainkey"), QStringLiteral("ms"));
        else // the same redis-server by another address: another server to the app
            m_fixture.connectWindow(false, QString::fromStdString(m_server.tcpUrl()));
        if (running) {
            QTRY_VERIFY_WITH_TIMEOUT(!dock->isRunning(), 10000);
            // The old worker's stop is said, under its own name; nothing of its work is.
            QTRY_VERIFY(dock->log()->toPlainText().contains(
                QStringLiteral("stopped the worker on queue jobs")));
        }
        QFETCH(QString, title);
        if (!title.isEmpty())
            QCOMPARE(dock->windowTitle(), title);
        QCOMPARE(dock->acked(), 0LL);
        QCOMPARE(dock->countersLabel()->text(), QStringLiteral("not running"));
        QVERIFY2(!dock->log()->toPlainText().contains(QStringLiteral("acked")),
                 qPrintable(dock->log()->toPlainText()));
        QVERIFY2(!dock->log()->toPlainText().contains(QStringLiteral("started")),
                 qPrintable(dock->log()->toPlainText()));
        // The next worker starts from zero on what is open now.
        QVERIFY(dock->startButton()->isEnabled());
    }

private:
    // "20m 48s" as the panel writes it, in ms.
    static qint64 durationMs(const QString& text)
    {
        return delayq::parseDuration(QString(text).remove(QLatin1Char(' ')).toStdString());
    }
};

QTEST_MAIN(TestWorkerDock)
#include "tst_workerdock.moc"
