#include "output/jsonwriter.h"

#include <delayq/utf8.h>

#include <QByteArray>

#include <cmath>

namespace cli {

using Json = nlohmann::ordered_json;

bool JsonWriter::isValidUtf8(std::string_view text)
{
    for (size_t i = 0; i < text.size();) {
        unsigned codePoint = 0;
        const size_t len = delayq::utf8SequenceLength(text, i, codePoint);
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

void JsonWriter::add(Json value, bool open)
{
    Json* placed = nullptr;
    if (m_open.empty()) {
        m_root = std::move(value);
        placed = &m_root;
    } else if (Json& parent = *m_open.back(); parent.is_object()) {
        placed = &(parent[m_key] = std::move(value));
    } else {
        parent.push_back(std::move(value));
        placed = &parent.back();
    }
    if (open)
        m_open.push_back(placed);
}

JsonWriter& JsonWriter::beginObject()
{
    add(Json::object(), true);
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    m_open.pop_back();
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    add(Json::array(), true);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    m_open.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name)
{
    m_key = name;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text)
{
    add(std::string(text), false);
    return *this;
}

JsonWriter& JsonWriter::value(long long number)
{
    add(number, false);
    return *this;
}

JsonWriter& JsonWriter::value(double number)
{
    // JSON has no NaN or infinity.
    add(std::isfinite(number) ? Json(number) : Json(nullptr), false);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag)
{
    add(flag, false);
    return *this;
}

JsonWriter& JsonWriter::null()
{
    add(nullptr, false);
    return *this;
}

JsonWriter& JsonWriter::bytesField(std::string_view name, std::string_view text)
{
    field(name, text);
    if (!isValidUtf8(text))
        field(std::string(name) + "_base64", base64(text));
    return *this;
}

const std::string& JsonWriter::str() const
{
    m_out = m_root.dump(-1, ' ', false, Json::error_handler_t::replace);
    return m_out;
}

std::string JsonWriter::base64(std::string_view data)
{
    return QByteArray(data.data(), static_cast<qsizetype>(data.size())).toBase64().toStdString();
}

} // namespace cli
