#include "widgets/stepprogress.h"

#include <QProgressDialog>

#include <algorithm>
#include <climits>

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

void StepProgress::step(QProgressDialog* progress, qint64 done, qint64 total, const QString& label)
{
    if (!progress || progress->wasCanceled())
        return;
    // Tasks that leave meanwhile make `done` fall short of the total, never pass it much.
    const qint64 most = std::min<qint64>(std::max(total, done), INT_MAX);
    progress->setMaximum(static_cast<int>(most));
    progress->setValue(static_cast<int>(std::min(done, most)));
    progress->setLabelText(label);
}

} // namespace delayq::ui
