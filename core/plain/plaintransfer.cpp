#include <delayq/plaintransfer.h>

#include "records/scorewindow.h"
#include "transport/replychecks.h"

#include <delayq/error.h>

#include <charconv>
#include <cmath>

namespace delayq {

namespace {

// A score Redis reads as a finite number: the import must not ZADD "nan" or garbage.
bool isScore(const std::string& text)
{
    double value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return !text.empty() && ec == std::errc() && ptr == end && std::isfinite(value);
}

} // namespace

PlainTransfer::PlainTransfer(Connection& connection, std::string key, int step)
{
    if (step < 1 || step > 10000)
        throw Error(ErrorCode::InvalidArgument, "an export step is 1 to 10000 members");
    const std::string type = connection.command({"TYPE", key}).toString();
    if (type != "zset" && type != "none")
        throw Error(ErrorCode::WrongType, "'" + key + "' is a " + type + ", not a sorted set");
    m_window = std::make_unique<ScoreWindow>(connection, std::move(key), step);
}

PlainTransfer::~PlainTransfer() = default;

bool PlainTransfer::atEnd() const
{
    return m_window->atEnd();
}

std::vector<PlainQueue::Member> PlainTransfer::next()
{
    std::vector<PlainQueue::Member> out;
    for (auto& [member, score] : m_window->next()) {
        PlainQueue::Member m;
        m.member = std::move(member);
        m.score = std::move(score);
        out.push_back(std::move(m));
    }
    return out;
}

std::vector<bool> PlainTransfer::importBatch(Connection& connection, const std::string& key,
                                             const std::vector<PlainQueue::Member>& members,
                                             bool replace)
{
    if (members.size() > kBatch)
        throw Error(ErrorCode::InvalidArgument,
                    "import at most " + std::to_string(kBatch) + " members per batch");
    if (connection.options().readOnly)
        throw Error(ErrorCode::NoPermission, "cannot import into '" + key +
                                                 "': this session is read-only (reconnect "
                                                 "without read-only to change things)");
    std::vector<std::vector<std::string>> commands;
    for (const auto& m : members) {
        if (!isScore(m.score))
            throw Error(ErrorCode::InvalidArgument,
                        "the score '" + m.score.substr(0, 40) + "' is not a finite number");
        if (replace)
            commands.push_back({"ZADD", key, "CH", m.score, m.member});
        else
            commands.push_back({"ZADD", key, "NX", m.score, m.member});
    }
    std::vector<bool> changed;
    for (const auto& r : connection.pipeline(commands)) {
        throwIfError(r);
        changed.push_back(r.toInteger() == 1);
    }
    return changed;
}

} // namespace delayq
