#include "cli.h"

#include "commands.h"
#include "textoutput.h"

#include <delayq/error.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace cli {

namespace {

const char* kGlobalHelp =
    "Global options (before or after the command):\n"
    "  --url URL      Redis to use (default: $REDIS_URL, else redis://127.0.0.1:6379);\n"
    "                 redis://[user[:password]@]host[:port][/db], rediss://… (TLS) or\n"
    "                 unix:///path.sock[?db=N]; through Sentinel:\n"
    "                 redis+sentinel://[user:password@]s1:26379,s2:26379/mymaster[/db]\n"
    "                 [?sentinel_user=U&sentinel_password=P] (rediss+sentinel:// for TLS);\n"
    "                 a Redis Cluster: redis+cluster://[user:password@]n1:7001,n2:7002\n"
    "                 (rediss+cluster:// for TLS), or redis:// to any one of its nodes\n"
    "  --prefix P     key prefix of the queues (default dq)\n"
    "  --read-only    refuse every write before it reaches Redis\n"
    "  --json         machine output (one JSON document, or one per line for work)\n"
    "  --plain        QUEUE is a plain sorted set (member = message, score = due time):\n"
    "                 for ls, stats, push, cancel, reschedule and work\n"
    "  --score-unit U a plain key's scores are ms or s (default: detected from the scores)\n"
    "  --verbose, -v  say on stderr where it connected, and the TLS version and cipher\n"
    "  --help, -h     help for delayq or for one command\n"
    "TLS (with a rediss:// URL; each flag overrides the URL's ?ca= ?ca_dir= ?cert= ?key=\n"
    "?sni= ?insecure=1):\n"
    "  --tls-ca FILE  trust the CA certificates in FILE (default: the system's)\n"
    "  --tls-ca-dir DIR  trust the CA certificates in DIR\n"
    "  --tls-cert FILE, --tls-key FILE  client certificate and key (mutual TLS); an\n"
    "                 encrypted key's passphrase comes from $DELAYQ_TLS_KEY_PASSPHRASE\n"
    "  --tls-server-name NAME  the name to verify the certificate for (default: the host)\n"
    "  --tls-insecure skip certificate verification (warns; for tests only)\n"
    "  e.g. delayq --url rediss://redis.internal:6380/0 --tls-ca /etc/redis/ca.crt stats mail\n"
    "Durations: 250ms, 30s, 5m, 2h, 1d, 1h30m (0s is now). Times: ISO 8601, e.g.\n"
    "2026-12-01T09:30:00 (local), 2026-12-01T09:30:00Z, 2026-12-01T09:30:00+08:00.\n"
    "Exit codes: 0 done, 1 refused or not found, 2 usage, 3 connection, auth or TLS.\n";

void printMainHelp()
{
    std::string text = "usage: delayq [global options] COMMAND [arguments]\n\nCommands:\n";
    for (const auto& c : commandTable()) {
        std::string name = c.name;
        text += "  " + name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') +
                c.summary + "\n";
    }
    text += "\n";
    text += kGlobalHelp;
    text += "\n'delayq COMMAND --help' shows a command's options.\n";
    std::fputs(text.c_str(), stdout);
}

void printCommandHelp(const CommandInfo& c)
{
    std::string text = std::string("usage: delayq [global options] ") + c.usage + "\n\n" +
                       c.summary + "\n\n" + kGlobalHelp;
    std::fputs(text.c_str(), stdout);
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

} // namespace

int run(int argc, char** argv)
{
    GlobalOptions global;
    global.url = delayq::ConnectionOptions::defaultUrl();
    bool help = false;
    std::string command;
    bool known = false; // whether "see delayq COMMAND --help" can help
    std::vector<std::string> words;
    bool optionsEnded = false;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string w = argv[i];
            if (optionsEnded) {
                words.push_back(w);
            } else if (w == "--") {
                optionsEnded = true;
                words.push_back(w); // the command's parser ends its options here too
            } else if (takeGlobalOption(argc, argv, i, global)) {
                continue;
            } else if (w == "--help" || w == "-h") {
                help = true;
            } else if (command.empty() && !w.empty() && w[0] != '-') {
                command = w;
            } else if (command.empty()) {
                throw UsageError("unknown option '" + w.substr(0, 64) + "' before the command");
            } else {
                words.push_back(w);
            }
        }
        if (command == "help") {
            command = words.empty() ? "" : words.front();
            help = true;
        }
        if (command.empty()) {
            if (help) {
                printMainHelp();
                return ExitOk;
            }
            throw UsageError("no command given (try delayq --help)");
        }
        const CommandInfo* info = nullptr;
        for (const auto& c : commandTable())
            if (command == c.name)
                info = &c;
        if (!info)
            throw UsageError("unknown command '" + command.substr(0, 64) + "' (try delayq --help)");
        known = true;
        static const std::vector<std::string> plainCommands = {"ls",     "stats",      "push",
                                                               "cancel", "reschedule", "work"};
        const bool plainCommand =
            std::find(plainCommands.begin(), plainCommands.end(), command) != plainCommands.end();
        if (global.plain && !plainCommand)
            throw UsageError("--plain applies to ls, stats, push, cancel, reschedule and work");
        if (!global.scoreUnit.empty() && !global.plain && command != "migrate")
            throw UsageError("--score-unit applies with --plain, or to migrate");
        if (help) {
            printCommandHelp(*info);
            return ExitOk;
        }
        delayq::Keys::validatePrefix(global.prefix);
        Context ctx(global, Args(command, words));
        return info->run(ctx);
    } catch (const UsageError& e) {
        printError(std::string(e.what()) + (known ? " (see delayq " + command + " --help)" : ""));
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
