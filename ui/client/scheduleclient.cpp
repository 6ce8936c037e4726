#include "client/scheduleclient.h"

#include "client/ioworker.h"
#include "client/membertext.h"
#include <delayq/connection.h>
#include <delayq/schedules.h>

namespace delayq::ui {

namespace {

// The queue's schedules, after the layout check every request on a native queue makes.
delayq::Schedules schedulesOf(IoWorker* io, delayq::Connection& c, const QString& queue)
{
    io->nativeQueue(c, queue);
    return delayq::Schedules(c, MemberText::toBytes(queue), io->prefix());
}

} // namespace

ScheduleClient::ScheduleClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<ScheduleListResult>();
    qRegisterMetaType<ScheduleChangeResult>();
}

ScheduleChangeResult ScheduleClient::answer(quint64 tag, const QString& queue, const QString& name,
                                            ScheduleChange change) const
{
    auto result = answerTo<ScheduleChangeResult>(tag, queue);
    result.name = name;
    result.change = change;
    return result;
}

void ScheduleClient::listSchedules(quint64 tag, const QString& queue)
{
    request(&ScheduleClient::schedulesListed, answerTo<ScheduleListResult>(tag, queue),
            tr("list the schedules"), [this, queue](delayq::Connection& c, ScheduleListResult& r) {
                auto schedules = schedulesOf(io(), c, queue);
                for (auto& info : schedules.list())
                    r.schedules.append(std::move(info));
                r.serverNow = c.serverTimeMs();
            });
}

void ScheduleClient::addSchedule(quint64 tag, const QString& queue,
                                 const delayq::ScheduleRule& rule)
{
    request(&ScheduleClient::scheduleChanged,
            answer(tag, queue, QString::fromStdString(rule.name), ScheduleChange::Add),
            tr("add a schedule"),
            [this, queue, rule](delayq::Connection& c, ScheduleChangeResult&) {
                schedulesOf(io(), c, queue).add(rule);
            });
}

void ScheduleClient::replaceSchedule(quint64 tag, const QString& queue,
                                     const delayq::ScheduleRule& rule, qint64 version)
{
    request(&ScheduleClient::scheduleChanged,
            answer(tag, queue, QString::fromStdString(rule.name), ScheduleChange::Edit),
            tr("change a schedule"),
            [this, queue, rule, version](delayq::Connection& c, ScheduleChangeResult& r) {
                r.conflict = !schedulesOf(io(), c, queue).replace(rule, version).has_value();
            });
}

void ScheduleClient::setSchedulePaused(quint64 tag, const QString& queue, const QString& name,
                                       bool paused)
{
    request(&ScheduleClient::scheduleChanged,
            answer(tag, queue, name, paused ? ScheduleChange::Pause : ScheduleChange::Resume),
            paused ? tr("pause a schedule") : tr("resume a schedule"),
            [this, queue, name, paused](delayq::Connection& c, ScheduleChangeResult&) {
                schedulesOf(io(), c, queue).setPaused(name.toStdString(), paused);
            });
}

void ScheduleClient::removeSchedule(quint64 tag, const QString& queue, const QString& name)
{
    request(&ScheduleClient::scheduleChanged, answer(tag, queue, name, ScheduleChange::Remove),
            tr("delete a schedule"),
            [this, queue, name](delayq::Connection& c, ScheduleChangeResult& r) {
                r.missing = !schedulesOf(io(), c, queue).remove(name.toStdString());
            });
}

void ScheduleClient::runScheduleNow(quint64 tag, const QString& queue, const QString& name,
                                    const QString& requestId)
{
    request(&ScheduleClient::scheduleChanged, answer(tag, queue, name, ScheduleChange::RunNow),
            tr("run a schedule now"),
            [this, queue, name, requestId](delayq::Connection& c, ScheduleChangeResult& r) {
                const auto run =
                    schedulesOf(io(), c, queue).runNow(name.toStdString(), requestId.toStdString());
                r.taskId = QString::fromStdString(run.taskId);
                r.made = run.made ? 1 : 0;
                r.fires = 1;
            });
}

void ScheduleClient::backfillSchedule(quint64 tag, const QString& queue, const QString& name,
                                      qint64 fromMs, qint64 toMs)
{
    request(&ScheduleClient::scheduleChanged, answer(tag, queue, name, ScheduleChange::Backfill),
            tr("backfill a schedule"),
            [this, queue, name, fromMs, toMs](delayq::Connection& c, ScheduleChangeResult& r) {
                const auto done =
                    schedulesOf(io(), c, queue).backfill(name.toStdString(), fromMs, toMs);
                r.fires = static_cast<qint64>(done.fires.size());
                r.made = done.made;
                r.already = done.already;
            });
}

} // namespace delayq::ui
