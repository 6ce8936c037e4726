#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace delayq::ui {

// Says what a purge deletes and arms its button only once the queue's exact name is typed,
// so a purge cannot happen by a stray click or on the wrong queue.
class PurgeDialog : public QDialog
{
    Q_OBJECT

public:
    PurgeDialog(const QString& queue, qint64 pending, qint64 active, qint64 dead,
                QWidget* parent = nullptr);

    QString queue() const { return m_queue; }
    QLabel* summaryLabel() const { return m_summary; }
    QLineEdit* nameEdit() const { return m_name; }
    QPushButton* purgeButton() const { return m_purge; }
    // Offers a backup before the purge: asks for Export… of the whole queue.
    QPushButton* exportButton() const { return m_export; }
    bool nameMatches() const;

    void accept() override;

signals:
    void exportRequested(const QString& queue);

private:
    QString m_queue;
    QLabel* m_summary;
    QLineEdit* m_name;
    QPushButton* m_purge;
    QPushButton* m_export;
};

} // namespace delayq::ui
