#include "worker/simulatedhandler.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

namespace delayq::ui {

delayq::Handler SimulatedHandler::make(bool abandon, double failProbability, int sleepMs,
                                       std::shared_ptr<std::atomic<bool>> abort)
{
    return [abandon, failProbability, sleepMs,
            abort](const delayq::ClaimedTask&) -> delayq::HandlerResult {
        thread_local std::mt19937 rng(std::random_device{}());
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(sleepMs);
        while (std::chrono::steady_clock::now() < until) {
            if (abort->load())
                return delayq::HandlerResult::fail("the admin app closed during the task", 0);
            std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
                until - std::chrono::steady_clock::now(), std::chrono::milliseconds(20)));
        }
        if (abandon)
            return delayq::HandlerResult::abandon();
        if (failProbability > 0 &&
            std::uniform_real_distribution<double>(0, 1)(rng) < failProbability)
            return delayq::HandlerResult::fail("simulated failure (embedded worker)");
        return delayq::HandlerResult::ack();
    };
}

} // namespace delayq::ui
