#pragma once

#include <array>
#include <vector>

namespace delayq {

// Counts of millisecond latencies in buckets fine enough for percentiles (1 ms below 100 ms,
// 10 ms below 1 s, 100 ms below 10 s, 1 s below 60 s, then one overflow bucket), in constant
// memory. Not thread-safe: the owner locks.
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
    // exact to the ms below 100 ms. 0 when empty.
    long long percentile(double q) const;
    // Fixed 1-2-5 buckets (0-1 ms ... 30-60 s, 60 s+) for a chart; always the same 16 rows.
    std::vector<Bucket> coarseBuckets() const;

private:
    static constexpr int kBuckets = 100 + 90 + 90 + 50 + 1;
    static int indexOf(long long ms);
    static long long lowerEdge(int index);

    std::array<long long, kBuckets> m_buckets{};
    long long m_count = 0;
    long long m_max = 0;
};

} // namespace delayq
