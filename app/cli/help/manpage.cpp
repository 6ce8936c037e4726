#include "help/manpage.h"

#include "help/usage.h"

#include <delayq/version.h>

#include <cctype>

namespace cli {

namespace {

// A block shown as written (the help texts are laid out in columns already).
std::string literal(const std::string& text)
{
    return ".PP\n.nf\n" + roffEscape(text) + (text.ends_with('\n') ? "" : "\n") + ".fi\n";
}

} // namespace

std::string roffEscape(const std::string& text)
{
    std::string out;
    bool lineStart = true;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (lineStart && (c == '.' || c == '\''))
            out += "\\&";
        lineStart = c == '\n';
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else if (text.compare(i, 3, "\u2026") == 0) {
            out += "\\&...";
            i += 2;
        } else
            out += c;
    }
    return out;
}

std::string manPage()
{
    std::string page = ".TH DELAYQ 1 \"\" \"delayq " DELAYQ_VERSION "\" \"User Commands\"\n";
    page += ".SH NAME\ndelayq \\- push, list, operate and work Redis delay queues\n";
    page += ".SH SYNOPSIS\n.B delayq\n[global options] COMMAND [arguments]\n";
    page += ".SH DESCRIPTION\n"
            "Tasks wait in a Redis sorted set scored by their due time; Lua scripts move them "
            "atomically between pending, active (under a lease) and dead. "
            "\\fBdelayq\\fR talks to Redis directly, prints tables for people and JSON for "
            "scripts (\\fB\\-\\-json\\fR), and exits with a code scripts can trust.\n";
    page += ".SH COMMANDS\n";
    for (const auto& c : commandTable()) {
        std::string summary = c.summary; // a sentence here, a table cell in --help
        if (!summary.empty())
            summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
        page += ".SS " + roffEscape(c.name) + "\n" + roffEscape(summary) + ".\n" + literal(c.usage);
    }
    page += ".SH GLOBAL OPTIONS\n" + literal(globalHelp());
    page += ".SH ENVIRONMENT\n"
            ".TP\n.B REDIS_URL\nthe server when \\fB\\-\\-url\\fR is not given.\n"
            ".TP\n.B DELAYQ_TLS_KEY_PASSPHRASE\nthe passphrase of an encrypted "
            "\\fB\\-\\-tls\\-key\\fR.\n";
    page += ".SH EXIT STATUS\n0 done, 1 refused or not found, 2 usage, 3 connection, auth or "
            "TLS.\n";
    page += ".SH SEE ALSO\n.BR delayq\\-admin (1)\n";
    return page;
}

} // namespace cli
