#pragma once

#include "client/tasktypes.h"

#include <QCoreApplication>
#include <QString>

namespace delayq::ui {

// A task's recorded events as the details pane shows them: oldest first, a line with the date
// whenever it changes, then one line an event, "time  kind  by who, text, due …", in the app's
// language. Plain text only.
class HistoryText
{
    Q_DECLARE_TR_FUNCTIONS(HistoryText)

public:
    static QString lines(const QList<TaskEventRow>& events, bool utc);
    // A kind the scripts write, in the app's language; an unknown one as it is.
    static QString kindText(const QString& kind);

private:
    static QString describe(const TaskEventRow& event, bool utc);
};

} // namespace delayq::ui
