#include "client/adminclient.h"
#include "overview/overviewmodel.h"
#include "overview/overviewpage.h"
#include "queue/queuecontrol.h"
#include "queue/queuelist.h"
#include "queue/thresholds.h"
#include "queue/thresholdsdialog.h"
#include "redisserver.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include "workerbeat.h"
#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/workerregistry.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFont>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <algorithm>
#include <climits>
#include <numeric>

using namespace delayq::ui;

namespace {

// A device that keeps the text painted on it, each run where it starts (in the painted
// widget's coordinates): what a cell shows once the style has elided it, as the operator
// reads it.
class PaintedText : public QPaintDevice
{
public:
    struct Run
    {
        QPointF at;
        QString text;
    };

    explicit PaintedText(const QWidget* like) : m_like(like), m_engine(&m_runs) {}

    QPaintEngine* paintEngine() const override { return &m_engine; }
    // The runs inside `cell`, left to right, as one text.
    QString in(const QRect& cell) const
    {
        QList<Run> runs;
        for (const Run& run : m_runs)
            if (cell.contains(run.at.toPoint()))
                runs.append(run);
        std::sort(runs.begin(), runs.end(),
                  [](const Run& a, const Run& b) { return a.at.x() < b.at.x(); });
        QString text;
        for (const Run& run : runs)
            text += run.text;
        return text;
    }

protected:
    // The widget's metrics, so the text is laid out (and elided) as on its screen.
    int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
        case PdmWidth:
            return m_like->width();
        case PdmHeight:
            return m_like->height();
        case PdmWidthMM:
            return m_like->widthMM();
        case PdmHeightMM:
            return m_like->heightMM();
        case PdmNumColors:
            return INT_MAX;
        case PdmDepth:
            return 32;
        case PdmDpiX:
            return m_like->logicalDpiX();
        case PdmDpiY:
            return m_like->logicalDpiY();
        case PdmPhysicalDpiX:
            return m_like->physicalDpiX();
        case PdmPhysicalDpiY:
            return m_like->physicalDpiY();
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return static_cast<int>(devicePixelRatioFScale());
        }
        return 0;
    }

private:
    class Engine : public QPaintEngine
    {
    public:
        explicit Engine(QList<Run>* runs) : QPaintEngine(AllFeatures), m_runs(runs) {}
        bool begin(QPaintDevice*) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState& changed) override
        {
            if (changed.state() & DirtyTransform)
                m_transform = changed.transform();
        }
        void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
        void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
        void drawPath(const QPainterPath&) override {}
        void drawTextItem(const QPointF& at, const QTextItem& item) override
        {
            m_runs->append({m_transform.map(at), item.text()});
        }
        Type type() const override { return User; }

    private:
        QList<Run>* m_runs;
        QTransform m_transform;
    };

    const QWidget* m_like;
    QList<Run> m_runs;
    mutable Engine m_engine;
};

// Why `shown`, the text a Busy groups cell painted, could be misread ("" when it cannot):
// it must be whole groups in their order, or the busiest with its name cut ("tenant-00… 1,200
// due"), each figure the count read, then "+N more" counting the groups left out; or "…"
// alone. A figure cut by an ellipsis ("acme 30…" for 300) matches none of these.
QString misreadIn(const QString& shown, const QList<GroupRow>& groups)
{
    const QChar ellipsis(0x2026);
    if (shown == QString(ellipsis))
        return QString();
    // A name, a figure and what it counts, its running tasks, what holds the group back.
    static const QRegularExpression groupPiece(
        QStringLiteral(R"(^(.*?) (\S+) (due|running)(?:, (\S+) running)?)") +
        QStringLiteral(R"((?: \((at its group cap|waiting for its group rate)\))?$)"));
    static const QRegularExpression morePiece(QStringLiteral(R"(^\+(\S+) more$)"));
    const QLocale locale;
    const QStringList pieces = shown.split(QStringLiteral("; "));
    for (qsizetype i = 0; i < pieces.size(); ++i) {
        const QString& piece = pieces[i];
        if (const auto more = morePiece.match(piece); more.hasMatch()) {
            if (i != pieces.size() - 1 || i == 0 ||
                more.captured(1) != locale.toString(groups.size() - i))
                return QStringLiteral("\"%1\" after %2 of %3 groups")
                    .arg(piece)
                    .arg(i)
                    .arg(groups.size());
            continue;
        }
        const auto m = groupPiece.match(piece);
        if (!m.hasMatch() || i >= groups.size())
            return QStringLiteral("\"%1\" is not a group with its figures").arg(piece);
        const GroupRow& g = groups[i];
        const QString name = g.group.isEmpty() ? QStringLiteral("(no group)") : g.group;
        const QString shownName = m.captured(1);
        if (shownName != name &&
            !(shownName.endsWith(ellipsis) && name.startsWith(shownName.chopped(1))))
            return QStringLiteral("\"%1\" is not %2's name").arg(shownName, name);
        const bool running = m.captured(3) == QLatin1String("running");
        if (m.captured(2) != locale.toString(running ? g.active : g.dueWaiting))
            return QStringLiteral("%1 shown for %2 %3, read %4 due, %5 running")
                .arg(m.captured(2), name, m.captured(3))
                .arg(g.dueWaiting)
                .arg(g.active);
        if (m.hasCaptured(4) && (running || m.captured(4) != locale.toString(g.active)))
            return QStringLiteral("%1 running shown for %2, read %3")
                .arg(m.captured(4), name)
                .arg(g.active);
        if (m.hasCaptured(5) &&
            (m.captured(5).contains(QLatin1String("cap")) ? !g.atCap : !g.atRate))
            return QStringLiteral("\"%1\" said of %2").arg(m.captured(5), name);
    }
    return QString();
}

} // namespace

