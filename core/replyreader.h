#pragma once

#include "reply.h"

#include <memory>
#include <optional>
#include <string_view>

namespace delayq {

// Decodes the Redis protocol (RESP) from bytes into Replies, with hiredis's reader.
// Connection reads the socket through hiredis; this is the same decoding for bytes that
// come from elsewhere (and what the fuzz target drives with arbitrary input).
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

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace delayq
