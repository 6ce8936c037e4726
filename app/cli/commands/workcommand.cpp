#include "commands/commands.h"
#include "commands/deliveryargs.h"
#include "commands/exechandler.h"
#include "output/textoutput.h"

#include <delayq/deliveries.h>
#include <delayq/doctor.h>
#include <delayq/error.h>
#include <delayq/plainfailures.h>
#include <delayq/retryloop.h>
#include <delayq/timeparse.h>
#include <delayq/worker.h>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <random>
#include <thread>

namespace cli {

namespace {

using namespace std::chrono_literals;

// Builds the --handler from its spec. `worker` is set before the first task runs.
delayq::Handler makeHandler(const std::string& spec, const std::string& queue,
                            const delayq::Worker* const* worker)
{
    auto aborted = [worker] { return *worker && (*worker)->abortRequested(); };
    if (spec == "ack")
        return [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); };
    if (spec.rfind("fail:", 0) == 0) {
        const std::string text = spec.substr(5);
        double share = -1;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), share);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || share < 0 ||
            share > 1)
            throw UsageError("--handler fail:P needs a share P from 0 to 1 (fail:0.1 fails 10%)");
        return [share](const delayq::ClaimedTask& t) {
            thread_local std::mt19937 gen{std::random_device{}()};
            if (std::uniform_real_distribution<double>(0, 1)(gen) < share)
                return delayq::HandlerResult::fail(
                    "fail handler: attempt " + std::to_string(t.attempts) + " failed on purpose");
            return delayq::HandlerResult::ack();
        };
    }
    if (spec.rfind("sleep:", 0) == 0) {
        std::string text = spec.substr(6);
        long long ms = -1;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
            try {
                ms = delayq::parseDuration(text);
            } catch (const delayq::Error&) {
                ms = -1;
            }
        }
        if (ms < 0 || ms > 86'400'000)
            throw UsageError("--handler sleep:MS needs a time in ms (sleep:250) or a duration");
        return [ms, aborted](const delayq::ClaimedTask&) {
            const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
            while (std::chrono::steady_clock::now() < end && !aborted())
                std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
                    10ms, end - std::chrono::steady_clock::now()));
            return delayq::HandlerResult::ack();
        };
    }
    if (spec.rfind("exec:", 0) == 0) {
        if (spec.size() == 5)
            throw UsageError("--handler exec:CMD needs a command");
        return ExecHandler(spec.substr(5), queue, aborted);
    }
    throw UsageError("--handler must be ack, fail:P, sleep:MS, exec:CMD, pipe:CMD, an amqp:// or "
                     "amqps:// URL or an http:// or https:// URL");
}

// plain: the id is the member, also given byte for byte as member_base64.
void writeEvent(JsonWriter& j, const delayq::WorkerEvent& e, bool plain)
{
    j.beginObject().field("id", e.id);
    if (plain)
        j.field("member_base64", JsonWriter::base64(e.id));
    j.field("attempt", e.attempt)
        .field("outcome", delayq::taskOutcomeName(e.outcome))
        .field("due", e.due)
        .field("started", e.started)
        .field("finished", e.finished)
        .field("lateness", e.lateness);
    if (e.outcome == delayq::TaskOutcome::Retried)
        j.field("retry_at", e.retryAt);
    if (!e.error.empty())
        j.field("error", e.error);
    j.endObject();
}

// Lines from several worker threads, never interleaved.
class EventPrinter
{
public:
    EventPrinter(bool json, bool quiet, std::FILE* log, bool plain)
        : m_json(json), m_quiet(quiet), m_plain(plain), m_log(log)
    {}

