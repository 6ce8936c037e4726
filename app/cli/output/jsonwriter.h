#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace cli {

// Builds one JSON document with nlohmann-json, in the order the fields are written. Strings
// that are not valid UTF-8 get U+FFFD for each bad sequence: the output is always valid JSON.
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

    // Untrusted text that may hold any bytes (an error, a worker's name, an event's text):
    // name as text, plus name_base64 with every byte when the text is not valid UTF-8, since
    // name alone then has U+FFFD where the bad bytes were.
    JsonWriter& bytesField(std::string_view name, std::string_view text);

    // The document, compact, on one line.
    const std::string& str() const;

    static bool isValidUtf8(std::string_view text);
    // Every byte, for binary-safe fields (named *_base64).
    static std::string base64(std::string_view data);

private:
    void add(nlohmann::ordered_json value, bool open);

    nlohmann::ordered_json m_root;
    // The containers still open, innermost last. Only the innermost one grows, so the
    // pointers to the others stay valid.
    std::vector<nlohmann::ordered_json*> m_open;
    std::string m_key;
    mutable std::string m_out;
};

} // namespace cli
