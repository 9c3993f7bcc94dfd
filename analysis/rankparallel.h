#pragma once

// Analyses are pure functions of the run; most answer rank by rank, and a rank's part needs
// nothing of another's. This runs those parts on the machine's cores and hands them back in rank
// order, so the joined answer is exactly the one-thread answer.

#include "model/parallelfor.h"

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace kscope {

// part(k) for k in [0, count), on up to every core (the caller's thread among them); parts[k] is
// part(k). part must touch nothing shared but what it only reads.
template <typename Part, typename Fn>
std::vector<Part> perRankInParallel(size_t count, Fn&& part)
{
    std::vector<Part> parts(count);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    parallelFor(count, static_cast<unsigned>(std::min<size_t>(cores, count)), {},
                [&](size_t k) { parts[k] = part(k); });
    return parts;
}

} // namespace kscope
