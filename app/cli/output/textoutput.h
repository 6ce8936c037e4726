#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cli {

// Untrusted text (payloads, ids, server errors) made safe for a terminal: control bytes,
// invalid UTF-8, C1 controls and bidi overrides become visible escapes (\n, \x1b, \u202e),
// and a backslash is doubled, so what is shown can never move the cursor or recolour it.
std::string printable(std::string_view text);
// printable(), cut to at most maxChars characters with "…" when longer.
std::string preview(std::string_view text, size_t maxChars);

// How long ago a past moment was, to the second: "21m 53s ago" ("now" within a second). For
// what happened (a death, an audit entry), which delayq::formatRelative would call overdue;
// a time ahead of nowMs (clocks apart) reads as formatRelative does.
std::string formatAgo(long long ms, long long nowMs);

// Left-aligned columns, two spaces apart; cells are already printable().
class TextTable
{
public:
    explicit TextTable(std::vector<std::string> headers);
    void addRow(std::vector<std::string> cells);
    std::string render() const;
    size_t rowCount() const { return m_rows.size(); }

private:
    std::vector<std::string> m_headers;
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace cli
