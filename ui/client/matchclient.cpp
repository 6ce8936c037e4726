#include "client/matchclient.h"

#include "client/ioworker.h"
#include "client/membertext.h"
#include "client/steppedrequests.h"
#include "client/taskqueue.h"
#include "client/taskrows.h"

namespace delayq::ui {

MatchClient::MatchClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<MatchScanResult>();
    qRegisterMetaType<MatchApplyResult>();
    qRegisterMetaType<MatchCheckResult>();
}

void MatchClient::search(quint64 tag, const QString& queue, const MatchFilter& filter,
                         int maxMatches, int count)
{
    m_activeSearch.store(tag);
    run(SteppedRequests::taskScan(
        io(), tag, queue, filter, maxMatches, count, false,
        [this, tag] { return m_activeSearch.load() != tag; }, reporter(&MatchClient::searched)));
}

void MatchClient::count(quint64 tag, const QString& queue, const MatchFilter& filter, int maxIds,
                        int count)
{
    run(SteppedRequests::taskScan(
        io(), tag, queue, filter, maxIds, count, true,
        [this, tag] { return m_cancelledBulk.load() == tag; }, reporter(&MatchClient::counted)));
}

void MatchClient::apply(quint64 tag, const QString& queue, TaskAction action,
                        const QStringList& ids, qint64 dueAtMs, qint64 delayMs, int batch)
{
    run(SteppedRequests::idBulk(
        io(), tag, queue, action, ids, dueAtMs, delayMs, batch,
        [this, tag] { return m_cancelledBulk.load() == tag; }, reporter(&MatchClient::applied)));
}

void MatchClient::cancelBulk(quint64 tag)
{
    m_cancelledBulk.store(tag);
}

void MatchClient::check(quint64 tag, const QString& queue, TaskSet set, const QStringList& ids)
{
    constexpr qsizetype kIdsPerStep = 100;
    struct State
    {
        MatchCheckResult result;
        QStringList ids;
        qsizetype next = 0;
    };
    auto state = std::make_shared<State>();
    state->result.tag = tag;
    state->result.queue = queue;
    state->result.set = set;
    state->ids = ids;
    SteppedJob job;
    job.operation = tr("check the matches");
    job.step = [io = io(), state](delayq::Connection& c) {
        MatchCheckResult& result = state->result;
        const auto q = io->queueFor(c, result.queue);
        const delayq::TaskSet searched = result.set;
        const qsizetype end = qMin(state->next + kIdsPerStep, state->ids.size());
        for (; state->next < end; ++state->next) {
            const QString& id = state->ids.at(state->next);
            const std::string bytes = MemberText::toBytes(id);
            if (const auto score = q->scoreOf(searched, bytes)) {
                result.still.append(id);
                result.scores.append(*score);
                continue;
            }
            const auto found = q->find(bytes);
            if (!found) {
                result.gone.append(id);
            } else if (found->first != searched) {
                result.moved.append(id);
                result.movedTo.append(found->first);
            }
        }
        return state->next < state->ids.size();
    };
    job.finished = [state, report = reporter(&MatchClient::checked)](SteppedJob::End end,
                                                                     const RequestError& error) {
        if (end == SteppedJob::End::Done) {
            state->result.error = error;
            report(state->result);
        }
    };
    run(std::move(job));
}

} // namespace delayq::ui
