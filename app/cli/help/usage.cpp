#include "help/usage.h"

#include <algorithm>
#include <cctype>
#include <sstream>

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
    "  --score-unit ms|s  a plain key's score unit (default: detected from the scores)\n"
    "  --verbose, -v  say on stderr where it connected, and the TLS version and cipher\n"
    "  --help, -h     help for delayq or for one command\n"
    "  --version      print delayq's version and exit\n"
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

bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
}

// The word after "--name " when it is the option's value ("D", "FILE", "ms|s",
// "5s,20s,30s|exp:1s:5m"), not the start of a description ("--force        also…",
// "--tls-insecure skip…"): one space before it, and not a plain lowercase word.
std::string valueAfter(const std::string& text, size_t pos)
{
    if (pos < text.size() && text[pos] == '=')
        ++pos;
    else if (pos + 1 < text.size() && text[pos] == ' ' && text[pos + 1] != ' ')
        ++pos;
    else
        return {};
    // The value ends at a space, a bracket, or a comma before a space ("FILE, --tls-key"):
    // "5s,20s,30s|exp:1s:5m" keeps its commas.
    size_t end = pos;
    for (; end < text.size(); ++end) {
        const char c = text[end];
        const bool listComma = c == ',' && (end + 1 == text.size() || text[end + 1] == ' ');
        if (std::isspace(static_cast<unsigned char>(c)) || c == ']' || c == ')' || listComma)
            break;
    }
    const std::string word = text.substr(pos, end - pos);
    const bool description =
        word.empty() || word[0] == '-' || word[0] == '[' || word[0] == '(' ||
        std::all_of(word.begin(), word.end(), [](char c) { return std::islower(c) || c == '\''; });
    return description ? std::string() : word;
}

} // namespace

std::string globalHelp()
{
    return kGlobalHelp;
}

std::string mainHelp()
{
    std::string text = "usage: delayq [global options] COMMAND [arguments]\n\nCommands:\n";
    for (const auto& c : commandTable()) {
        std::string name = c.name;
        text += "  " + name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') +
                c.summary + "\n";
    }
    return text + "\n" + kGlobalHelp + "\n'delayq COMMAND --help' shows a command's options.\n";
}

std::string commandHelp(const CommandInfo& command)
{
    return std::string("usage: delayq [global options] ") + command.usage + "\n\n" +
           command.summary + "\n\n" + kGlobalHelp;
}

std::vector<UsageOption> optionsIn(const std::string& text)
{
    std::vector<UsageOption> found;
    for (size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
        const bool wordStart = at == 0 || !isNameChar(text[at - 1]);
        size_t end = at + 2;
        while (end < text.size() && isNameChar(text[end]))
            ++end;
        if (!wordStart || end == at + 2 || !std::isalpha(static_cast<unsigned char>(text[at + 2])))
            continue;
        UsageOption option{text.substr(at + 2, end - at - 2), valueAfter(text, end)};
        const bool seen = std::any_of(found.begin(), found.end(),
                                      [&](const UsageOption& o) { return o.name == option.name; });
        if (!seen)
            found.push_back(option);
    }
    return found;
}

std::vector<UsageOption> globalOptions()
{
    return optionsIn(kGlobalHelp);
}

std::vector<UsageOption> commandOptions(const CommandInfo& command)
{
    const auto global = globalOptions();
    std::vector<UsageOption> own;
    for (auto& option : optionsIn(command.usage)) {
        const bool isGlobal = std::any_of(global.begin(), global.end(), [&](const UsageOption& g) {
            return g.name == option.name;
        });
        if (!isGlobal)
            own.push_back(option);
    }
    return own;
}

int queuePosition(const CommandInfo& command)
{
    const std::string usage = command.usage;
    std::istringstream synopsis(usage.substr(0, usage.find('\n')));
    std::string word;
    synopsis >> word; // the command's name
    for (int position = 1; synopsis >> word; ++position) {
        if (word == "QUEUE")
            return position;
        if (word[0] == '[' || word[0] == '(' || word[0] == '-')
            return 0; // options and alternatives follow the positional words
    }
    return 0;
}

} // namespace cli