    void operator()(const delayq::WorkerEvent& e)
    {
        // --quiet without --log: a task's line is written nowhere, so it is not built either
        // (a JSON object and a line per task, under the printer's lock, for nothing).
        if (e.kind == delayq::WorkerEvent::Kind::TaskFinished && m_quiet && !m_log)
            return;
        std::lock_guard lock(m_mutex);
        if (e.kind == delayq::WorkerEvent::Kind::ConnectionLost) {
            std::fprintf(stderr, "delayq: connection lost: %s (retrying with backoff)\n",
                         printable(e.error).c_str());
            return;
        }
        if (e.kind == delayq::WorkerEvent::Kind::ConnectionRestored) {
            std::fprintf(stderr, "delayq: connection restored\n");
            return;
        }
        if (e.kind == delayq::WorkerEvent::Kind::Error) {
            std::fprintf(stderr, "delayq: %s (retrying with backoff)\n",
                         printable(e.error).c_str());
            return;
        }
        JsonWriter j;
        writeEvent(j, e, m_plain);
        if (m_log) {
            std::fprintf(m_log, "%s\n", j.str().c_str());
            std::fflush(m_log);
        }
        if (m_quiet)
            return;
        if (m_json) {
            std::printf("%s\n", j.str().c_str());
        } else {
            std::string line = std::string(delayq::taskOutcomeName(e.outcome)) + " " +
                               printable(e.id) + " attempt " + std::to_string(e.attempt) +
                               " late " + delayq::formatDuration(e.lateness);
            if (e.outcome == delayq::TaskOutcome::Retried)
                line += " retry " + delayq::formatTime(e.retryAt);
            if (!e.error.empty())
                line += ": " + preview(e.error, 200);
            std::printf("%s\n", line.c_str());
        }
        std::fflush(stdout);
    }

private:
    std::mutex m_mutex;
    bool m_json;
    bool m_quiet;
    bool m_plain;
    std::FILE* m_log;
};

// plain: a delivering worker leases members in place (at least once), the others pop them.
void printSummary(Context& ctx, const delayq::Worker& worker, bool plain, bool delivers)
{
    const auto c = worker.counters();
    if (plain && !ctx.json()) {
        std::fprintf(stderr,
                     "worker %s: %s %lld, acked %lld, failed %lld (added back %lld, dropped "
                     "%lld), put back unrun %lld; lateness p50 %lld ms, p99 %lld ms, max %lld "
                     "ms\n",
                     printable(worker.name()).c_str(), delivers ? "leased" : "popped", c.claimed,
                     c.acked, c.failed, c.retried, c.dead, c.released, c.latenessP50, c.latenessP99,
                     c.latenessMax);
        return;
    }
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .key("summary")
            .beginObject()
            .field("worker", worker.name())
            .field("claimed", c.claimed)
            .field("acked", c.acked)
            .field("failed", c.failed)
            .field("retried", c.retried)
            .field("dead", c.dead)
            .field("lease_lost", c.leaseLost)
            .field("released", c.released)
            .field("reaped", c.reaped)
            .field("lateness_p50", c.latenessP50)
            .field("lateness_p99", c.latenessP99)
            .field("lateness_max", c.latenessMax)
            .endObject()
            .endObject();
        ctx.printJson(j);
        return;
    }
    std::fprintf(stderr,
                 "worker %s: claimed %lld, acked %lld, failed %lld (retried %lld, dead %lld), "
                 "lease lost %lld, released %lld, reaped %lld; lateness p50 %lld ms, p99 %lld "
                 "ms, max %lld ms\n",
                 printable(worker.name()).c_str(), c.claimed, c.acked, c.failed, c.retried, c.dead,
                 c.leaseLost, c.released, c.reaped, c.latenessP50, c.latenessP99, c.latenessMax);
}

// "0,2" -> {0, 2}; empty for "".
std::vector<size_t> shardList(const std::string& text)
{
    std::vector<size_t> shards;
    size_t at = 0;
    while (at < text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string word = text.substr(at, comma - at);
        if (word.empty() || word.size() > 2 ||
            word.find_first_not_of("0123456789") != std::string::npos)
            throw UsageError("--shards takes shard numbers separated by commas, like 0,2 (not '" +
                             printable(word.substr(0, 16)) + "')");
        shards.push_back(static_cast<size_t>(std::stoi(word)));
        at = comma + 1;
    }
    return shards;
}

