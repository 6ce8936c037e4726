#include "tasks/historytext.h"

#include <delayq/timeparse.h>

#include <QStringList>

namespace delayq::ui {

QString HistoryText::kindText(const QString& kind)
{
    static const char* const kinds[][2] = {
        {"pushed", QT_TR_NOOP("pushed")},         {"claimed", QT_TR_NOOP("claimed")},
        {"failed", QT_TR_NOOP("failed")},         {"died", QT_TR_NOOP("died")},
        {"expired", QT_TR_NOOP("lease expired")}, {"rescheduled", QT_TR_NOOP("rescheduled")},
        {"requeued", QT_TR_NOOP("requeued")},     {"acked", QT_TR_NOOP("acked")},
        {"cancelled", QT_TR_NOOP("cancelled")}};
    for (const auto& k : kinds)
        if (kind == QLatin1String(k[0]))
            return tr(k[1]);
    return kind;
}

namespace {

// "2026-12-04 03:45:55.374" as a date and a time of day.
QString dateOf(qint64 ms, bool utc)
{
    return QString::fromStdString(delayq::formatTime(ms, utc)).left(10);
}

QString timeOf(qint64 ms, bool utc)
{
    return QString::fromStdString(delayq::formatTime(ms, utc)).mid(11);
}

} // namespace

QString HistoryText::describe(const TaskEventRow& e, bool utc)
{
    QStringList parts;
    if (!e.who.isEmpty())
        parts << tr("by %1").arg(e.who);
    if (e.kind == QLatin1String("claimed") && e.text.startsWith(QLatin1String("attempt ")))
        parts << tr("attempt %1").arg(e.text.mid(8));
    else if (e.kind == QLatin1String("cancelled") && e.text == QLatin1String("forced"))
        parts << tr("forced (a worker held it)");
    else if (!e.text.isEmpty())
        parts << e.text;
    if (e.due >= 0) {
        // The time of day alone on the event's own day, which its date line names.
        const QString due = dateOf(e.due, utc) == dateOf(e.at, utc)
                                ? timeOf(e.due, utc)
                                : QString::fromStdString(delayq::formatTime(e.due, utc));
        if (e.kind == QLatin1String("claimed"))
            parts << tr("was due %1").arg(due);
        else if (e.kind == QLatin1String("failed"))
            parts << tr("retry at %1").arg(due);
        else if (e.kind == QLatin1String("expired"))
            parts << tr("due again %1").arg(due);
        else
            parts << tr("due %1").arg(due);
    }
    return parts.join(QStringLiteral(", "));
}

QString HistoryText::lines(const QList<TaskEventRow>& events, bool utc)
{
    // A narrow pane wraps a long event: a line of its own for each date keeps the events
    // short, each starting with its time of day.
    QStringList out;
    QString date;
    for (const TaskEventRow& e : events) {
        if (dateOf(e.at, utc) != date) {
            date = dateOf(e.at, utc);
            out << date;
        }
        const QString details = describe(e, utc);
        out << timeOf(e.at, utc) + QStringLiteral("  ") + kindText(e.kind) +
                   (details.isEmpty() ? QString() : QStringLiteral("  ") + details);
    }
    return out.join(QLatin1Char('\n'));
}

} // namespace delayq::ui
