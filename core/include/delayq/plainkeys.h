#pragma once

#include <string>

namespace delayq {

// The keys delayq keeps beside a plain sorted-set key (docs/protocol.md, "Plain keys"): the
// registry of its consumers, each member's failures and the members parked after too many.
// The plain key itself belongs to its producers and is never renamed or tagged; these keys
// share one hash tag of their own, so in a Redis Cluster they sit in one slot: the plain key's
// when its name has no brace, maybe another node's when it has (docs/targets/plain.md says in
// which order they are written, and why).
class PlainKeys
{
public:
    // Throws Error(InvalidArgument) for a bad prefix or an empty key.
    PlainKeys(std::string prefix, const std::string& plainKey);

    const std::string& plainKey() const { return m_plainKey; }
    // The hash tag: the plain key's name, or "#sha1:" and its SHA1 in hex when the name holds
    // a brace (which would end or empty the tag) or is longer than 200 bytes.
    const std::string& tag() const { return m_tag; }
    static std::string tagFor(const std::string& plainKey);

    // Worker registry, as a native queue's (heartbeat.lua): name -> live until (ms), and
    // name -> its record.
    std::string workers() const { return m_base + "workers"; }
    std::string workerRecords() const { return m_base + "worker_records"; }
    // member -> "attempts|last failed (ms)|last error" while its deliveries fail.
    std::string failures() const { return m_base + "failures"; }
    // member -> when it was parked (ms): it failed max attempts times and left the plain key.
    std::string parked() const { return m_base + "parked"; }
    // The plain keys that have (or had lately) a consumer beating, for `delayq workers`.
    static std::string plainKeys(const std::string& prefix) { return prefix + ":plain_keys"; }
    // Every key above starts with this, for the prefix: discovery skips them.
    static std::string keyPrefix(const std::string& prefix) { return prefix + ":plain:{"; }

private:
    std::string m_plainKey;
    std::string m_tag;
    std::string m_base;
};

} // namespace delayq