// The worker's options from the command line; refuses a bad value before anything connects.
delayq::WorkerOptions workerOptionsFrom(Args& a, bool plain)
{
    std::vector<OptionSpec> spec = {
        {"concurrency", true}, {"batch", true},        {"max-batch", true},
        {"lease", true},       {"poll", true},         {"handler", true},
        {"max-tasks", true},   {"until-empty", false}, {"log", true},
        {"quiet", false},      {"stop-timeout", true}, {"name", true},
        {"heartbeat", true},   {"forward-to", true},   {"retry-in", true},
        {"shards", true},      {"max-attempts", true}, {"retry-from", true}};
    for (auto& option : deliveryOptionSpecs())
        spec.push_back(std::move(option));
    a.parse(spec, 1, 1);
    if (!plain && (a.has("forward-to") || a.has("retry-in") || a.has("max-attempts")))
        throw UsageError("--forward-to, --retry-in and --max-attempts apply to plain keys "
                         "(--plain); a queue's own max_attempts is set with delayq config");
    delayq::WorkerOptions o;
    if (plain) {
        o.plainKey = a.positional()[0];
        if (!delayq::isDeliverySpec(a.value("forward-to"))) // a target is the delivery (runWork)
            o.forwardTo = a.value("forward-to");
        if (a.has("forward-to") && a.value("forward-to").empty())
            throw UsageError("--forward-to needs a list key or a delivery target");
        o.plainRetryMs = a.has("retry-in") ? a.duration("retry-in", 0) : -1;
        o.plainMaxAttempts = static_cast<int>(
            a.number("max-attempts", 1, 1000000, delayq::PlainFailures::kDefaultMaxAttempts));
    } else {
        o.queue = a.positional()[0];
        delayq::Keys::validateQueueName(o.queue);
        o.claimShards = shardList(a.value("shards"));
    }
    o.concurrency = static_cast<int>(a.number("concurrency", 1, 256, 1));
    o.batch = static_cast<int>(a.number("batch", 1, 1000, o.batch)); // the core's default
    o.maxBatch = static_cast<int>(a.number("max-batch", 1, 1000, std::max(o.batch, o.maxBatch)));
    o.leaseMs = a.duration("lease", 30000);
    if (o.leaseMs != 0 && o.leaseMs < 300)
        throw UsageError("--lease must be at least 300ms (or 0s for the queue's lease_ms)");
    o.pollInterval = std::chrono::milliseconds(a.duration("poll", 1000));
    if (o.pollInterval < 10ms)
        throw UsageError("--poll must be at least 10ms");
    o.stopTimeout = std::chrono::milliseconds(a.duration("stop-timeout", 10000));
    o.maxTasks = a.number("max-tasks", 1, 1LL << 50, 0);
    o.untilEmpty = a.has("until-empty");
    o.name = a.value("name");
    if (o.name.size() > 200)
        throw UsageError("--name must be at most 200 bytes");
    o.heartbeatInterval = std::chrono::milliseconds(a.duration("heartbeat", 5000));
    if (o.heartbeatInterval < 100ms || o.heartbeatInterval > 20min)
        throw UsageError("--heartbeat must be 100ms to 20m");
    return o;
}

// What `delayq workers` says this worker runs: the handler's first word, or the kind of its
// delivery target.
std::string handlerKind(const std::string& spec)
{
    const std::string word = spec.substr(0, spec.find(':'));
    if (word == "http" || word == "https")
        return "webhook";
    if (word == "amqps")
        return "amqp";
    return word;
}

std::unique_ptr<std::FILE, int (*)(std::FILE*)> openLog(const Args& a)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> log(nullptr, &std::fclose);
    if (a.has("log")) {
        log.reset(std::fopen(a.value("log").c_str(), "a"));
        if (!log)
            throw delayq::Error(delayq::ErrorCode::NoPermission,
                                "cannot open the log file '" + a.value("log") + "' for appending");
    }
    return log;
}

// Fails fast on a wrong URL, password or key: once running, the worker rides out outages.
void checkTarget(Context& ctx, delayq::WorkerOptions& o, bool plain)
{
    delayq::Connection& conn = ctx.connection();
    conn.ping();
    o.connection = conn.options();
    if (o.connection.readOnly)
        throw delayq::Error(delayq::ErrorCode::NoPermission,
                            "work claims and acks tasks: it cannot run with --read-only");
    if (!plain)
        return;
    // Refuses a key of another type now, and fixes the unit for every thread. An empty key
    // cannot tell it, and a guess is how a member scored in s 30 minutes ahead, read as ms
    // (decades overdue), was delivered at once: refused, naming the fix.
    const delayq::PlainQueue plainQueue = ctx.plainQueue();
    if (!plainQueue.unitKnown())
        throw UsageError("plain key '" + printable(plainQueue.key().substr(0, 200)) +
                         "' is empty, so its scores cannot say whether due times are in s or "
                         "ms (a time in s read as ms is decades overdue and would be delivered "
                         "at once): give --score-unit s or --score-unit ms");
    o.plainUnit = plainQueue.unit();
    if (!o.forwardTo.empty()) {
        const std::string type = conn.command({"TYPE", o.forwardTo}).str;
        if (type != "list" && type != "none")
            throw delayq::Error(delayq::ErrorCode::WrongType,
                                "--forward-to key '" + o.forwardTo.substr(0, 200) + "' holds a " +
                                    type + ", not a list");
    }
}

