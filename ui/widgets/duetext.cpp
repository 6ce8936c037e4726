#include "widgets/duetext.h"

#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QObject>
#include <QTimeZone>

namespace delayq::ui {

namespace {

// "06:24:57" today, "2026-12-02 06:24:57" on another day, " UTC" after it when utc.
QString clockText(qint64 ms, qint64 nowMs, bool utc)
{
    const QDateTime at = utc ? QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc())
                             : QDateTime::fromMSecsSinceEpoch(ms);
    const QDateTime now = utc ? QDateTime::fromMSecsSinceEpoch(nowMs, QTimeZone::utc())
                              : QDateTime::fromMSecsSinceEpoch(nowMs);
    QString when = at.toString(at.date() == now.date() ? QStringLiteral("HH:mm:ss")
                                                       : QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (utc)
        when += QStringLiteral(" UTC");
    return when;
}

} // namespace

QString DueText::describe(qint64 dueMs, qint64 nowMs, bool utc)
{
    return QCoreApplication::translate("delayq::ui::DueText", "%1, %2", "due time, relative time")
        .arg(clockText(dueMs, nowMs, utc), relative(dueMs, nowMs));
}

QString DueText::describePast(qint64 ms, qint64 nowMs, bool utc)
{
    return QCoreApplication::translate("delayq::ui::DueText", "%1, %2", "due time, relative time")
        .arg(clockText(ms, nowMs, utc), ago(ms, nowMs));
}

QString DueText::ago(qint64 ms, qint64 nowMs)
{
    const qint64 past = nowMs - ms;
    if (past < 1000)
        return relative(ms, nowMs);
    return QCoreApplication::translate("delayq::ui::DueText", "%1 ago", "a moment that passed")
        .arg(duration(past / 1000 * 1000));
}

QString DueText::milliseconds(qint64 ms)
{
    return QCoreApplication::translate("delayq::ui::DueText", "%1ms").arg(QLocale().toString(ms));
}

QString DueText::duration(qint64 ms)
{
    if (ms < 0)
        return QLatin1Char('-') + duration(-ms);
    const QLocale locale;
    if (ms < 1000)
        return QCoreApplication::translate("delayq::ui::DueText", "%1ms").arg(locale.toString(ms));
    // The same units and rounding as delayq::formatDuration, so English reads as the CLI does.
    static const struct
    {
        qint64 seconds;
        const char* text;
    } units[] = {{86400, QT_TRANSLATE_NOOP("delayq::ui::DueText", "%1d")},
                 {3600, QT_TRANSLATE_NOOP("delayq::ui::DueText", "%1h")},
                 {60, QT_TRANSLATE_NOOP("delayq::ui::DueText", "%1m")},
                 {1, QT_TRANSLATE_NOOP("delayq::ui::DueText", "%1s")}};
    qint64 s = ms / 1000;
    QStringList parts;
    for (const auto& unit : units) {
        if (s >= unit.seconds && parts.size() < 2) {
            parts << QCoreApplication::translate("delayq::ui::DueText", unit.text)
                         .arg(locale.toString(s / unit.seconds));
            s %= unit.seconds;
        } else if (!parts.isEmpty()) {
            parts << QString(); // only adjacent units: "1d 2h", never "1d 5s"
        }
    }
    parts.removeAll(QString());
    if (parts.size() == 1)
        return parts.first();
    return QCoreApplication::translate("delayq::ui::DueText", "%1 %2", "two units of a duration")
        .arg(parts.first(), parts.last());
}

QString DueText::relative(qint64 ms, qint64 nowMs)
{
    const qint64 diff = ms - nowMs;
    if (diff > -1000 && diff < 1000)
        return QCoreApplication::translate("delayq::ui::DueText", "now");
    if (diff > 0)
        return QCoreApplication::translate("delayq::ui::DueText", "in %1")
            .arg(duration(diff / 1000 * 1000));
    return QCoreApplication::translate("delayq::ui::DueText", "%1 overdue")
        .arg(duration(-diff / 1000 * 1000));
}

QString DueText::lease(qint64 deadlineMs, qint64 nowMs)
{
    if (deadlineMs > nowMs)
        return relative(deadlineMs, nowMs);
    const qint64 ago = (nowMs - deadlineMs) / 1000 * 1000;
    if (ago == 0)
        return QCoreApplication::translate("delayq::ui::DueText",
                                           "expired now, waiting for a reap");
    return QCoreApplication::translate("delayq::ui::DueText", "expired %1 ago, waiting for a reap")
        .arg(duration(ago));
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
            QCoreApplication::translate("delayq::ui::DueText",
                                        "type a delay such as 30s, 5m or 1h30m (0 runs it now)")
                .toStdString());
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
