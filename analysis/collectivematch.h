#pragma once

// Internal to the collectives analysis (collectives.cpp): a rank's part of one collective, and
// how the parts of one process group are matched into instances across ranks.

#include "collectives.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope::collective_detail {

// A rank's part of one collective: the kernels launched under one CPU-side collective op (or
// one kernel when its launch has none).
struct Unit {
    uint32_t group = 0;
    int64_t seq = -1;
    EventIndex firstKernel = kNoEvent;
    int32_t kernels = 0;
    int32_t step = -1;
    int64_t startNs = 0, endNs = 0;
    int64_t bytes = -1;
    int32_t groupSize = -1;
    StringId dtype;
    std::string name;
};

// Two parts of one collective end together: the last rank to arrive releases every rank, so
// their ends differ by the last chunk's transfer and the clocks' offset. Parts are partners
// when they overlap in time and their ends lie within this tolerance.
constexpr int64_t kEndToleranceFloorNs = 20'000;   // 20 us
constexpr double kEndToleranceFraction = 0.02;     // of the shorter part's span

// The instance key of every unit, keys[r][i] for units[r][i]: its Seq (MatchRule::Seq), its
// position among its group's units on the rank (MatchRule::Order), or, when matching by order
// pairs parts that never overlap in time, its cluster of parts that overlap and end together
// (MatchRule::EndTime, rank by rank at most one part). Sets each group's rule and its counts of
// rejected order instances and unpaired parts.
std::vector<std::vector<int64_t>> instanceKeys(std::vector<CollectiveGroup>& groups,
                                               const std::vector<std::vector<Unit>>& units);

} // namespace kscope::collective_detail
