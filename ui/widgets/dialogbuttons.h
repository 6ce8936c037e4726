#pragma once

#include <QString>

class QDialog;
class QDialogButtonBox;

namespace delayq::ui {

// The OK and Cancel buttons of a dialog, wired to its accept() (which may check the fields
// first) and reject().
namespace DialogButtons {

// `okText` names the action on the OK button; empty keeps "OK".
QDialogButtonBox* okCancel(QDialog* dialog, const QString& okText = {});
// Other buttons, wired the same way: an accept role button accepts, a reject role one
// rejects.
QDialogButtonBox* wired(QDialogButtonBox* buttons, QDialog* dialog);

} // namespace DialogButtons

} // namespace delayq::ui
