#include <delayq/keys.h>

#include <delayq/error.h>
#include <delayq/script.h>
#include <delayq/task.h>

#include <algorithm>

namespace delayq {

namespace {

bool isNameChar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == ':' || c == '-';
}

} // namespace

Keys::Keys(std::string prefix, std::string queue)
    : m_prefix(std::move(prefix)), m_queue(std::move(queue))
{
    validatePrefix(m_prefix);
    validateQueueName(m_queue);
    m_tag = m_queue;
    m_base = m_prefix + ":{" + m_tag + "}:";
}

Keys::Keys(std::string prefix, std::string queue, const std::string& tag)
    : Keys(std::move(prefix), std::move(queue))
{
    if (!isShardTag(m_queue, tag))
        throw Error(ErrorCode::InvalidArgument,
                    "'" + tag + "' is not a shard of queue '" + m_queue + "'");
    m_tag = tag;
    m_base = m_prefix + ":{" + m_tag + "}:";
}

bool Keys::isShardTag(const std::string& queue, const std::string& tag)
{
    if (tag == queue)
        return true;
    if (tag.size() <= queue.size() + 1 || tag.compare(0, queue.size(), queue) != 0 ||
        tag[queue.size()] != '#')
        return false;
    // "K" or "K.S", digits each.
    bool digit = false, dot = false;
    for (size_t i = queue.size() + 1; i < tag.size(); ++i) {
        const char c = tag[i];
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c == '.' && digit && !dot)
            dot = true, digit = false;
        else
            return false;
    }
    return digit;
}

std::string Keys::setKey(TaskSet set) const
{
    switch (set) {
    case TaskSet::Active:
        return active();
    case TaskSet::Dead:
        return dead();
    case TaskSet::Pending:
        break;
    }
    return pending();
}

std::vector<std::string> Keys::recordRead(const std::string& id) const
{
    // EVAL with the (comment-free) body, not EVALSHA: a pipeline or MULTI has no way to resend
    // a script the server has forgotten.
    return {"EVAL", std::string(scripts::readRecord.source), "4", pending(), active(), dead(), dataPrefix(), id};
}

void Keys::validateQueueName(const std::string& name)
{
    if (name.empty())
        throw Error(ErrorCode::InvalidArgument, "the queue name is empty");
    if (name.size() > 128)
        throw Error(ErrorCode::InvalidArgument, "the queue name is longer than 128 characters (" +
                                                    std::to_string(name.size()) + ")");
    for (unsigned char c : name)
        if (!isNameChar(c))
            throw Error(ErrorCode::InvalidArgument,
                        "a queue name may only hold letters, digits and . _ : - (no spaces or "
                        "braces)");
}

void Keys::validateTaskId(const std::string& id)
{
    if (id.empty())
        throw Error(ErrorCode::InvalidArgument, "the task id is empty");
    if (id.size() > 256)
        throw Error(ErrorCode::InvalidArgument,
                    "the task id is longer than 256 bytes (" + std::to_string(id.size()) + ")");
    for (unsigned char c : id)
        if (c < 0x20 || c == 0x7f)
            throw Error(ErrorCode::InvalidArgument, "the task id contains a control character");
}

void Keys::validatePrefix(const std::string& prefix)
{
    if (prefix.empty() || prefix.size() > 64)
        throw Error(ErrorCode::InvalidArgument, "the key prefix must be 1 to 64 characters");
    for (unsigned char c : prefix)
        if (!isNameChar(c))
            throw Error(ErrorCode::InvalidArgument,
                        "the key prefix may only hold letters, digits and . _ : -");
}

} // namespace delayq
