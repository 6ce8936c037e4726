#include "help/completion.h"

#include "help/usage.h"

#include <algorithm>
#include <cctype>

namespace cli {

namespace {

std::string join(const std::vector<UsageOption>& options, const char* separator)
{
    std::string out;
    for (const auto& o : options) {
        if (!out.empty())
            out += separator;
        out += "--" + o.name;
    }
    return out;
}

// What an option's value name offers: "@file", "@dir", the lowercase alternatives of
// "pending|active|dead" (and "fail:" of "fail:P"), or nothing (any text).
std::string valueWords(const std::string& valueName)
{
    if (valueName == "FILE")
        return "@file";
    if (valueName == "DIR")
        return "@dir";
    if (valueName.find('|') == std::string::npos)
        return {};
    std::string words;
    for (size_t start = 0; start <= valueName.size();) {
        size_t end = std::min(valueName.find('|', start), valueName.size());
        std::string word = valueName.substr(start, end - start);
        if (const size_t colon = word.find(':'); colon != std::string::npos)
            word.erase(colon + 1);
        bool lower = !word.empty();
        for (char c : word)
            lower = lower && (std::islower(static_cast<unsigned char>(c)) || c == ':' || c == '-');
        if (lower)
            words += (words.empty() ? "" : " ") + word;
        start = end + 1;
    }
    return words;
}

// Every option that takes a value, the first value name of each.
std::vector<UsageOption> valueOptions()
{
    std::vector<UsageOption> all = globalOptions();
    for (const auto& c : commandTable())
        for (const auto& o : commandOptions(c))
            all.push_back(o);
    // The first mention of each, unless a later one (of another command) lists the values.
    std::vector<UsageOption> out;
    for (const auto& o : all) {
        if (o.valueName.empty())
            continue;
        auto seen = std::find_if(out.begin(), out.end(),
                                 [&](const UsageOption& s) { return s.name == o.name; });
        if (seen == out.end())
            out.push_back(o);
        else if (valueWords(seen->valueName).empty())
            seen->valueName = o.valueName;
    }
    return out;
}

// Text for inside '…' in zsh ('\'' for a quote); with spec, also ':' '[' ']' escaped, which
// separate the parts of an _arguments spec or a _describe item.
std::string zshEscape(const std::string& text, bool spec)
{
    std::string out;
    for (char c : text) {
        if (c == '\'')
            out += "'\\''";
        else if (spec && (c == ':' || c == '[' || c == ']' || c == '\\'))
            out += std::string("\\") + c;
        else
            out += c;
    }
    return out;
}

// What _arguments offers for an option's value: files, folders, the listed words, or
// nothing (" ").
std::string zshAction(const std::string& words)
{
    if (words == "@file")
        return "_files";
    if (words == "@dir")
        return "_files -/";
    return words.empty() ? std::string(" ") : "(" + words + ")";
}

// An _arguments spec: '--in=:D: ', '--log=:FILE:_files', '--state=:S:(pending active dead)'.
std::string zshOption(const UsageOption& o)
{
    if (o.valueName.empty())
        return "'--" + o.name + "'";
    return "'--" + o.name + "=:" + zshEscape(o.valueName, true) + ":" +
           zshAction(valueWords(o.valueName)) + "'";
}

const char* kBashMain = R"sh(
# The words before the cursor split at spaces only (bash's own also split at = and :, which
# URLs, --opt=value and queue names like orders:eu contain).
_delayq()
{
    local line=${COMP_LINE:0:COMP_POINT} w
    read -ra w <<<"$line"
    [[ -z $line || $line == *[[:space:]] ]] && w+=("")
    local n=$((${#w[@]} - 1))
    local cur=${w[n]} cmd="" pos=0 value="" ended="" i word
    for ((i = 1; i < n; i++)); do
        word=${w[i]}
        if [[ -n $value ]]; then
            value=""
        elif [[ -z $ended && $word == -- ]]; then
            ended=1
        elif [[ -z $ended && $word == -* ]]; then
            [[ $word != *=* ]] && _delayq_value "$word" >/dev/null && value=1
        elif [[ -z $cmd ]]; then
            cmd=$word
        else
            ((pos++))
        fi
    done
    local matches="" prefix="" kind
    if [[ -z $ended && ( -n $value || $cur == --*=* ) ]]; then
        local option=${w[n - 1]}
        if [[ -z $value ]]; then
            option=${cur%%=*}
            prefix=$option=
            cur=${cur#*=}
        fi
        kind=$(_delayq_value "$option")
        case $kind in
        @file) matches=$(compgen -f -- "$cur") ;;
        @dir) matches=$(compgen -d -- "$cur") ;;
        *) matches=$(compgen -W "$kind" -- "$cur") ;;
        esac
        [[ $kind == @* ]] && compopt -o filenames 2>/dev/null
    elif [[ -z $ended && $cur == -* ]]; then
        matches=$(compgen -W "$(_delayq_options "$cmd")" -- "$cur")
    elif [[ -z $cmd ]]; then
        matches=$(compgen -W "$(_delayq_commands)" -- "$cur")
    elif ((pos + 1 == $(_delayq_queue_position "$cmd"))); then
        matches=$(compgen -W "$(_delayq_queues "${w[@]:0:n}")" -- "$cur")
    fi
    # Readline replaces only bash's last piece of the word: drop what comes before it.
    local full=$prefix$cur piece=${COMP_WORDS[COMP_CWORD]} skip=0 m c
    [[ $full == *"$piece" ]] && skip=$((${#full} - ${#piece}))
    COMPREPLY=()
    while IFS= read -r m; do
        c=$prefix$m
        [[ -n $m ]] && COMPREPLY+=("${c:skip}")
    done <<<"$matches"
}
complete -F _delayq delayq
)sh";

const char* kZshQueues = R"sh(
# The queues of the server (and prefix) named on the line, or of $REDIS_URL, when it answers
# within a second. The line's words are kept in dq_words, as _arguments shifts $words.
_delayq_queues()
{
    local -a args names
    local i
    for ((i = 2; i <= $#dq_words; i++)); do
        case $dq_words[i] in
        --url | --prefix) args+=($dq_words[i] $dq_words[i + 1]) ;;
        --url=* | --prefix=*) args+=($dq_words[i]) ;;
        esac
    done
    names=(${(f)"$(timeout 1 $dq_words[1] $args queues --names-only 2>/dev/null)"})
    compadd -a names
}
)sh";

} // namespace

std::string bashCompletion()
{
    std::string s =
        "# bash completion for delayq                              -*- shell-script -*-\n"
        "# Generated by `delayq --generate bash` from its --help texts: do not edit.\n\n";
    s += "_delayq_commands()\n{\n    echo";
    for (const auto& c : commandTable())
        s += std::string(" ") + c.name;
    s += "\n}\n\n# $1: the command; its options, then the global ones.\n";
    s += "_delayq_options()\n{\n    case $1 in\n";
    for (const auto& c : commandTable())
        s += std::string("    ") + c.name + ") echo " + join(commandOptions(c), " ") + " ;;\n";
    s += "    esac\n    echo " + join(globalOptions(), " ") + "\n}\n\n";
    s += "# $1: an option. Fails for a switch; else prints what its value can be (nothing: any\n"
         "# text, @file, @dir, or words).\n_delayq_value()\n{\n    case $1 in\n";
    for (const auto& o : valueOptions())
        s += "    --" + o.name + ") echo " + valueWords(o.valueName) + " ;;\n";
    s += "    *) return 1 ;;\n    esac\n}\n\n";
    s += "# $1: a command; which of its positional words is a queue (0: none).\n"
         "_delayq_queue_position()\n{\n    case $1 in\n";
    for (const auto& c : commandTable())
        s += std::string("    ") + c.name + ") echo " + std::to_string(queuePosition(c)) + " ;;\n";
    s += "    *) echo 0 ;;\n    esac\n}\n\n";
    s += "# $@: the words so far. The queues of the server (and prefix) they name, or of\n"
         "# $REDIS_URL, when it answers within a second; nothing otherwise.\n"
         "_delayq_queues()\n{\n    local i args=()\n"
         "    for ((i = 2; i <= $#; i++)); do\n"
         "        case ${!i} in\n"
         "        --url | --prefix) local j=$((i + 1)); args+=(\"${!i}\" \"${!j}\") ;;\n"
         "        --url=* | --prefix=*) args+=(\"${!i}\") ;;\n"
         "        esac\n    done\n"
         "    timeout 1 \"$1\" \"${args[@]}\" queues --names-only 2>/dev/null\n}\n";
    return s + kBashMain;
}

std::string zshCompletion()
{
    std::string s = "#compdef delayq\n"
                    "# Generated by `delayq --generate zsh` from its --help texts: do not edit.\n";
    s += kZshQueues;
    s += "\n_delayq()\n{\n    local -a dq_words=(\"${words[@]}\")\n"
         "    local curcontext=$curcontext state line\n    local -a global=(";
    for (const auto& o : globalOptions())
        s += "\n        " + zshOption(o);
    s += "\n    )\n    local -a commands=(";
    for (const auto& c : commandTable())
        s += std::string("\n        '") + c.name + ":" + zshEscape(c.summary, false) + "'";
    s += "\n    )\n    _arguments -C $global '1:command:->command' '*::argument:->argument' && "
         "return\n    case $state in\n    command) _describe -t commands 'delayq command' "
         "commands ;;\n    argument)\n        case $words[1] in\n";
    for (const auto& c : commandTable()) {
        s += std::string("        ") + c.name + ")\n            _arguments $global";
        for (const auto& o : commandOptions(c))
            s += " \\\n                " + zshOption(o);
        const int queueAt = queuePosition(c);
        for (int p = 1; p < queueAt; ++p)
            s += " \\\n                '" + std::to_string(p) + ":argument: '";
        if (queueAt > 0)
            s += " \\\n                '" + std::to_string(queueAt) + ":queue:_delayq_queues'";
        s += " \\\n                '*:argument: '\n            ;;\n";
    }
    s += "        esac\n        ;;\n    esac\n}\n\n_delayq \"$@\"\n";
    return s;
}

} // namespace cli
