#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <stop_token>
#include <thread>
#include <vector>

namespace kscope {

// fn(0) .. fn(count - 1) on up to `workers` threads (the caller's among them), each index once;
// stops handing out indices once stop is requested.
template <typename Fn>
void parallelFor(size_t count, unsigned workers, std::stop_token stop, Fn&& fn)
{
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t k; !stop.stop_requested() && (k = next.fetch_add(1)) < count;)
            fn(k);
    };
    std::vector<std::jthread> pool;
    for (unsigned w = 1; w < std::min<size_t>(workers, count); ++w)
        pool.emplace_back(work);
    work();
}

} // namespace kscope
