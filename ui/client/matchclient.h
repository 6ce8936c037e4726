#pragma once

#include "client/matchtypes.h"

#include <QObject>
#include <QPointer>

#include <functional>

#include <atomic>
#include <memory>

namespace delayq::ui {

class AdminClient;

// The requests on "all tasks that match" a filter, posted through the admin client's I/O
// thread as stepped jobs (SteppedRequests::taskScan and idBulk): a search listing matches as
// they come, the count before a bulk action (with the ids), and the action on those ids.
// Each answer arrives as a signal on this object's thread.
class MatchClient : public QObject
{
    Q_OBJECT

public:
    explicit MatchClient(AdminClient* client, QObject* parent = nullptr);

    // A newer search stops the one before.
    void search(quint64 tag, const QString& queue, const MatchFilter& filter, int maxMatches = 1000,
                int count = 250);
    void cancelSearch() { m_flags->activeSearch.store(0); }
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
    void check(quint64 tag, const QString& queue, TaskSetKind set, const QStringList& ids);

signals:
    void searched(const delayq::ui::MatchScanResult& step);
    void counted(const delayq::ui::MatchScanResult& step);
    void applied(const delayq::ui::MatchApplyResult& step);
    void checked(const delayq::ui::MatchCheckResult& result);

private:
    // Shared with the jobs on the I/O thread, which may outlive this object (a window closed
    // mid-search): they never touch `this`.
    struct Flags
    {
        std::atomic<quint64> activeSearch{0};
        std::atomic<quint64> cancelledBulk{0};
    };

    // A reporter for the I/O thread: each value is queued to the admin client's thread (the
    // client outlives every job, its destructor ends the thread) and emitted there, if this
    // object still exists.
    template <typename Value>
    std::function<void(const Value&)> reporter(void (MatchClient::*signal)(const Value&))
    {
        return [client = m_client, self = QPointer<MatchClient>(this), signal](const Value& v) {
            QMetaObject::invokeMethod(
                client,
                [self, signal, v] {
                    if (self)
                        (self.data()->*signal)(v);
                },
                Qt::QueuedConnection);
        };
    }

    AdminClient* m_client;
    std::shared_ptr<Flags> m_flags = std::make_shared<Flags>();
};

} // namespace delayq::ui
