#pragma once

#include <array>
#include <vector>

namespace delayq {

// Counts of millisecond latencies in buckets fine enough for percentiles, in constant memory
// (80 KB): exact to the ms below 1 s, then three significant digits (10 ms steps below 10 s,
// 100 ms below 100 s, 1 s below 1,000 s, ...; a bucket is less than 1% of its lower edge
// wide) up to 10^13 ms, then one overflow bucket. A backlog that waited 40 minutes reads as
// such, not as the top of a short range. Not thread-safe: the owner locks.
class LatencyHistogram
{
public:
    struct Bucket
    {
        long long fromMs = 0; // inclusive
        long long toMs = 0;   // exclusive; -1 = no upper bound
        long long count = 0;
    };

    void record(long long ms);
    void merge(const LatencyHistogram& other);
    void clear();

    long long count() const { return m_count; }
    long long max() const { return m_max; }
    // The lower edge of the bucket holding the q-th quantile (0 < q <= 1), capped by max():
    // exact to the ms below 1 s, above that at most 1% low. 0 when empty.
    long long percentile(double q) const;
    // Fixed 1-2-5 buckets (0-1 ms ... 30-60 s, 60 s+) for a chart; always the same 16 rows.
    std::vector<Bucket> coarseBuckets() const;

private:
    static constexpr int kBuckets = 1000 + 10 * 900 + 1; // see latencyhistogram.cpp
    static int indexOf(long long ms);
    static long long lowerEdge(int index);

    std::array<long long, kBuckets> m_buckets{};
    long long m_count = 0;
    long long m_max = 0;
};

} // namespace delayq
