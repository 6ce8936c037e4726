#include "connection/layoutnotice.h"

namespace delayq::ui {

LayoutNotice::LayoutNotice(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("layoutnotice"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMargin(8);
    setStyleSheet(QStringLiteral("background: #fff3cd; color: #5c4400;"));
    hide();
}

void LayoutNotice::showFor(const QString& message)
{
    setText(tr("This queue needs an upgrade before its tasks can be shown: %1").arg(message));
    show();
}

} // namespace delayq::ui
