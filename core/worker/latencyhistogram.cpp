#include <delayq/latencyhistogram.h>

#include <algorithm>
#include <cmath>

namespace delayq {

namespace {

// Each decade from 1 s on, [10^(3+d), 10^(4+d)) ms, has 900 buckets of 10^(1+d) ms: three
// significant digits.
constexpr int kExactMs = 1000;
constexpr int kPerDecade = 900;
constexpr int kDecades = 10; // 1 s up to 10^13 ms (about 317 years)

long long powerOfTen(int n)
{
    long long p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
}

} // namespace

int LatencyHistogram::indexOf(long long ms)
{
    if (ms < 0)
        ms = 0;
    if (ms < kExactMs)
        return static_cast<int>(ms);
    long long from = kExactMs;
    long long width = 10;
    for (int d = 0; d < kDecades; ++d, from *= 10, width *= 10) {
        if (ms < from * 10)
            return kExactMs + d * kPerDecade + static_cast<int>((ms - from) / width);
    }
    return kBuckets - 1;
}

long long LatencyHistogram::lowerEdge(int index)
{
    if (index < kExactMs)
        return index;
    const int d = (index - kExactMs) / kPerDecade;
    if (d >= kDecades)
        return powerOfTen(3 + kDecades);
    return powerOfTen(3 + d) + ((index - kExactMs) % kPerDecade) * powerOfTen(1 + d);
}

void LatencyHistogram::record(long long ms)
{
    ++m_buckets[static_cast<size_t>(indexOf(ms))];
    ++m_count;
    m_max = std::max(m_max, ms < 0 ? 0 : ms);
}

void LatencyHistogram::merge(const LatencyHistogram& other)
{
    for (size_t i = 0; i < m_buckets.size(); ++i)
        m_buckets[i] += other.m_buckets[i];
    m_count += other.m_count;
    m_max = std::max(m_max, other.m_max);
}

void LatencyHistogram::clear()
{
    m_buckets.fill(0);
    m_count = 0;
    m_max = 0;
}

long long LatencyHistogram::percentile(double q) const
{
    if (m_count == 0)
        return 0;
    q = std::clamp(q, 0.0, 1.0);
    const long long rank = std::max(1LL, static_cast<long long>(std::ceil(q * m_count)));
    long long seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
        seen += m_buckets[static_cast<size_t>(i)];
        if (seen >= rank)
            return std::min(lowerEdge(i), m_max);
    }
    return m_max;
}

std::vector<LatencyHistogram::Bucket> LatencyHistogram::coarseBuckets() const
{
    static const long long edges[] = {0,   1,   2,    5,    10,   20,    50,    100,
                                      200, 500, 1000, 2000, 5000, 10000, 30000, 60000};
    std::vector<Bucket> out;
    const size_t n = std::size(edges);
    for (size_t k = 0; k < n; ++k)
        out.push_back({edges[k], k + 1 < n ? edges[k + 1] : -1, 0});
    // Every coarse edge is a fine edge, so each fine bucket falls in exactly one row.
    for (int i = 0; i < kBuckets; ++i) {
        const long long lo = lowerEdge(i);
        size_t k = n - 1;
        while (k > 0 && edges[k] > lo)
            --k;
        out[k].count += m_buckets[static_cast<size_t>(i)];
    }
    return out;
}

} // namespace delayq
