#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cli {

// Builds one JSON document. Strings that are not valid UTF-8 keep their valid parts and get
// U+FFFD for each bad byte: the output is always valid JSON.
class JsonWriter
{
public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(long long number);
    JsonWriter& value(int number) { return value(static_cast<long long>(number)); }
    JsonWriter& value(double number);
    JsonWriter& value(bool flag);
    JsonWriter& null();
    template <typename T> JsonWriter& field(std::string_view name, const T& v)
    {
        key(name);
        return value(v);
    }

    const std::string& str() const { return m_out; }

    static std::string quote(std::string_view text);
    static bool isValidUtf8(std::string_view text);
    // Every byte, for binary-safe fields (named *_base64).
    static std::string base64(std::string_view data);

private:
    void separate();

    std::string m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

} // namespace cli
