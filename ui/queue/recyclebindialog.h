#pragma once

#include "client/bintypes.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace delayq::ui {

class AdminClient;

// The recycle bin of one queue: each removal still restorable (cancel, purge, delete of dead
// tasks) with its tasks, when, and the audit entry it came from; Restore puts the chosen
// removal's tasks back, Restore all everything. Reads and restores on the I/O thread.
class RecycleBinDialog : public QDialog
{
    Q_OBJECT

public:
    RecycleBinDialog(AdminClient* client, const QString& queue, bool readOnly, QWidget* parent);

    QTableWidget* table() const { return m_table; }
    QPushButton* restoreButton() const { return m_restore; }
    QPushButton* restoreAllButton() const { return m_restoreAll; }
    void reload();

signals:
    void resultReported(const QString& summary, bool ok);
    void restored();

private:
    void onLoaded(const BinListResult& result);
    void onRestored(const BinRestoreResult& result);
    void restoreChosen(bool all);
    void updateButtons();

    AdminClient* m_client;
    QString m_queue;
    bool m_readOnly;
    QLabel* m_note;
    QTableWidget* m_table;
    QPushButton* m_restore;
    QPushButton* m_restoreAll;
    QPushButton* m_refresh;
    quint64 m_tag = 0;
    bool m_busy = false;
};

} // namespace delayq::ui