// The target is checked once before anything is claimed; a target that is away or refuses
// us (wrong credentials, vhost or exchange; an endpoint that does not answer) is exit 3, as
// for Redis, and a malformed one exit 2.
void checkDeliveryTarget(const std::string& spec, const delayq::DeliveryOptions& options)
{
    try {
        delayq::checkDelivery(spec, options);
    } catch (const delayq::Error& e) {
        if (e.code() == delayq::ErrorCode::InvalidArgument)
            throw;
        throw delayq::Error(delayq::ErrorCode::Connection,
                            "the delivery target " + delayq::printableSpec(spec) +
                                " refused or did not answer: " + e.what());
    }
}

// The --handler, or on a plain key --forward-to with a delivery target: both mean the
// delivery, at least once (the member is leased in place until the target confirms it).
std::string handlerSpec(const Args& a, bool plain)
{
    const bool forwardsToTarget = plain && delayq::isDeliverySpec(a.value("forward-to"));
    if (forwardsToTarget && a.has("handler"))
        throw UsageError("--forward-to with a delivery target and --handler both say where "
                         "members go: give one");
    if (plain && a.has("forward-to") && !forwardsToTarget &&
        delayq::isDeliverySpec(a.value("handler")))
        throw UsageError("--forward-to LIST pops members onto a list, a delivery target takes "
                         "them itself: give one");
    return forwardsToTarget ? a.value("forward-to") : a.value("handler", "ack");
}

void printStart(Context& ctx, const delayq::Worker& worker, const delayq::WorkerOptions& o,
                bool plain, bool delivers)
{
    if (ctx.json())
        return;
    const std::string where = connectedTo(ctx.connection());
    if (plain && delivers)
        std::fprintf(stderr,
                     "delayq: worker %s on %s plain key %s (at least once: a member leaves the "
                     "key once the target confirmed it), %d thread(s), batch %d\n",
                     printable(worker.name()).c_str(), where.c_str(), printable(o.plainKey).c_str(),
                     o.concurrency, o.batch);
    else if (plain)
        std::fprintf(stderr,
                     "delayq: worker %s on %s plain key %s (at most once%s%s), %d thread(s), "
                     "batch %d\n",
                     printable(worker.name()).c_str(), where.c_str(), printable(o.plainKey).c_str(),
                     o.forwardTo.empty() ? "" : ", forwarding to ", printable(o.forwardTo).c_str(),
                     o.concurrency, o.batch);
    else
        std::fprintf(stderr,
                     "delayq: worker %s on %s queue %s, %d thread(s), batch %d (up to %d while a "
                     "backlog drains)\n",
                     printable(worker.name()).c_str(), where.c_str(), o.queue.c_str(),
                     o.concurrency, o.batch, std::max(o.batch, o.maxBatch));
    // An eviction policy that may delete tasks is said before the first claim (delayq doctor
    // has the rest); a server that denies INFO is not a reason to refuse work.
    try {
        for (const auto& f : delayq::Doctor(ctx.connection()).eviction())
            if (f.level != delayq::Finding::Level::Ok)
                std::fprintf(stderr, "delayq: %s: %s on %s: %s (%s; see delayq doctor)\n",
                             delayq::findingLevelName(f.level), f.what.c_str(), f.server.c_str(),
                             f.risk.c_str(), f.fix.c_str());
    } catch (const delayq::Error&) {
    }
}

// Runs until the worker ends: the first signal stops it gracefully, a second one (or the
// stop timeout running out) at once.
void waitForSignals(delayq::Worker& worker, const sigset_t& signals,
                    std::chrono::milliseconds stopTimeout)
{
    int received = 0;
    std::chrono::steady_clock::time_point forceAt{};
    while (worker.isRunning()) {
        timespec wait{0, 200'000'000};
        const int sig = sigtimedwait(&signals, nullptr, &wait);
        if (sig > 0 && ++received == 1) {
            std::fprintf(stderr, "delayq: stopping: finishing the tasks in hand (again to stop "
                                 "at once)\n");
            worker.requestStop();
            forceAt = std::chrono::steady_clock::now() + stopTimeout + 2s;
        } else if (sig > 0 || (received > 0 && std::chrono::steady_clock::now() > forceAt)) {
            std::fprintf(stderr, "delayq: stopping at once: tasks in hand go back to the queue\n");
            worker.stopNow();
            break;
        }
    }
}

} // namespace

