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
    return std::chrono::milliseconds(static_cast<long long>(base * jitter(0.75, 1.25)));
}

double jitter(double low, double high)
{
    thread_local std::mt19937 gen{std::random_device{}()};
    return std::uniform_real_distribution<double>(low, high)(gen);
}

} // namespace delayq
