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
        const QString due = QString::fromStdString(delayq::formatTime(e.due, utc));
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
    QStringList out;
    for (const TaskEventRow& e : events)
        out << QString::fromStdString(delayq::formatTime(e.at, utc)) + QStringLiteral("  ") +
                   kindText(e.kind) + QStringLiteral("  ") + describe(e, utc);
    return out.join(QLatin1Char('\n'));
}

} // namespace delayq::ui
