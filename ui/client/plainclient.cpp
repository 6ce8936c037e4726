#include "client/plainclient.h"

#include "client/ioworker.h"
#include "client/steppedrequests.h"

namespace delayq::ui {

PlainClient::PlainClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<PlainDiscoveryResult>();
    qRegisterMetaType<PlainScanResult>();
    connect(io, &IoWorker::plainKeySet, this, &PlainClient::plainKeySet);
}

void PlainClient::discoverPlain(quint64 tag, int maxSteps, int count)
{
    run(SteppedRequests::discovery(io(), tag, maxSteps, count,
                                   [this](const PlainDiscoveryResult& result) {
                                       deliver(&PlainClient::plainKeysDiscovered, result);
                                   }));
}

void PlainClient::setPlainKey(const QString& key, const QString& unit)
{
    IoWorker* worker = io();
    worker->post([worker, key, unit] { worker->setPlainKey(key, unit); });
}

void PlainClient::scanPlain(quint64 tag, const QString& key, const QString& text, int maxMatches,
                            int count)
{
    m_activeScan.store(tag);
    run(SteppedRequests::memberSearch(
        io(), tag, key, text, maxMatches, count, [this, tag] { return m_activeScan.load() != tag; },
        [this](const PlainScanResult& step) { deliver(&PlainClient::plainScanned, step); }));
}

} // namespace delayq::ui