// The overview against a real redis-server: the figures of queues in known states, the
// threshold colours, filter and sort, the context menu, and plain keys beside the queues.
class TestOverview : public WindowSuite
{
    Q_OBJECT

public:
    TestOverview() : WindowSuite(QStringLiteral("tst_overview")) {}

protected:
    void initTest() override
    {
        WindowSuite::initTest();
        QSettings().remove(QStringLiteral("overview"));
    }

private:
    OverviewPage* page() const { return m_fixture.window()->overview(); }

    std::unique_ptr<delayq::Connection> connection() const
    {
        return std::make_unique<delayq::Connection>(
            delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    }

    // A snapshot asked for now and shown.
    void snapshot()
    {
        QTRY_VERIFY(!page()->isRefreshing());
        QSignalSpy refreshed(page(), &OverviewPage::refreshed);
        page()->refresh();
        QVERIFY(refreshed.wait(5000));
    }

    const OverviewRow* row(const QString& name) const { return page()->model()->rowNamed(name); }
    int rowIndex(const QString& name) const
    {
        const auto& rows = page()->model()->rows();
        for (int i = 0; i < rows.size(); ++i)
            if (rows[i].name == name)
                return i;
        return -1;
    }

    // A worker of `queue` live for an hour: it started startedAgoMs ago, holds `held` tasks
    // and last acked lastAckAgoMs ago (-1: never).
    void beat(const QString& queue, const QString& name, qint64 startedAgoMs = 0, qint64 held = 0,
              qint64 lastAckAgoMs = -1)
    {
        const auto conn = connection();
        const long long now = conn->serverTimeMs();
        delayq::WorkerInfo info = workerInfo(now - startedAgoMs, 1200000);
        info.held = held;
        info.lastAckMs = lastAckAgoMs < 0 ? 0 : now - lastAckAgoMs;
        beatAs(*conn, queue.toStdString(), name.toStdString(), info, 3600000);
    }

    // lagging: 3 tasks 2 minutes overdue and one ahead, and a live worker (which is behind);
    // paused: paused with one task; failing: one acked and one dead this minute; calm: two
    // tasks tomorrow.
    void fillKnownStates()
    {
        beat(QStringLiteral("lagging"), QStringLiteral("behind"));
        const auto conn = connection();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        m_fixture.pushAt(QStringLiteral("lagging"),
                         {now - 120000, now - 110000, now - 100000, now + 3600000});
        m_fixture.pushAt(QStringLiteral("paused"), {now + 60000});
        delayq::Queue(*conn, "paused").setConfig("paused", "1");
        m_fixture.pushDead(QStringLiteral("failing"), {QStringLiteral("d1")});
        delayq::Queue failing(*conn, "failing");
        delayq::PushRequest acked;
        acked.payload = "{}";
        failing.push(acked);
        for (const auto& t : failing.claim(1, 60000, "w").tasks)
            failing.ack(t.id, t.token);
        m_fixture.pushAt(QStringLiteral("calm"), {now + 86400000, now + 86500000});
    }

private slots:
    // The dead bound (docs/design/bounds.md): from half of it the Dead cell says the bound
    // beside the count (the fuller of count and bytes), from 90 % it is coloured; the tooltip
    // always says the bound, or that there is none.
    void deadBoundShown_data()
    {
        QTest::addColumn<QString>("deadMax");
        QTest::addColumn<QString>("deadMaxBytes");
        QTest::addColumn<int>("dead");
        QTest::addColumn<QString>("cell"); // exact, or after "~": its end
        QTest::addColumn<bool>("coloured");
        QTest::addColumn<QString>("tip"); // in the tooltip
        QTest::newRow("far from it")
            << "10"
            << "off" << 2 << "2" << false << "Dead bound: at most 10 tasks; now 2 tasks";
        QTest::newRow("half") << "10"
                              << "off" << 5 << "5 / 10" << false << "(50% full)";
        QTest::newRow("near") << "10"
                              << "off" << 9 << "9 / 10" << true
                              << "Near its dead bound: the oldest dead tasks are dropped next.";
        // 9 dead tasks of 35 bytes each (id, record, last error): 315 of 400.
        QTest::newRow("bytes the fuller") << "off"
                                          << "400" << 9 << "~ bytes / 400 bytes" << false
                                          << "Dead bound: at most 400 bytes; now 9 tasks";
        QTest::newRow("default bound")
            << ""
            << "" << 3 << "3" << false << "Dead bound: at most 100,000 tasks and 64.0 MB";
        QTest::newRow("no bound") << "off"
                                  << "off" << 3 << "3" << false << "No dead bound";
    }
    void deadBoundShown()
    {
        QFETCH(QString, deadMax);
        QFETCH(QString, deadMaxBytes);
        QFETCH(int, dead);
        QFETCH(QString, cell);
        QFETCH(bool, coloured);
        QFETCH(QString, tip);
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        {
            const auto conn = connection();
            delayq::Queue q(*conn, "bounded");
            if (!deadMax.isEmpty())
                q.setConfig({{"dead_max", deadMax.toStdString()},
                             {"dead_max_bytes", deadMaxBytes.toStdString()}});
        }
        QStringList ids;
        for (int i = 0; i < dead; ++i)
            ids.append(QStringLiteral("d%1").arg(i));
        m_fixture.pushDead(QStringLiteral("bounded"), ids);
        // Only the bound colours the cell: no threshold of the operator's for this queue.
        Thresholds::setQueueOverride(QStringLiteral("bounded"),
                                     Thresholds::Limits{60000, -1, -1, -1});
        m_fixture.connectWindow();
        snapshot();
        const QModelIndex index =
            page()->model()->index(rowIndex(QStringLiteral("bounded")), OverviewModel::Dead);
        QLocale::setDefault(before);
        const QString shown = index.data().toString();
        if (cell.startsWith(QLatin1Char('~')))
            QVERIFY2(shown.endsWith(cell.mid(1)), qPrintable(shown));
        else
            QCOMPARE(shown, cell);
        QCOMPARE(index.data(Qt::BackgroundRole).isValid(), coloured);
        const QString said = index.data(Qt::ToolTipRole).toString();
        QVERIFY2(said.contains(tip), qPrintable(said));
        QCOMPARE(index.data(OverviewModel::SortRole).toLongLong(), qint64(dead));
        Thresholds::setQueueOverride(QStringLiteral("bounded"), std::nullopt);
    }

    void figuresOfKnownStates_data()
    {
        QTest::addColumn<QString>("queue");
        QTest::addColumn<qint64>("pending");
        QTest::addColumn<qint64>("dueNow");
        QTest::addColumn<qint64>("dead");
        QTest::addColumn<bool>("paused");
        QTest::addColumn<qint64>("acked");
        QTest::addColumn<qint64>("failed");
        QTest::addColumn<qint64>("minOverdueMs");
        QTest::addColumn<qint64>("maxOverdueMs");
        QTest::addColumn<bool>("breached");
        QTest::newRow("lagging") << "lagging" << 4LL << 3LL << 0LL << false << 0LL << 0LL
                                 << 120000LL << 180000LL << true;
        QTest::newRow("paused") << "paused" << 1LL << 0LL << 0LL << true << 0LL << 0LL << 0LL << 0LL
                                << false;
        QTest::newRow("failing") << "failing" << 0LL << 0LL << 1LL << false << 1LL << 1LL << 0LL
                                 << 0LL << true;
        QTest::newRow("calm") << "calm" << 2LL << 0LL << 0LL << false << 0LL << 0LL << 0LL << 0LL
                              << false;
    }
    void figuresOfKnownStates()
    {
        QFETCH(QString, queue);
        fillKnownStates();
        m_fixture.connectWindow();
        QVERIFY(m_fixture.window()->isOverviewShown()); // the first thing after connecting
        snapshot();
        QCOMPARE(page()->model()->rowCount(), 4);
        const OverviewRow* r = row(queue);
        QVERIFY(r);
        QTEST(r->pending, "pending");
        QTEST(r->dueNow, "dueNow");
        QTEST(r->dead, "dead");
        QCOMPARE(r->paused, [&] {
            QFETCH(bool, paused);
            return paused;
        }());
        QTEST(r->ackedHour, "acked");
        QTEST(r->failedHour, "failed"); // died + retried
        QCOMPARE(r->ackedSeries.size(), 60);
        QCOMPARE(r->ackedSeries.last(), r->ackedMinute);
        QCOMPARE(r->failedSeries.last(), r->failedMinute);
        // This minute, or the one before if the clock turned since the tasks were acked.
        QTEST(r->ackedMinute + r->ackedSeries[58], "acked");
        QTEST(r->failedMinute + r->failedSeries[58], "failed");
        QFETCH(qint64, minOverdueMs);
        QFETCH(qint64, maxOverdueMs);
        QVERIFY2(r->oldestOverdueMs >= minOverdueMs && r->oldestOverdueMs <= maxOverdueMs,
                 qPrintable(QString::number(r->oldestOverdueMs)));
        // The colour and the reason for it.
        const int index = rowIndex(r->name);
        const QModelIndex cell = page()->model()->index(index, OverviewModel::Pending);
        QFETCH(bool, breached);
        QCOMPARE(cell.data(OverviewModel::BreachedRole).toBool(), breached);
        QCOMPARE(cell.data(Qt::BackgroundRole).isValid(), breached);
        if (breached)
            QVERIFY(cell.data(Qt::ToolTipRole)
                        .toString()
                        .contains(queue == QLatin1String("lagging")
                                      ? QStringLiteral("oldest overdue")
                                      : QStringLiteral("dead 1 is above 0")));
        // The queue list marks the paused queue too.
        QFETCH(bool, paused);
        QTRY_COMPARE(m_fixture.window()->queueList()->isMarkedPaused(queue), paused);
    }

    // The figure above its limit is marked in its own cell (bold, a stronger colour, its own
    // reason), so three coloured rows say without hovering which limit each crossed.
    // A breach names two figures that differ as the comparison says: "1m is above 1m" when
    // both round to the same second is said in milliseconds (issue 49, item 7).
    void breachTextsShowFiguresThatDiffer_data()
    {
        QTest::addColumn<qint64>("overdueMs");
        QTest::addColumn<qint64>("limitMs");
        QTest::addColumn<QString>("text");
        const QLocale l;
        QTest::newRow("the same second") << qint64(60400) << qint64(60000)
                                         << QStringLiteral("oldest overdue %1ms is above %2ms")
                                                .arg(l.toString(60400), l.toString(60000));
        QTest::newRow("seconds apart") << qint64(72000) << qint64(60000)
                                       << QStringLiteral("oldest overdue 1m 12s is above 1m");
        QTest::newRow("a minute apart") << qint64(2 * 60000) << qint64(60000)
                                        << QStringLiteral("oldest overdue 2m is above 1m");
    }
    void breachTextsShowFiguresThatDiffer()
    {
        QFETCH(qint64, overdueMs);
        QFETCH(qint64, limitMs);
        QFETCH(QString, text);
        OverviewRow row;
        row.name = QStringLiteral("orders");
        row.oldestOverdueMs = overdueMs;
        row.consumers = 1;
        Thresholds::Limits limits;
        limits.overdueMs = limitMs;
        const QList<Thresholds::Breach> breaches = Thresholds::breaches(row, limits);
        QCOMPARE(breaches.size(), 1);
        QCOMPARE(breaches.first().text, text);
    }

    void marksTheCellAboveItsLimit_data()
    {
        QTest::addColumn<QString>("queue");
        QTest::addColumn<QList<qint64>>("limits"); // overdue ms, dead, due now, failed/hour
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("reason");
        QTest::newRow("oldest overdue") << "lagging" << QList<qint64>{60000, 0, -1, -1}
                                        << int(OverviewModel::OldestOverdue) << "oldest overdue";
        QTest::newRow("due now") << "lagging" << QList<qint64>{-1, -1, 2, -1}
                                 << int(OverviewModel::DueNow) << "due now 3 is above 2";
        QTest::newRow("dead") << "failing" << QList<qint64>{60000, 0, -1, -1}
                              << int(OverviewModel::Dead) << "dead 1 is above 0";
        QTest::newRow("failed in the last hour")
            << "failing" << QList<qint64>{-1, -1, -1, 0} << int(OverviewModel::Failed)
            << "failed in the last hour 1 is above 0";
    }
    void marksTheCellAboveItsLimit()
    {
        QFETCH(QString, queue);
        QFETCH(QList<qint64>, limits);
        QFETCH(int, column);
        QFETCH(QString, reason);
        fillKnownStates();
        Thresholds::setQueueOverride(
            queue, Thresholds::Limits{limits[0], limits[1], limits[2], limits[3]});
        m_fixture.connectWindow();
        snapshot();
        OverviewModel* model = page()->model();
        const int row = rowIndex(queue);
        QVERIFY(row >= 0);
        for (int c = 0; c < OverviewModel::ColumnCount; ++c) {
            const QModelIndex cell = model->index(row, c);
            const bool marked = c == column;
            QCOMPARE(cell.data(OverviewModel::BreachedCellRole).toBool(), marked);
            QCOMPARE(cell.data(Qt::BackgroundRole).value<QColor>(),
                     marked ? OverviewModel::breachColor() : OverviewModel::warningColor());
            QCOMPARE(cell.data(Qt::FontRole).value<QFont>().bold(), marked);
        }
        const QString tip = model->index(row, column).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(reason), qPrintable(tip));
        // The calm queue is marked nowhere.
        const QModelIndex calm = model->index(rowIndex(QStringLiteral("calm")), column);
        QVERIFY(!calm.data(OverviewModel::BreachedCellRole).toBool());
        QVERIFY(!calm.data(Qt::BackgroundRole).isValid());
    }

