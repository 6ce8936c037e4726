#pragma once

#include "matchtypes.h"

#include <QObject>

#include <atomic>

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
    void cancelSearch() { m_activeSearch.store(0); }
    // At most maxIds ids; `scanned` reports progress, then every id with the last report.
    void count(quint64 tag, const QString& queue, const MatchFilter& filter, int maxIds,
               int count = 500);
    // dueAtMs >= 0: reschedule there; else delayMs from the server's now (0: run now).
    void apply(quint64 tag, const QString& queue, TaskAction action, const QStringList& ids,
               qint64 dueAtMs = -1, qint64 delayMs = 0, int batch = 500);
    // Stops the count or the action `tag` before its next step; what is done stays done.
    void cancelBulk(quint64 tag);

signals:
    void searched(const delayq::ui::MatchScanResult& step);
    void counted(const delayq::ui::MatchScanResult& step);
    void applied(const delayq::ui::MatchApplyResult& step);

private:
    template <typename Value> void deliver(void (MatchClient::*signal)(const Value&), Value value)
    {
        QMetaObject::invokeMethod(
            this, [this, signal, value] { (this->*signal)(value); }, Qt::QueuedConnection);
    }

    AdminClient* m_client;
    std::atomic<quint64> m_activeSearch{0};
    std::atomic<quint64> m_cancelledBulk{0};
};

} // namespace delayq::ui
