#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace delayq {

class Keys;

// Where a native queue keeps a task's record (docs/design/key-layout.md, layout 3): the same
// arithmetic as lua/buckets.lua, so a reader outside a script can read a record with a plain
// HGET. The state is the hash Keys::dataLayout() ("base", "level", "split", "migrated";
// "load" only steers growth). It only grows: base appears once, (level, split) and migrated
// only increase, and buckets never merge, so a record read between two equal reads of the
// state was read where the state says it is (RecordReads, core/records).
struct RecordTable
{
    static constexpr long long kLegacyBuckets = 8192;

    // Absent: a queue without a table (layout 2, or no records yet): legacy buckets.
    std::optional<long long> base;
    long long level = 0;
    long long split = 0;
    // Layout 2's buckets moved into the table so far; kLegacyBuckets when none are left.
    long long migrated = kLegacyBuckets;

    // The fields to HMGET from Keys::dataLayout(), in the order fromFields takes them.
    static std::vector<std::string> fields();
    // From an HMGET of fields() (nil for a field absent). Throws Error(Protocol) for a field
    // that is not a whole number.
    static RecordTable fromFields(const std::vector<std::optional<std::string>>& values);

    bool operator==(const RecordTable&) const = default;

    // id_hash: every byte, four at a time, base 31, modulo 2^31 - 1.
    static long long idHash(std::string_view id);
    // legacy_bucket: layout 2's bucket from the last four bytes, 0..8191.
    static long long legacyBucket(std::string_view id);
    // The table's bucket of a hash (grown_key); needs base.
    long long tableBucket(long long hash) const;

    // The hashes that may hold id's record, in the order to look (data_key): the legacy bucket
    // "PREFIX:{Q}:d:N" without a table or above `migrated` while an upgrade runs; both that
    // and the table's "PREFIX:{Q}:d:g:B" for the bucket being moved (the legacy one wins when
    // both answer, as data_key's HEXISTS has it); the table's otherwise.
    std::vector<std::string> keysOf(const Keys& keys, std::string_view id) const;
};

} // namespace delayq
