#include "stepprogress.h"

#include <QProgressDialog>

namespace delayq::ui {

QProgressDialog* StepProgress::make(QWidget* window, const QString& title,
                                    const QString& cancelText)
{
    auto* progress = new QProgressDialog(window);
    progress->setWindowTitle(title);
    progress->setCancelButtonText(cancelText);
    progress->setRange(0, 0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setWindowModality(Qt::NonModal);
    progress->setMinimumDuration(500);
    return progress;
}

} // namespace delayq::ui
