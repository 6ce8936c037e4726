#pragma once

#include <delayq/connectionoptions.h>
#include <delayq/latencyhistogram.h>
#include <delayq/plainqueue.h>
#include <delayq/task.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace delayq {

// What a handler decided about one task.
struct HandlerResult
{
    enum class Kind
    {
        Ack,    // done: the task is deleted
        Fail,   // nacked with the error: retried on its backoff (or retryDelayMs), or dead
        Dead,   // nacked with the error and dead at once, attempts left or not (HTTP 410)
        Abandon // neither: the lease runs out and the reaper takes it back (for tests)
    };
    Kind kind = Kind::Ack;
    std::string error;
    long long retryDelayMs = -1; // < 0: the task's backoff schedule

    static HandlerResult ack() { return {}; }
    static HandlerResult fail(std::string error, long long retryDelayMs = -1)
    {
        return {Kind::Fail, std::move(error), retryDelayMs};
    }
    static HandlerResult dead(std::string error) { return {Kind::Dead, std::move(error), -1}; }
    static HandlerResult abandon() { return {Kind::Abandon, {}, -1}; }
};

// Called on a worker thread, one task at a time per thread. An exception counts as
// fail(what()). It may run long: the worker renews the lease meanwhile.
using Handler = std::function<HandlerResult(const ClaimedTask&)>;

// A target that takes a claim's tasks together (<delayq/delivery.h>), one per worker thread;
// the factory is called on each thread with its index.
class Delivery;
using DeliveryFactory = std::function<std::unique_ptr<Delivery>(int thread)>;

struct WorkerOptions
{
    ConnectionOptions connection;
    std::string queue;
    std::string prefix = "dq";
    // A sharded queue's shards to claim from (Queue::setClaimShards); empty: all.
    std::vector<size_t> claimShards;
    int concurrency = 1; // threads, each with its own connection
    int batch = 10;      // tasks per claim (1..1000)
    // While a backlog drains quickly, claims grow up to this (1..1000; = batch: fixed size).
    int maxBatch = 200;
    long long leaseMs = 30000;                    // 0: the queue's lease_ms
    std::chrono::milliseconds pollInterval{1000}; // fallback when a wake message is lost
    std::chrono::milliseconds stopTimeout{10000}; // stop(): then held tasks are released
    std::string name;                             // empty: defaultWorkerName(); at most 200 bytes
    // The worker registry (<delayq/workerregistry.h>): what this worker runs, as `delayq
    // workers` and the app show it (empty: "library", or "delivery" with a DeliveryFactory),
    // and how often it says it is alive (100 ms..20 min; gone after 3 missed beats).
    std::string handlerKind;
    std::chrono::milliseconds heartbeatInterval{5000};
    // Expired leases taken back per reap call, and how often this worker reaps (randomised
    // by +-50% so workers of one queue take turns instead of reaping together).
    int reapBatch = 100;
    std::chrono::milliseconds reapInterval{1000};
    // The longest wait between reconnect attempts: a healed network is used within it.
    std::chrono::milliseconds maxReconnectDelay{1000};
    // Fire the queue's schedules (docs/schedules.md) from the upkeep thread; any number
    // of workers may, each fire is made once.
    bool fireSchedules = true;
    long long maxTasks = 0; // > 0: claim at most this many in all, then stop on its own
    // Stop on its own once the queue has no pending task (delayed ones and retries are
    // waited for) and this worker holds none, or the queue is paused.
    bool untilEmpty = false;

    // Plain mode (docs/design.md, "Plain sorted-set queues"): consume this sorted set instead of
    // `queue` (each member is the task's id and payload; there are no acks or attempts).
    // With a Handler, due members are popped atomically, so delivery is AT MOST ONCE: a
    // member whose handler fails, or whose worker dies after the pop, is gone. With a
    // Delivery it is AT LEAST ONCE: a member is leased in place (its score moved to now +
    // leaseMs, 0 meaning 30 s) and removed only once the target confirmed it; a failure moves
    // it to now + the target's retry delay, else plainRetryMs, else leaseMs.
    std::string plainKey;
    // Empty: read from the scores; a worker takes nothing from an empty key until a member
    // tells it (an error event says so), rather than guess.
    std::optional<PlainQueue::ScoreUnit> plainUnit;
    // plain with a Handler: LPUSH each popped member to this list (same script); not used
    // with a Delivery.
    std::string forwardTo;
    long long plainRetryMs = -1; // plain: a failed member is added back (NX) at now + this
    // plain with a Delivery: each failed delivery is recorded (PlainFailures), and a member
    // that failed this many times is parked instead of retried (1..1000000).
    int plainMaxAttempts = 20;
};

