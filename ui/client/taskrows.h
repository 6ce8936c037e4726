#pragma once

#include "client/overviewtypes.h"
#include "client/tasktypes.h"
#include <delayq/clusternodeinfo.h>
#include <delayq/plainqueue.h>
#include <delayq/task.h>

#include <QStringList>

#include <string>
#include <vector>

namespace delayq::ui {

// Conversions between the core's values and the plain values the views receive.
class TaskRows
{
public:
    // Pages are cached: their payloads are cut to this, the details pane loads a whole one.
    static constexpr size_t kPagePayloadBytes = 4096;

    static QString text(const std::string& s);
    static TaskRow fromTask(const delayq::Task& task, size_t maxPayload = std::string::npos);
    // A plain member is the message: both the row's id and its payload.
    static TaskRow fromMember(const delayq::PlainQueue::Member& member,
                              size_t maxPayload = kPagePayloadBytes);
    // Ids (or plain members) as the bytes Redis holds.
    static std::vector<std::string> ids(const QStringList& ids);
    static QList<IdOutcome> outcomes(const std::vector<delayq::IdResult>& results);
    // Masters first (by their first slot), each followed by its replicas.
    static QList<ServerNodeRow> clusterNodes(const std::vector<delayq::ClusterNodeInfo>& nodes);
};

} // namespace delayq::ui
