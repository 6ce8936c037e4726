#pragma once

#include <QHash>
#include <QList>
#include <QObject>

class QTableView;

namespace delayq::ui {

// Fits a table's columns to the width it has: each visible column keeps its natural width
// while there is room and gives some up, down to its least width, when there is not (its
// text is elided); the last visible column takes what is left, never less than its least
// (past that the table scrolls sideways). A column the operator resized keeps that width.
class ColumnFit : public QObject
{
    Q_OBJECT

public:
    explicit ColumnFit(QTableView* view);

    // What a column wants and what it can live with, in px.
    void setWidths(int column, int natural, int least);
    // Forgets the operator's widths (another queue, another page).
    void reset();
    // Sets the widths for the viewport's width now (also done on each resize).
    void fit();
    // Each visible column wants its rows' widest text on screen or its header, whichever is
    // wider, and gives up room down to `leastChars` characters (a column not named there is
    // never cut below that want); then fit(). For tables whose rows are all loaded.
    void fitContents(const QHash<int, int>& leastChars);

    // The widest text of the column's rows on screen, with a cell's margins (what
    // QTableView::sizeHintForColumn measures, without the call being protected).
    static int contentWidth(const QTableView* view, int column);
    // The widths of columns {natural, least} in room px, the last one taking what is left.
    static QList<int> widths(const QList<QPair<int, int>>& columns, int room);

private:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void onSectionResized(int column, int oldSize, int newSize);

    QTableView* m_view;
    const QObject* m_viewport;       // compared only, never called: see eventFilter
    QList<QPair<int, int>> m_widths; // per column: natural, least
    QList<int> m_chosen;             // per column: the operator's width, or 0
    bool m_fitting = false;
};

} // namespace delayq::ui
