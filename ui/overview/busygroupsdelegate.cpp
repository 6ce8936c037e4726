#include "overview/busygroupsdelegate.h"

#include "overview/overviewmodel.h"

#include <QApplication>
#include <QFontMetricsF>

namespace delayq::ui {

void BusyGroupsDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const
{
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    const QVariant groups = index.data(OverviewModel::BusyGroupsRole);
    if (groups.isValid()) {
        // The room the style gives the text: its rect less the margins it keeps each side
        // (QCommonStyle's item text), measured in the cell's own font (bold, italic when
        // not live).
        const QRect rect = style->subElementRect(QStyle::SE_ItemViewItemText, &item, widget);
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
        item.text = OverviewModel::groupsText(groups.value<QList<GroupRow>>(),
                                              QFontMetricsF(item.font), rect.width() - 2 * margin);
    }
    style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);
}

} // namespace delayq::ui
