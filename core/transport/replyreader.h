#pragma once

#include <delayq/reply.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace delayq {

// Decodes the Redis protocol (RESP) from bytes into Replies, with hiredis's reader.
// RedisLink feeds the transport's bytes to a hiredis reader limited the same way (limitArrays)
// and converts with fromHiredis; this class is that decoding for bytes that come from
// elsewhere (and what the fuzz target drives with arbitrary input).
class ReplyReader
{
public:
    ReplyReader();
    ~ReplyReader();
    ReplyReader(const ReplyReader&) = delete;
    ReplyReader& operator=(const ReplyReader&) = delete;

    void feed(std::string_view bytes);
    // The next complete reply, or nullopt when more bytes are needed.
    // Throws Error(Protocol) on malformed input; the reader is unusable afterwards.
    std::optional<Reply> next();

    // hiredis's reply tree (a redisReply*) copied into a Reply; the only place that does.
    static Reply fromHiredis(const void* redisReply);

    // Makes a hiredis reader (a redisReader*, e.g. a context's) refuse a reply that announces
    // more than kMaxElements elements: hiredis 0.14 allocates the whole array up front, so
    // "*333333333" from a broken or hostile server would ask for gigabytes (the reply fuzzer
    // found it). No delayq command reads anywhere near that many.
    static void limitArrays(void* redisReader);
    static constexpr int kMaxElements = 1 << 20;
    // The text for a reader's error (hiredis's errstr), naming the limit when it was that.
    static std::string errorText(const char* hiredisError);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace delayq
