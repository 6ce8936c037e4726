#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cli {

// The Prometheus text exposition format (version 0.0.4): one family at a time, its HELP and
// TYPE lines first, then its samples, which the format requires to stay together.
class PrometheusText
{
public:
    using Labels = std::vector<std::pair<std::string, std::string>>;

    // type: "gauge" or "counter". A counter's name ends in _total.
    void family(const std::string& name, const char* type, const std::string& help);
    // A sample of the family begun last.
    void sample(const Labels& labels, long long value);
    void sample(const Labels& labels, double value);

    const std::string& text() const { return m_text; }

    // A label value as the format quotes it: backslash, double quote and newline escaped.
    static std::string escapeLabel(const std::string& value);

private:
    void labelsAndName(const Labels& labels);

    std::string m_text;
    std::string m_family;
};

} // namespace cli
