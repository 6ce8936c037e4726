#include "shard/shardlayoutcache.h"

#include <delayq/connection.h>

#include <map>
#include <mutex>

namespace delayq {

namespace {

std::mutex& lock()
{
    static std::mutex m;
    return m;
}

std::map<std::string, ShardLayout>& layouts()
{
    static std::map<std::string, ShardLayout> m;
    return m;
}

std::string keyOf(Connection& connection, const std::string& prefix, const std::string& queue)
{
    // A cluster's keys are the cluster's, whichever node the options name first: the guess
    // stays a guess, never trusted without the read beside it.
    return connection.serverAddress() + '/' + std::to_string(connection.options().db) + '/' +
           prefix + '/' + queue;
}

// Bounded: a process that looks at very many queues forgets all and starts again.
constexpr size_t kMaxQueues = 10000;

} // namespace

std::optional<ShardLayout>
ShardLayoutCache::guess(Connection& connection, const std::string& prefix, const std::string& queue)
{
    const std::string key = keyOf(connection, prefix, queue);
    std::lock_guard<std::mutex> hold(lock());
    const auto found = layouts().find(key);
    if (found == layouts().end())
        return std::nullopt;
    return found->second;
}

void ShardLayoutCache::remember(Connection& connection, const std::string& prefix,
                                const std::string& queue, const ShardLayout& layout)
{
    const std::string key = keyOf(connection, prefix, queue);
    std::lock_guard<std::mutex> hold(lock());
    if (layouts().size() >= kMaxQueues && !layouts().count(key))
        layouts().clear();
    layouts()[key] = layout;
}

} // namespace delayq
