#pragma once

// The numeric behaviour of numpy 1.24 / pandas 1.5 that HTA's outputs depend on, rebuilt so
// --hta-compat can match HTA to the last row: its unstable quicksort (the order of equal keys
// decides which zero-length overlap slices and which "others" rows appear), np.round and the
// linear percentile.

#include <cstdint>
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

// pandas describe() moments: mean, and std with ddof=1 (two-pass like nanops.nanvar).
double mean(std::span<const double> values);
double sampleStd(std::span<const double> values);

} // namespace kscope::hta
