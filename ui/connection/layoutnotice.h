#pragma once

#include <QLabel>

namespace delayq::ui {

// A banner over the task tables for a queue stored in an older delayq's layout: its tasks
// cannot be shown until `delayq upgrade` converts them, and the banner says so for as long
// as that is true (a status-bar message would be gone before the operator reads it).
class LayoutNotice : public QLabel
{
    Q_OBJECT

public:
    explicit LayoutNotice(QWidget* parent = nullptr);

    // Shows the core's message (how to upgrade), as plain text.
    void showFor(const QString& message);
};

} // namespace delayq::ui
