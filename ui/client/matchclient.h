#pragma once

#include "client/areaclient.h"
#include "client/matchtypes.h"

#include <atomic>
#include <functional>

namespace delayq::ui {

// The requests on "all tasks that match" a filter, run as stepped jobs (SteppedRequests::
// taskScan and idBulk): a search listing matches as they come, the count before a bulk
// action (with the ids), and the action on those ids.
class MatchClient : public AreaClient
{
    Q_OBJECT

public:
    MatchClient(IoWorker* io, QObject* parent);

    // A newer search stops the one before.
    void search(quint64 tag, const QString& queue, const MatchFilter& filter, int maxMatches = 1000,
                int count = 250);
    void cancelSearch() { m_activeSearch.store(0); }
    // At most maxIds ids; `scanned` reports progress, then every id with the last report.
    void count(quint64 tag, const QString& queue, const MatchFilter& filter, int maxIds,
               int count = 500);
    // dueAtMs >= 0: reschedule there; else delayMs from the server's now (0: run now).
    void apply(quint64 tag, const QString& queue, TaskAction action, const QStringList& ids,
               qint64 dueAtMs = -1, qint64 delayMs = 0, int batch = 500);
    // Stops the count or the action `tag` before its next step; what is done stays done.
    void cancelBulk(quint64 tag);
    // Which of `ids` (a search's listed matches) are no longer in `set`: one rank per id, and
    // a look-up of where each missing one went, 100 ids a step. One report, at the end.
    void check(quint64 tag, const QString& queue, TaskSet set, const QStringList& ids);

signals:
    void searched(const delayq::ui::MatchScanResult& step);
    void counted(const delayq::ui::MatchScanResult& step);
    void applied(const delayq::ui::MatchApplyResult& step);
    void checked(const delayq::ui::MatchCheckResult& result);

private:
    // A reporter for the I/O thread: each value is emitted with `signal` on this client's
    // thread.
    template <typename Value>
    std::function<void(const Value&)> reporter(void (MatchClient::*signal)(const Value&))
    {
        return [this, signal](const Value& v) { deliver(signal, v); };
    }

    std::atomic<quint64> m_activeSearch{0};  // the tag of the one search that may go on
    std::atomic<quint64> m_cancelledBulk{0}; // read by the step that comes next
};

} // namespace delayq::ui
