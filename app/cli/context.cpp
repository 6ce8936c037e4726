#include "context.h"

#include <delayq/timeparse.h>

#include <cstdio>

namespace cli {

Context::Context(GlobalOptions global, Args args)
    : m_global(std::move(global)), m_args(std::move(args))
{}

std::string connectedTo(const delayq::Connection& connection)
{
    const delayq::ConnectionOptions& o = connection.options();
    if (!o.sentinel.enabled())
        return o.displayUrl();
    return "master '" + o.sentinel.masterName + "' at " + connection.serverAddress() +
           " (named by the sentinels of " + o.displayUrl() + ")";
}

delayq::Connection& Context::connection()
{
    if (!m_connection) {
        auto options = delayq::ConnectionOptions::fromUrl(m_global.url);
        options.readOnly = m_global.readOnly;
        m_connection = std::make_unique<delayq::Connection>(options);
        m_connection->connect();
        if (m_global.verbose)
            std::fprintf(stderr, "delayq: connected to %s\n", connectedTo(*m_connection).c_str());
    }
    return *m_connection;
}

delayq::Queue Context::queue(size_t index)
{
    const auto& words = m_args.positional();
    if (index >= words.size())
        throw UsageError(m_args.command() + ": the queue name is missing");
    delayq::Keys::validateQueueName(words[index]);
    return delayq::Queue(connection(), words[index], m_global.prefix);
}

delayq::PlainQueue Context::plainQueue(size_t index)
{
    const auto& words = m_args.positional();
    if (index >= words.size())
        throw UsageError(m_args.command() + ": the key is missing");
    std::optional<delayq::PlainQueue::ScoreUnit> unit;
    if (!m_global.scoreUnit.empty())
        unit = delayq::PlainQueue::parseUnit(m_global.scoreUnit);
    return delayq::PlainQueue(connection(), words[index], unit);
}

long long Context::serverNow()
{
    return connection().serverNowMs();
}

std::string Context::when(long long ms)
{
    return delayq::formatTime(ms) + " (" + delayq::formatRelative(ms, serverNow()) + ")";
}

void Context::print(const std::string& text) const
{
    std::fwrite(text.data(), 1, text.size(), stdout);
}

void Context::printJson(const JsonWriter& json) const
{
    print(json.str() + "\n");
}

} // namespace cli
