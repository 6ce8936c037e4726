#include "records/recordreads.h"

#include <delayq/connection.h>
#include <delayq/error.h>

#include <atomic>
#include <map>
#include <mutex>

namespace delayq {

namespace {

// The last state read of each queue's record table, shared by the process's readers (the app
// builds a fresh Queue per request). Only a guess: each read checks it in its own round trip.
std::mutex& lock()
{
    static std::mutex m;
    return m;
}

std::map<std::string, RecordTable>& states()
{
    static std::map<std::string, RecordTable> m;
    return m;
}

// Bounded: a process that looks at very many queues forgets all and starts again.
constexpr size_t kMaxQueues = 10000;

std::atomic<long long> g_rereads{0};

std::optional<RecordTable> cached(const std::string& key)
{
    std::lock_guard<std::mutex> hold(lock());
    const auto found = states().find(key);
    if (found == states().end())
        return std::nullopt;
    return found->second;
}

void remember(const std::string& key, const RecordTable& state)
{
    std::lock_guard<std::mutex> hold(lock());
    if (states().size() >= kMaxQueues && !states().count(key))
        states().clear();
    states()[key] = state;
}

std::vector<std::string> stateRead(const Keys& keys)
{
    std::vector<std::string> command = {"HMGET", keys.dataLayout()};
    for (std::string& field : RecordTable::fields())
        command.push_back(std::move(field));
    return command;
}

RecordTable stateFrom(const Reply& reply)
{
    if (reply.isError())
        throw errorFromReply(reply.str);
    if (!reply.isArray())
        throw Error(ErrorCode::Protocol, "unexpected reply shape from HMGET of the record table");
    std::vector<std::optional<std::string>> values;
    for (const Reply& r : reply.elements)
        values.push_back(r.isNil() ? std::nullopt : std::optional<std::string>(r.str));
    return RecordTable::fromFields(values);
}

} // namespace

RecordReads::RecordReads(Connection& connection) : m_connection(connection) {}

size_t RecordReads::add(std::vector<std::string> command)
{
    m_entries.push_back({std::move(command), 0, {}});
    return m_entries.size() - 1;
}

size_t RecordReads::addRecord(const Keys& keys, const std::string& id)
{
    m_entries.push_back({{}, tableOf(keys), id});
    return m_entries.size() - 1;
}

size_t RecordReads::tableOf(const Keys& keys)
{
    const std::string layout = keys.dataLayout();
    for (size_t i = 0; i < m_tables.size(); ++i)
        if (m_tables[i].keys.dataLayout() == layout)
            return i;
    // A cluster's keys are the cluster's, whichever node the options name first.
    std::string cacheKey = m_connection.serverAddress() + '/' +
                           std::to_string(m_connection.options().db) + '/' + layout;
    std::optional<RecordTable> state = cached(cacheKey);
    m_tables.push_back({keys, std::move(cacheKey), std::move(state)});
    return m_tables.size() - 1;
}

void RecordReads::readUnknownStates()
{
    Commands reads;
    std::vector<size_t> unknown;
    for (size_t i = 0; i < m_tables.size(); ++i)
        if (!m_tables[i].state) {
            reads.push_back(stateRead(m_tables[i].keys));
            unknown.push_back(i);
        }
    if (reads.empty())
        return;
    const std::vector<Reply> replies = m_connection.pipeline(reads);
    for (size_t k = 0; k < unknown.size(); ++k) {
        Table& table = m_tables[unknown[k]];
        table.state = stateFrom(replies.at(k));
        remember(table.cacheKey, *table.state);
    }
}

std::vector<Reply> RecordReads::run()
{
    return run([this](const Commands& commands) { return m_connection.pipeline(commands); });
}

std::vector<Reply> RecordReads::run(const Send& send)
{
    std::vector<Reply> out(m_entries.size());
    std::vector<size_t> left(m_entries.size()); // the entries not answered yet
    for (size_t i = 0; i < left.size(); ++i)
        left[i] = i;
    for (int attempt = 0; attempt < kTries && !left.empty(); ++attempt) {
        if (attempt > 0)
            ++g_rereads;
        readUnknownStates();
        const size_t tables = m_tables.size();
        Commands commands;
        std::vector<std::vector<std::string>> sent(left.size()); // a record read's keys
        std::vector<size_t> firstReply(left.size());
        for (const Table& table : m_tables)
            commands.push_back(stateRead(table.keys));
        for (size_t k = 0; k < left.size(); ++k) {
            const Entry& entry = m_entries[left[k]];
            firstReply[k] = commands.size();
            if (!entry.command.empty()) {
                commands.push_back(entry.command);
                continue;
            }
            const Table& table = m_tables[entry.table];
            sent[k] = table.state->keysOf(table.keys, entry.id);
            for (const std::string& key : sent[k])
                commands.push_back({"HGET", key, entry.id});
        }
        for (const Table& table : m_tables)
            commands.push_back(stateRead(table.keys));
        std::vector<Reply> replies = send(commands);
        if (replies.size() != commands.size())
            throw Error(ErrorCode::Protocol, "a pipeline answered " +
                                                 std::to_string(replies.size()) + " replies to " +
                                                 std::to_string(commands.size()) + " commands");
        std::vector<RecordTable> before, after;
        for (size_t t = 0; t < tables; ++t) {
            before.push_back(stateFrom(replies[t]));
            after.push_back(stateFrom(replies[replies.size() - tables + t]));
            if (!(after[t] == *m_tables[t].state)) {
                m_tables[t].state = after[t];
                remember(m_tables[t].cacheKey, after[t]);
            }
        }
        std::vector<size_t> again;
        for (size_t k = 0; k < left.size(); ++k) {
            const Entry& entry = m_entries[left[k]];
            const size_t first = firstReply[k];
            if (!entry.command.empty()) {
                out[left[k]] = std::move(replies[first]);
                continue;
            }
            // Read where the record was: the state before and after the HGETs names the keys
            // they read. A record moves only by a split of its bucket (or an upgrade step) to
            // a bucket it never leaves again, so keys equal under both states were its keys
            // all along. Otherwise it is read again, by the state read after.
            const Table& table = m_tables[entry.table];
            if (before[entry.table].keysOf(table.keys, entry.id) != sent[k] ||
                after[entry.table].keysOf(table.keys, entry.id) != sent[k]) {
                again.push_back(left[k]);
                continue;
            }
            // Of a record's HGETs (two only while its legacy bucket is being moved), the
            // first error, else the first record found.
            const size_t count = sent[k].size();
            size_t pick = first;
            for (size_t r = first; r < first + count; ++r)
                if (replies[r].isError()) {
                    pick = r;
                    break;
                }
            if (!replies[pick].isError())
                for (size_t r = first; r < first + count; ++r)
                    if (!replies[r].isNil()) {
                        pick = r;
                        break;
                    }
            out[left[k]] = std::move(replies[pick]);
        }
        left = std::move(again);
    }
    if (!left.empty())
        throw Error(ErrorCode::Timeout, "the record table of queue '" +
                                            m_tables.front().keys.queue() +
                                            "' grew under each of " + std::to_string(kTries) +
                                            " reads of its records; try again");
    return out;
}

long long RecordReads::rereads()
{
    return g_rereads.load();
}

} // namespace delayq
