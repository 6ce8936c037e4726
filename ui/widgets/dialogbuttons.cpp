#include "widgets/dialogbuttons.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QPushButton>

namespace delayq::ui {

QDialogButtonBox* DialogButtons::okCancel(QDialog* dialog, const QString& okText)
{
    auto* buttons = wired(
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog), dialog);
    if (!okText.isEmpty())
        buttons->button(QDialogButtonBox::Ok)->setText(okText);
    return buttons;
}

QDialogButtonBox* DialogButtons::wired(QDialogButtonBox* buttons, QDialog* dialog)
{
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return buttons;
}

} // namespace delayq::ui
