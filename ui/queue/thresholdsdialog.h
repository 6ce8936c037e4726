#pragma once

#include "queue/thresholds.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLineEdit;

namespace delayq::ui {

class FieldError;

// Edits the overview's thresholds: those for all queues, or (given a queue) that queue's
// own, which it may drop to follow the defaults again. An empty field turns a limit off.
// Settings are local to this computer, so the dialog works in a read-only session too.
class ThresholdsDialog : public QDialog
{
    Q_OBJECT

public:
    // queue empty: the defaults for all queues.
    explicit ThresholdsDialog(const QString& queue, QWidget* parent = nullptr);

    QLineEdit* overdueField() const { return m_fields[0]; }
    QLineEdit* deadField() const { return m_fields[1]; }
    QLineEdit* failedField() const { return m_fields[3]; }
    QCheckBox* ownBox() const { return m_own; }
    // The limits typed; nullopt when a field is refused (its error says why).
    std::optional<Thresholds::Limits> limits();
    void accept() override;

private:
    void showLimits(const Thresholds::Limits& limits);
    void validate();

    QString m_queue;
    QCheckBox* m_own = nullptr;
    QLineEdit* m_fields[4] = {};
    FieldError* m_errors[4] = {};
    QDialogButtonBox* m_buttons;
};

} // namespace delayq::ui
