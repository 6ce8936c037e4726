#include "workereventlog.h"

#include "membertext.h"
#include <delayq/timeparse.h>

#include <QDateTime>

namespace delayq::ui {

void WorkerEventLog::add(const delayq::WorkerEvent& event)
{
    QMutexLocker lock(&m_mutex);
    m_events.push_back(event);
    while (m_events.size() > kMax)
        m_events.pop_front();
}

std::deque<delayq::WorkerEvent> WorkerEventLog::take()
{
    QMutexLocker lock(&m_mutex);
    std::deque<delayq::WorkerEvent> out;
    out.swap(m_events);
    return out;
}

QString WorkerEventLog::describe(const delayq::WorkerEvent& e)
{
    const QString time = QDateTime::fromMSecsSinceEpoch(
                             e.finished > 0 ? e.finished : QDateTime::currentMSecsSinceEpoch())
                             .toString(QStringLiteral("HH:mm:ss.zzz"));
    switch (e.kind) {
    case delayq::WorkerEvent::Kind::ConnectionLost:
        return QStringLiteral("%1 connection lost: %2").arg(time, QString::fromStdString(e.error));
    case delayq::WorkerEvent::Kind::ConnectionRestored:
        return QStringLiteral("%1 connection restored").arg(time);
    case delayq::WorkerEvent::Kind::Error:
        return QStringLiteral("%1 error: %2").arg(time, QString::fromStdString(e.error));
    case delayq::WorkerEvent::Kind::TaskFinished:
        break;
    }
    QString line = QStringLiteral("%1 %2 %3 (attempt %4, %5 late)")
                       .arg(time, QString::fromLatin1(delayq::taskOutcomeName(e.outcome)),
                            MemberText::displayText(MemberText::fromBytes(e.id)))
                       .arg(e.attempt)
                       .arg(QString::fromStdString(delayq::formatDuration(e.lateness)));
    if (!e.error.empty())
        line += QStringLiteral(": ") + QString::fromStdString(e.error);
    return line;
}

} // namespace delayq::ui
