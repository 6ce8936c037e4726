#pragma once

#include <delayq/keys.h>
#include <delayq/recordtable.h>
#include <delayq/reply.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace delayq {

class Connection;

// Commands to send together, some of them reads of task records, read with plain HGETs in the
// bucket RecordTable computes (no script: a user of +@read alone can read). The record table's
// state comes from a cache per queue (like ShardLayoutCache) and is read again just before and
// just after the HGETs, in the same round trip. The state only grows and a record moves only
// by a split of its bucket (or an upgrade step), to a bucket it never leaves again; so a
// record whose keys by the state read before and by the one read after are the keys its HGETs
// read was read where it was all along. The others (records of buckets that split since the
// cached state, or while the commands ran) are read again, alone, by the state read after. A
// queue not in the cache costs one HMGET first.
class RecordReads
{
public:
    using Commands = std::vector<std::vector<std::string>>;
    // Sends commands and answers one reply each, in order: a pipeline, or one inside
    // MULTI/EXEC. May throw.
    using Send = std::function<std::vector<Reply>(const Commands&)>;

    explicit RecordReads(Connection& connection);

    // A command whose reply is wanted as it is. Returns its place among the replies.
    size_t add(std::vector<std::string> command);
    // A read of id's record in the queue (or shard) of `keys`. Its reply is the record, or nil
    // when there is none, as an HGET's would be (or the first error reply of its HGETs).
    size_t addRecord(const Keys& keys, const std::string& id);
    bool empty() const { return m_entries.empty(); }

    // Sends by connection.pipeline.
    std::vector<Reply> run();
    // Sends by `send`; one reply per add/addRecord, in their order. A record read again is
    // sent in a later call of `send` than the other commands. Throws Error when the state
    // read is an error, or when records still moved under the kTries-th send.
    std::vector<Reply> run(const Send& send);

    // Times record reads were sent again because the state had moved (process-wide; for
    // tests and measurements).
    static long long rereads();

    static constexpr int kTries = 20;

private:
    struct Entry
    {
        std::vector<std::string> command; // empty for a record read
        size_t table = 0;                 // record reads: index in m_tables
        std::string id;
    };
    struct Table
    {
        Keys keys;
        std::string cacheKey;
        std::optional<RecordTable> state;
    };

    size_t tableOf(const Keys& keys);
    void readUnknownStates();

    Connection& m_connection;
    std::vector<Entry> m_entries;
    std::vector<Table> m_tables;
};

} // namespace delayq
