#pragma once

#include <QString>
#include <QTextDocument>

namespace delayq::ui {

// A tooltip quoting untrusted text (a key name, a server's refusal). Qt renders a tooltip
// as rich text when it merely looks like HTML, so the text is escaped into a paragraph.
inline QString plainToolTip(const QString& text)
{
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

} // namespace delayq::ui
