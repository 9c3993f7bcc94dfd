#pragma once

// Internal to the collectives analysis (collectives.cpp): a rank's part of one collective (found
// in collectiveunits.cpp), and how the parts of one process group are matched into instances
// across ranks (collectivematch.cpp).

#include "analysis/collectives/collectives.h"

#include <cstdint>
#include <map>
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

// A process group as the trace names it: its name and ranks list (string ids; 0 = none).
struct GroupKey {
    uint32_t name = 0, ranks = 0;
    auto operator<=>(const GroupKey&) const = default;
};

// The collective units of one rank, in start order; a new group's key is appended to groupKeys
// and indexed in groupIndex. Counts the rank's collective kernels and the units whose message
// size is past belief (oversized).
std::vector<Unit> collectUnits(const Run& run, const RankTrace& rank, std::vector<uint8_t>& nameIsCollective,
                               std::map<GroupKey, uint32_t>& groupIndex, std::vector<GroupKey>& groupKeys,
                               int64_t& kernels, int64_t& oversized);

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
