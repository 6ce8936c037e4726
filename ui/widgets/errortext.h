#pragma once

#include <QString>

namespace delayq::ui::ErrorText {

// A handler's error with what it said first: "exec: exit 7: smtp: 550 …" reads
// "smtp: 550 … (exec: exit 7)", so a narrow column or a match list shows the cause, not the
// wrapper. Any other error is returned as it is.
QString causeFirst(const QString& error);

} // namespace delayq::ui::ErrorText
