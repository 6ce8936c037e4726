#pragma once

#include <QStyledItemDelegate>

namespace delayq::ui {

// Draws the overview's last hour in a cell: acked per minute as a green line, failed as a
// red one, on one scale (the larger of the two), so a queue that fails more than it acks
// shows it at a glance.
class SparklineDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace delayq::ui
