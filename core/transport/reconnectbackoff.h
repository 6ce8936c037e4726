#pragma once

#include <chrono>

namespace delayq {

// How long a worker thread waits before it tries Redis again after an error: 100 ms,
// doubling up to a ceiling, each wait jittered by +-25% so that the threads of many workers
// do not all come back in the same millisecond after an outage.
class ReconnectBackoff
{
public:
    explicit ReconnectBackoff(std::chrono::milliseconds ceiling);

    // The wait before the next try (+-25 %, never past the ceiling); each call doubles the
    // one after it.
    std::chrono::milliseconds next();
    // Redis answered: the next error starts from 100 ms again.
    void reset() { m_failures = 0; }

private:
    std::chrono::milliseconds m_ceiling;
    int m_failures = 0;
};

// A uniformly random factor in [low, high), from a generator of the calling thread.
double jitter(double low, double high);

} // namespace delayq