int runWork(Context& ctx)
{
    Args& a = ctx.args();
    const bool plain = ctx.global().plain;
    delayq::WorkerOptions o = workerOptionsFrom(a, plain);
    o.prefix = ctx.global().prefix;
    if (!o.claimShards.empty()) {
        // Refused here, before anything starts, not at each claim of the worker's threads.
        delayq::Queue queue(ctx.connection(), o.queue, o.prefix);
        queue.setClaimShards(o.claimShards);
    }

    const delayq::Worker* self = nullptr;
    // --retry-from: the worker publishes the dead letters its intake turned into tasks back
    // to their routes; the intake runs beside it on a thread of its own.
    std::unique_ptr<delayq::amqp::RetryLoop> retry;
    if (a.has("retry-from") && (plain || a.has("handler")))
        throw UsageError("--retry-from makes the worker republish dead letters: it takes no "
                         "--handler and no --plain key");
    const std::string spec = a.has("retry-from") ? a.value("retry-from") : handlerSpec(a, plain);
    const bool delivers = delayq::isDeliverySpec(spec) || a.has("retry-from");
    if (plain && !delivers && a.has("max-attempts"))
        throw UsageError("--max-attempts applies to a forwarder (--forward-to TARGET): a pop "
                         "consumer takes each member once");
    o.handlerKind = a.has("retry-from") ? "amqp-retry" : handlerKind(spec);
    delayq::Handler handler;
    delayq::DeliveryFactory delivery;
    delayq::DeliveryOptions deliveryOptions;
    if (delivers) {
        deliveryOptions = deliveryOptionsFrom(a, spec);
        deliveryOptions.queue = plain ? o.plainKey : o.queue;
        // Named now, so a pipe consumer's DELAYQ_WORKER is the worker's own name.
        if (o.name.empty())
            o.name = delayq::defaultWorkerName();
        deliveryOptions.workerName = o.name;
        deliveryOptions.aborted = [&self] { return self && self->abortRequested(); };
        deliveryOptions.notice = [](const std::string& line) {
            std::fprintf(stderr, "delayq: %s\n", printable(line).c_str());
        };
        if (!a.has("answer-timeout") && o.leaseMs > 0)
            deliveryOptions.answerTimeoutMs = o.leaseMs;
        if (a.has("retry-from")) {
            retry = std::make_unique<delayq::amqp::RetryLoop>(spec, delayq::ConnectionOptions{},
                                                              o.queue, o.prefix);
            retry->setNotice(deliveryOptions.notice);
            delivery = retry->republisher(deliveryOptions);
        } else {
            delivery = delayq::deliveryFor(spec, deliveryOptions);
        }
    } else {
        deliveryOptionsFrom(a, spec); // refuses a delivery target's options
        handler = makeHandler(spec, plain ? o.plainKey : o.queue, &self);
    }
    auto log = openLog(a);
    checkTarget(ctx, o, plain);
    if (retry) {
        // Made again with the Redis options now known (the intake has its own connection).
        retry = std::make_unique<delayq::amqp::RetryLoop>(spec, o.connection, o.queue, o.prefix);
        retry->setNotice(deliveryOptions.notice);
        try {
            retry->check();
        } catch (const delayq::Error& e) {
            if (e.code() == delayq::ErrorCode::InvalidArgument)
                throw;
            throw delayq::Error(delayq::ErrorCode::Connection,
                                "the --retry-from broker " +
                                    delayq::amqp::RetryLoop::printable(spec) +
                                    " refused or did not answer: " + e.what());
        }
    } else if (delivers) {
        checkDeliveryTarget(spec, deliveryOptions);
    }

    // Signals are taken synchronously below; every thread started from here inherits the mask.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    EventPrinter printer(ctx.json(), a.has("quiet"), log.get(), plain);
    auto onEvent = [&printer](const delayq::WorkerEvent& e) { printer(e); };
    delayq::Worker worker =
        delivers ? delayq::Worker(o, delivery, onEvent) : delayq::Worker(o, handler, onEvent);
    self = &worker;
    worker.start();
    printStart(ctx, worker, o, plain, delivers);
    if (retry) {
        retry->start();
        if (!ctx.json())
            std::fprintf(stderr,
                         "delayq: retrying dead letters from %s: each goes back to its original "
                         "exchange and routing key\n",
                         printable(delayq::amqp::RetryLoop::printable(spec)).c_str());
    } else if (delivers && !ctx.json()) {
        std::fprintf(stderr, "delayq: delivering to %s\n",
                     printable(delayq::printableSpec(spec)).c_str());
    }
    waitForSignals(worker, signals, o.stopTimeout);
    if (retry) // nothing new comes in while the worker finishes what it holds
        retry->stop();
    worker.stop();
    printSummary(ctx, worker, plain, delivers);
    return ExitOk;
}

} // namespace cli
