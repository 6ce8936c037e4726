#pragma once

#include <span>
#include <string_view>

namespace delayq {

// One Lua script from lua/, embedded at build time with its SHA1 (see core/CMakeLists.txt).
struct Script
{
    std::string_view name;
    std::string_view source;
    std::string_view sha1;
};

namespace scripts {
extern const Script push;
extern const Script claim;
extern const Script ack;
extern const Script nack;
extern const Script extend;
extern const Script reap;
extern const Script cancel;
extern const Script reschedule;
extern const Script requeue;
extern const Script deleteDead;
extern const Script purge;
extern const Script restore;
extern const Script config;
extern const Script upgrade;
extern const Script plainPop;
extern const Script plainReschedule;
extern const Script importTasks;
extern const Script plainLease;
extern const Script plainSettle;
extern const Script heartbeat;
extern const Script schedulePut;
extern const Script scheduleRm;
extern const Script scheduleFire;
extern const Script scheduleMake;
extern const Script shardLayout;
extern const Script shardTake;
extern const Script shardRelease;
extern const Script shardDisplace;
extern const Script upgradeBuckets;
extern const Script readRecord;
extern const Script binTake;
extern const Script binPut;
extern const Script binRelease;
// Every script above, once, in the order `delayq scripts` lists them (DELAYQ_LUA_SCRIPTS in
// core/CMakeLists.txt); each names itself (Script::name).
std::span<const Script* const> all();
} // namespace scripts

} // namespace delayq
