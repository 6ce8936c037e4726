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
    m_flags->activeSearch.store(tag);
    m_client->runStepped(SteppedRequests::taskScan(
        m_client->ioWorker(), tag, queue, filter, maxMatches, count, false,
        [flags = m_flags, tag] { return flags->activeSearch.load() != tag; },
        reporter(&MatchClient::searched)));
}

void MatchClient::count(quint64 tag, const QString& queue, const MatchFilter& filter, int maxIds,
                        int count)
{
    m_client->runStepped(SteppedRequests::taskScan(
        m_client->ioWorker(), tag, queue, filter, maxIds, count, true,
        [flags = m_flags, tag] { return flags->cancelledBulk.load() == tag; },
        reporter(&MatchClient::counted)));
}

void MatchClient::apply(quint64 tag, const QString& queue, TaskAction action,
                        const QStringList& ids, qint64 dueAtMs, qint64 delayMs, int batch)
{
    m_client->runStepped(SteppedRequests::idBulk(
        m_client->ioWorker(), tag, queue, action, ids, dueAtMs, delayMs, batch,
        [flags = m_flags, tag] { return flags->cancelledBulk.load() == tag; },
        reporter(&MatchClient::applied)));
}

void MatchClient::cancelBulk(quint64 tag)
{
    m_flags->cancelledBulk.store(tag);
}

} // namespace delayq::ui
