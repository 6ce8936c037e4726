#pragma once

#include <QStyledItemDelegate>

namespace delayq::ui {

// Draws the overview's Busy groups cell with the text its width holds
// (OverviewModel::groupsText): the style would elide the whole line at its right end, which
// cut a count mid-figure ("acme 30…" for 300). The cell's data, its tooltip and its sort
// stay the model's.
class BusyGroupsDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

} // namespace delayq::ui
