#pragma once

#include "commands/commands.h"

#include <string>
#include <vector>

namespace cli {

// The --help texts, and the options read back out of them: the one source that --help, the
// man page and the shell completions are all made from, so they cannot disagree.

std::string globalHelp();
std::string mainHelp();
std::string commandHelp(const CommandInfo& command);

// An option as a help text writes it: "--in D" → {"in", "D"}; "--replace" → {"replace", ""}.
struct UsageOption
{
    std::string name;      // without the dashes
    std::string valueName; // empty: a switch
};

// Every "--name" in text, the first mention of each, in order.
std::vector<UsageOption> optionsIn(const std::string& text);
std::vector<UsageOption> globalOptions();
// A command's own options (its usage text's, less the global ones).
std::vector<UsageOption> commandOptions(const CommandInfo& command);
// Which positional word (1 = the first after the command) names a queue, from the synopsis
// ("ls QUEUE", "migrate PLAIN_KEY QUEUE"); 0 when none does.
int queuePosition(const CommandInfo& command);

} // namespace cli
