#pragma once

#include "client/exporttypes.h"
#include "client/tasktypes.h"

#include <QDialog>

class QLineEdit;
class QPushButton;
class QRadioButton;

namespace delayq::ui {

// Asks what Export… writes and where: the whole queue, the current tab's set or the selected
// tasks, optionally only those containing a text, to a JSON Lines file.
class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    ExportDialog(const QString& queue, bool plain, TaskSet currentSet,
                 const QStringList& selectedIds, QWidget* parent = nullptr);

    ExportRequest request() const;

    QRadioButton* wholeQueueButton() const { return m_whole; }
    QRadioButton* currentSetButton() const { return m_set; }
    QRadioButton* selectionButton() const { return m_selection; }
    QLineEdit* matchEdit() const { return m_match; }
    QLineEdit* pathEdit() const { return m_path; }
    QPushButton* exportButton() const { return m_export; }

private:
    void browse();
    void updateEnabled();

    QString m_queue;
    bool m_plain;
    TaskSet m_currentSet;
    QStringList m_selectedIds;
    QRadioButton* m_whole;
    QRadioButton* m_set;
    QRadioButton* m_selection;
    QLineEdit* m_match;
    QLineEdit* m_path;
    QPushButton* m_export;
};

} // namespace delayq::ui
