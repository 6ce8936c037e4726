#pragma once

#include "client/areaclient.h"
#include "client/plaintypes.h"

#include <atomic>

namespace delayq::ui {

// The requests on plain sorted-set keys (a home-grown delay queue outside the prefix): find
// them, open one, and search its members.
class PlainClient : public AreaClient
{
    Q_OBJECT

public:
    PlainClient(IoWorker* io, QObject* parent);

    // Looks for plain sorted-set queues: one SCAN TYPE zset step of `count` keys per posted
    // job, so other requests interleave, and at most maxSteps steps.
    void discoverPlain(quint64 tag, int maxSteps = 50, int count = 1000);
    // From now on, requests naming `key` go to that plain sorted set (unit "ms" | "s")
    // instead of a native queue; an empty key returns to native queues only.
    void setPlainKey(const QString& key, const QString& unit);
    // Looks for members of the open plain key that contain `text` (compared as bytes): one
    // ZSCAN step of `count` members per posted job, each step reported by plainScanned, until
    // the whole key is read, maxMatches are found, or cancelScan() or a newer scan stops it.
    void scanPlain(quint64 tag, const QString& key, const QString& text, int maxMatches = 1000,
                   int count = 250);
    void cancelScan() { m_activeScan.store(0); }

signals:
    void plainKeysDiscovered(const delayq::ui::PlainDiscoveryResult& result);
    // setPlainKey took effect, with the unit it reads the scores in (detected if none given).
    void plainKeySet(const QString& key, const QString& unit);
    void plainScanned(const delayq::ui::PlainScanResult& result);

private:
    std::atomic<quint64> m_activeScan{0}; // the tag of the one search that may go on
};

} // namespace delayq::ui
