#include "duetext.h"

#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <QDateTime>
#include <QObject>
#include <QTimeZone>

namespace delayq::ui {

QString DueText::describe(qint64 dueMs, qint64 nowMs, bool utc)
{
    const QDateTime due = utc ? QDateTime::fromMSecsSinceEpoch(dueMs, QTimeZone::utc())
                              : QDateTime::fromMSecsSinceEpoch(dueMs);
    const QDateTime now = utc ? QDateTime::fromMSecsSinceEpoch(nowMs, QTimeZone::utc())
                              : QDateTime::fromMSecsSinceEpoch(nowMs);
    QString when = due.toString(due.date() == now.date() ? QStringLiteral("HH:mm:ss")
                                                         : QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (utc)
        when += QStringLiteral(" UTC");
    return when + QStringLiteral(", ") +
           QString::fromStdString(delayq::formatRelative(dueMs, nowMs));
}

qint64 DueText::parseDelay(const QString& text)
{
    QString delay = text.trimmed();
    if (delay.startsWith(QLatin1String("in "), Qt::CaseInsensitive) ||
        delay.startsWith(QLatin1String("in\t"), Qt::CaseInsensitive))
        delay = delay.mid(3).trimmed();
    if (delay.isEmpty())
        throw delayq::Error(
            delayq::ErrorCode::InvalidArgument,
            QObject::tr("type a delay such as 30s, 5m or 1h30m (0 runs it now)").toStdString());
    // A bare number is refused as ambiguous (seconds? ms?), but 0 is 0 in any unit.
    if (delay == QLatin1String("0"))
        return 0;
    return delayq::parseDuration(delay.toStdString());
}

QString DueText::zoneName(bool utc)
{
    if (utc)
        return QStringLiteral("UTC");
    const QDateTime now = QDateTime::currentDateTime();
    const int offset = now.offsetFromUtc();
    const QString abbreviation = now.timeZoneAbbreviation();
    const bool bare = abbreviation.isEmpty() || abbreviation.startsWith(QLatin1String("UTC")) ||
                      abbreviation.startsWith(QLatin1String("GMT"));
    if (offset == 0 && bare)
        return QStringLiteral("UTC");
    const int hours = qAbs(offset) / 3600;
    const int minutes = qAbs(offset) % 3600 / 60;
    QString utcOffset = QStringLiteral("UTC") + (offset < 0 ? QLatin1Char('-') : QLatin1Char('+')) +
                        QString::number(hours);
    if (minutes)
        utcOffset += QStringLiteral(":%1").arg(minutes, 2, 10, QLatin1Char('0'));
    // Some zones have no abbreviation of their own and repeat the offset ("GMT+5:30").
    if (bare)
        return utcOffset;
    return abbreviation + QStringLiteral(", ") + utcOffset;
}

} // namespace delayq::ui
