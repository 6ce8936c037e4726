#pragma once

#include "client/matchtypes.h"
#include "client/plaintypes.h"
#include "client/queuetypes.h"
#include "client/steppedjob.h"
#include "client/tasktypes.h"

#include <functional>

namespace delayq::ui {

class IoWorker;

// The long requests of the admin client as stepped jobs: each step is bounded, so Redis is
// never held and the requests asked for meanwhile are answered in between.
namespace SteppedRequests {

// Plain sorted-set queues in the keyspace: one SCAN step of `count` keys at a time, at
// most maxSteps; `done` once with what was found.
SteppedJob discovery(IoWorker* io, quint64 tag, int maxSteps, int count,
                     std::function<void(const PlainDiscoveryResult&)> done);
// Members of the open plain key that contain `text` (as bytes): one ZSCAN step of `count`
// members at a time, each step's matches reported as found, until the key is read,
// maxMatches are found, or `cancelled` says stop.
SteppedJob memberSearch(IoWorker* io, quint64 tag, const QString& key, const QString& text,
                        int maxMatches, int count, std::function<bool()> cancelled,
                        std::function<void(const PlainScanResult&)> report);
// A queue-wide change: one script call of at most `batch` tasks per step, never past
// `limit`, the count the user confirmed.
SteppedJob bulkChange(IoWorker* io, quint64 tag, TaskAction action, const QString& queue,
                      qint64 limit, int batch, std::function<bool()> cancelled,
                      std::function<void(const BulkActionResult&)> progressed,
                      std::function<void(const BulkActionResult&)> finished);
// Tasks of a native queue the filter matches: one TaskScan step of `count` tasks at a
// time (after a first step that only counts the set), until the set is read, maxMatches
// are found, or `cancelled` says stop. A search reports each step's matches as found; a
// count (keepIds) reports its progress and, at the end, every id it found.
SteppedJob taskScan(IoWorker* io, quint64 tag, const QString& queue, const MatchFilter& filter,
                    int maxMatches, int count, bool keepIds, std::function<bool()> cancelled,
                    std::function<void(const MatchScanResult&)> report);
// An action on confirmed ids (cancel, reschedule, requeue, delete dead): `batch` ids per
// step, each step's per-id outcomes tallied, so it ends at the confirmed ids whatever
// arrives meanwhile. dueAtMs >= 0: reschedule there, else delayMs from the server's now.
SteppedJob idBulk(IoWorker* io, quint64 tag, const QString& queue, TaskAction action,
                  const QStringList& ids, qint64 dueAtMs, qint64 delayMs, int batch,
                  std::function<bool()> cancelled,
                  std::function<void(const MatchApplyResult&)> report);

} // namespace SteppedRequests

} // namespace delayq::ui
