#pragma once

#include "client/connectiontypes.h"
#include "client/overviewtypes.h"

#include <QObject>
#include <QString>

class QTimer;

namespace delayq::ui {

class AdminClient;

// One watched server besides the window's own (a saved profile in Alerts → Watch): its own
// AdminClient, so its own I/O thread and connection, and a reading of its queues (the
// overview's snapshot, without the minute counters) every intervalMs while it answers, with
// the forecast peaks in every kForecastEvery-th reading.
class ServerWatch : public QObject
{
    Q_OBJECT

public:
    ServerWatch(QString name, const ConnectionSettings& settings, int intervalMs,
                QObject* parent = nullptr);

    static constexpr int kForecastEvery = 3;

    const QString& name() const { return m_name; }

signals:
    void readingDone(const QString& server, const QList<delayq::ui::OverviewRow>& rows);
    void unreachable(const QString& server, const QString& reason);

private:
    void read();

    QString m_name;
    AdminClient* m_client;
    QTimer* m_timer;
    quint64 m_tag = 0;
    int m_readings = 0;
};

} // namespace delayq::ui
