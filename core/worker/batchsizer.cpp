#include "worker/batchsizer.h"

#include <algorithm>

namespace delayq {

namespace {

// A hand of tasks done within this grows the next claim; one slower than kSlow shrinks it.
// Either way a full hand never waits long for its last task.
constexpr auto kQuick = std::chrono::milliseconds(50);
constexpr auto kSlow = std::chrono::milliseconds(250);

} // namespace

BatchSizer::BatchSizer(int base, int max)
    : m_base(base), m_max(std::max(base, max)), m_current(base)
{}

void BatchSizer::claimed(int asked, int got, std::chrono::steady_clock::duration handTime,
                         bool moreDue)
{
    if (got < asked)
        m_current = m_base;
    else if (handTime > kSlow)
        m_current = std::max(m_base, m_current / 2);
    else if (handTime < kQuick)
        m_current = moreDue ? m_max : std::min(m_max, m_current * 2);
}

} // namespace delayq
