#pragma once

// Count, sum, extremes, mean and sample standard deviation of integer durations in one pass
// (Welford, as pandas' groupby std), and the exact combination of two such summaries (Chan et
// al.): the "others" rows fold many names into one.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kscope {

struct RunningStats {
    int64_t count = 0;
    int64_t sum = 0;
    int64_t max = std::numeric_limits<int64_t>::min();
    int64_t min = std::numeric_limits<int64_t>::max();
    double mean = 0.0;
    double m2 = 0.0;

    void add(int64_t value)
    {
        ++count;
        sum += value;
        max = std::max(max, value);
        min = std::min(min, value);
        const double delta = static_cast<double>(value) - mean;
        mean += delta / static_cast<double>(count);
        m2 += delta * (static_cast<double>(value) - mean);
    }
    void merge(const RunningStats& other)
    {
        if (other.count == 0)
            return;
        const double n1 = static_cast<double>(count), n2 = static_cast<double>(other.count);
        const double delta = other.mean - mean;
        mean += delta * n2 / (n1 + n2);
        m2 += other.m2 + delta * delta * n1 * n2 / (n1 + n2);
        count += other.count;
        sum += other.sum;
        max = std::max(max, other.max);
        min = std::min(min, other.min);
    }
    double stddev() const { return count > 1 ? std::sqrt(m2 / static_cast<double>(count - 1)) : 0.0; }
};

} // namespace kscope
