#include "widgets/errortext.h"

#include <QRegularExpression>

namespace delayq::ui::ErrorText {

QString causeFirst(const QString& error)
{
    // The exec handler's wrappers (app/cli/commands/exechandler.cpp) before the command's stderr.
    static const QRegularExpression wrapper(
        QStringLiteral("^(exec: (?:exit \\d+|the command was killed by a signal)): (.+)$"),
        QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = wrapper.match(error);
    if (!m.hasMatch())
        return error;
    return QStringLiteral("%1 (%2)").arg(m.captured(2), m.captured(1));
}

} // namespace delayq::ui::ErrorText
