#include "transport/replyreader.h"

#include <delayq/error.h>

#include <hiredis.h>

namespace delayq {

namespace {

// Set by the limited createArray so the error can say what happened instead of hiredis's
// "Out of memory".
thread_local bool t_tooManyElements = false;

const redisReplyObjectFunctions* hiredisFunctions()
{
    // Every reader hiredis creates points at the same (static) default functions.
    static const redisReplyObjectFunctions* functions = [] {
        redisReader* probe = redisReaderCreate();
        const redisReplyObjectFunctions* fn = probe ? probe->fn : nullptr;
        if (probe)
            redisReaderFree(probe);
        return fn;
    }();
    return functions;
}

void* createLimitedArray(const redisReadTask* task, int elements)
{
    if (elements < 0 || elements > ReplyReader::kMaxElements) {
        t_tooManyElements = true;
        return nullptr; // hiredis turns this into a reader error
    }
    return hiredisFunctions()->createArray(task, elements);
}

const redisReplyObjectFunctions* limitedFunctions()
{
    static const redisReplyObjectFunctions functions = [] {
        redisReplyObjectFunctions fn = *hiredisFunctions();
        fn.createArray = createLimitedArray;
        return fn;
    }();
    return &functions;
}

} // namespace

std::string ReplyReader::errorText(const char* hiredisError)
{
    if (t_tooManyElements) {
        t_tooManyElements = false;
        return "a reply announced more than " + std::to_string(kMaxElements) + " elements";
    }
    return hiredisError;
}

void ReplyReader::limitArrays(void* reader)
{
    auto* r = static_cast<redisReader*>(reader);
    if (r && hiredisFunctions() && r->fn == hiredisFunctions())
        r->fn = const_cast<redisReplyObjectFunctions*>(limitedFunctions());
}

struct ReplyReader::State
{
    redisReader* reader = nullptr;
    ~State()
    {
        if (reader)
            redisReaderFree(reader);
    }
};

ReplyReader::ReplyReader() : m_state(std::make_unique<State>())
{
    m_state->reader = redisReaderCreate();
    if (!m_state->reader)
        throw Error(ErrorCode::Protocol, "out of memory creating a reply reader");
    limitArrays(m_state->reader);
}

ReplyReader::~ReplyReader() = default;

void ReplyReader::feed(std::string_view bytes)
{
    if (redisReaderFeed(m_state->reader, bytes.data(), bytes.size()) != REDIS_OK)
        throw Error(ErrorCode::Protocol,
                    std::string("bad reply bytes: ") + m_state->reader->errstr);
}

std::optional<Reply> ReplyReader::next()
{
    void* raw = nullptr;
    if (redisReaderGetReply(m_state->reader, &raw) != REDIS_OK)
        throw Error(ErrorCode::Protocol,
                    "malformed reply from Redis: " + errorText(m_state->reader->errstr));
    if (!raw)
        return std::nullopt;
    Reply reply = fromHiredis(raw);
    freeReplyObject(raw);
    return reply;
}

Reply ReplyReader::fromHiredis(const void* redisReplyPointer)
{
    const auto* r = static_cast<const redisReply*>(redisReplyPointer);
    Reply out;
    switch (r->type) {
    case REDIS_REPLY_STRING:
        out.type = Reply::Type::String;
        out.str.assign(r->str, r->len);
        break;
    case REDIS_REPLY_STATUS:
        out.type = Reply::Type::Status;
        out.str.assign(r->str, r->len);
        break;
    case REDIS_REPLY_ERROR:
        out.type = Reply::Type::Error;
        out.str.assign(r->str, r->len);
        break;
    case REDIS_REPLY_INTEGER:
        out.type = Reply::Type::Integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_ARRAY:
        out.type = Reply::Type::Array;
        out.elements.reserve(r->elements);
        for (size_t i = 0; i < r->elements; ++i)
            out.elements.push_back(fromHiredis(r->element[i]));
        break;
    default:
        out.type = Reply::Type::Nil;
        break;
    }
    return out;
}

} // namespace delayq
