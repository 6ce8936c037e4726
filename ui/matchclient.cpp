#include "matchclient.h"

#include "adminclient.h"
#include "steppedrequests.h"

namespace delayq::ui {

MatchClient::MatchClient(AdminClient* client, QObject* parent) : QObject(parent), m_client(client)
{
    qRegisterMetaType<MatchScanResult>();
    qRegisterMetaType<MatchApplyResult>();
}

void MatchClient::search(quint64 tag, const QString& queue, const MatchFilter& filter,
                         int maxMatches, int count)
{
    m_activeSearch.store(tag);
    m_client->runStepped(SteppedRequests::taskScan(
        m_client->ioWorker(), tag, queue, filter, maxMatches, count, false,
        [this, tag] { return m_activeSearch.load() != tag; },
        [this](const MatchScanResult& step) { deliver(&MatchClient::searched, step); }));
}

void MatchClient::count(quint64 tag, const QString& queue, const MatchFilter& filter, int maxIds,
                        int count)
{
    m_client->runStepped(SteppedRequests::taskScan(
        m_client->ioWorker(), tag, queue, filter, maxIds, count, true,
        [this, tag] { return m_cancelledBulk.load() == tag; },
        [this](const MatchScanResult& step) { deliver(&MatchClient::counted, step); }));
}

void MatchClient::apply(quint64 tag, const QString& queue, TaskAction action,
                        const QStringList& ids, qint64 dueAtMs, qint64 delayMs, int batch)
{
    m_client->runStepped(SteppedRequests::idBulk(
        m_client->ioWorker(), tag, queue, action, ids, dueAtMs, delayMs, batch,
        [this, tag] { return m_cancelledBulk.load() == tag; },
        [this](const MatchApplyResult& step) { deliver(&MatchClient::applied, step); }));
}

void MatchClient::cancelBulk(quint64 tag)
{
    m_cancelledBulk.store(tag);
}

} // namespace delayq::ui
