#include <delayq/worker.h>

#include <delayq/queuereader.h>

#include "transport/reconnectbackoff.h"
#include "transport/sigpipeblock.h"
#include "worker/heartbeat.h"
#include "worker/leasekeeper.h"
#include "worker/upkeep.h"
#include "worker/workercontext.h"
#include "worker/workerthread.h"
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/subscriber.h>

#include <thread>

namespace delayq {

const char* taskOutcomeName(TaskOutcome outcome)
{
    switch (outcome) {
    case TaskOutcome::Acked:
        return "acked";
    case TaskOutcome::Retried:
        return "retried";
    case TaskOutcome::Dead:
        return "dead";
    case TaskOutcome::LeaseLost:
        return "lease_lost";
    case TaskOutcome::Abandoned:
        return "abandoned";
    case TaskOutcome::Released:
        return "released";
    case TaskOutcome::Dropped:
        return "dropped";
    }
    return "?";
}

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

void validate(const WorkerOptions& o)
{
    if (o.plainKey.empty())
        Keys keys(o.prefix, o.queue); // validates both
    else if (o.plainKey.size() > 4096)
        throw Error(ErrorCode::InvalidArgument, "a plain queue key must be 1 to 4096 bytes");
    if (!o.forwardTo.empty() && o.plainKey.empty())
        throw Error(ErrorCode::InvalidArgument, "forwarding applies to plain queues only");
    if (o.plainMaxAttempts < 1 || o.plainMaxAttempts > 1000000)
        throw Error(ErrorCode::InvalidArgument, "a plain key's max attempts must be 1 to 1000000");
    if (o.concurrency < 1 || o.concurrency > 256)
        throw Error(ErrorCode::InvalidArgument, "concurrency must be 1 to 256 threads");
    if (o.batch < 1 || o.batch > 1000)
        throw Error(ErrorCode::InvalidArgument, "the batch must be 1 to 1000 tasks");
    if (o.maxBatch < 1 || o.maxBatch > 1000)
        throw Error(ErrorCode::InvalidArgument, "the largest batch must be 1 to 1000 tasks");
    if (o.leaseMs != 0 && o.leaseMs < 300)
        throw Error(ErrorCode::InvalidArgument,
                    "the lease must be at least 300 ms (or 0 for the queue's lease_ms)");
    if (o.pollInterval.count() < 10)
        throw Error(ErrorCode::InvalidArgument, "the poll interval must be at least 10 ms");
    if (o.reapBatch < 1 || o.reapBatch > 1000)
        throw Error(ErrorCode::InvalidArgument, "the reap batch must be 1 to 1000 tasks");
    if (o.heartbeatInterval.count() < 100 || o.heartbeatInterval.count() > 1200000)
        throw Error(ErrorCode::InvalidArgument, "the heartbeat interval must be 100 ms to 20 min");
    if (o.name.size() > 200)
        throw Error(ErrorCode::InvalidArgument, "a worker name must be at most 200 bytes");
}

} // namespace

class Worker::Private
{
public:
    Private(WorkerOptions o, Handler h, DeliveryFactory d, WorkerEventCallback e)
        : context(std::move(o), std::move(h), std::move(d), std::move(e)),
          options(context.options()), leases(context)
    {}

    // The wake channel's listener: a message, or a resubscribe after an outage, wakes the
    // sleeping worker threads.
    void subscriberLoop();
    // A plain key's maintenance: its heartbeat alone (no leases to renew, nothing to reap).
    void plainBeatLoop();
    void joinThreads();

    WorkerContext context;
    const WorkerOptions& options;
    LeaseKeeper leases;
    std::vector<std::thread> threads;
};

