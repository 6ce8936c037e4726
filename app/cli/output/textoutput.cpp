#include "output/textoutput.h"

#include <delayq/timeparse.h>
#include <delayq/utf8.h>

#include <cstdio>

namespace cli {

namespace {

bool isInvisibleControl(unsigned cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F || cp == 0xFEFF;
}

// Escapes one character, or returns it as is; `chars` counts shown characters.
void appendOne(std::string& out, std::string_view text, size_t& i)
{
    char buf[16];
    unsigned cp = 0;
    const size_t len = delayq::utf8SequenceLength(text, i, cp);
    if (len == 0) {
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[i]));
        out += buf;
        ++i;
        return;
    }
    if (len == 1) {
        switch (cp) {
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (cp < 0x20 || cp == 0x7f) {
                std::snprintf(buf, sizeof buf, "\\x%02x", cp);
                out += buf;
            } else {
                out += static_cast<char>(cp);
            }
        }
    } else if (isInvisibleControl(cp)) {
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
        out += buf;
    } else {
        out.append(text.substr(i, len));
    }
    i += len;
}

} // namespace

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();)
        appendOne(out, text, i);
    return out;
}

std::string formatAgo(long long ms, long long nowMs)
{
    const long long ago = nowMs - ms;
    if (ago < 1000)
        return delayq::formatRelative(ms, nowMs);
    return delayq::formatDuration(ago / 1000 * 1000) + " ago";
}

std::string preview(std::string_view text, size_t maxChars)
{
    std::string out;
    size_t chars = 0;
    for (size_t i = 0; i < text.size();) {
        if (chars == maxChars)
            return out + "…";
        appendOne(out, text, i);
        ++chars;
    }
    return out;
}

TextTable::TextTable(std::vector<std::string> headers) : m_headers(std::move(headers)) {}

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(m_headers.size());
    m_rows.push_back(std::move(cells));
}

std::string TextTable::render() const
{
    // Widths in characters (UTF-8 continuation bytes do not count).
    auto width = [](const std::string& s) {
        size_t n = 0;
        for (unsigned char c : s)
            if ((c & 0xC0) != 0x80)
                ++n;
        return n;
    };
    std::vector<size_t> widths(m_headers.size());
    for (size_t c = 0; c < m_headers.size(); ++c)
        widths[c] = width(m_headers[c]);
    for (const auto& row : m_rows)
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], width(row[c]));
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string l;
        for (size_t c = 0; c < cells.size(); ++c) {
            l += cells[c];
            if (c + 1 < cells.size())
                l += std::string(widths[c] - width(cells[c]) + 2, ' ');
        }
        out += l + "\n";
    };
    line(m_headers);
    for (const auto& row : m_rows)
        line(row);
    return out;
}

} // namespace cli
