#pragma once

#include <cstdint>
#include <string>
#include <vector>

// One step of a model-based run (tests/model/tst_model.cpp): what to do, with three random
// numbers that pick its target and arguments when it is applied (an index into the model's
// tasks of the moment, a delay, a count). An op therefore still means something after the ops
// before it were dropped, which is what lets a failing run be shortened.
struct ModelOp
{
    enum class Kind
    {
        PushNx,
        PushReplace,
        Import, // an exported task written back (TaskImport), skip or replace
        Claim,
        Ack,
        Nack,
        Extend,
        Kill, // a worker dies: its leases run out and a reap takes them back
        Cancel,
        Reschedule,
        Requeue,
        DeleteDead,
        Purge,
        ReshardStart,
        ReshardStep,
        ScheduleTick, // a worker's schedule turn: the due fires of an every-second schedule
        Pause,        // pauses a running queue, resumes a paused one
        PlainAdd,     // a producer's ZADD into the plain key beside the queue (plainmodel.h)
        PlainLease,   // a forwarder leases due members (some leases run out at once)
        PlainSettle,  // ... and settles one: removed, or moved to a retry
        Limit,        // the queue's flow limits change: a cap, a rate with a burst, or none
        Order,        // due or fair order (with a group cap of none, 1 or 2)
        PushDebounce, // a debounced push of an id: moves it, or leaves one follow-up
        DedupWindow,  // the queue's dedup window: on (1 h) or off
        DeadBound,    // the queue's dead bound: 2, 4 or 100,000 tasks (one shard only)
        Restore,      // ids back from the recycle bin (cancel, delete dead, purge keep them)
        Upgrade,      // one call of `delayq upgrade`: layout 2's buckets into the table
        Wait,
    };

    Kind kind = Kind::Wait;
    uint32_t a = 0;
    uint32_t b = 0;
    uint32_t c = 0;

    std::string text() const;
    // `count` ops drawn from `seed`, weighted towards the everyday ones (push, claim, ack).
    // sharding: whether reshard ops may be drawn.
    static std::vector<ModelOp> generate(uint64_t seed, int count, bool sharding);
    // Ops as text() writes them, separated by spaces or line breaks (a shortened run's list):
    // to replay one exactly (DELAYQ_MODEL_OPS). Unknown words are skipped.
    static std::vector<ModelOp> parse(const std::string& text);
};
