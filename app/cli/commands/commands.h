#pragma once

#include "context.h"

#include <delayq/task.h>

#include <optional>
#include <string>
#include <vector>

namespace cli {

// One subcommand: parses ctx.args() itself and returns the exit code.
struct CommandInfo
{
    const char* name;
    const char* usage; // the synopsis and its options, for --help
    const char* summary;
    int (*run)(Context& ctx);
};

const std::vector<CommandInfo>& commandTable();

int runPush(Context& ctx);
int runLs(Context& ctx);
int runShow(Context& ctx);
int runFind(Context& ctx);
int runQueues(Context& ctx);
int runWorkers(Context& ctx);
int runStats(Context& ctx);
int runCancel(Context& ctx);
int runReschedule(Context& ctx);
int runRequeue(Context& ctx);
int runRmDead(Context& ctx);
int runPurge(Context& ctx);
int runRestore(Context& ctx);
int runBin(Context& ctx);
// After a removal (cancel, rm-dead, purge): how to restore it, on stderr (bincommands.cpp).
void printBinHint(Context& ctx, delayq::Queue& queue);
class JsonWriter;
// "results": [{"id", "status"}, ...], as cancel, reschedule, requeue, rm-dead and restore write.
void writeIdResults(JsonWriter& j, const std::vector<delayq::IdResult>& results);
int runConfig(Context& ctx);
int runPause(Context& ctx);
int runResume(Context& ctx);
int runAudit(Context& ctx);
int runWork(Context& ctx);
int runBench(Context& ctx);
int runMigrate(Context& ctx);
int runUpgrade(Context& ctx);
int runReshard(Context& ctx);
int runShards(Context& ctx);
int runExporter(Context& ctx);
int runScripts(Context& ctx);
int runSchedule(Context& ctx);
int runDoctor(Context& ctx);
int runForecast(Context& ctx);

// A payload from stdin (pushcommand.cpp), for PAYLOAD '-'; refuses more than 512 MB.
std::string readStdin();

// --state's word as a set; throws UsageError for any other word.
delayq::TaskSet parseState(const std::string& text);
// A task as one JSON object (listcommands.cpp): ls, show and find write the same fields.
// With the server's now, an active task also gets lease_expired (its deadline has passed and
// no reap has taken it back yet).
void writeTask(JsonWriter& j, const delayq::Task& t, delayq::TaskSet set,
               std::optional<long long> now = std::nullopt);
int runExport(Context& ctx);
int runImport(Context& ctx);

// The same commands on a plain sorted-set key (--plain), in plaincommands.cpp.
int runPlainLs(Context& ctx);
int runPlainStats(Context& ctx);
int runPlainPush(Context& ctx);
int runPlainCancel(Context& ctx);
int runPlainReschedule(Context& ctx);
int runPlainShow(Context& ctx);
int runPlainRequeue(Context& ctx);
int runPlainRmDead(Context& ctx);

} // namespace cli
