#pragma once

#include <delayq/connection.h>
#include <delayq/workerregistry.h>

#include <string>

// A heartbeat of a worker of `queue` exactly as heartbeat.lua stores one, for suites that need
// a worker in a given state (stalled, gone, on another host) without running one: live for
// liveForMs, kept listed for 20 times info.intervalMs after that. Throws delayq::Error.
void beatAs(delayq::Connection& connection, const std::string& queue, const std::string& name,
            const delayq::WorkerInfo& info, long long liveForMs);

// The record of a worker that started at startedMs and beats every intervalMs; the other
// figures 0 and its texts short placeholders.
delayq::WorkerInfo workerInfo(long long startedMs, long long intervalMs);
