#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cli {

// Exit codes of every command (the CLI's contract with scripts).
enum Exit
{
    ExitOk = 0,
    ExitRefused = 1,
    ExitUsage = 2,
    ExitUnreachable = 3
};

// Wrong use of the command line: exit 2 with the message and a pointer to --help.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec
{
    std::string name; // without the dashes
    bool takesValue = false;
    bool repeats = false; // may be given several times: values() has them all, in order
};

// The words after the subcommand. Options may come before, between or after the positional
// words; "--" ends the options (for a payload that starts with a dash).
class Args
{
public:
    Args() = default;
    Args(std::string command, std::vector<std::string> words);

    const std::string& command() const { return m_command; }
    // Refuses options not in spec, and more than maxPositional positional words (-1: any).
    void parse(const std::vector<OptionSpec>& spec, int minPositional, int maxPositional);

    bool has(const std::string& name) const { return m_options.count(name) > 0; }
    std::string value(const std::string& name, const std::string& fallback = {}) const;
    // Every value of a repeatable option, in the order given (value() has the last one).
    std::vector<std::string> values(const std::string& name) const;
    // A whole number from min to max; fallback when the option is absent.
    long long number(const std::string& name, long long min, long long max,
                     long long fallback) const;
    long long duration(const std::string& name, long long fallback) const;
    // An ISO 8601 time in ms since the epoch; nullopt when the option is absent.
    std::optional<long long> time(const std::string& name) const;
    const std::vector<std::string>& positional() const { return m_positional; }
    // At most one of these options may be given.
    void exclusive(const std::vector<std::string>& names) const;

private:
    std::string m_command;
    std::vector<std::string> m_words;
    std::map<std::string, std::string> m_options;
    std::map<std::string, std::vector<std::string>> m_repeated;
    std::vector<std::string> m_positional;
};

} // namespace cli
