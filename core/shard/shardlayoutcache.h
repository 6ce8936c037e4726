#pragma once

#include <delayq/shardlayout.h>

#include <optional>
#include <string>

namespace delayq {

class Connection;

// The last shard layout read of each queue, shared by every Queue and QueueReader of the
// process (docs/design/sharding.md, "The layout on the hot path"). The app builds a fresh
// Queue per request, so a copy kept in the object died with it and every request read the
// layout again. A copy from here is only a guess to route by: the operation that uses it
// reads the layout in the same round trip and corrects itself when the guess was wrong.
// Keyed by server, database, prefix and queue. Thread-safe.
class ShardLayoutCache
{
public:
    static std::optional<ShardLayout> guess(Connection& connection, const std::string& prefix,
                                            const std::string& queue);
    static void remember(Connection& connection, const std::string& prefix,
                         const std::string& queue, const ShardLayout& layout);
};

} // namespace delayq
