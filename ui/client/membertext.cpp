#include "client/membertext.h"

#include <delayq/utf8.h>

namespace delayq::ui {

namespace {

constexpr char16_t kKeptByteBase = 0xDC00; // U+DC80..U+DCFF hold bytes 0x80..0xFF

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
        unsigned cp = 0;
        const size_t length = delayq::utf8SequenceLength(bytes, at, cp);
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
        at += length;
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
        } else if ((unit >= 0x80 && unit <= 0x9F) || (unit >= 0x202A && unit <= 0x202E) ||
                   (unit >= 0x2066 && unit <= 0x2069)) {
            // C1 controls, and bidi overrides that would make a member read as another.
            out += QStringLiteral("\\u%1").arg(unsigned(unit), 4, 16, QLatin1Char('0'));
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
