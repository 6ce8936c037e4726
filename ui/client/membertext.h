#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace delayq::ui {

// Plain sorted-set members (and payloads) are bytes, not text, yet the tables, selections
// and actions carry ids as QStrings. This keeps every byte across that trip: valid UTF-8
// decodes as usual, and each byte that is not part of valid UTF-8 becomes a lone low
// surrogate U+DC80..U+DCFF, which valid UTF-8 can never produce, so toBytes() gives back
// exactly the bytes fromBytes() was given.
namespace MemberText {

QString fromBytes(std::string_view bytes);
std::string toBytes(const QString& text);
// For labels, cells and messages: kept bytes as \xNN, control characters and bidi
// overrides escaped. With singleLine, newlines and tabs are escaped too (\n, \t), so
// one row stays one line.
QString displayText(const QString& text, bool singleLine = true);
// The whole payload pane: valid UTF-8 as is, other bytes as \xNN.
QString displayBytes(std::string_view bytes);

} // namespace MemberText

} // namespace delayq::ui
