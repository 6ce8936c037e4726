#include <delayq/plainfailures.h>

#include "records/taskrecord.h"
#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/plainqueue.h>

#include <cstdlib>

namespace delayq {

namespace {

constexpr size_t kFailuresChunk = 500; // named apart from plainqueue.cpp's in the unity build

} // namespace

PlainFailures::PlainFailures(Connection& connection, std::string prefix,
                             const std::string& plainKey)
    : m_connection(connection), m_keys(std::move(prefix), plainKey)
{}

std::string PlainFailures::recordText(const PlainFailure& failure)
{
    return std::to_string(failure.attempts) + "|" + std::to_string(failure.lastFailedMs) + "|" +
           failure.lastError.substr(0, kErrorBytes);
}

bool PlainFailures::parseRecord(const std::string& text, PlainFailure& failure)
{
    const size_t first = text.find('|');
    const size_t second = first == std::string::npos ? first : text.find('|', first + 1);
    if (second == std::string::npos)
        return false;
    const std::optional<long long> attempts = wholeNumber(text.substr(0, first));
    const std::optional<long long> at = wholeNumber(text.substr(first + 1, second - first - 1));
    if (!attempts || !at || *attempts < 0)
        return false;
    failure.attempts = *attempts;
    failure.lastFailedMs = *at;
    failure.lastError = text.substr(second + 1);
    return true;
}

void PlainFailures::requireWritable(const char* what) const
{
    if (m_connection.options().readOnly)
        throw Error(ErrorCode::NoPermission,
                    std::string("cannot ") + what + " parked members of '" +
                        m_keys.plainKey().substr(0, 200) + "': this session is read-only");
}

std::vector<PlainFailure> PlainFailures::read(const std::vector<std::string>& members)
{
    std::vector<PlainFailure> out(members.size());
    for (size_t begin = 0; begin < members.size(); begin += kFailuresChunk) {
        const size_t end = std::min(members.size(), begin + kFailuresChunk);
        std::vector<std::vector<std::string>> commands;
        std::vector<std::string> hmget{"HMGET", m_keys.failures()};
        for (size_t i = begin; i < end; ++i)
            hmget.push_back(members[i]);
        commands.push_back(std::move(hmget));
        // ZSCORE each: ZMSCORE needs Redis 6.2.
        for (size_t i = begin; i < end; ++i)
            commands.push_back({"ZSCORE", m_keys.parked(), members[i]});
        const auto replies = m_connection.pipeline(commands);
        for (const auto& r : replies)
            throwIfError(r);
        for (size_t i = begin; i < end; ++i) {
            PlainFailure& f = out[i];
            f.member = members[i];
            const Reply& record = replies[0].elements.at(i - begin);
            if (!record.isNil())
                parseRecord(record.str, f);
            const Reply& parked = replies[1 + i - begin];
            if (!parked.isNil())
                f.parkedMs = static_cast<long long>(std::strtod(parked.str.c_str(), nullptr));
        }
    }
    return out;
}

void PlainFailures::write(const std::vector<PlainFailure>& failures)
{
    if (failures.empty())
        return;
    std::vector<std::vector<std::string>> commands;
    for (const auto& f : failures)
        commands.push_back({"HSET", m_keys.failures(), f.member, recordText(f)});
    for (const auto& f : failures)
        if (f.parkedMs)
            commands.push_back({"ZADD", m_keys.parked(), std::to_string(*f.parkedMs), f.member});
    for (const auto& r : m_connection.pipeline(commands))
        throwIfError(r);
}

void PlainFailures::forget(const std::vector<std::string>& members)
{
    for (size_t begin = 0; begin < members.size(); begin += kFailuresChunk) {
        std::vector<std::string> hdel{"HDEL", m_keys.failures()};
        hdel.insert(hdel.end(), members.begin() + static_cast<long>(begin),
                    members.begin() +
                        static_cast<long>(std::min(members.size(), begin + kFailuresChunk)));
        throwIfError(m_connection.command(hdel));
    }
}

void PlainFailures::unpark(const std::vector<std::string>& members)
{
    for (size_t begin = 0; begin < members.size(); begin += kFailuresChunk) {
        std::vector<std::string> zrem{"ZREM", m_keys.parked()};
        zrem.insert(zrem.end(), members.begin() + static_cast<long>(begin),
                    members.begin() +
                        static_cast<long>(std::min(members.size(), begin + kFailuresChunk)));
        throwIfError(m_connection.command(zrem));
    }
}

long long PlainFailures::parkedCount()
{
    return m_connection.command({"ZCARD", m_keys.parked()}).toInteger();
}

std::vector<PlainFailure> PlainFailures::parkedPage(long long offset, long long limit)
{
    if (offset < 0 || limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 members from offset 0 on");
    const Reply page = m_connection.command({"ZRANGE", m_keys.parked(), std::to_string(offset),
                                             std::to_string(offset + limit - 1), "WITHSCORES"});
    throwIfError(page);
    std::vector<std::string> members;
    for (size_t i = 0; i + 1 < page.elements.size(); i += 2)
        members.push_back(page.elements[i].str);
    std::vector<PlainFailure> out = read(members);
    for (size_t i = 0; i < out.size(); ++i)
        if (!out[i].parkedMs) // unparked between the two reads: its time from the page
            out[i].parkedMs =
                static_cast<long long>(std::strtod(page.elements[2 * i + 1].str.c_str(), nullptr));
    return out;
}

std::vector<std::string> PlainFailures::parkedMembers(long long limit)
{
    std::vector<std::string> out;
    for (long long offset = 0;; offset += static_cast<long long>(kFailuresChunk)) {
        const long long want = limit > 0 ? std::min<long long>(kFailuresChunk, limit - offset)
                                         : static_cast<long long>(kFailuresChunk);
        if (want <= 0)
            break;
        const Reply page = m_connection.command(
            {"ZRANGE", m_keys.parked(), std::to_string(offset), std::to_string(offset + want - 1)});
        throwIfError(page);
        for (const auto& e : page.elements)
            out.push_back(e.str);
        if (static_cast<long long>(page.elements.size()) < want)
            break;
    }
    return out;
}

std::vector<bool> PlainFailures::parkedFlags(const std::vector<std::string>& members)
{
    std::vector<bool> parked;
    for (const auto& f : read(members))
        parked.push_back(f.parkedMs.has_value());
    return parked;
}

std::vector<bool> PlainFailures::requeue(PlainQueue& queue, const std::vector<std::string>& members,
                                         long long dueMs)
{
    requireWritable("requeue");
    if (dueMs < 0 || dueMs > 253402300799999LL)
        throw Error(ErrorCode::InvalidArgument, "the due time must be between 1970 and 9999");
    const std::vector<bool> parked = parkedFlags(members);
    std::vector<std::string> back;
    for (size_t i = 0; i < members.size(); ++i)
        if (parked[i])
            back.push_back(members[i]);
    if (back.empty())
        return parked;
    // Into the plain key first (a plain ZADD: a member a producer added again meanwhile moves
    // to dueMs too), then out of the parked set: a crash between loses nothing.
    const std::string score = queue.scoreFor(dueMs);
    std::vector<std::vector<std::string>> adds;
    for (const auto& m : back)
        adds.push_back({"ZADD", queue.key(), score, m});
    for (const auto& r : m_connection.pipeline(adds))
        throwIfError(r);
    unpark(back);
    forget(back);
    return parked;
}

std::vector<bool> PlainFailures::remove(const std::vector<std::string>& members)
{
    requireWritable("delete");
    std::vector<std::vector<std::string>> commands;
    for (const auto& m : members)
        commands.push_back({"ZREM", m_keys.parked(), m});
    std::vector<bool> removed;
    std::vector<std::string> gone;
    const auto replies = m_connection.pipeline(commands);
    for (size_t i = 0; i < replies.size(); ++i) {
        throwIfError(replies[i]);
        removed.push_back(replies[i].toInteger() == 1);
        if (removed.back())
            gone.push_back(members[i]);
    }
    // Only a parked member's record: one still in the key keeps counting its attempts.
    forget(gone);
    return removed;
}

} // namespace delayq
