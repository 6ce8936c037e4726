#include "worker/workereventlog.h"

#include "client/membertext.h"
#include "widgets/duetext.h"

#include <QCoreApplication>
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

namespace {

QString translated(const char* text)
{
    return QCoreApplication::translate("delayq::ui::WorkerEventLog", text);
}

// The core's outcome names, listed so lupdate offers them for translation.
[[maybe_unused]] const char* const kOutcomeNames[] = {
    QT_TRANSLATE_NOOP("delayq::ui::WorkerEventLog", "acked"),
    QT_TRANSLATE_NOOP("delayq::ui::WorkerEventLog", "retried"),
    QT_TRANSLATE_NOOP("delayq::ui::WorkerEventLog", "dead"),
    QT_TRANSLATE_NOOP("delayq::ui::WorkerEventLog", "lease_lost"),
    QT_TRANSLATE_NOOP("delayq::ui::WorkerEventLog", "abandoned"),
    QT_TRANSLATE_NOOP("delayq::ui::WorkerEventLog", "released"),
    QT_TRANSLATE_NOOP("delayq::ui::WorkerEventLog", "dropped")};

} // namespace

QString WorkerEventLog::describe(const delayq::WorkerEvent& e)
{
    const QString time = QDateTime::fromMSecsSinceEpoch(
                             e.finished > 0 ? e.finished : QDateTime::currentMSecsSinceEpoch())
                             .toString(QStringLiteral("HH:mm:ss.zzz"));
    switch (e.kind) {
    case delayq::WorkerEvent::Kind::ConnectionLost:
        return translated("%1 connection lost: %2").arg(time, QString::fromStdString(e.error));
    case delayq::WorkerEvent::Kind::ConnectionRestored:
        return translated("%1 connection restored").arg(time);
    case delayq::WorkerEvent::Kind::Error:
        return translated("%1 error: %2").arg(time, QString::fromStdString(e.error));
    case delayq::WorkerEvent::Kind::TaskFinished:
        break;
    }
    QString line = translated("%1 %2 %3 (attempt %4, %5 late)")
                       .arg(time, translated(delayq::taskOutcomeName(e.outcome)),
                            MemberText::displayText(MemberText::fromBytes(e.id)))
                       .arg(e.attempt)
                       .arg(DueText::duration(e.lateness));
    if (!e.error.empty())
        line += QStringLiteral(": ") + QString::fromStdString(e.error);
    return line;
}

} // namespace delayq::ui
