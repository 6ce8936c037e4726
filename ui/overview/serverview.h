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
// how to fix it. For the native queue open in the window, its shards: each one's hash tag,
// the node serving it and its counts, with a reshard under way. Loaded on the I/O thread when
// opened.
class ServerView : public QDialog
{
    Q_OBJECT

public:
    // queue: the native queue whose shards are listed (empty: none, e.g. a plain key is open).
    ServerView(AdminClient* client, const QString& queue, QWidget* parent = nullptr);

    void reload();
    // The queue whose shards the next reload lists.
    void setQueue(const QString& queue);
    QTableWidget* table() const { return m_table; }
    // One row per shard of the queue: index, tag, node, pending, active, dead, state.
    QTableWidget* shards() const { return m_shards; }
    QLabel* shardsTitle() const { return m_shardsTitle; }
    // "Moving tasks from F to T shards: …" while a reshard is under way; hidden otherwise.
    QLabel* moveLine() const { return m_moveLine; }
    // The configuration checks (what `delayq doctor` finds), problems first.
    QTableWidget* checks() const { return m_checks; }
    QLabel* summary() const { return m_summary; }

signals:
    void loaded();

private:
    void onLoaded(const ServerResult& result);
    void showChecks(const ServerResult& result);
    void showShards(const ServerResult& result);

    AdminClient* m_client;
    QString m_queue;
    QLabel* m_summary;
    QTableWidget* m_table;
    QLabel* m_shardsTitle;
    QLabel* m_moveLine;
    QTableWidget* m_shards;
    QLabel* m_checksTitle;
    QTableWidget* m_checks;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
