#include "exporter/prometheustext.h"

#include <charconv>

namespace cli {

namespace {

// Backslash and newline as \\ and \n, and with `quote` the double quote as \": HELP text
// escapes the first two only (the format's rule), a label value all three.
std::string escaped(const std::string& text, bool quote)
{
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"' && quote)
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

} // namespace

void PrometheusText::family(const std::string& name, const char* type, const std::string& help)
{
    m_family = name;
    m_text += "# HELP " + name + " " + escaped(help, false) + "\n";
    m_text += "# TYPE " + name + " " + type + "\n";
}

std::string PrometheusText::escapeLabel(const std::string& value)
{
    return escaped(value, true);
}

void PrometheusText::labelsAndName(const Labels& labels)
{
    m_text += m_family;
    if (labels.empty()) {
        m_text += ' ';
        return;
    }
    m_text += '{';
    for (size_t i = 0; i < labels.size(); ++i) {
        if (i > 0)
            m_text += ',';
        m_text += labels[i].first + "=\"" + escapeLabel(labels[i].second) + "\"";
    }
    m_text += "} ";
}

void PrometheusText::sample(const Labels& labels, long long value)
{
    labelsAndName(labels);
    m_text += std::to_string(value) + "\n";
}

void PrometheusText::sample(const Labels& labels, double value)
{
    labelsAndName(labels);
    // The shortest text that reads back as the same double ("0.25", "1e-06").
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    m_text.append(buffer, result.ptr);
    m_text += '\n';
}

} // namespace cli
