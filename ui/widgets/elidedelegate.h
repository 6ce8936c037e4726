#pragma once

#include <QStyledItemDelegate>

namespace delayq::ui {

// Draws a column's text cut where it says least when the column is narrow: a time keeps its
// clock and loses its date (ElideLeft), an id keeps both ends (ElideMiddle).
class ElideDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    ElideDelegate(Qt::TextElideMode mode, QObject* parent);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    Qt::TextElideMode m_mode;
};

} // namespace delayq::ui
