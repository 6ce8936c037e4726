#include "queue/pushbatch.h"

#include "queue/valuechecks.h"
#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/taskid.h>

namespace delayq {

PushBatch::PushBatch(const std::vector<PushRequest>& requests, long long nowMs)
    : m_requests(requests)
{
    m_ids.reserve(requests.size());
    m_settings.reserve(requests.size());
    for (const auto& r : requests) {
        std::string id = r.id.empty() ? generateTaskId() : r.id;
        Keys::validateTaskId(id);
        checkDelay(r.delayMs, nowMs);
        if (r.dueAtMs)
            checkDueAt(*r.dueAtMs);
        if (r.maxAttempts < 0 || r.maxAttempts > 1000000)
            throw Error(ErrorCode::InvalidArgument, "max attempts must be 0 to 1000000");
        std::string backoff = normalizeBackoff(r.backoff);
        m_settings.push_back(r.maxAttempts == 0 && backoff.empty()
                                 ? std::string()
                                 : std::to_string(r.maxAttempts) + "|" + backoff);
        m_ids.push_back(std::move(id));
    }
}

std::vector<Connection::ScriptCall> PushBatch::calls(const std::vector<std::string>& keys,
                                                     const std::string& wakeKey,
                                                     const std::string& actor) const
{
    const auto& requests = m_requests;
    std::vector<Connection::ScriptCall> calls;
    for (size_t begin = 0, end = 0; begin < requests.size(); begin = end) {
        // The script takes one mode and one due kind per call: a chunk ends where either
        // changes.
        const auto sameCall = [&](const PushRequest& a, const PushRequest& b) {
            return a.replace == b.replace && a.dueAtMs.has_value() == b.dueAtMs.has_value();
        };
        end = begin + 1;
        while (end < requests.size() && end - begin < static_cast<size_t>(kTasksPerCall) &&
               sameCall(requests[end], requests[begin]))
            ++end;
        Connection::ScriptCall call{keys, {}};
        call.args.reserve(5 + (end - begin) * 4);
        call.args.push_back(requests[begin].replace ? "replace" : "nx");
        call.args.push_back(wakeKey);
        call.args.push_back(requests[begin].dueAtMs ? "at" : "in");
        call.args.push_back(std::to_string(end - begin));
        for (size_t i = begin; i < end; ++i) {
            const auto& r = requests[i];
            call.args.push_back(m_ids[i]);
            call.args.push_back(r.payload);
            call.args.push_back(std::to_string(r.dueAtMs ? *r.dueAtMs : r.delayMs));
            call.args.push_back(m_settings[i]);
        }
        call.args.push_back(actor);
        calls.push_back(std::move(call));
    }
    return calls;
}

std::vector<PushResult> PushBatch::results(const std::vector<Reply>& replies) const
{
    std::vector<PushResult> results;
    results.reserve(m_ids.size());
    size_t index = 0;
    for (const auto& reply : replies) {
        requireArray(reply, 0, "push");
        for (size_t k = 0; k + 1 < reply.elements.size() && index < m_ids.size(); k += 2) {
            PushResult result;
            result.id = m_ids[index++];
            result.status = pushStatusFromName(reply.elements[k].str);
            result.due = reply.elements[k + 1].toInteger();
            results.push_back(std::move(result));
        }
    }
    return results;
}

} // namespace delayq
