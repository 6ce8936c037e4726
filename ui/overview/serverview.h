#pragma once

#include "client/overviewtypes.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace delayq::ui {

class AdminClient;

// What the app is connected to: on a Redis Cluster, every master with its slot ranges and
// each replica under its master, with the ones the cluster flags as failing marked
// unreachable; on one server, just its URL. Under it, the checks of `delayq doctor` (eviction
// policy, persistence, version, slot coverage, memory, clock), each with what it risks and
// how to fix it. Loaded on the I/O thread when opened.
class ServerView : public QDialog
{
    Q_OBJECT

public:
    ServerView(AdminClient* client, QWidget* parent = nullptr);

    void reload();
    QTableWidget* table() const { return m_table; }
    // The configuration checks (what `delayq doctor` finds), problems first.
    QTableWidget* checks() const { return m_checks; }
    QLabel* summary() const { return m_summary; }

signals:
    void loaded();

private:
    void onLoaded(const ServerResult& result);
    void showChecks(const ServerResult& result);

    AdminClient* m_client;
    QLabel* m_summary;
    QTableWidget* m_table;
    QLabel* m_checksTitle;
    QTableWidget* m_checks;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
