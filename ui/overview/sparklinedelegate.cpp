#include "overview/sparklinedelegate.h"

#include "overview/overviewmodel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace delayq::ui {

namespace {

QPainterPath line(const QVariantList& values, const QRectF& box, double top)
{
    QPainterPath path;
    const double step = values.size() > 1 ? box.width() / double(values.size() - 1) : 0;
    for (qsizetype i = 0; i < values.size(); ++i) {
        const double y = box.bottom() - box.height() * double(values[i].toLongLong()) / top;
        const QPointF p(box.left() + step * double(i), y);
        if (i == 0)
            path.moveTo(p);
        else
            path.lineTo(p);
    }
    return path;
}

double largest(const QVariantList& values)
{
    double top = 0;
    for (const auto& v : values)
        top = std::max(top, double(v.toLongLong()));
    return top;
}

} // namespace

void SparklineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    // The background (selection, threshold colour) as any cell has it, without text.
    QStyleOptionViewItem base = option;
    initStyleOption(&base, index);
    base.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &base, painter, widget);
    const QVariantList acked = index.data(OverviewModel::AckedSeriesRole).toList();
    const QVariantList failed = index.data(OverviewModel::FailedSeriesRole).toList();
    if (acked.isEmpty() && failed.isEmpty())
        return;
    const double top = std::max({largest(acked), largest(failed), 1.0});
    const QRectF box = QRectF(option.rect).adjusted(3, 3, -3, -3);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(QColor(0x27, 0xae, 0x60), 1.2));
    painter->drawPath(line(acked, box, top));
    painter->setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1.2));
    painter->drawPath(line(failed, box, top));
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const
{
    return QStyledItemDelegate::sizeHint(option, index).expandedTo(QSize(100, 20));
}

} // namespace delayq::ui