    // A queue with tasks due and no live consumer is flagged whatever the thresholds say, and
    // so is one whose live worker holds tasks and acked none for 5 minutes; not a paused one.
    void flagsQueuesWhoseConsumersNeedALook_data()
    {
        QTest::addColumn<QString>("queue");
        QTest::addColumn<QString>("cell");
        QTest::addColumn<QString>("reason"); // empty: not flagged
        QTest::newRow("no consumer") << "orphan"
                                     << "none"
                                     << "no consumer: 2 due, oldest 1m";
        QTest::newRow("a live one") << "lagging"
                                    << "1"
                                    << "";
        QTest::newRow("stalled") << "stuck"
                                 << "1, stalled"
                                 << "stalled: a worker holds tasks and acked none for 5m";
        QTest::newRow("acked 1 min ago") << "busy"
                                         << "1"
                                         << "";
        QTest::newRow("paused") << "paused"
                                << "0"
                                << "";
        QTest::newRow("nothing due") << "calm"
                                     << "0"
                                     << "";
    }
    void flagsQueuesWhoseConsumersNeedALook()
    {
        QFETCH(QString, queue);
        QFETCH(QString, cell);
        QFETCH(QString, reason);
        fillKnownStates();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        m_fixture.pushAt(QStringLiteral("orphan"), {now - 60000, now - 50000});
        m_fixture.pushAt(QStringLiteral("stuck"), {now + 3600000});
        beat(QStringLiteral("stuck"), QStringLiteral("w"), 600000, 3, 360000);
        m_fixture.pushAt(QStringLiteral("busy"), {now + 3600000});
        beat(QStringLiteral("busy"), QStringLiteral("w"), 600000, 3, 60000);
        m_fixture.pushAt(QStringLiteral("paused"), {now - 1000});
        m_fixture.connectWindow();
        snapshot();
        const QModelIndex index = page()->model()->index(rowIndex(queue), OverviewModel::Consumers);
        QCOMPARE(index.data().toString(), cell);
        QCOMPARE(index.data(OverviewModel::BreachedCellRole).toBool(), !reason.isEmpty());
        // Said in words under the table too, one line per queue that needs a look.
        const QString alarms = page()->consumerAlarms()->text();
        QCOMPARE(alarms.contains(queue + QStringLiteral(": ")), !reason.isEmpty());
        QCOMPARE(alarms.split(QLatin1Char('\n')).size(), 2); // orphan and stuck
        if (!reason.isEmpty()) {
            const QString tip = index.data(Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(reason), qPrintable(tip));
            QVERIFY2(alarms.contains(queue + QStringLiteral(": ") + reason), qPrintable(alarms));
        }
    }

