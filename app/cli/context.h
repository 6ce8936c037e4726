#pragma once

#include "args.h"
#include "output/jsonwriter.h"

#include <delayq/connection.h>
#include <delayq/plainqueue.h>
#include <delayq/queue.h>

#include <memory>
#include <string>

namespace cli {

// Options every command takes, before or after its name.
struct GlobalOptions
{
    std::string url;
    std::string prefix = "dq";
    bool readOnly = false;
    bool json = false;
    bool plain = false;    // QUEUE names a plain sorted-set key
    std::string scoreUnit; // "ms" | "s" | empty: detected
    bool verbose = false;  // say on stderr where it connected and how (TLS version, cipher)
    // --tls-* flags: each overrides the same key of a rediss:// URL's query.
    std::string tlsCa;
    std::string tlsCaDir;
    std::string tlsCert;
    std::string tlsKey;
    std::string tlsServerName;
    bool tlsInsecure = false;
};

// "redis://127.0.0.1:6379", or with Sentinel "master 'NAME' at HOST:PORT (named by the
// sentinels of URL)": the server a connection reached, for --verbose and the worker's banner.
std::string connectedTo(const delayq::Connection& connection);

// What a command runs with: the global options, its own arguments, and one connection
// opened on first use (so --help and usage errors never touch the network).
class Context
{
public:
    Context(GlobalOptions global, Args args);

    const GlobalOptions& global() const { return m_global; }
    Args& args() { return m_args; }
    bool json() const { return m_global.json; }

    delayq::Connection& connection();
    // The queue named by positional word `index`. Throws Error(OldLayout) saying how to
    // upgrade when the queue is stored in an older delayq's layout (unless asked not to).
    delayq::Queue queue(size_t index = 0, bool requireCurrentLayout = true);
    // The plain sorted-set key named by positional word `index` (--score-unit applied).
    delayq::PlainQueue plainQueue(size_t index = 0);

    // "2026-12-01 09:30:00.000 (in 5m)": local time and relative to the server's now.
    std::string when(long long ms);
    // "2026-12-01 09:30:00.000 (21m 53s ago)": a moment that passed, such as a death.
    std::string whenPast(long long ms);
    long long serverNow();

    void print(const std::string& text) const;
    void printJson(const JsonWriter& json) const;

private:
    // The URL's options with the --tls-* flags and DELAYQ_TLS_KEY_PASSPHRASE applied, the
    // files checked. Throws UsageError for flags without rediss:// and unreadable files.
    delayq::ConnectionOptions connectionOptions() const;

    GlobalOptions m_global;
    Args m_args;
    std::unique_ptr<delayq::Connection> m_connection;
};

} // namespace cli
