#include "workerbeat.h"

#include <delayq/keys.h>
#include <delayq/script.h>

void beatAs(delayq::Connection& connection, const std::string& queue, const std::string& name,
            const delayq::WorkerInfo& info, long long liveForMs)
{
    const delayq::Keys keys("dq", queue);
    connection.evalScript(
        delayq::scripts::heartbeat, {keys.workers(), keys.workerRecords()},
        {"beat", name, std::to_string(liveForMs),
         std::to_string(delayq::WorkerRegistry::kGoneKeptIntervals * info.intervalMs),
         delayq::workerRecordText(info)});
    connection.command({"SADD", delayq::Keys::queues("dq"), queue}); // as Heartbeat does
}

delayq::WorkerInfo workerInfo(long long startedMs, long long intervalMs)
{
    delayq::WorkerInfo info;
    info.startedMs = startedMs;
    info.intervalMs = intervalMs;
    info.version = "0";
    info.handler = "ack";
    info.host = "h";
    return info;
}
