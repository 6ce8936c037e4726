#include "queue/pushbatch.h"

#include "records/valuechecks.h"
#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/taskid.h>

#include <string_view>
#include <unordered_map>

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
        checkFairTag(r.priority, r.group);
        checkKeep(r);
        std::string settings = r.maxAttempts == 0 && backoff.empty()
                                   ? std::string()
                                   : std::to_string(r.maxAttempts) + "|" + backoff;
        if (r.priority != 0 || !r.group.empty() || r.dedupMs > 0)
            settings = std::to_string(r.maxAttempts) + "|" + backoff + "|" +
                       std::to_string(r.priority) + "|" + r.group;
        if (r.dedupMs > 0)
            settings += "|" + std::to_string(r.dedupMs);
        if (const std::string expires = expiresField(r, nowMs); !expires.empty())
            // Since layout 2.9 the sixth field (push.lua): the five before it in full.
            settings = std::to_string(r.maxAttempts) + "|" + backoff + "|" +
                       std::to_string(r.priority) + "|" + r.group + "|" +
                       std::to_string(r.dedupMs) + "|" + expires;
        m_settings.push_back(std::move(settings));
        m_ids.push_back(std::move(id));
    }
    m_chunks = splitIntoCalls();
}

std::string PushBatch::expiresField(const PushRequest& r, long long nowMs)
{
    if (r.expiresAtMs && r.maxAgeMs != 0)
        throw Error(ErrorCode::InvalidArgument,
                    "give a task a start-by time or a maximum age, not both");
    if (r.maxAgeMs < 0 || r.maxAgeMs > kLatestDueMs - nowMs)
        throw Error(ErrorCode::InvalidArgument,
                    "the maximum age must be above 0 and end before the year 9999");
    // The script checks the same with the server's now; this refuses before anything is sent.
    const long long due = r.dueAtMs ? *r.dueAtMs : nowMs + r.delayMs;
    auto refuseBeforeDue = [] {
        throw Error(ErrorCode::InvalidArgument,
                    "the task would expire before it is due: the start-by time must come "
                    "after the due time");
    };
    if (r.maxAgeMs > 0) {
        if (nowMs + r.maxAgeMs <= due)
            refuseBeforeDue();
        return "+" + std::to_string(r.maxAgeMs);
    }
    if (!r.expiresAtMs)
        return {};
    checkDueAt(*r.expiresAtMs);
    if (*r.expiresAtMs <= nowMs)
        throw Error(ErrorCode::InvalidArgument,
                    "the start-by time has passed already: the task could never run");
    if (*r.expiresAtMs <= due)
        refuseBeforeDue();
    return std::to_string(*r.expiresAtMs);
}

void PushBatch::checkKeep(const PushRequest& r)
{
    if (r.dedupMs < 0 || r.dedupMs > kMaxKeepMs)
        throw Error(ErrorCode::InvalidArgument, "the dedup window must be 0 to 366 days");
    if (r.debounceMaxWaitMs < 0 || r.debounceMaxWaitMs > kMaxKeepMs)
        throw Error(ErrorCode::InvalidArgument, "the debounce maximum wait must be 0 to 366 days");
    if (r.debounceMaxWaitMs == 0 && r.debouncePayload)
        throw Error(ErrorCode::InvalidArgument,
                    "debouncing the payload needs a debounce maximum wait");
    if (r.debounceMaxWaitMs > 0 && r.replace)
        throw Error(ErrorCode::InvalidArgument,
                    "replace and debounce cannot be combined: replace overwrites the task, "
                    "debounce moves it");
    if (r.debounceMaxWaitMs > 0 && (r.priority != 0 || !r.group.empty()))
        throw Error(ErrorCode::InvalidArgument, "a debounced push takes no priority or group");
}

std::string PushBatch::mode(const PushRequest& r)
{
    if (r.replace)
        return "replace";
    if (r.debounceMaxWaitMs > 0)
        return (r.debouncePayload ? "debounce_payload:" : "debounce:") +
               std::to_string(r.debounceMaxWaitMs);
    return "nx";
}

