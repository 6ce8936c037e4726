#include <delayq/latencyhistogram.h>

#include <algorithm>
#include <cmath>

namespace delayq {

int LatencyHistogram::indexOf(long long ms)
{
    if (ms < 0)
        ms = 0;
    if (ms < 100)
        return static_cast<int>(ms);
    if (ms < 1000)
        return 100 + static_cast<int>((ms - 100) / 10);
    if (ms < 10000)
        return 190 + static_cast<int>((ms - 1000) / 100);
    if (ms < 60000)
        return 280 + static_cast<int>((ms - 10000) / 1000);
    return kBuckets - 1;
}

long long LatencyHistogram::lowerEdge(int index)
{
    if (index < 100)
        return index;
    if (index < 190)
        return 100 + (index - 100) * 10LL;
    if (index < 280)
        return 1000 + (index - 190) * 100LL;
    if (index < 330)
        return 10000 + (index - 280) * 1000LL;
    return 60000;
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
