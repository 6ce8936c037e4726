#pragma once

#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/task.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {

// One shard's own work for Queue (docs/design/sharding.md): the claim, ack, nack, extend and
// reap scripts on that shard's keys. An unsharded queue is its one shard. Queue checks the
// arguments and routes (by the shard room) before any of these runs; throws Error.
class QueueShard
{
public:
    // tokenPrefix: what this shard's claims start their tokens with ("sK." on a sharded queue);
    // share: its share of the flow limits, "K/S" (lua/claim.lua), "" on an unsharded queue.
    QueueShard(Connection& connection, const Keys& keys, std::string tokenPrefix,
               std::string share);

    using IdTokens = std::vector<std::pair<std::string, std::string>>;
    ClaimResult claim(int maxTasks, long long leaseMs, const std::string& worker);
    std::vector<bool> ack(const IdTokens& idTokens);
    NackResult nack(const std::string& id, const std::string& token, const std::string& error,
                    long long retryDelayMs);
    long long extend(const std::string& id, const std::string& token, long long leaseMs);
    std::vector<std::optional<long long>> extend(const IdTokens& idTokens, long long leaseMs);
    ReapResult reap(int maxTasks);

private:
    std::vector<std::string> scriptKeys() const;

    Connection& m_connection;
    Keys m_keys;
    std::string m_tokenPrefix;
    std::string m_share;
};

} // namespace delayq
