#pragma once

#include "client/overviewtypes.h"
#include "client/tasktypes.h"
#include <delayq/clusternodeinfo.h>
#include <delayq/doctor.h>
#include <delayq/plainqueue.h>
#include <delayq/task.h>

#include <QStringList>

#include <string>
#include <vector>

namespace delayq::ui {

// Conversions between the core's values and the plain values the views receive.
namespace TaskRows {

// Pages are cached: their payloads are cut to this, the details pane loads a whole one.
inline constexpr size_t kPagePayloadBytes = 4096;

QString text(const std::string& s);
TaskRow fromTask(const delayq::Task& task, size_t maxPayload = std::string::npos);
// A plain member is the message: both the row's id and its payload.
TaskRow fromMember(const delayq::PlainQueue::Member& member, size_t maxPayload = kPagePayloadBytes);
// Ids (or plain members) as the bytes Redis holds.
std::vector<std::string> ids(const QStringList& ids);
QList<IdOutcome> outcomes(const std::vector<delayq::IdResult>& results);
// Masters first (by their first slot), each followed by its replicas.
QList<ServerNodeRow> clusterNodes(const std::vector<delayq::ClusterNodeInfo>& nodes);
ServerCheckRow check(const delayq::Finding& finding);

} // namespace TaskRows

} // namespace delayq::ui
