#include "membertext.h"

namespace delayq::ui {

namespace {

constexpr char16_t kKeptByteBase = 0xDC00; // U+DC80..U+DCFF hold bytes 0x80..0xFF

// Length of the valid UTF-8 sequence at `at` and its code point; 0 when not valid
// (overlong forms, encoded surrogates and code points past U+10FFFF are not valid).
int validSequence(std::string_view s, size_t at, char32_t* codePoint)
{
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(at);
    int length = 0;
    char32_t cp = 0;
    char32_t minimum = 0;
    if (lead < 0x80) {
        *codePoint = lead;
        return 1;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        cp = lead & 0x1F;
        minimum = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        cp = lead & 0x0F;
        minimum = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        cp = lead & 0x07;
        minimum = 0x10000;
    } else {
        return 0;
    }
    if (at + size_t(length) > s.size())
        return 0;
    for (int i = 1; i < length; ++i) {
        const unsigned char next = byte(at + size_t(i));
        if ((next & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (next & 0x3F);
    }
    if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    *codePoint = cp;
    return length;
}

bool isKeptByte(char16_t unit)
{
    return unit >= kKeptByteBase + 0x80 && unit <= kKeptByteBase + 0xFF;
}

void appendUtf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

QString hexByte(unsigned value)
{
    return QStringLiteral("\\x%1").arg(value, 2, 16, QLatin1Char('0'));
}

} // namespace

QString MemberText::fromBytes(std::string_view bytes)
{
    QString out;
    out.reserve(qsizetype(bytes.size()));
    for (size_t at = 0; at < bytes.size();) {
        char32_t cp = 0;
        const int length = validSequence(bytes, at, &cp);
        if (length == 0) {
            out += QChar(char16_t(kKeptByteBase + static_cast<unsigned char>(bytes[at])));
            ++at;
            continue;
        }
        if (cp < 0x10000) {
            out += QChar(char16_t(cp));
        } else {
            out += QChar(QChar::highSurrogate(cp));
            out += QChar(QChar::lowSurrogate(cp));
        }
        at += size_t(length);
    }
    return out;
}

std::string MemberText::toBytes(const QString& text)
{
    std::string out;
    out.reserve(size_t(text.size()));
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t unit = text.at(i).unicode();
        if (QChar::isHighSurrogate(unit) && i + 1 < text.size() &&
            QChar::isLowSurrogate(text.at(i + 1).unicode())) {
            appendUtf8(out, QChar::surrogateToUcs4(unit, text.at(i + 1).unicode()));
            ++i;
        } else if (isKeptByte(unit)) {
            out += static_cast<char>(unit - kKeptByteBase);
        } else if (QChar::isSurrogate(unit)) {
            appendUtf8(out, 0xFFFD); // a lone surrogate typed in: not encodable as is
        } else {
            appendUtf8(out, unit);
        }
    }
    return out;
}

QString MemberText::displayText(const QString& text, bool singleLine)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t unit = text.at(i).unicode();
        const bool paired = QChar::isHighSurrogate(unit) && i + 1 < text.size() &&
                            QChar::isLowSurrogate(text.at(i + 1).unicode());
        if (paired) {
            out += text.at(i);
            out += text.at(++i);
        } else if (isKeptByte(unit)) {
            out += hexByte(unit - kKeptByteBase);
        } else if (unit == u'\n' || unit == u'\t' || unit == u'\r') {
            if (!singleLine)
                out += QChar(unit);
            else
                out += unit == u'\n'   ? QStringLiteral("\\n")
                       : unit == u'\t' ? QStringLiteral("\\t")
                                       : QStringLiteral("\\r");
        } else if (unit < 0x20 || unit == 0x7F) {
            out += hexByte(unit);
        } else {
            out += QChar(unit);
        }
    }
    return out;
}

QString MemberText::displayBytes(std::string_view bytes)
{
    return displayText(fromBytes(bytes), false);
}

} // namespace delayq::ui