// A snapshot of what a Worker did since start().
struct WorkerCounters
{
    long long claimed = 0;
    long long acked = 0;
    long long failed = 0;    // handler said fail (or threw)
    long long retried = 0;   // nacked back to pending (plain: added back by plainRetryMs)
    long long dead = 0;      // nacked with no attempts left (plain: dropped)
    long long leaseLost = 0; // the lease ran out before ack/nack (another worker has it)
    long long abandoned = 0;
    long long released = 0; // handed back unrun at stop
    long long reaped = 0;   // expired leases of any worker this one took back
    long long inFlight = 0; // claimed and not finished yet
    long long connectionErrors = 0;
    bool connected = true;
    // Lateness: claim time minus due time, both on the Redis clock (ms).
    long long latenessCount = 0;
    long long latenessP50 = 0;
    long long latenessP99 = 0;
    long long latenessMax = 0;
    std::vector<LatencyHistogram::Bucket> lateness;
};

enum class TaskOutcome
{
    Acked,
    Retried,
    Dead,
    LeaseLost,
    Abandoned,
    Released,
    Dropped // plain mode: the handler failed and the member is gone (no retry asked)
};
const char* taskOutcomeName(TaskOutcome outcome);

// "host-pid-random": the name of a worker whose options give none. A caller that needs the
// name before the Worker exists (a delivery target's DeliveryOptions) sets it from this.
std::string defaultWorkerName();

struct WorkerEvent
{
    // Error: Redis answered but refused (wrong type, no permission...); retried with backoff.
    enum class Kind
    {
        TaskFinished,
        ConnectionLost,
        ConnectionRestored,
        Error
    };
    Kind kind = Kind::TaskFinished;
    // TaskFinished. Times are ms on the Redis clock.
    std::string id;
    int attempt = 0;
    TaskOutcome outcome = TaskOutcome::Acked;
    long long due = 0;
    long long started = 0; // handler start
    long long finished = 0;
    long long lateness = 0; // claim time - due
    long long retryAt = 0;  // Retried: the new due time
    // TaskFinished with a failure: the handler's error; Connection*: the server's error.
    std::string error;
};

// Called on worker threads (several at once): keep it short and thread-safe.
using WorkerEventCallback = std::function<void(const WorkerEvent&)>;

// Consumes one queue with N threads (docs/design.md, "Threads"). Claims due tasks in batches,
// sleeps exactly until the next due time or a wake message, renews leases of long tasks,
// reaps expired leases, and rides out Redis restarts with backoff.
class Worker
{
public:
    Worker(WorkerOptions options, Handler handler, WorkerEventCallback onEvent = {});
    // Hands the tasks to a delivery target instead (RabbitMQ, a webhook, a pipe consumer:
    // <delayq/deliveries.h>), a claim's tasks at a time.
    Worker(WorkerOptions options, DeliveryFactory delivery, WorkerEventCallback onEvent = {});
    ~Worker(); // stopNow()
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    const WorkerOptions& options() const;
    const std::string& name() const;

    // Starts the threads; they connect in the background (failures are events, then
    // retries). Throws Error(InvalidArgument) for bad options; false if already running.
    bool start();
    // Graceful: stop claiming, finish what is held; after stopTimeout, hand the rest back
    // (nack with no delay). Returns once every handler has returned.
    void stop();
    // The first half of stop() without the waiting: for a caller that waits itself (and may
    // still decide on stopNow(), like a second Ctrl-C). Call stop() or stopNow() after it.
    void requestStop();
    // At once: hand back everything held, including tasks whose handler is still running
    // (their result is then discarded). Waits for running handlers to return.
    void stopNow();
    // True from start() until the threads are gone (stop(), stopNow(), or maxTasks/untilEmpty
    // reached).
    bool isRunning() const;
    // Blocks until the threads end by themselves or timeout passes; true when ended.
    bool wait(std::chrono::milliseconds timeout);
    // True once stopNow() (or a stop() past its timeout) asked handlers to give up: a long
    // handler may poll it.
    bool abortRequested() const;

    WorkerCounters counters() const;

private:
    class Private;
    std::unique_ptr<Private> m_d;
};

} // namespace delayq
