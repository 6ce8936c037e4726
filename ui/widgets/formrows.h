#pragma once

#include <QList>

class QFormLayout;
class QWidget;

namespace delayq::ui {

// Some rows of a form that come and go together (the fields a plain sorted set lacks).
// Hidden rows are taken out of the form, not just hidden: in Qt 6.4 a hidden row in a
// QFormLayout with word-wrapped labels makes heightForWidth write past its buffer (seen
// with valgrind in tst_plainqueueview), and setRowVisible has the same fault.
class FormRows
{
public:
    // The form must already be installed on its widget: a label addRow made is parentless
    // until then, and one taken out before would never be owned.
    FormRows(QFormLayout* form, const QList<QWidget*>& fields);

    void setShown(bool shown);

private:
    struct Row
    {
        int index = -1;
        QWidget* label = nullptr;
        QWidget* field = nullptr;
    };

    QFormLayout* m_form;
    QList<Row> m_rows; // in form order
    bool m_shown = true;
};

} // namespace delayq::ui
