#pragma once

// The numeric behaviour of numpy 1.24 / pandas 1.5 that HTA's outputs depend on, rebuilt so
// --hta-compat can match HTA to the last row: its unstable quicksort (the order of equal keys
// decides which zero-length overlap slices and which "others" rows appear), np.round and the
// linear percentile.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
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

// quantileLinear without sorting: the few order statistics it reads found by selection
// (std::nth_element) in place. Ask quantiles in ascending q: each selection then works only on
// the values right of the last one. The values are reordered.
template <typename T>
class OrderStatistics {
public:
    explicit OrderStatistics(std::span<T> values) : m_values(values) {}

    // The k-th smallest value (0-based).
    T kth(size_t k)
    {
        const auto at = [this](size_t i) { return m_values.begin() + static_cast<std::ptrdiff_t>(i); };
        if (m_selected && k == m_from)
            return m_values[k];
        if (m_selected && k == m_from + 1) {
            // The next one up (a quantile's upper neighbour): the least of what lies beyond.
            std::iter_swap(at(k), std::min_element(at(k), m_values.end()));
        } else {
            if (!m_selected || k < m_from)
                m_from = 0;  // first, or asked out of order: select in the whole range
            std::nth_element(at(m_from), at(k), m_values.end());
        }
        m_from = k;  // every value at k or beyond is at least this one, every value before at most
        m_selected = true;
        return m_values[k];
    }

    // quantileLinear(sorted values mapped by toDouble, q); toDouble must keep the order.
    template <typename ToDouble>
    double quantileLinear(double q, ToDouble toDouble)
    {
        const QuantilePosition at = quantilePosition(m_values.size(), q);
        const double a = toDouble(kth(at.lower));
        const double b = toDouble(kth(at.upper));
        return lerp(a, b, at.gamma);
    }

private:
    std::span<T> m_values;
    size_t m_from = 0;
    bool m_selected = false;
};

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

template <typename T, typename ToDouble>
double sampleStdOf(std::span<const T> values, ToDouble toDouble)
{
    if (values.size() < 2)
        return std::numeric_limits<double>::quiet_NaN();
    const double average = meanOf(values, toDouble);
    double squares = 0.0;
    for (const T& v : values)
        squares += (toDouble(v) - average) * (toDouble(v) - average);
    return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

double mean(std::span<const double> values);
double sampleStd(std::span<const double> values);

} // namespace kscope::hta
