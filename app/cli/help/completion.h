#pragma once

#include <string>

namespace cli {

// Shell completions for delayq, made from the --help texts (usage.h) so that a command or
// option added there is completed without touching this: commands, each command's options
// and the global ones, the values an option's help names (pending|active|dead, FILE, DIR),
// and queue names from the server (`delayq queues --names-only`, given 1 s).
std::string bashCompletion();
std::string zshCompletion();

} // namespace cli
