#include "widgets/columnfit.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>

#include <cmath>

namespace delayq::ui {

ColumnFit::ColumnFit(QTableView* view) : QObject(view), m_view(view), m_viewport(view->viewport())
{
    QHeaderView* header = view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    view->viewport()->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, &ColumnFit::onSectionResized);
}

void ColumnFit::setWidths(int column, int natural, int least)
{
    if (column < 0)
        return;
    while (m_widths.size() <= column) {
        m_widths.append({0, 0});
        m_chosen.append(0);
    }
    m_widths[column] = {natural, qMin(least, natural)};
}

void ColumnFit::reset()
{
    m_chosen.fill(0);
}

QList<int> ColumnFit::widths(const QList<QPair<int, int>>& columns, int room)
{
    QList<int> out;
    if (columns.isEmpty())
        return out;
    const int last = static_cast<int>(columns.size()) - 1;
    int natural = 0;
    int slack = 0;
    for (int c = 0; c < last; ++c) {
        natural += columns[c].first;
        slack += columns[c].first - columns[c].second;
    }
    const int excess = natural + columns[last].second - room;
    // Each column gives up the same share of what it can spare.
    const double share = excess <= 0 || slack == 0 ? 0.0 : qMin(1.0, double(excess) / slack);
    int used = 0;
    for (int c = 0; c < last; ++c) {
        const auto [want, least] = columns[c];
        out.append(want - static_cast<int>(std::ceil((want - least) * share)));
        used += out.last();
    }
    out.append(qMax(columns[last].second, room - used));
    return out;
}

int ColumnFit::contentWidth(const QTableView* view, int column)
{
    const QAbstractItemModel* model = view->model();
    const int rows = model->rowCount();
    if (rows == 0)
        return 0;
    const int first = qMax(0, view->rowAt(0));
    int last = view->rowAt(view->viewport()->height() - 1);
    last = last < 0 ? rows - 1 : last;
    int widest = 0;
    for (int r = first; r <= last && r < rows; ++r)
        widest =
            qMax(widest,
                 view->fontMetrics().horizontalAdvance(model->index(r, column).data().toString()));
    return widest + 14;
}

void ColumnFit::fit()
{
    const QHeaderView* header = m_view->horizontalHeader();
    QList<int> visible;
    QList<QPair<int, int>> columns;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int c = header->logicalIndex(visual);
        if (header->isSectionHidden(c) || c >= m_widths.size())
            continue;
        visible.append(c);
        // A width the operator chose is kept as it is (the last column takes what is left).
        columns.append(m_chosen[c] > 0 ? qMakePair(m_chosen[c], m_chosen[c]) : m_widths[c]);
    }
    if (!visible.isEmpty())
        columns.last() = m_widths[visible.last()];
    const QList<int> sizes = widths(columns, m_view->viewport()->width());
    m_fitting = true;
    for (int i = 0; i < visible.size(); ++i)
        m_view->setColumnWidth(visible[i], sizes[i]);
    m_fitting = false;
}

void ColumnFit::fitContents(const QHash<int, int>& leastChars)
{
    const QHeaderView* header = m_view->horizontalHeader();
    const int x = m_view->fontMetrics().averageCharWidth();
    for (int c = 0; c < header->count(); ++c) {
        const int natural = qMax(contentWidth(m_view, c), header->sectionSizeHint(c));
        const auto chars = leastChars.constFind(c);
        setWidths(c, natural, chars == leastChars.constEnd() ? natural : *chars * x + 14);
    }
    fit();
}

void ColumnFit::onSectionResized(int column, int, int newSize)
{
    if (m_fitting || column >= m_chosen.size())
        return;
    m_chosen[column] = newSize;
    fit();
}

bool ColumnFit::eventFilter(QObject* watched, QEvent* event)
{
    // The viewport kept from the start: while the view is destroyed its viewport still sends
    // events here, and asking the half-destroyed view for it is undefined (UBSan says so).
    if (watched == m_viewport && event->type() == QEvent::Resize)
        fit();
    return QObject::eventFilter(watched, event);
}

} // namespace delayq::ui