std::vector<PushBatch::Chunk> PushBatch::splitIntoCalls() const
{
    // The script takes one mode, one due kind and one settings text per call. The settings
    // hold the group, so a batch of interleaved groups split where they change went one task
    // a call (12.5x the Redis CPU of a plain push, docs/design/flow.md "Measured"): a request
    // joins the latest call of its kind instead, so the calls follow each kind's first request
    // and a kind's tasks keep their order. The one order that matters between calls is that
    // of the requests of one id (a later one sees what the earlier did: exists, replaced): a
    // request never joins a call before one that holds its id already.
    const auto kindOf = [&](size_t i) {
        const PushRequest& r = m_requests[i];
        return mode(r) + (r.dueAtMs ? "\n@\n" : "\n+\n") + m_settings[i];
    };
    std::vector<Chunk> out;
    std::unordered_map<std::string, size_t> openCallOf;      // kind -> its latest call
    std::unordered_map<std::string_view, size_t> lastCallOf; // id -> latest call holding it
    lastCallOf.reserve(m_ids.size());
    for (size_t i = 0; i < m_requests.size(); ++i) {
        const std::string kind = kindOf(i);
        const auto open = openCallOf.find(kind);
        const auto seen = lastCallOf.find(m_ids[i]);
        size_t call;
        if (open != openCallOf.end() &&
            out[open->second].size() < static_cast<size_t>(kTasksPerCall) &&
            (seen == lastCallOf.end() || seen->second <= open->second)) {
            call = open->second;
        } else {
            call = out.size();
            out.emplace_back();
            openCallOf[kind] = call;
        }
        out[call].push_back(i);
        lastCallOf[m_ids[i]] = call;
    }
    return out;
}

std::vector<Connection::ScriptCall> PushBatch::calls(const std::vector<std::string>& keys,
                                                     const std::string& wakeKey,
                                                     const std::string& actor) const
{
    std::vector<Connection::ScriptCall> calls;
    for (const Chunk& chunk : m_chunks) {
        const PushRequest& first = m_requests[chunk.front()];
        Connection::ScriptCall call{keys, {}};
        call.args.reserve(6 + chunk.size() * 3);
        call.args.push_back(mode(first));
        call.args.push_back(wakeKey);
        call.args.push_back(first.dueAtMs ? "at" : "in");
        call.args.push_back(m_settings[chunk.front()]);
        call.args.push_back(std::to_string(chunk.size()));
        for (const size_t i : chunk) {
            const auto& r = m_requests[i];
            call.args.push_back(m_ids[i]);
            call.args.push_back(r.payload);
            call.args.push_back(std::to_string(r.dueAtMs ? *r.dueAtMs : r.delayMs));
        }
        call.args.push_back(actor);
        calls.push_back(std::move(call));
    }
    return calls;
}

std::vector<PushResult> PushBatch::results(const std::vector<Reply>& replies) const
{
    // Each reply is {server now, {index, status, due, ...}} for the tasks not created; every
    // other task of the call was created, due at its value (at) or server now + it (in).
    if (replies.size() != m_chunks.size())
        throw Error(ErrorCode::Protocol, "push: one reply per call expected");
    // A call's requests need not be side by side: each result goes to its request's place.
    std::vector<PushResult> results(m_ids.size());
    for (size_t c = 0; c < m_chunks.size(); ++c) {
        const Chunk& chunk = m_chunks[c];
        requireArray(replies[c], 2, "push");
        const long long now = replies[c].elements[0].toInteger();
        const Reply& listed = replies[c].elements[1];
        requireArray(listed, 0, "push");
        for (const size_t i : chunk) {
            const PushRequest& r = m_requests[i];
            results[i] = {m_ids[i], PushResult::Status::Created,
                          r.dueAtMs ? *r.dueAtMs : now + r.delayMs};
        }
        for (size_t k = 0; k + 2 < listed.elements.size(); k += 3) {
            const long long index = listed.elements[k].toInteger();
            if (index < 1 || index > static_cast<long long>(chunk.size()))
                throw Error(ErrorCode::Protocol, "push: a task index out of its call");
            PushResult& result = results[chunk[static_cast<size_t>(index) - 1]];
            result.status = pushStatusFromName(listed.elements[k + 1].str);
            result.due = listed.elements[k + 2].toInteger();
        }
    }
    return results;
}

} // namespace delayq
