#include "cli.h"

#include "commands/commands.h"
#include "help/completion.h"
#include "help/manpage.h"
#include "help/usage.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/version.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

namespace cli {

namespace {

void printMainHelp()
{
    std::fputs(mainHelp().c_str(), stdout);
}

void printCommandHelp(const CommandInfo& c)
{
    std::fputs(commandHelp(c).c_str(), stdout);
}

// `delayq --generate man|bash|zsh`: the build writes the man page and the completions with
// it, from the same texts as --help (hidden from --help: it is for the build, not for users).
int generate(const std::string& what)
{
    std::string text;
    if (what == "man")
        text = manPage();
    else if (what == "bash")
        text = bashCompletion();
    else if (what == "zsh")
        text = zshCompletion();
    else
        throw UsageError("--generate takes man, bash or zsh (got '" +
                         printable(what.substr(0, 64)) + "')");
    std::fputs(text.c_str(), stdout);
    return ExitOk;
}

// One line, always: a server message with a newline must not forge a second line.
void printError(const std::string& message)
{
    std::string line = "delayq: " + printable(message) + "\n";
    std::fputs(line.c_str(), stderr);
}

int exitFor(delayq::ErrorCode code)
{
    switch (code) {
    case delayq::ErrorCode::Connection:
    case delayq::ErrorCode::Timeout:
    case delayq::ErrorCode::Auth:
    case delayq::ErrorCode::Tls:
        return ExitUnreachable;
    case delayq::ErrorCode::InvalidArgument:
        return ExitUsage;
    default:
        return ExitRefused;
    }
}

// The global options that take a value, and the field each fills.
const std::pair<const char*, std::string GlobalOptions::*> kValueOptions[] = {
    {"url", &GlobalOptions::url},
    {"prefix", &GlobalOptions::prefix},
    {"score-unit", &GlobalOptions::scoreUnit},
    {"tls-ca", &GlobalOptions::tlsCa},
    {"tls-ca-dir", &GlobalOptions::tlsCaDir},
    {"tls-cert", &GlobalOptions::tlsCert},
    {"tls-key", &GlobalOptions::tlsKey},
    {"tls-server-name", &GlobalOptions::tlsServerName},
};
const std::pair<const char*, bool GlobalOptions::*> kSwitches[] = {
    {"--read-only", &GlobalOptions::readOnly}, {"--json", &GlobalOptions::json},
    {"--plain", &GlobalOptions::plain},        {"--verbose", &GlobalOptions::verbose},
    {"-v", &GlobalOptions::verbose},           {"--tls-insecure", &GlobalOptions::tlsInsecure},
};

// When argv[i] is a global option, stores it (and its value: "--name=value" or the next
// word, moving i past it) and returns true.
bool takeGlobalOption(int argc, char** argv, int& i, GlobalOptions& global)
{
    const std::string w = argv[i];
    for (const auto& [flag, field] : kSwitches) {
        if (w == flag) {
            global.*field = true;
            return true;
        }
    }
    for (const auto& [name, field] : kValueOptions) {
        const std::string flag = std::string("--") + name;
        if (w.rfind(flag + "=", 0) == 0) {
            global.*field = w.substr(flag.size() + 1);
        } else if (w == flag) {
            if (i + 1 >= argc)
                throw UsageError(flag + " needs a value");
            global.*field = argv[++i];
        } else {
            continue;
        }
        if (field == &GlobalOptions::scoreUnit && global.scoreUnit != "ms" &&
            global.scoreUnit != "s")
            throw UsageError("--score-unit must be ms or s");
        return true;
    }
    return false;
}

// What the words of the command line ask for, the global options taken out.
struct CommandLine
{
    GlobalOptions global;
    bool help = false;
    std::string command;
    std::vector<std::string> words; // the command's own, for its Args
};

// Sorts argv into global options, the command and its words. --version and --generate are
// answered where they stand (what follows them is not read): then the exit code.
std::optional<int> readCommandLine(int argc, char** argv, CommandLine& line)
{
    bool optionsEnded = false;
    for (int i = 1; i < argc; ++i) {
        const std::string w = argv[i];
        if (optionsEnded) {
            line.words.push_back(w);
        } else if (w == "--") {
            optionsEnded = true;
            line.words.push_back(w); // the command's parser ends its options here too
        } else if (takeGlobalOption(argc, argv, i, line.global)) {
            continue;
        } else if (w == "--help" || w == "-h") {
            line.help = true;
        } else if (w == "--version") {
            std::fputs("delayq " DELAYQ_VERSION "\n", stdout);
            return ExitOk;
        } else if (w == "--generate" || w.starts_with("--generate=")) {
            if (w == "--generate" && i + 1 >= argc)
                throw UsageError("--generate needs a value: man, bash or zsh");
            return generate(w == "--generate" ? argv[++i] : w.substr(11));
        } else if (line.command.empty() && !w.empty() && w[0] != '-') {
            line.command = w;
        } else if (line.command.empty()) {
            throw UsageError("unknown option '" + w.substr(0, 64) + "' before the command");
        } else {
            line.words.push_back(w);
        }
    }
    return std::nullopt;
}

const CommandInfo& findCommand(const std::string& command)
{
    const CommandInfo* info = nullptr;
    for (const auto& c : commandTable())
        if (command == c.name)
            info = &c;
    if (!info)
        throw UsageError("unknown command '" + command.substr(0, 64) + "' (try delayq --help)");
    return *info;
}

// --plain and --score-unit are global options that only some commands take.
void checkGlobalOptionsApply(const CommandLine& line)
{
    static const std::vector<std::string> plainCommands = {
        "ls",      "show",    "stats", "push",    "cancel", "reschedule",
        "requeue", "rm-dead", "work",  "workers", "export", "import"};
    const bool plainCommand =
        std::find(plainCommands.begin(), plainCommands.end(), line.command) != plainCommands.end();
    if (line.global.plain && !plainCommand)
        throw UsageError("--plain applies to ls, show, stats, push, cancel, reschedule, requeue, "
                         "rm-dead, work, workers, export and import");
    if (!line.global.scoreUnit.empty() && !line.global.plain && line.command != "migrate")
        throw UsageError("--score-unit applies with --plain, or to migrate");
}

} // namespace

int run(int argc, char** argv)
{
    CommandLine line;
    line.global.url = delayq::ConnectionOptions::defaultUrl();
    bool known = false; // whether "see delayq COMMAND --help" can help
    try {
        if (const std::optional<int> answered = readCommandLine(argc, argv, line))
            return *answered;
        if (line.command == "help") {
            line.command = line.words.empty() ? "" : line.words.front();
            line.help = true;
        }
        if (line.command.empty()) {
            if (line.help) {
                printMainHelp();
                return ExitOk;
            }
            throw UsageError("no command given (try delayq --help)");
        }
        const CommandInfo& info = findCommand(line.command);
        known = true;
        checkGlobalOptionsApply(line);
        if (line.help) {
            printCommandHelp(info);
            return ExitOk;
        }
        delayq::Keys::validatePrefix(line.global.prefix);
        Context ctx(line.global, Args(line.command, line.words));
        return info.run(ctx);
    } catch (const UsageError& e) {
        printError(std::string(e.what()) +
                   (known ? " (see delayq " + line.command + " --help)" : ""));
        return ExitUsage;
    } catch (const delayq::Error& e) {
        printError(e.what());
        return exitFor(e.code());
    } catch (const std::bad_alloc&) {
        printError("out of memory");
        return ExitRefused;
    } catch (const std::exception& e) {
        printError(e.what());
        return ExitRefused;
    }
}

} // namespace cli
