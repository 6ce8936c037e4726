#include "client/overviewclient.h"

#include "client/ioworker.h"
#include "client/overviewrequests.h"
#include "client/taskqueue.h"
#include "client/taskrequests.h"
#include "client/taskrows.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QElapsedTimer>

namespace delayq::ui {

OverviewClient::OverviewClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<OverviewResult>();
    qRegisterMetaType<ServerResult>();
    qRegisterMetaType<WorkersResult>();
    qRegisterMetaType<HistogramResult>();
    qRegisterMetaType<ThroughputResult>();
    qRegisterMetaType<ForecastResult>();
}

void OverviewClient::loadOverview(quint64 tag, const QList<PlainKeyRow>& plainKeys,
                                  bool withHistory, bool withForecast)
{
    request(&OverviewClient::overviewLoaded, answerTo<OverviewResult>(tag), tr("read the overview"),
            [this, plainKeys, withHistory, withForecast](delayq::Connection& c, OverviewResult& r) {
                OverviewRequests::read(c, io()->prefix(), plainKeys, withHistory, withForecast, r);
            });
}

void OverviewClient::loadServer(quint64 tag, const QString& queue)
{
    request(&OverviewClient::serverLoaded, answerTo<ServerResult>(tag, queue),
            tr("describe the server"), [this, queue](delayq::Connection& c, ServerResult& r) {
                r.displayUrl = TaskRows::text(c.options().displayUrl());
                r.cluster = c.isCluster();
                if (r.cluster)
                    r.nodes = TaskRows::clusterNodes(c.clusterNodes());
                // Without the growth sample: it would hold the I/O thread for a second.
                try {
                    for (const auto& f : delayq::Doctor(c, io()->prefix()).run(0))
                        r.checks.append(TaskRows::check(f));
                } catch (const delayq::Error& e) {
                    r.checksError = TaskRows::text(e.what());
                }
                if (queue.isEmpty())
                    return;
                try {
                    auto q = io()->nativeQueue(c, queue);
                    OverviewRequests::readShards(q, r);
                } catch (const delayq::Error& e) {
                    if (e.isUnreachable())
                        throw; // the connection's trouble, not the queue's: the whole answer
                    r.shards.clear();
                    r.shardsError = TaskRows::text(e.what());
                }
            });
}

void OverviewClient::loadWorkers(quint64 tag)
{
    request(&OverviewClient::workersLoaded, answerTo<WorkersResult>(tag), tr("list the workers"),
            [this](delayq::Connection& c, WorkersResult& r) {
                OverviewRequests::readWorkers(c, io()->prefix(), r);
            });
}

void OverviewClient::loadHistogram(quint64 tag, const QString& queue, qint64 fromMs, qint64 toMs,
                                   int buckets)
{
    auto result = answerTo<HistogramResult>(tag, queue);
    result.fromMs = fromMs;
    result.toMs = toMs;
    request(&OverviewClient::histogramLoaded, result, tr("load the timeline"),
            [this, queue, buckets](delayq::Connection& c, HistogramResult& r) {
                QElapsedTimer timer;
                timer.start();
                // Now first: a task that falls due during the reads is not counted as overdue.
                r.serverNow = c.serverNowMs();
                TaskRequests::histogram(*io()->queueFor(c, queue), buckets, r);
                r.elapsedUs = timer.nsecsElapsed() / 1000;
            });
}

void OverviewClient::loadThroughput(quint64 tag, const QString& queue, qint64 fromMinute,
                                    qint64 toMinute)
{
    auto result = answerTo<ThroughputResult>(tag, queue);
    result.fromMinute = fromMinute;
    request(&OverviewClient::throughputLoaded, result, tr("load the throughput"),
            [this, queue, toMinute](delayq::Connection& c, ThroughputResult& r) {
                auto q = io()->nativeQueue(c, queue);
                TaskRequests::throughput(q, toMinute, r);
            });
}

void OverviewClient::loadForecast(quint64 tag, const QString& queue, qint64 thresholdMs,
                                  qint64 horizonMs)
{
    request(&OverviewClient::forecastLoaded, answerTo<ForecastResult>(tag, queue),
            tr("forecast the lateness"),
            [this, queue, thresholdMs, horizonMs](delayq::Connection& c, ForecastResult& r) {
                QElapsedTimer timer;
                timer.start();
                auto q = io()->nativeQueue(c, queue);
                OverviewRequests::readForecast(q, thresholdMs, horizonMs, r);
                r.elapsedUs = timer.nsecsElapsed() / 1000;
            });
}

} // namespace delayq::ui
