#include "worker/workercounterstext.h"

#include "widgets/duetext.h"

#include <QCoreApplication>

namespace delayq::ui {

QString WorkerCountersText::describe(const delayq::WorkerCounters& c)
{
    // The dock's own context: the text moved here from WorkerDock and keeps its translation.
    return QCoreApplication::translate(
               "delayq::ui::WorkerDock",
               "claimed %1  acked %2  failed %3\nretried %4  dead %5  lease lost %6\n"
               "in flight %7  lateness p50 %8  p99 %9  max %10%11")
        .arg(c.claimed)
        .arg(c.acked)
        .arg(c.failed)
        .arg(c.retried)
        .arg(c.dead)
        .arg(c.leaseLost)
        .arg(c.inFlight)
        .arg(DueText::duration(c.latenessP50), DueText::duration(c.latenessP99),
             DueText::duration(c.latenessMax),
             c.connected ? QString()
                         : QCoreApplication::translate("delayq::ui::WorkerDock",
                                                       "\nDISCONNECTED, retrying"));
}

} // namespace delayq::ui
