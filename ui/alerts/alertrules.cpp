#include "alerts/alertrules.h"

#include "queue/thresholds.h"
#include "widgets/duetext.h"

#include <QDateTime>
#include <QLocale>
#include <QSet>

namespace delayq::ui {

namespace {

QString keyOf(const QString& server, const QString& queue, const QString& condition = {})
{
    return server + QChar(0x1f) + queue + QChar(0x1f) + condition;
}

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm"));
}

} // namespace

QList<AlertChange> AlertRules::read(const QString& server, const QList<OverviewRow>& rows,
                                    qint64 nowMs)
{
    QList<AlertChange> out;
    set(server, {}, {QStringLiteral("unreachable"), {}}, false, out, tr("read again"));
    QSet<QString> listed;
    for (const OverviewRow& row : rows) {
        if (row.plain)
            continue;
        listed.insert(row.name);
        const QList<Condition> now = conditionsOf(server, row, nowMs);
        for (const char* name : {"overdue", "dead", "no_consumer", "stalled", "paused"}) {
            const QString condition = QString::fromLatin1(name);
            Condition found{condition, {}};
            for (const Condition& c : now)
                if (c.name == condition)
                    found = c;
            set(server, row.name, found, !found.text.isEmpty(), out,
                found.text.isEmpty() ? figuresNow(condition, row) : QString());
        }
        // A reading without the forecast (most are: it is read every 30 s), or a queue whose
        // capacity is unknown, says nothing new of it: the condition stays as it was.
        if (row.forecastKnown) {
            const Condition late = forecastOf(row);
            set(server, row.name, late, !late.text.isEmpty(), out,
                late.text.isEmpty() ? figuresNow(late.name, row) : QString());
        }
    }
    // Queues gone from the server: their conditions end quietly.
    for (auto it = m_raised.begin(); it != m_raised.end();) {
        const QStringList parts = it.key().split(QChar(0x1f));
        if (parts[0] == server && !parts[1].isEmpty() && !listed.contains(parts[1]))
            it = m_raised.erase(it);
        else
            ++it;
    }
    return out;
}

QList<AlertChange> AlertRules::unreachable(const QString& server, const QString& reason)
{
    QList<AlertChange> out;
    set(server, {}, {QStringLiteral("unreachable"), tr("cannot be reached: %1").arg(reason)}, true,
        out);
    return out;
}

void AlertRules::forget(const QString& server)
{
    for (auto it = m_raised.begin(); it != m_raised.end();)
        it = it.key().startsWith(server + QChar(0x1f)) ? m_raised.erase(it) : std::next(it);
    for (auto it = m_pausedSince.begin(); it != m_pausedSince.end();)
        it = it.key().startsWith(server + QChar(0x1f)) ? m_pausedSince.erase(it) : std::next(it);
}

bool AlertRules::isRaised(const QString& server, const QString& queue,
                          const QString& condition) const
{
    return m_raised.contains(keyOf(server, queue, condition));
}

QList<AlertRules::Condition> AlertRules::conditionsOf(const QString& server, const OverviewRow& row,
                                                      qint64 nowMs)
{
    QList<Condition> out;
    for (const Thresholds::Breach& b : Thresholds::breaches(row, Thresholds::forQueue(row.name))) {
        switch (b.figure) {
        case Thresholds::Figure::OldestOverdue:
            out.append({QStringLiteral("overdue"), b.text});
            break;
        case Thresholds::Figure::Dead:
            out.append({QStringLiteral("dead"), b.text});
            break;
        case Thresholds::Figure::Consumers:
            out.append({row.consumerState == delayq::ConsumerState::Stalled
                            ? QStringLiteral("stalled")
                            : QStringLiteral("no_consumer"),
                        b.text});
            break;
        default:
            break; // due now and failed per hour colour the overview only
        }
    }
    const QString pausedKey = keyOf(server, row.name);
    if (!row.paused) {
        m_pausedSince.remove(pausedKey);
    } else {
        // From the pause Redis keeps: a queue paused before the app started (or before the
        // window was minimised and noticed it) has been paused that long already.
        const qint64 since =
            row.pausedForMs >= 0 ? nowMs - row.pausedForMs : m_pausedSince.value(pausedKey, nowMs);
        m_pausedSince.insert(pausedKey, since);
        if (nowMs - since >= m_pausedLimitMs)
            out.append({QStringLiteral("paused"),
                        tr("paused for %1").arg(DueText::duration((nowMs - since) / 1000 * 1000))});
    }
    return out;
}

AlertRules::Condition AlertRules::forecastOf(const OverviewRow& row)
{
    // Above the queue's oldest-overdue limit: what the "overdue" alert would say at the
    // peak, said before it. A limit turned off (-1) turns this off too.
    const qint64 limit = Thresholds::forQueue(row.name).overdueMs;
    if (limit < 0 || row.forecastPeakMs <= limit)
        return {QStringLiteral("forecast"), {}};
    return {QStringLiteral("forecast"),
            tr("%1 will run %2 late at %3")
                .arg(row.name, DueText::duration(row.forecastPeakMs / 1000 * 1000),
                     clock(row.forecastPeakAtMs))};
}

QString AlertRules::label(const QString& condition)
{
    if (condition == QLatin1String("overdue"))
        return tr("oldest overdue above its limit");
    if (condition == QLatin1String("dead"))
        return tr("dead tasks above their limit");
    if (condition == QLatin1String("no_consumer"))
        return tr("no consumer");
    if (condition == QLatin1String("stalled"))
        return tr("a stalled consumer");
    if (condition == QLatin1String("paused"))
        return tr("paused");
    if (condition == QLatin1String("forecast"))
        return tr("forecast lateness above its limit");
    return tr("cannot be reached");
}

QString AlertRules::figuresNow(const QString& condition, const OverviewRow& row)
{
    const QLocale locale;
    if (condition == QLatin1String("overdue"))
        return row.oldestOverdueMs > 0
                   ? tr("oldest overdue %1").arg(DueText::duration(row.oldestOverdueMs))
                   : tr("nothing overdue");
    if (condition == QLatin1String("dead"))
        return tr("%1 dead").arg(locale.toString(row.dead));
    if (condition == QLatin1String("paused"))
        return tr("running");
    if (condition == QLatin1String("forecast"))
        return row.forecastPeakMs > 0
                   ? tr("peak %1 late at %2")
                         .arg(DueText::duration(row.forecastPeakMs / 1000 * 1000),
                              clock(row.forecastPeakAtMs))
                   : tr("no lateness expected");
    return tr("%1 live consumers, %2 due")
        .arg(locale.toString(row.consumers), locale.toString(row.dueNow));
}

void AlertRules::set(const QString& server, const QString& queue, const Condition& condition,
                     bool on, QList<AlertChange>& out, const QString& now)
{
    const QString key = keyOf(server, queue, condition.name);
    const bool was = m_raised.contains(key);
    if (on == was)
        return;
    const QString where = queue.isEmpty() ? server : tr("%1 on %2").arg(queue, server);
    if (on) {
        m_raised.insert(key, condition.text);
        out.append(
            {server, queue, condition.name, true, tr("delayq: %1").arg(where), condition.text});
    } else {
        // The figures of this reading: those of when it began would read as today's.
        m_raised.remove(key);
        out.append({server, queue, condition.name, false,
                    tr("delayq: %1 is back to normal").arg(where),
                    tr("no longer: %1; now: %2").arg(label(condition.name), now)});
    }
}

} // namespace delayq::ui
