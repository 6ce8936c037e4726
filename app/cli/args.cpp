#include "args.h"

#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <cctype>
#include <charconv>

namespace cli {

Args::Args(std::string command, std::vector<std::string> words)
    : m_command(std::move(command)), m_words(std::move(words))
{}

void Args::parse(const std::vector<OptionSpec>& spec, int minPositional, int maxPositional)
{
    bool optionsEnded = false;
    for (size_t i = 0; i < m_words.size(); ++i) {
        const std::string& w = m_words[i];
        // No option starts with a digit: "-1" is a (negative) value, refused by what takes it
        // with its own message rather than as an unknown option.
        const bool negativeNumber =
            w.size() >= 2 && w[0] == '-' && std::isdigit(static_cast<unsigned char>(w[1]));
        if (optionsEnded || w == "-" || w.size() < 2 || w[0] != '-' || negativeNumber) {
            m_positional.push_back(w);
            continue;
        }
        if (w == "--") {
            optionsEnded = true;
            continue;
        }
        std::string name = w.substr(w[1] == '-' ? 2 : 1);
        std::string inlineValue;
        bool hasInline = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
            hasInline = true;
        }
        const OptionSpec* found = nullptr;
        for (const auto& s : spec)
            if (s.name == name)
                found = &s;
        if (!found)
            throw UsageError("unknown option '" + printable(w.substr(0, 64)) + "' for " +
                             m_command);
        if (found->takesValue) {
            if (hasInline) {
                m_options[name] = inlineValue;
            } else {
                if (i + 1 >= m_words.size())
                    throw UsageError("option --" + name + " needs a value");
                m_options[name] = m_words[++i];
            }
            if (found->repeats)
                m_repeated[name].push_back(m_options[name]);
        } else {
            if (hasInline)
                throw UsageError("option --" + name + " takes no value");
            m_options[name] = "1";
        }
    }
    if (static_cast<int>(m_positional.size()) < minPositional)
        throw UsageError(m_command + ": missing argument" + (minPositional > 1 ? "s" : ""));
    if (maxPositional >= 0 && static_cast<int>(m_positional.size()) > maxPositional)
        throw UsageError(m_command + ": unexpected argument '" +
                         printable(m_positional[static_cast<size_t>(maxPositional)].substr(0, 64)) +
                         "'");
}

std::string Args::value(const std::string& name, const std::string& fallback) const
{
    auto it = m_options.find(name);
    return it == m_options.end() ? fallback : it->second;
}

std::vector<std::string> Args::values(const std::string& name) const
{
    auto it = m_repeated.find(name);
    return it == m_repeated.end() ? std::vector<std::string>{} : it->second;
}

long long Args::number(const std::string& name, long long min, long long max,
                       long long fallback) const
{
    auto it = m_options.find(name);
    if (it == m_options.end())
        return fallback;
    const std::string& text = it->second;
    long long n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || n < min || n > max)
        throw UsageError("--" + name + " must be a whole number from " + std::to_string(min) +
                         " to " + std::to_string(max) + " (got '" + printable(text.substr(0, 32)) +
                         "')");
    return n;
}

long long Args::duration(const std::string& name, long long fallback) const
{
    auto it = m_options.find(name);
    if (it == m_options.end())
        return fallback;
    try {
        return delayq::parseDuration(it->second);
    } catch (const delayq::Error& e) {
        throw UsageError("--" + name + ": " + e.what());
    }
}

std::optional<long long> Args::time(const std::string& name) const
{
    auto it = m_options.find(name);
    if (it == m_options.end())
        return std::nullopt;
    try {
        return delayq::parseTime(it->second);
    } catch (const delayq::Error& e) {
        throw UsageError("--" + name + ": " + e.what());
    }
}

void Args::exclusive(const std::vector<std::string>& names) const
{
    std::string given;
    for (const auto& n : names) {
        if (!has(n))
            continue;
        if (!given.empty())
            throw UsageError("--" + given + " and --" + n + " cannot be used together");
        given = n;
    }
}

} // namespace cli
