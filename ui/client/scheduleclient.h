#pragma once

#include "client/areaclient.h"
#include "client/scheduletypes.h"

namespace delayq::ui {

// The requests on a native queue's schedules (core Schedules): the list, and add, edit,
// pause or resume, delete, run now, backfill. Each change is answered by scheduleChanged; the views
// read the list again after it.
class ScheduleClient : public AreaClient
{
    Q_OBJECT

public:
    ScheduleClient(IoWorker* io, QObject* parent);

    void listSchedules(quint64 tag, const QString& queue);
    void addSchedule(quint64 tag, const QString& queue, const delayq::ScheduleRule& rule);
    // Only while the stored version is still `version` (the one the edit read): else the
    // answer says conflict and nothing is written.
    void replaceSchedule(quint64 tag, const QString& queue, const delayq::ScheduleRule& rule,
                         qint64 version);
    void setSchedulePaused(quint64 tag, const QString& queue, const QString& name, bool paused);
    void removeSchedule(quint64 tag, const QString& queue, const QString& name);
    // One task at once, its id from requestId (the same request again makes nothing); the
    // rule and its next fire stay.
    void runScheduleNow(quint64 tag, const QString& queue, const QString& name,
                        const QString& requestId);
    // The rule's fires in [fromMs, toMs) that the schedule has not made yet.
    void backfillSchedule(quint64 tag, const QString& queue, const QString& name, qint64 fromMs,
                          qint64 toMs);

signals:
    void schedulesListed(const delayq::ui::ScheduleListResult& result);
    void scheduleChanged(const delayq::ui::ScheduleChangeResult& result);

private:
    ScheduleChangeResult answer(quint64 tag, const QString& queue, const QString& name,
                                ScheduleChange change) const;
};

} // namespace delayq::ui
