#pragma once

// The numeric behaviour of numpy 1.24 / pandas 1.5 that HTA's outputs depend on, rebuilt so
// --hta-compat can match HTA to the last row: its unstable quicksort (the order of equal keys
// decides which zero-length overlap slices and which "others" rows appear), np.round and the
// linear percentile.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

namespace kscope::hta {

// numpy's argsort(kind="quicksort") (introsort: median of three, insertion sort below 16
// elements, heapsort past the depth limit). Equal keys end up in numpy's order, not stably.
std::vector<uint32_t> quicksortArgsort(std::span<const int64_t> keys);
std::vector<uint32_t> quicksortArgsort(std::span<const double> keys);

// pandas sort_values(ascending=False) on one column: reverse, quicksort, reverse.
std::vector<uint32_t> sortDescendingOrder(std::span<const int64_t> keys);

// np.round(x, decimals): scale, round half to even, unscale (not correctly rounded, like numpy).
double round(double value, int decimals);

// Series.quantile(q) with linear interpolation (pandas passes q*100 to np.percentile, which
// divides by 100 again). values must be sorted ascending and non-empty.
double quantileLinear(std::span<const double> sortedValues, double q);

// Where quantileLinear reads: the order statistics `lower` and `upper` of n values (0-based) and
// the weight between them; lerp() is numpy's _lerp of the two.
struct QuantilePosition {
    size_t lower = 0;
    size_t upper = 0;
    double gamma = 0.0;
};
QuantilePosition quantilePosition(size_t n, double q);
double lerp(double a, double b, double gamma);

// The exact order statistics `ranks` (0-based, ascending, distinct) of integers, without sorting
// or nth_element's passes: one counting pass into buckets of the value range, then only the
// values of the few buckets that hold a rank asked for are gathered and bucketed again (each
// level resolves 12 bits of the range; equal values end it at once). Gap lengths in ns span
// 2^30 and more, so a quartile is found in two or three short passes: on the benchmark run's
// 277 k idle gaps the interval statistics took 2.3 ms by nth_element. out[i] is the ranks[i]-th.
// lowest and highest are the least and the greatest of values.
template <typename T>
void selectOrderStatistics(std::span<const T> values, T lowest, T highest, std::span<const size_t> ranks, std::span<T> out)
{
    static_assert(std::numeric_limits<T>::is_integer);
    using U = std::make_unsigned_t<T>;
    if (values.empty() || ranks.empty())
        return;
    struct Level {
        std::vector<T> owned;  // the gathered values of one bucket (empty: the caller's span)
        std::span<const T> values;
        T low, high;
        std::vector<size_t> ranks, slots;  // ranks within `values`, and where each answer goes
    };
    std::vector<Level> todo;
    todo.push_back({{}, values, lowest, highest, {ranks.begin(), ranks.end()}, {}});
    for (size_t i = 0; i < ranks.size(); ++i)
        todo.back().slots.push_back(i);
    // Buckets of the offsets from the level's least value: linear (12 bits of the range each
    // level) or, on a first level of a wide range, log-linear (128 per power of two), because
    // gaps are skewed: most a few us, a few a second, and linear buckets of a second's range
    // would put every short gap in one.
    struct Buckets {
        bool logLinear = false;
        int shift = 0;
        size_t count = 0;
        size_t of(U offset) const
        {
            if (!logLinear)
                return static_cast<size_t>(offset >> shift);
            if (offset < 128)
                return static_cast<size_t>(offset);
            const int e = std::numeric_limits<U>::digits - std::countl_zero(offset);  // 8 .. 64
            return static_cast<size_t>(e - 7) * 128 + static_cast<size_t>((offset >> (e - 8)) & 127);
        }
        U firstOffset(size_t bucket) const
        {
            if (!logLinear)
                return static_cast<U>(bucket) << shift;
            if (bucket < 128)
                return static_cast<U>(bucket);
            const int e = static_cast<int>(bucket / 128) + 7;
            return static_cast<U>(128 + bucket % 128) << (e - 8);
        }
        U widthLessOne(size_t bucket) const
        {
            if (!logLinear)
                return (U{1} << shift) - 1;
            return bucket < 128 ? U{0} : (U{1} << (static_cast<int>(bucket / 128) - 1)) - 1;
        }
    };
    constexpr int kBucketBits = 12;
    std::vector<uint32_t> counts;
    std::vector<int32_t> slotOfBucket;
    std::vector<T*> into;
    std::vector<size_t> filled;
    bool first = true;
    while (!todo.empty()) {
        Level level = std::move(todo.back());
        todo.pop_back();
        const U range = static_cast<U>(static_cast<U>(level.high) - static_cast<U>(level.low));
        if (range == 0) {
            for (size_t slot : level.slots)
                out[slot] = level.low;
            continue;
        }
        if (level.values.size() <= 64) {
            std::vector<T> small(level.values.begin(), level.values.end());
            std::sort(small.begin(), small.end());
            for (size_t r = 0; r < level.ranks.size(); ++r)
                out[level.slots[r]] = small[level.ranks[r]];
            continue;
        }
        const int bits = std::numeric_limits<U>::digits - std::countl_zero(range);
        Buckets buckets;
        buckets.logLinear = first && bits > 2 * kBucketBits;
        buckets.shift = std::max(0, bits - kBucketBits);
        buckets.count = buckets.logLinear ? buckets.of(range) + 1 : static_cast<size_t>(range >> buckets.shift) + 1;
        first = false;
        const U low = static_cast<U>(level.low);
        counts.assign(buckets.count, 0u);
        slotOfBucket.assign(buckets.count, -1);
        for (const T v : level.values)
            ++counts[buckets.of(static_cast<U>(v) - low)];
        // The bucket of each rank and its rank within the bucket (ranks ascend, so do buckets).
        std::vector<size_t> bucketOf(level.ranks.size()), within(level.ranks.size());
        size_t bucket = 0, before = 0;
        for (size_t r = 0; r < level.ranks.size(); ++r) {
            while (before + counts[bucket] <= level.ranks[r])
                before += counts[bucket++];
            bucketOf[r] = bucket;
            within[r] = level.ranks[r] - before;
        }
        const size_t firstNew = todo.size();
        for (size_t r = 0; r < level.ranks.size(); ++r) {
            const size_t b = bucketOf[r];
            const U bucketLow = low + buckets.firstOffset(b);
            const U width = buckets.widthLessOne(b);
            if (width == 0) {  // one value per bucket: the answer
                out[level.slots[r]] = static_cast<T>(bucketLow);
                continue;
            }
            if (slotOfBucket[b] < 0) {
                slotOfBucket[b] = static_cast<int32_t>(todo.size() - firstNew);
                const U bucketHigh = range - (bucketLow - low) <= width ? static_cast<U>(level.high) : bucketLow + width;
                Level next{{}, {}, static_cast<T>(bucketLow), static_cast<T>(bucketHigh), {}, {}};
                next.owned.resize(counts[b] + 1);  // + 1: the gather below writes one past the last
                todo.push_back(std::move(next));
            }
            Level& next = todo[firstNew + static_cast<size_t>(slotOfBucket[b])];
            next.ranks.push_back(within[r]);
            next.slots.push_back(level.slots[r]);
        }
        if (todo.size() == firstNew)
            continue;
        // Gathered without a branch per value (which bucket a value falls in is unpredictable):
        // every value is written, to a scratch slot when its bucket is not wanted, and only a
        // wanted one advances its bucket's end.
        T scratch[1];
        into.assign(todo.size() - firstNew + 1, scratch);
        filled.assign(into.size(), 0);
        for (size_t k = firstNew; k < todo.size(); ++k)
            into[k - firstNew + 1] = todo[k].owned.data();
        for (const T v : level.values) {
            const size_t to = static_cast<size_t>(slotOfBucket[buckets.of(static_cast<U>(v) - low)] + 1);
            into[to][filled[to]] = v;
            filled[to] += to != 0;
        }
        for (size_t k = firstNew; k < todo.size(); ++k) {
            todo[k].owned.resize(filled[k - firstNew + 1]);
            todo[k].values = todo[k].owned;
        }
    }
}

// Linear quantiles at ascending qs of integers (exact, as quantileLinear on the sorted values),
// each order statistic mapped through toDouble, which must keep the order. lowest and highest:
// the least and the greatest of values.
template <typename T, typename ToDouble, size_t N>
std::array<double, N> integerQuantilesLinear(std::span<const T> values, T lowest, T highest,
                                             const std::array<double, N>& qs, ToDouble toDouble)
{
    std::array<double, N> result{};
    if (values.empty()) {
        result.fill(std::numeric_limits<double>::quiet_NaN());
        return result;
    }
    std::array<QuantilePosition, N> at;
    std::array<size_t, 2 * N> ranks;
    for (size_t i = 0; i < N; ++i) {
        at[i] = quantilePosition(values.size(), qs[i]);
        ranks[2 * i] = at[i].lower;
        ranks[2 * i + 1] = at[i].upper;
    }
    std::array<T, 2 * N> statistics{};
    std::array<size_t, 2 * N> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    const size_t distinct = static_cast<size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
    std::array<T, 2 * N> found{};
    selectOrderStatistics<T>(values, lowest, highest, std::span<const size_t>(sorted.data(), distinct), std::span<T>(found.data(), distinct));
    for (size_t k = 0; k < 2 * N; ++k)
        statistics[k] = found[static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.begin() + distinct, ranks[k]) - sorted.begin())];
    for (size_t i = 0; i < N; ++i)
        result[i] = lerp(toDouble(statistics[2 * i]), toDouble(statistics[2 * i + 1]), at[i].gamma);
    return result;
}

// pandas describe() moments: mean, and std with ddof=1 (two-pass like nanops.nanvar); NaN where
// pandas gives NaN (no values; std of one). The Of forms read each value through toDouble, so
// integers (gaps in ns, queue lengths) need no copy in doubles first; the sums are the same.
template <typename T, typename ToDouble>
double meanOf(std::span<const T> values, ToDouble toDouble)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double sum = 0.0;
    for (const T& v : values)
        sum += toDouble(v);
    return sum / static_cast<double>(values.size());
}

// sampleStdOf with the mean already known (meanOf of the same values).
template <typename T, typename ToDouble>
double sampleStdAround(std::span<const T> values, ToDouble toDouble, double average)
{
    if (values.size() < 2)
        return std::numeric_limits<double>::quiet_NaN();
    double squares = 0.0;
    for (const T& v : values)
        squares += (toDouble(v) - average) * (toDouble(v) - average);
    return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

template <typename T, typename ToDouble>
double sampleStdOf(std::span<const T> values, ToDouble toDouble)
{
    return sampleStdAround(values, toDouble, meanOf(values, toDouble));
}

double mean(std::span<const double> values);
double sampleStd(std::span<const double> values);

} // namespace kscope::hta
