#pragma once

#include <string>

namespace delayq {

// The checks and stored forms of the values a caller hands Queue (queue.h), with no Redis.
// Each throws Error(InvalidArgument) saying what is wrong.

// 9999-12-31T23:59:59.999Z: the latest due time, so every time stays a valid date.
constexpr long long kLatestDueMs = 253402300799999LL;

// Script calls take at most this many tasks for the scripts that do several commands per task
// (push, claim, ack, reap), so no call runs long on the server (the target is under 5 ms on a
// queue of millions: tests/limits/scriptlimits). Larger requests become several calls,
// pipelined in one round trip. 200, not 100: a call's fixed part (TIME, the config read, the
// counters) is then shared by twice as many tasks, and a worker's full claim (its maxBatch,
// 200) is one call, whose lease ZADD creates the active set as a skiplist at once instead of
// filling a listpack member by member and converting it: claim+ack cost 15 % less Redis CPU
// (docs/design.md, "What a task costs Redis").
constexpr int kTasksPerCall = 200;

std::string normalizeBackoff(const std::string& text);
std::string normalizeConfigValue(const std::string& key, const std::string& value);
// A delay below 0, or one that ends after 9999 counted from nowMs.
void checkDelay(long long delayMs, long long nowMs);
// An absolute due time before 1970 or after 9999.
void checkDueAt(long long dueAtMs);
// A push's priority (-9..9) and group (docs/design/flow.md); throws InvalidArgument naming it.
void checkFairTag(int priority, const std::string& group);
// 0 (the queue's lease_ms) to 7 days, as for the lease_ms config.
void checkLease(long long leaseMs);
// Fair order's group_cap or group_rate (their stored forms) on a queue of `shards` shards
// (docs/design/flow.md, "Sharded queues"): each shard keeps its share, so a group cap below
// the shard count, or a group rate whose burst is, would leave a shard none. Returns what is
// wrong and what is needed ("" when the value can be kept).
std::string groupShareProblem(const std::string& key, const std::string& stored, size_t shards);
// What is wrong with the queue's rate ("N/MS", "" or "0" for none) and burst ("" or "0" for
// the count) on `shards` shards, or "": each shard keeps its share of the burst, so a burst
// below the shard count leaves every shard less than one task and none ever starts.
std::string rateShareProblem(const std::string& rate, const std::string& burst, size_t shards,
                             const std::string& queue);

} // namespace delayq