void Worker::Private::subscriberLoop()
{
    // SIGPIPE blocked for the thread's whole life, as on the worker threads.
    const SigpipeBlock noSigpipe;
    // The wake channel of every shard: a sharded queue's shards publish on their own.
    Connection connection(options.connection);
    QueueReader queue(connection, options.queue, options.prefix);
    std::vector<std::string> channels;
    ReconnectBackoff backoff(options.maxReconnectDelay);
    Subscriber& subscriber = context.subscriber();
    bool subscribed = false;
    while (!context.stopping()) {
        try {
            // layout() reads the config again at most once a second: a reshard that adds a
            // shard is heard within about a poll interval.
            if (subscribed && queue.layout().tags.size() != channels.size())
                subscribed = false;
            if (!subscribed) {
                channels.clear();
                for (size_t s = 0; s < queue.shardCount(); ++s)
                    channels.push_back(queue.shardKeys(s).wake());
                subscriber.subscribe(channels);
                subscribed = true;
                backoff.reset();
                context.wakeAll(); // messages sent while away are lost: every thread looks once
            }
            if (subscriber.waitMessage(options.pollInterval))
                context.wakeAll();
        } catch (const Error& e) {
            subscribed = false;
            context.reportError(e);
            context.sleepUntil(Clock::now() + backoff.next(), nullptr);
        }
    }
    subscriber.disconnect();
}

void Worker::Private::plainBeatLoop()
{
    const SigpipeBlock noSigpipe;
    Connection connection(options.connection);
    Heartbeat heartbeat(context);
    ReconnectBackoff backoff(options.maxReconnectDelay);
    const auto never = [] { return false; };
    while (context.workersRunning()) {
        try {
            heartbeat.beatIfDue(connection);
            backoff.reset();
            context.sleepWhileWorking(heartbeat.nextBeat(), never);
        } catch (const Error& e) {
            context.reportError(e);
            context.sleepWhileWorking(Clock::now() + backoff.next(), never);
        }
    }
    heartbeat.leave(connection);
}

void Worker::Private::joinThreads()
{
    for (auto& t : threads)
        if (t.joinable())
            t.join();
    threads.clear();
}

Worker::Worker(WorkerOptions options, Handler handler, WorkerEventCallback onEvent)
    : m_d(std::make_unique<Private>(std::move(options), std::move(handler), DeliveryFactory{},
                                    std::move(onEvent)))
{}

Worker::Worker(WorkerOptions options, DeliveryFactory delivery, WorkerEventCallback onEvent)
    : m_d(std::make_unique<Private>(std::move(options), Handler{}, std::move(delivery),
                                    std::move(onEvent)))
{}

Worker::~Worker()
{
    stopNow();
}

const WorkerOptions& Worker::options() const
{
    return m_d->options;
}

const std::string& Worker::name() const
{
    return m_d->context.name();
}

bool Worker::start()
{
    const WorkerOptions& o = m_d->options;
    validate(o);
    if (!m_d->context.hasHandler())
        throw Error(ErrorCode::InvalidArgument, "the worker has no handler");
    if (isRunning())
        return false;
    m_d->joinThreads();

    m_d->context.reset();
    for (int i = 0; i < o.concurrency; ++i)
        m_d->threads.emplace_back([this, i] { WorkerThread(m_d->context, m_d->leases, i).run(); });
    // A plain key has no leases to renew or reap and no wake channel: its threads sleep
    // until the next due time the pop reported, or the poll interval.
    if (o.plainKey.empty()) {
        m_d->threads.emplace_back([this] { m_d->leases.run(); });
        m_d->threads.emplace_back([this] { Upkeep(m_d->context).run(); });
        m_d->threads.emplace_back([this] { m_d->subscriberLoop(); });
    } else {
        m_d->threads.emplace_back([this] { m_d->plainBeatLoop(); });
    }
    return true;
}

void Worker::requestStop()
{
    if (m_d->threads.empty())
        return;
    m_d->context.requestStop();
}

void Worker::stop()
{
    if (m_d->threads.empty())
        return;
    requestStop();
    // The worker threads get stopTimeout to finish; a little more to hand back what is left.
    if (!wait(m_d->options.stopTimeout + milliseconds(2000)))
        stopNow();
    m_d->joinThreads();
}

void Worker::stopNow()
{
    if (m_d->threads.empty())
        return;
    m_d->context.requestStop(true);
    m_d->joinThreads();
}

bool Worker::isRunning() const
{
    return m_d->context.workersRunning();
}

bool Worker::wait(std::chrono::milliseconds timeout)
{
    return m_d->context.waitForWorkers(timeout);
}

bool Worker::abortRequested() const
{
    return m_d->context.aborting();
}

WorkerCounters Worker::counters() const
{
    return m_d->context.tally().counters();
}

} // namespace delayq