    // A queue in fair order shows its busiest groups in the Busiest groups column, with their
    // due and running counts, as `delayq stats` and the Groups tab list them (its tooltip one
    // a line); a queue in due order shows none, and without a queue in fair order the column
    // is hidden.
    void busyGroupsOfAQueueInFairOrder()
    {
        const auto conn = connection();
        m_fixture.pushAt(QStringLiteral("calm"), {conn->serverTimeMs() - 1000});
        m_fixture.connectWindow();
        snapshot();
        QVERIFY(page()->view()->isColumnHidden(OverviewModel::Groups));

        delayq::Queue tenants(*conn, "tenants");
        tenants.setConfig("order", "fair");
        const qint64 now = conn->serverTimeMs();
        std::vector<delayq::PushRequest> pushes;
        auto add = [&](const std::string& group, int n) {
            for (int i = 0; i < n; ++i) {
                delayq::PushRequest r;
                r.group = group;
                r.dueAtMs = now - 1000;
                pushes.push_back(r);
            }
        };
        add("big", 1200);
        add("small", 2);
        add("", 1);
        tenants.pushBatch(pushes);
        // The ring's first group (big, pushed first) gives its best task.
        auto claimed = tenants.claim(1, 600000, "w").tasks;
        QCOMPARE(claimed.size(), size_t(1));
        snapshot();
        const OverviewRow* r = row(QStringLiteral("tenants"));
        QVERIFY(r);
        QVERIFY(r->fair);
        QCOMPARE(r->busyGroups.size(), OverviewResult::kOverviewGroups);
        QVERIFY(!row(QStringLiteral("calm"))->fair);
        QVERIFY(!page()->view()->isColumnHidden(OverviewModel::Groups));
        const QModelIndex cell =
            page()->model()->index(rowIndex(QStringLiteral("tenants")), OverviewModel::Groups);
        const QString big = QStringLiteral("big %1 due, 1 running").arg(QLocale().toString(1199));
        QCOMPARE(cell.data().toString(),
                 big + QStringLiteral("; small 2 due, 0 running; (no group) 1 due, 0 running"));
        const QString tip = cell.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("3 group(s) in turn")) ||
                     tip.contains(QStringLiteral("3 groups in turn")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1Char('\n') + big + QLatin1Char('\n')), qPrintable(tip));
        QCOMPARE(page()
                     ->model()
                     ->index(rowIndex(QStringLiteral("calm")), OverviewModel::Groups)
                     .data()
                     .toString(),
                 QString());

        // None busy once the queue's groups have nothing due or running.
        while (true) {
            const auto more = tenants.claim(1000, 600000, "w").tasks;
            if (more.empty())
                break;
            claimed.insert(claimed.end(), more.begin(), more.end());
        }
        std::vector<std::pair<std::string, std::string>> acks;
        for (const auto& t : claimed)
            acks.emplace_back(t.id, t.token);
        tenants.ack(acks);
        snapshot();
        QCOMPARE(page()
                     ->model()
                     ->index(rowIndex(QStringLiteral("tenants")), OverviewModel::Groups)
                     .data()
                     .toString(),
                 QStringLiteral("—"));
    }

    // The Busy groups cell at a narrow width drew the groups' line elided at its right end,
    // which cut a count mid-figure ("acme 30…" for 300). Painted at each width, it shows
    // whole groups, or the busiest with its name cut, every figure whole and as read.
    void busyGroupsNeverCutAFigure_data()
    {
        QTest::addColumn<QStringList>("groups");
        QTest::addColumn<QList<int>>("due");
        QTest::addColumn<bool>("cap");    // group_cap 1, each group running one: at their cap
        QTest::addColumn<int>("width");   // of the column; 0: as a 1024x700 window fits it
        QTest::addColumn<bool>("figure"); // the busiest group's figure must be among them
        const QStringList tenants{QStringLiteral("acme"), QStringLiteral("globex"),
                                  QStringLiteral("initech")};
        const QList<int> busy{300, 20, 20};
        QTest::newRow("1024x700 window") << tenants << busy << false << 0 << false;
        for (int width : {40, 64, 72, 90, 120, 160, 220, 300, 400})
            QTest::addRow("%d px", width) << tenants << busy << false << width << (width >= 120);
        const QStringList longNames{QStringLiteral("tenant-0042-enterprise-accounts"),
                                    QStringLiteral("tenant-7"), QString()};
        const QList<int> some{1200, 2, 1};
        QTest::newRow("long name, 1024x700 window") << longNames << some << false << 0 << false;
        for (int width : {90, 160, 260, 400})
            QTest::addRow("long name, %d px", width)
                << longNames << some << false << width << (width >= 120);
        for (int width : {100, 200, 320})
            QTest::addRow("at its cap, %d px", width)
                << longNames << some << true << width << (width >= 120);
    }
    void busyGroupsNeverCutAFigure()
    {
        QFETCH(QStringList, groups);
        QFETCH(QList<int>, due);
        QFETCH(bool, cap);
        QFETCH(int, width);
        QFETCH(bool, figure);
        const auto conn = connection();
        delayq::Queue tenants(*conn, "tenants");
        tenants.setConfig("order", "fair");
        if (cap)
            tenants.setConfig("group_cap", "1");
        const qint64 now = conn->serverTimeMs();
        std::vector<delayq::PushRequest> pushes;
        for (qsizetype i = 0; i < groups.size(); ++i)
            for (int n = 0; n < due[i]; ++n) {
                delayq::PushRequest r;
                r.group = groups[i].toStdString();
                r.dueAtMs = now - 1000;
                pushes.push_back(r);
            }
        tenants.pushBatch(pushes);
        if (cap) {
            // One of each group, then a claim that finds them at their cap.
            QCOMPARE(tenants.claim(groups.size(), 600000, "w").tasks.size(), size_t(groups.size()));
            tenants.claim(1, 600000, "w");
        }
        MainWindow* window = m_fixture.window();
        if (width == 0)
            window->resize(1024, 700);
        m_fixture.connectWindow();
        window->showOverview();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        if (width == 0)
            QTRY_COMPARE(window->size(), QSize(1024, 700));
        snapshot();
        const OverviewRow* r = row(QStringLiteral("tenants"));
        QVERIFY(r);
        QCOMPARE(r->busyGroups.size(), groups.size());
        qint64 read = 0;
        for (const GroupRow& g : r->busyGroups)
            read += g.dueWaiting + g.active;
        QCOMPARE(read, std::accumulate(due.begin(), due.end(), qint64(0)));
        QCOMPARE(std::any_of(r->busyGroups.begin(), r->busyGroups.end(),
                             [](const GroupRow& g) { return g.atCap; }),
                 cap);

        QTableView* view = page()->view();
        const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(view->model());
        QVERIFY(proxy);
        const QModelIndex cell = proxy->mapFromSource(
            page()->model()->index(rowIndex(QStringLiteral("tenants")), OverviewModel::Groups));
        if (width > 0)
            view->setColumnWidth(OverviewModel::Groups, width); // as the operator drags it
        QCoreApplication::sendPostedEvents();
        view->scrollTo(cell);
        const QRect rect = view->visualRect(cell);
        QVERIFY2(view->viewport()->rect().contains(rect),
                 qPrintable(QStringLiteral("the cell at %1,%2 %3 px wide, viewport %4 px")
                                .arg(rect.x())
                                .arg(rect.y())
                                .arg(rect.width())
                                .arg(view->viewport()->width())));
        PaintedText painted(view->viewport());
        view->viewport()->render(&painted);
        const QString shown = painted.in(rect);
        const QString why = misreadIn(shown, r->busyGroups);
        QVERIFY2(why.isEmpty(),
                 qPrintable(
                     QStringLiteral("\"%1\" in %2 px: %3").arg(shown).arg(rect.width()).arg(why)));
        if (figure)
            QVERIFY2(shown.contains(QLocale().toString(r->busyGroups.first().dueWaiting)),
                     qPrintable(shown));
        // The cell's own text, its sort and its tooltip are whole, as before.
        QCOMPARE(cell.data().toString(), OverviewModel::groupsText(*r));
        QCOMPARE(cell.data(OverviewModel::SortRole).toLongLong(), r->busyGroups.first().dueWaiting);
        for (const GroupRow& g : r->busyGroups)
            QVERIFY(cell.data(Qt::ToolTipRole).toString().contains(OverviewModel::groupText(g)));
    }

    void thresholdsPerQueue_data()
    {
        QTest::addColumn<QString>("overdue");
        QTest::addColumn<QString>("dead");
        QTest::addColumn<bool>("laggingBreached");
        QTest::addColumn<bool>("failingBreached");
        QTest::newRow("defaults") << QString() << QString() << true << true;
        QTest::newRow("lagging allowed 5m") << QStringLiteral("5m") << QString() << false << true;
        QTest::newRow("dead allowed 3") << QString() << QStringLiteral("3") << true << false;
    }
    void thresholdsPerQueue()
    {
        QFETCH(QString, overdue);
        QFETCH(QString, dead);
        fillKnownStates();
        if (!overdue.isEmpty())
            Thresholds::setQueueOverride(QStringLiteral("lagging"),
                                         Thresholds::Limits{300000, 0, -1, -1});
        if (!dead.isEmpty())
            Thresholds::setQueueOverride(QStringLiteral("failing"),
                                         Thresholds::Limits{60000, 3, -1, -1});
        m_fixture.connectWindow();
        snapshot();
        auto breached = [this](const QString& name) {
            return page()
                ->model()
                ->index(rowIndex(name), 0)
                .data(OverviewModel::BreachedRole)
                .toBool();
        };
        QTEST(breached(QStringLiteral("lagging")), "laggingBreached");
        QTEST(breached(QStringLiteral("failing")), "failingBreached");
        QVERIFY(!breached(QStringLiteral("calm")));
        // Kept in settings: a new window colours the same way.
        m_fixture.reopen();
        m_fixture.connectWindow();
        snapshot();
        QTEST(breached(QStringLiteral("lagging")), "laggingBreached");
        QVERIFY(page()->legend()->text().contains(QStringLiteral("oldest overdue > 1m")));
    }

    void thresholdsDialogRefusesAndKeeps_data()
    {
        QTest::addColumn<QString>("overdue");
        QTest::addColumn<QString>("dead");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("a duration and a count")
            << QStringLiteral("90s") << QStringLiteral("2") << true;
        QTest::newRow("both off") << QString() << QString() << true;
        QTest::newRow("not a duration") << QStringLiteral("soon") << QStringLiteral("0") << false;
        QTest::newRow("negative count") << QStringLiteral("1m") << QStringLiteral("-3") << false;
        QTest::newRow("not a count") << QStringLiteral("1m") << QStringLiteral("many") << false;
    }
    void thresholdsDialogRefusesAndKeeps()
    {
        QFETCH(QString, overdue);
        QFETCH(QString, dead);
        QFETCH(bool, accepted);
        ThresholdsDialog dialog(QStringLiteral("orders"));
        dialog.ownBox()->setChecked(true);
        dialog.overdueField()->setText(overdue);
        dialog.deadField()->setText(dead);
        QCOMPARE(dialog.limits().has_value(), accepted);
        QCOMPARE(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled(),
                 accepted);
        dialog.accept();
        const auto kept = Thresholds::queueOverride(QStringLiteral("orders"));
        QCOMPARE(kept.has_value(), accepted); // a refused value writes nothing
        if (accepted) {
            QCOMPARE(kept->overdueMs, overdue.isEmpty() ? -1 : 90000);
            QCOMPARE(kept->dead, dead.isEmpty() ? -1 : 2);
            QCOMPARE(Thresholds::defaults(), Thresholds::Limits{}); // only this queue's
            // Unticked: the queue follows the defaults again.
            ThresholdsDialog again(QStringLiteral("orders"));
            QVERIFY(again.ownBox()->isChecked());
            again.ownBox()->setChecked(false);
            again.accept();
            QVERIFY(!Thresholds::queueOverride(QStringLiteral("orders")));
        }
    }

    void filterAndSort()
    {
        fillKnownStates();
        m_fixture.connectWindow();
        snapshot();
        page()->filter()->setText(QStringLiteral("LAG"));
        QCOMPARE(page()->proxy()->rowCount(), 1);
        QCOMPARE(page()->proxy()->index(0, 0).data().toString(), QStringLiteral("lagging"));
        page()->filter()->clear();
        page()->proxy()->sort(OverviewModel::Pending, Qt::DescendingOrder);
        QCOMPARE(page()->proxy()->index(0, 0).data().toString(), QStringLiteral("lagging"));
        page()->proxy()->sort(OverviewModel::OldestOverdue, Qt::DescendingOrder);
        QCOMPARE(page()->proxy()->index(0, 0).data().toString(), QStringLiteral("lagging"));
    }

    void doubleClickOpensTheQueue()
    {
        fillKnownStates();
        m_fixture.connectWindow();
        snapshot();
        QSignalSpy loaded(m_fixture.window(), &MainWindow::queueLoaded);
        page()->filter()->setText(QStringLiteral("calm"));
        emit page()->view()->doubleClicked(page()->proxy()->index(0, 0));
        QVERIFY(loaded.wait(5000));
        QCOMPARE(m_fixture.window()->queue(), QStringLiteral("calm"));
        QVERIFY(!m_fixture.window()->isOverviewShown());
        m_fixture.window()->overviewAction()->trigger();
        QVERIFY(m_fixture.window()->isOverviewShown());
    }

    void contextMenuActions()
    {
        fillKnownStates();
        m_fixture.connectWindow();
        snapshot();
        QObject owner;
        QList<QAction*> actions = page()->contextActions(QStringLiteral("calm"), &owner);
        QStringList texts;
        for (auto* a : actions)
            texts.append(a->text());
        QCOMPARE(texts, QStringList({QStringLiteral("Open"), QStringLiteral("Pause"),
                                     QStringLiteral("Settings…"), QStringLiteral("Thresholds…"),
                                     QStringLiteral("Copy name")}));
        actions[4]->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("calm"));
        QSignalSpy paused(m_fixture.window()->queueControl(), &QueueControl::pausedChanged);
        QStringList asked;
        m_fixture.window()->queueControl()->setConfirmHandler([&asked](const Confirmation& c) {
            asked.append(c.text);
            return true;
        });
        actions[1]->trigger();
        QCOMPARE(asked.size(), 1); // pausing asks, naming the queue
        QVERIFY2(asked.first().contains(QStringLiteral("calm")), qPrintable(asked.first()));
        QVERIFY(paused.wait(5000));
        const auto conn = connection();
        QVERIFY(delayq::Queue(*conn, "calm").config().paused);
        QTRY_VERIFY(row(QStringLiteral("calm")) && row(QStringLiteral("calm"))->paused);
        // A paused queue's menu offers Resume.
        actions = page()->contextActions(QStringLiteral("calm"), &owner);
        QCOMPARE(actions[1]->text(), QStringLiteral("Resume"));
        QSignalSpy loaded(m_fixture.window(), &MainWindow::queueLoaded);
        actions[0]->trigger();
        QVERIFY(loaded.wait(5000));
        QCOMPARE(m_fixture.window()->queue(), QStringLiteral("calm"));
        QTRY_VERIFY(m_fixture.window()->windowTitle().contains(QStringLiteral("(paused)")));
    }

    void plainKeysBesideQueues()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        m_server.cli({QStringLiteral("ZADD"), QStringLiteral("legacy:delay"),
                      QString::number(now - 90000), QStringLiteral("a"),
                      QString::number(now + 90000), QStringLiteral("b")});
        m_fixture.pushAt(QStringLiteral("calm"), {now + 86400000});
        QSignalSpy plain(m_fixture.window()->queueList(), &QueueList::plainKeysListed);
        m_fixture.connectWindow();
        QVERIFY(plain.count() > 0 || plain.wait(5000));
        snapshot();
        const OverviewRow* r = row(QStringLiteral("legacy:delay"));
        QVERIFY(r);
        QVERIFY(r->plain);
        QCOMPARE(r->pending, 2);
        QCOMPARE(r->dueNow, 1);
        QVERIFY(r->oldestOverdueMs >= 90000);
        const int index = rowIndex(r->name);
        QCOMPARE(page()->model()->index(index, OverviewModel::Dead).data().toString(),
                 QStringLiteral("—"));
        QObject owner;
        QCOMPARE(page()->contextActions(r->name, &owner).size(), 3); // open, thresholds, copy
    }
};

QTEST_MAIN(TestOverview)
#include "tst_overview.moc"
