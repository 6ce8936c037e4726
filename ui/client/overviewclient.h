#pragma once

#include "client/areaclient.h"
#include "client/overviewtypes.h"

#include <QList>

namespace delayq::ui {

// The read-only pictures: every queue at a glance, the server (a cluster's nodes), the
// workers, one
// queue's timeline of due tasks and its history of outcomes per minute.
class OverviewClient : public AreaClient
{
    Q_OBJECT

public:
    OverviewClient(IoWorker* io, QObject* parent);

    // Every queue with its counts, lag, pause and (withHistory) last hour per minute, and the
    // plain keys given, in one pipeline (per master on a cluster); answered by overviewLoaded.
    // withForecast: each queue's forecast peak as well (a bounded read a queue).
    void loadOverview(quint64 tag, const QList<PlainKeyRow>& plainKeys, bool withHistory,
                      bool withForecast = false);
    // The cluster's masters and replicas with their slots, the configuration checks and, when
    // `queue` names a native queue, its shards (answered by serverLoaded).
    void loadServer(quint64 tag, const QString& queue = {});
    // Every worker of every queue from its heartbeat (answered by workersLoaded).
    void loadWorkers(quint64 tag);
    void loadHistogram(quint64 tag, const QString& queue, qint64 fromMs, qint64 toMs, int buckets);
    void loadThroughput(quint64 tag, const QString& queue, qint64 fromMinute, qint64 toMinute);
    // The queue's lateness forecast over the next horizonMs (0: the reader's default, 6 h),
    // with the capacity that keeps it under thresholdMs (-1: none); answered by forecastLoaded.
    void loadForecast(quint64 tag, const QString& queue, qint64 thresholdMs, qint64 horizonMs = 0);

signals:
    void overviewLoaded(const delayq::ui::OverviewResult& result);
    void serverLoaded(const delayq::ui::ServerResult& result);
    void workersLoaded(const delayq::ui::WorkersResult& result);
    void histogramLoaded(const delayq::ui::HistogramResult& result);
    void throughputLoaded(const delayq::ui::ThroughputResult& result);
    void forecastLoaded(const delayq::ui::ForecastResult& result);
};

} // namespace delayq::ui
