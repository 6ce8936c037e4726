#include "queue/thresholds.h"

#include "widgets/duetext.h"

#include <QLocale>
#include <QSettings>

namespace delayq::ui {

namespace {

const char* const kDefaultsKey = "overview/thresholds";
const char* const kOverridesKey = "overview/thresholdOverrides";

// "overdueMs,dead,dueNow,failedHour": one value per queue keeps the map small and readable.
QString encode(const Thresholds::Limits& l)
{
    return QStringLiteral("%1,%2,%3,%4")
        .arg(l.overdueMs)
        .arg(l.dead)
        .arg(l.dueNow)
        .arg(l.failedHour);
}

std::optional<Thresholds::Limits> decode(const QString& text)
{
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() != 4)
        return std::nullopt;
    qint64 v[4];
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        v[i] = parts[i].toLongLong(&ok);
        if (!ok || v[i] < -1)
            return std::nullopt; // edited by hand: the defaults rather than nonsense
    }
    return Thresholds::Limits{v[0], v[1], v[2], v[3]};
}

} // namespace

Thresholds::Limits Thresholds::defaults()
{
    return decode(QSettings().value(QLatin1String(kDefaultsKey)).toString()).value_or(Limits{});
}

void Thresholds::setDefaults(const Limits& limits)
{
    QSettings().setValue(QLatin1String(kDefaultsKey), encode(limits));
}

std::optional<Thresholds::Limits> Thresholds::queueOverride(const QString& queue)
{
    const QVariantMap map = QSettings().value(QLatin1String(kOverridesKey)).toMap();
    if (!map.contains(queue))
        return std::nullopt;
    return decode(map.value(queue).toString());
}

void Thresholds::setQueueOverride(const QString& queue, const std::optional<Limits>& limits)
{
    QSettings settings;
    QVariantMap map = settings.value(QLatin1String(kOverridesKey)).toMap();
    if (limits)
        map.insert(queue, encode(*limits));
    else
        map.remove(queue);
    settings.setValue(QLatin1String(kOverridesKey), map);
}

Thresholds::Limits Thresholds::forQueue(const QString& queue)
{
    return queueOverride(queue).value_or(defaults());
}

QList<Thresholds::Breach> Thresholds::breaches(const OverviewRow& row, const Limits& limits)
{
    QList<Breach> out;
    const QLocale locale;
    if (limits.overdueMs >= 0 && row.oldestOverdueMs > limits.overdueMs) {
        // To the second both may read the same ("1m is above 1m" for 60.4 s against 60 s):
        // then both in milliseconds, so the figures shown differ as the comparison says.
        QString figure = DueText::duration(row.oldestOverdueMs);
        QString limit = DueText::duration(limits.overdueMs);
        if (figure == limit) {
            figure = DueText::milliseconds(row.oldestOverdueMs);
            limit = DueText::milliseconds(limits.overdueMs);
        }
        // A queue its own limit holds back is late by design: said with the figure, so the
        // colour and the alert do not read as consumers that fell behind.
        if (row.limitedBy == QLatin1String("rate"))
            out.append({Figure::OldestOverdue,
                        tr("oldest overdue %1 is above %2, held back by its rate limit %3")
                            .arg(figure, limit, row.rate)});
        else if (row.limitedBy == QLatin1String("cap"))
            out.append({Figure::OldestOverdue,
                        tr("oldest overdue %1 is above %2, held back by its cap of %3")
                            .arg(figure, limit, locale.toString(row.cap))});
        else
            out.append(
                {Figure::OldestOverdue, tr("oldest overdue %1 is above %2").arg(figure, limit)});
    }
    if (limits.dueNow >= 0 && row.dueNow > limits.dueNow)
        out.append({Figure::DueNow,
                    tr("due now %1 is above %2")
                        .arg(locale.toString(row.dueNow), locale.toString(limits.dueNow))});
    if (row.consumerState == delayq::ConsumerState::NoConsumer)
        out.append({Figure::Consumers,
                    tr("no consumer: %1 due, oldest %2 late")
                        .arg(locale.toString(row.dueNow), DueText::duration(row.oldestOverdueMs))});
    if (row.consumerState == delayq::ConsumerState::Stalled)
        out.append(
            {Figure::Consumers, tr("stalled: a worker holds tasks and acked none for %1")
                                    .arg(DueText::duration(delayq::WorkerRegistry::kStalledMs))});
    if (row.plain)
        return out; // no dead set and no counters
    if (limits.dead >= 0 && row.dead > limits.dead)
        out.append(
            {Figure::Dead, tr("dead %1 is above %2")
                               .arg(locale.toString(row.dead), locale.toString(limits.dead))});
    if (limits.failedHour >= 0 && row.failedHour > limits.failedHour)
        out.append({Figure::FailedHour,
                    tr("failed in the last hour %1 is above %2")
                        .arg(locale.toString(row.failedHour), locale.toString(limits.failedHour))});
    return out;
}

QString Thresholds::describe(const Limits& limits)
{
    QStringList parts;
    const QLocale locale;
    if (limits.overdueMs >= 0)
        parts.append(tr("oldest overdue > %1").arg(DueText::duration(limits.overdueMs)));
    if (limits.dueNow >= 0)
        parts.append(tr("due now > %1").arg(locale.toString(limits.dueNow)));
    if (limits.dead >= 0)
        parts.append(tr("dead > %1").arg(locale.toString(limits.dead)));
    if (limits.failedHour >= 0)
        parts.append(tr("failed in the last hour > %1").arg(locale.toString(limits.failedHour)));
    return parts.isEmpty() ? tr("no limits") : parts.join(QStringLiteral(", "));
}

} // namespace delayq::ui
