#pragma once

// The timer of `bench load`'s analysis rows: the best of a few runs, so the figure is the
// analysis, not a cold cache or a preempted core.

#include <algorithm>
#include <chrono>

namespace kscope::cli {

template <typename Fn>
double bestSeconds(Fn&& fn, int repeat = 3)
{
    double best = 1e300;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

} // namespace kscope::cli
