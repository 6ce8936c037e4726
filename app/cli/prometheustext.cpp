#include "prometheustext.h"

#include <charconv>

namespace cli {

namespace {

// HELP text escapes only backslash and newline (the format's rule, not the label rule).
std::string escapeHelp(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\\\";
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
    m_text += "# HELP " + name + " " + escapeHelp(help) + "\n";
    m_text += "# TYPE " + name + " " + type + "\n";
}

std::string PrometheusText::escapeLabel(const std::string& value)
{
    std::string out;
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
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
