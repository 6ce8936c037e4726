#include "widgets/formrows.h"

#include <QFormLayout>
#include <QWidget>

#include <algorithm>
#include <functional>

namespace delayq::ui {

FormRows::FormRows(QFormLayout* form, const QList<QWidget*>& fields) : m_form(form)
{
    for (QWidget* field : fields) {
        int index = -1;
        QFormLayout::ItemRole role{};
        form->getWidgetPosition(field, &index, &role);
        if (index >= 0)
            m_rows.append({index, form->labelForField(field), field});
    }
    std::sort(m_rows.begin(), m_rows.end(),
              [](const Row& a, const Row& b) { return a.index < b.index; });
}

void FormRows::setShown(bool shown)
{
    if (shown == m_shown)
        return;
    m_shown = shown;
    if (!shown) {
        // Where each row is now (other groups may have come and gone), taken last first so
        // the positions of the rows still to take stay right.
        QList<int> now;
        for (const Row& row : std::as_const(m_rows)) {
            int index = -1;
            QFormLayout::ItemRole role{};
            m_form->getWidgetPosition(row.field, &index, &role);
            now.append(index);
        }
        std::sort(now.begin(), now.end(), std::greater<int>());
        for (int index : std::as_const(now)) {
            if (index < 0)
                continue;
            QFormLayout::TakeRowResult taken = m_form->takeRow(index);
            delete taken.labelItem;
            delete taken.fieldItem;
        }
        for (const Row& row : std::as_const(m_rows)) {
            if (row.label)
                row.label->hide();
            row.field->hide();
        }
        return;
    }
    // Back where they were, or at the end when rows before them are out too.
    for (const Row& row : std::as_const(m_rows)) {
        const int index = std::min(row.index, m_form->rowCount());
        if (row.label)
            m_form->insertRow(index, row.label, row.field);
        else
            m_form->insertRow(index, row.field);
        if (row.label)
            row.label->show();
        row.field->show();
    }
}

} // namespace delayq::ui
