#include "overview/overviewmodel.h"

#include "widgets/duetext.h"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

#include <algorithm>

namespace delayq::ui {

namespace {

QVariantList series(const QList<qint64>& values)
{
    QVariantList out;
    for (qint64 v : values)
        out.append(v);
    return out;
}

// Figures that mean nothing for a plain sorted set (no active or dead set, no counters).
bool nativeOnly(int column)
{
    return column == OverviewModel::Active || column == OverviewModel::Dead ||
           column == OverviewModel::ForecastPeak || column >= OverviewModel::Consumers;
}

// A group's name as the Groups cell may draw it. The key is the server's text: a control or
// format character (a line break, a direction override in a key written by hand) would
// break the cell's line or move the figures beside it, so it is drawn as U+FFFD.
QString drawable(const QString& name)
{
    QString out;
    out.reserve(name.size());
    for (char32_t c : QStringView(name).toUcs4()) {
        if (!QChar::isPrint(c))
            c = QChar::ReplacementCharacter;
        out.append(QString::fromUcs4(&c, 1));
    }
    return out;
}

} // namespace

const QColor& OverviewModel::warningColor()
{
    static const QColor color(0xf8, 0xd7, 0xc8); // light enough for dark text, seen at a glance
    return color;
}

const QColor& OverviewModel::breachColor()
{
    static const QColor color(0xf0, 0x9a, 0x6e); // still dark text on it, but stands out
    return color;
}

const QColor& OverviewModel::limitedColor()
{
    static const QColor color(0xd4, 0xe6, 0xf5); // a calm blue: held back on purpose
    return color;
}

QStringList OverviewModel::breaches(int row) const
{
    QStringList out;
    for (const auto& b : m_breaches.value(row))
        out.append(b.text);
    return out;
}

const Thresholds::Breach* OverviewModel::breachIn(int row, int column) const
{
    using F = Thresholds::Figure;
    for (const auto& b : m_breaches[row]) {
        const int at = b.figure == F::OldestOverdue ? OldestOverdue
                       : b.figure == F::DueNow      ? DueNow
                       : b.figure == F::Dead        ? Dead
                       : b.figure == F::Consumers   ? Consumers
                                                    : Failed;
        if (at == column)
            return &b;
    }
    return nullptr;
}

QString OverviewModel::deadBoundText(const OverviewRow& row)
{
    const QLocale locale;
    if (row.deadMax <= 0 && row.deadMaxBytes <= 0)
        return tr("No dead bound: dead tasks stay until they are deleted or requeued (config "
                  "dead_max, dead_max_bytes)");
    const auto size = [&locale](qint64 bytes) {
        return locale.formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
    };
    const QString tasks = tr("%1 tasks").arg(locale.toString(row.deadMax));
    const QString bound = row.deadMax <= 0 ? size(row.deadMaxBytes)
                          : row.deadMaxBytes <= 0
                              ? tasks
                              : tr("%1 and %2").arg(tasks, size(row.deadMaxBytes));
    QString text = tr("Dead bound: at most %1; now %2 tasks, %3 (%4% full). Past it the oldest "
                      "dead tasks are dropped, counted and audited.")
                       .arg(bound, locale.toString(row.dead), size(row.deadBytes),
                            locale.toString(qRound(row.deadBoundUse * 100)));
    if (row.deadBoundUse >= kNearDeadBound)
        text = tr("Near its dead bound: the oldest dead tasks are dropped next.") +
               QLatin1Char('\n') + text;
    return text;
}

bool OverviewModel::forecastAbove(const OverviewRow& row)
{
    const qint64 limit = Thresholds::forQueue(row.name).overdueMs;
    return row.forecastKnown && limit >= 0 && row.forecastPeakMs > limit;
}

OverviewModel::OverviewModel(QObject* parent) : QAbstractTableModel(parent) {}

void OverviewModel::setRows(const QList<OverviewRow>& rows)
{
    beginResetModel();
    m_rows = rows;
    m_anyNode = std::any_of(rows.begin(), rows.end(),
                            [](const OverviewRow& r) { return !r.node.isEmpty(); });
    m_anyServer = std::any_of(rows.begin(), rows.end(),
                              [](const OverviewRow& r) { return !r.server.isEmpty(); });
    m_anyFair = std::any_of(rows.begin(), rows.end(), [](const OverviewRow& r) { return r.fair; });
    m_breaches.clear();
    for (const auto& r : m_rows)
        m_breaches.append(Thresholds::breaches(r, Thresholds::forQueue(r.name)));
    endResetModel();
}

void OverviewModel::reloadThresholds()
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        m_breaches[i] = Thresholds::breaches(m_rows[i], Thresholds::forQueue(m_rows[i].name));
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void OverviewModel::setStale(const QDateTime& since)
{
    if (since == m_staleSince)
        return;
    m_staleSince = since;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const OverviewRow* OverviewModel::rowNamed(const QString& name) const
{
    for (const auto& r : m_rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

int OverviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int OverviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OverviewModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const OverviewRow& row = m_rows[index.row()];
    const bool breached = !m_breaches[index.row()].isEmpty();
    const bool cell = breachIn(index.row(), index.column()) != nullptr;
    const bool limited = index.column() == State && !row.limitedBy.isEmpty();
    // The forecast above the queue's threshold: not yet a breach (nothing is late), but the
    // cell is marked, as the alert says it before it happens.
    const bool lateAhead = index.column() == ForecastPeak && forecastAbove(row);
    // The oldest dead tasks go next: not a threshold of the operator's, but worth a look.
    const bool nearBound =
        index.column() == Dead && !row.plain && row.deadBoundUse >= kNearDeadBound;
    if (isStale()) {
        // Not live: the rows that matter most must not look live either.
        switch (role) {
        case Qt::BackgroundRole:
            return {};
        case Qt::ForegroundRole:
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        case Qt::FontRole: {
            QFont old;
            old.setItalic(true);
            return old;
        }
        case Qt::ToolTipRole:
            return tr("Not live: figures as of %1")
                .arg(m_staleSince.toString(QStringLiteral("HH:mm:ss")));
        default:
            break;
        }
    }
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case AckedSeriesRole:
        return series(row.ackedSeries);
    case FailedSeriesRole:
        return series(row.failedSeries);
    case BreachedRole:
        return breached;
    case BreachedCellRole:
        return cell;
    case BusyGroupsRole:
        // For the cell's delegate, which says as much of them as its width holds.
        return index.column() == Groups && row.fair && !row.plain && row.groupsRead &&
                       !row.busyGroups.isEmpty()
                   ? QVariant::fromValue(row.busyGroups)
                   : QVariant();
    case Qt::BackgroundRole:
        if (cell)
            return breachColor();
        if (breached || lateAhead || nearBound)
            return warningColor();
        return limited ? QVariant(limitedColor()) : QVariant();
    case Qt::ForegroundRole:
        return breached || limited || lateAhead || nearBound ? QVariant(QColor(Qt::black))
                                                             : QVariant();
    case Qt::FontRole: {
        if (!cell)
            return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::ToolTipRole:
        return toolTip(index);
    case Qt::TextAlignmentRole:
        return index.column() >= Pending && index.column() != Groups
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    default:
        return {};
    }
}

QVariant OverviewModel::toolTip(const QModelIndex& index) const
{
    const OverviewRow& row = m_rows[index.row()];
    // The Dead cell says its bound, after a threshold's words when there are any.
    const QString bound = index.column() == Dead && !row.plain
                              ? QLatin1String("\n\n") + deadBoundText(row)
                              : QString();
    if (const Thresholds::Breach* b = breachIn(index.row(), index.column()))
        return tr("Above its threshold: %1").arg(b->text) + bound;
    if (index.column() == ForecastPeak && forecastAbove(row))
        return tr("Expected to run %1 late at worst, above its %2 threshold")
            .arg(DueText::duration(row.forecastPeakMs / 1000 * 1000),
                 DueText::duration(Thresholds::forQueue(row.name).overdueMs));
    // The busiest groups one a line, whatever else the row is coloured for.
    if (index.column() == Groups && row.fair && row.groupsRead) {
        QStringList lines{tr("Fair order: %n group(s) in turn with due tasks", nullptr,
                             static_cast<int>(row.groupsReady))};
        if (row.groupsHeld > 0)
            lines.append(tr("%n held by their group cap or rate", nullptr,
                            static_cast<int>(row.groupsHeld)));
        if (!row.busyGroups.isEmpty())
            lines.append(tr("The busiest (Groups tab: all of them):"));
        for (const GroupRow& g : row.busyGroups)
            lines.append(groupText(g));
        return lines.join(QLatin1Char('\n'));
    }
    const QStringList why = breaches(index.row());
    if (!why.isEmpty())
        return tr("Above its thresholds:\n%1").arg(why.join(QLatin1Char('\n'))) + bound;
    if (!bound.isEmpty())
        return bound.mid(2);
    if (index.column() == LastHour)
        return tr("Acked (green) and failed (red) per minute over the last hour");
    if (index.column() == ForecastPeak && !row.plain && !row.forecastKnown)
        return tr("No forecast: no capacity known (no acks in the last 15 minutes, no rate "
                  "limit)");
    if (index.column() == State && !row.limitedBy.isEmpty())
        return row.limitedBy == QLatin1String("rate")
                   ? tr("Held back by its rate limit (%1): the due tasks wait for their turn. "
                        "Its tasks are being claimed: this is not a queue without a consumer.")
                         .arg(row.rate)
                   : tr("Held back by its cap (%1 at once): the due tasks wait for a running "
                        "one to finish. This is not a queue without a consumer.")
                         .arg(QLocale().toString(row.cap));
    return row.plain ? tr("A plain sorted set: only pending, due now and oldest overdue apply")
                     : QVariant();
}

QString OverviewModel::groupName(const GroupRow& g)
{
    return g.group.isEmpty() ? tr("(no group)") : g.group;
}

QString OverviewModel::groupText(const GroupRow& g)
{
    return groupText(g, groupName(g), GroupForm::Whole);
}

QString OverviewModel::groupText(const GroupRow& g, const QString& name, GroupForm form)
{
    const QLocale locale;
    if (form == GroupForm::Busiest)
        // The figure the group is among the busiest for: its due tasks, or its running ones
        // when none is due (a group at its cap).
        return g.dueWaiting > 0 || g.active <= 0
                   ? tr("%1 %2 due", "a group and its due tasks, in a narrow Busy groups cell")
                         .arg(name, locale.toString(g.dueWaiting))
                   : tr("%1 %2 running", "a group and its running tasks, in a narrow Busy "
                                         "groups cell")
                         .arg(name, locale.toString(g.active));
    const QString text = tr("%1 %2 due, %3 running")
                             .arg(name, locale.toString(g.dueWaiting), locale.toString(g.active));
    if (form == GroupForm::Counts)
        return text;
    if (g.atCap)
        return tr("%1 (at its group cap)").arg(text);
    if (g.atRate)
        return tr("%1 (waiting for its group rate)").arg(text);
    return text;
}

QString OverviewModel::groupsText(const QList<GroupRow>& groups, const QFontMetricsF& metrics,
                                  qreal width)
{
    if (groups.isEmpty())
        return QString();
    const QString separator = QStringLiteral("; ");
    const auto fits = [&](const QString& text) { return metrics.horizontalAdvance(text) <= width; };
    const auto more = [&](qsizetype shown) {
        const int left = static_cast<int>(groups.size() - shown);
        return left > 0 ? separator + tr("+%n more", "busy groups left out of a narrow cell", left)
                        : QString();
    };
    const auto nameOf = [](const GroupRow& g) { return drawable(groupName(g)); };
    // Whole groups, the busiest first, as many as fit: one left out is counted, not cut.
    QStringList whole;
    for (const GroupRow& g : groups)
        whole.append(groupText(g, nameOf(g), GroupForm::Whole));
    for (qsizetype k = whole.size(); k > 0; --k) {
        const QString text = whole.mid(0, k).join(separator) + more(k);
        if (fits(text))
            return text;
    }
    // The busiest alone: its name gives up room before any figure does, down to a first
    // character (or to nothing, "… 4 due", for the last form).
    const GroupRow& first = groups.first();
    const QString name = nameOf(first);
    const auto cut = [&](GroupForm form, const QString& tail, bool bare) -> QString {
        qreal room = width - metrics.horizontalAdvance(groupText(first, QString(), form) + tail);
        // The parts' widths need not add up to the whole's (kerning): a pixel less each try.
        for (int tries = 0; tries < 4 && room > 0; ++tries, room -= 1) {
            const QString shortName = metrics.elidedText(name, Qt::ElideRight, room);
            if (shortName.isEmpty() || (!bare && shortName.size() < 2 && shortName != name))
                return QString();
            const QString text = groupText(first, shortName, form) + tail;
            if (fits(text))
                return text;
        }
        return QString();
    };
    struct Step
    {
        GroupForm form;
        bool more;
        bool bare;
    };
    for (const Step& step :
         {Step{GroupForm::Whole, true, false}, Step{GroupForm::Counts, true, false},
          Step{GroupForm::Busiest, true, false}, Step{GroupForm::Busiest, false, false},
          Step{GroupForm::Busiest, false, true}}) {
        const QString text = cut(step.form, step.more ? more(1) : QString(), step.bare);
        if (!text.isEmpty())
            return text;
    }
    return QString(QChar(0x2026)); // not even a figure fits: the tooltip has them
}

QString OverviewModel::groupsText(const OverviewRow& row)
{
    if (row.plain || !row.fair)
        return QString();
    if (!row.groupsRead || row.busyGroups.isEmpty())
        return QStringLiteral("—");
    QStringList groups;
    for (const GroupRow& g : row.busyGroups)
        groups.append(groupText(g));
    return groups.join(QStringLiteral("; "));
}

QVariant OverviewModel::display(const OverviewRow& row, int column) const
{
    const QLocale locale;
    if (row.plain && nativeOnly(column))
        return QStringLiteral("—");
    switch (column) {
    case Name:
        return row.name;
    case Server:
        return row.server;
    case Node:
        return row.node;
    case State:
        if (row.plain)
            return tr("plain key (%1)").arg(row.unit);
        if (row.paused)
            return tr("paused");
        // Held back by its own limit: late by design, not for want of a consumer.
        if (row.limitedBy == QLatin1String("rate"))
            return tr("limited: %1, %2 waiting").arg(row.rate, locale.toString(row.dueNow));
        if (row.limitedBy == QLatin1String("cap"))
            return tr("limited: %1 active of %2, %3 waiting")
                .arg(locale.toString(row.activeLive), locale.toString(row.cap),
                     locale.toString(row.dueNow));
        return tr("running");
    case Groups:
        return groupsText(row);
    case Pending:
        return locale.toString(row.pending);
    case DueNow:
        return locale.toString(row.dueNow);
    case OldestOverdue:
        return row.oldestOverdueMs > 0 ? DueText::duration(row.oldestOverdueMs / 1000 * 1000)
                                       : QStringLiteral("—");
    case ForecastPeak:
        if (!row.forecastKnown)
            return QString();
        if (row.forecastPeakMs <= 0)
            return QStringLiteral("—");
        // "45s at 09:04", "11m at 09:04", "1h 5m at 09:04": to the minute past one, so the
        // column keeps to a laptop's width (its tooltip has the seconds).
        return tr("%1 at %2", "forecast peak lateness at a time")
            .arg(DueText::duration(row.forecastPeakMs < 60000
                                       ? row.forecastPeakMs / 1000 * 1000
                                       : (row.forecastPeakMs + 30000) / 60000 * 60000),
                 QDateTime::fromMSecsSinceEpoch(row.forecastPeakAtMs)
                     .toString(QStringLiteral("HH:mm")));
    case Active:
        return locale.toString(row.active);
    case Dead:
        // Half its bound or more: the bound beside it, the fuller of count and bytes.
        if (row.deadBoundUse >= kShownDeadBound) {
            const double countUse = row.deadMax > 0 ? double(row.dead) / double(row.deadMax) : 0.0;
            const double bytesUse =
                row.deadMaxBytes > 0 ? double(row.deadBytes) / double(row.deadMaxBytes) : 0.0;
            const bool bytes = bytesUse > countUse;
            if (bytes)
                return tr("%1 / %2", "dead bytes / dead_max_bytes")
                    .arg(locale.formattedDataSize(row.deadBytes, 1,
                                                  QLocale::DataSizeTraditionalFormat),
                         locale.formattedDataSize(row.deadMaxBytes, 1,
                                                  QLocale::DataSizeTraditionalFormat));
            return tr("%1 / %2", "dead tasks / dead_max")
                .arg(locale.toString(row.dead), locale.toString(row.deadMax));
        }
        return locale.toString(row.dead);
    case Consumers:
        if (row.consumerState == delayq::ConsumerState::NoConsumer)
            return tr("none");
        if (row.consumerState == delayq::ConsumerState::Stalled)
            return tr("%1, stalled").arg(locale.toString(row.consumers));
        return locale.toString(row.consumers);
    case Acked:
        return tr("%1 / %2", "last minute / last hour")
            .arg(locale.toString(row.ackedMinute), locale.toString(row.ackedHour));
    case Failed:
        return tr("%1 / %2", "last minute / last hour")
            .arg(locale.toString(row.failedMinute), locale.toString(row.failedHour));
    default:
        return {};
    }
}

QVariant OverviewModel::sortValue(const OverviewRow& row, int column) const
{
    // Plain keys sort below every queue on the figures they do not have.
    const qint64 none = -1;
    switch (column) {
    case State:
        return row.plain ? 2 : row.paused ? 1 : 0;
    case Pending:
        return row.pending;
    case DueNow:
        return row.dueNow;
    case OldestOverdue:
        return row.oldestOverdueMs;
    case ForecastPeak:
        return row.forecastKnown ? row.forecastPeakMs : none;
    case Active:
        return row.plain ? none : row.active;
    case Dead:
        return row.plain ? none : row.dead;
    case Consumers:
        return row.plain ? none : row.consumers;
    case Acked:
    case LastHour:
        return row.plain ? none : row.ackedHour;
    case Failed:
        return row.plain ? none : row.failedHour;
    case Groups: {
        // The busiest group's due tasks first.
        if (!row.fair || row.busyGroups.isEmpty())
            return none;
        return row.busyGroups.first().dueWaiting;
    }
    default:
        // The name, the server and the node sort by their text.
        return display(row, column);
    }
}

QVariant OverviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        if (section == OldestOverdue)
            return tr("How late the most overdue pending task is: the consumers are behind");
        if (section == ForecastPeak)
            return tr("How late the forecast says tasks will run at worst in the next 6 hours, "
                      "and when: from the due times and the capacity measured from recent acks "
                      "(read every 30 seconds)");
        if (section == Consumers)
            return tr("Workers whose heartbeat is live (Workers… lists them); flagged when "
                      "tasks are due and none is, or when one holds tasks and acks none");
        if (section == Acked)
            return tr("Tasks acked in the last minute / in the last hour");
        if (section == Failed)
            return tr("Failed attempts in the last minute / in the last hour: tasks that died "
                      "plus tasks retried after a failure");
        if (section == Groups)
            return tr("Queues in fair order: the busiest groups, with their due and running "
                      "tasks (as delayq stats and the Groups tab show them)");
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    static const char* const titles[] = {
        QT_TR_NOOP("Queue"),          QT_TR_NOOP("Server"),        QT_TR_NOOP("Node"),
        QT_TR_NOOP("State"),          QT_TR_NOOP("Pending"),       QT_TR_NOOP("Due now"),
        QT_TR_NOOP("Oldest overdue"), QT_TR_NOOP("Forecast peak"), QT_TR_NOOP("Active"),
        QT_TR_NOOP("Dead"),           QT_TR_NOOP("Consumers"),     QT_TR_NOOP("Acked 1m / 1h"),
        QT_TR_NOOP("Failed 1m / 1h"), QT_TR_NOOP("Busy groups"),   QT_TR_NOOP("Last hour")};
    if (section < 0 || section >= ColumnCount)
        return {};
    // Two lines ("Oldest" over "overdue"): eleven whole headers fit a laptop's width, where
    // one line each cut them to "dest overd" and "onsume" (issue 49).
    QString title = tr(titles[section]);
    const qsizetype space = title.indexOf(QLatin1Char(' '));
    if (space > 0)
        title[space] = QLatin1Char('\n');
    return title;
}

} // namespace delayq::ui
