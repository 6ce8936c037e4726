#include "transport/reconnectbackoff.h"

#include <algorithm>
#include <random>

namespace delayq {

ReconnectBackoff::ReconnectBackoff(std::chrono::milliseconds ceiling) : m_ceiling(ceiling) {}

std::chrono::milliseconds ReconnectBackoff::next()
{
    const double base = std::min<double>(static_cast<double>(m_ceiling.count()),
                                         100.0 * (1 << std::min(m_failures, 10)));
    ++m_failures;
    // Jittered so that many clients do not retry in step, but never past the ceiling: a
    // worker is back within maxReconnectDelay of the server or the network coming back.
    const double wait = std::min(static_cast<double>(m_ceiling.count()), base * jitter(0.75, 1.25));
    return std::chrono::milliseconds(static_cast<long long>(wait));
}

double jitter(double low, double high)
{
    thread_local std::mt19937 gen{std::random_device{}()};
    return std::uniform_real_distribution<double>(low, high)(gen);
}

} // namespace delayq
