#include "worker/workercontext.h"

#include <delayq/delivery.h>
#include <delayq/error.h>
#include <delayq/subscriber.h>
#include <delayq/taskid.h>

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace delayq {

std::string defaultWorkerName()
{
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || !host[0])
        std::snprintf(host, sizeof host, "host");
    return std::string(host) + "-" + std::to_string(::getpid()) + "-" + randomToken(3);
}

WorkerContext::WorkerContext(WorkerOptions options, Handler handler, DeliveryFactory delivery,
                             WorkerEventCallback onEvent)
    : m_options(std::move(options)), m_handler(std::move(handler)), m_delivery(std::move(delivery)),
      m_onEvent(std::move(onEvent)),
      m_name(m_options.name.empty() ? defaultWorkerName() : m_options.name)
{}

WorkerContext::~WorkerContext() = default;

void WorkerContext::reset()
{
    m_stopping = false;
    m_aborting = false;
    m_budget = m_options.maxTasks;
    m_tally.reset();
    m_subscriber = std::make_unique<Subscriber>(m_options.connection);
    m_workersAlive = m_options.concurrency;
}

HandlerResult WorkerContext::runHandler(const ClaimedTask& task)
{
    try {
        return m_handler(task);
    } catch (const std::exception& e) {
        return HandlerResult::fail(std::string("handler threw: ") + e.what());
    } catch (...) {
        return HandlerResult::fail("handler threw an unknown exception");
    }
}

std::unique_ptr<Delivery> WorkerContext::makeDelivery(int thread)
{
    std::unique_ptr<Delivery> delivery;
    try {
        delivery = m_delivery(thread);
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error(ErrorCode::InvalidArgument,
                    std::string("the delivery target could not be set up: ") + e.what());
    }
    if (!delivery)
        throw Error(ErrorCode::InvalidArgument, "the delivery target could not be set up");
    return delivery;
}

std::vector<HandlerResult> WorkerContext::deliver(Delivery& delivery,
                                                  const std::vector<ClaimedTask>& tasks)
{
    std::vector<HandlerResult> results;
    try {
        results = delivery.deliver(tasks);
    } catch (const std::exception& e) {
        results.assign(tasks.size(),
                       HandlerResult::fail(std::string("delivery threw: ") + e.what()));
    } catch (...) {
        results.assign(tasks.size(), HandlerResult::fail("delivery threw an unknown exception"));
    }
    if (results.size() != tasks.size())
        results.assign(tasks.size(),
                       HandlerResult::fail("delivery answered " + std::to_string(results.size()) +
                                           " results for " + std::to_string(tasks.size()) +
                                           " tasks"));
    return results;
}

void WorkerContext::callOnEvent(const WorkerEvent& event)
{
    if (!m_onEvent)
        return;
    try {
        m_onEvent(event);
    } catch (...) {
        // A throwing callback must not take a worker thread down.
    }
}

void WorkerContext::taskFinished(const WorkerEvent& event)
{
    // Threads waiting for the last task in hand look again (a retry, or the end).
    if (m_tally.taskEnded(event.outcome) && m_options.untilEmpty)
        wakeAll();
    callOnEvent(event);
}

void WorkerContext::tasksDropped(long long n)
{
    if (m_tally.tasksDropped(n) && m_options.untilEmpty)
        wakeAll();
}

void WorkerContext::reportOk()
{
    if (auto event = m_tally.redisAnswered())
        callOnEvent(*event);
}

void WorkerContext::reportError(const Error& e)
{
    if (auto event = m_tally.redisFailed(e))
        callOnEvent(*event);
}

long long WorkerContext::reserveBudget(int want)
{
    if (m_options.maxTasks <= 0)
        return want;
    ++m_reservations; // before the budget moves, so budgetSpent() never misses it
    long long left = m_budget.load();
    long long take = 0;
    do {
        take = std::min<long long>(want, left);
        if (take <= 0) {
            --m_reservations;
            return 0;
        }
    } while (!m_budget.compare_exchange_weak(left, left - take));
    return take;
}

void WorkerContext::settleBudget(long long unused)
{
    if (m_options.maxTasks <= 0)
        return;
    m_budget += unused; // before the reservation ends, for the same reason
    --m_reservations;
}

bool WorkerContext::budgetSpent() const
{
    return m_options.maxTasks > 0 && m_reservations.load() == 0 && m_budget.load() <= 0;
}

void WorkerContext::requestStop(bool abort)
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        if (abort)
            m_aborting = true;
    }
    m_cv.notify_all();
    if (m_subscriber)
        m_subscriber->interrupt();
}

uint64_t WorkerContext::wakeGeneration()
{
    std::lock_guard lock(m_mutex);
    return m_wakeGeneration;
}

void WorkerContext::wakeAll()
{
    {
        std::lock_guard lock(m_mutex);
        ++m_wakeGeneration;
    }
    m_cv.notify_all();
}

void WorkerContext::sleepUntil(Clock::time_point until, const uint64_t* generation)
{
    std::unique_lock lock(m_mutex);
    m_cv.wait_until(lock, until, [&] {
        return m_stopping.load() || (generation && m_wakeGeneration != *generation);
    });
}

void WorkerContext::sleepWhileWorking(Clock::time_point until, const std::function<bool()>& done)
{
    std::unique_lock lock(m_mutex);
    m_cv.wait_until(lock, until, [&] { return m_workersAlive == 0 || done(); });
}

void WorkerContext::nudgeRenewals()
{
    {
        std::lock_guard lock(m_mutex); // a sleeper between its check and its wait gets it too
    }
    m_cv.notify_all();
}

bool WorkerContext::waitForWorkers(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, timeout, [&] { return m_workersAlive == 0; });
}

void WorkerContext::workerEnded()
{
    if (--m_workersAlive == 0)
        requestStop();
}

} // namespace delayq
