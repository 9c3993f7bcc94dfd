#include "analysis/collectives/collectivematch.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

namespace kscope::collective_detail {

namespace {

struct Part {
    uint32_t rankIndex;
    uint32_t unit;
    int64_t startNs, endNs;
};

bool endTogether(const Part& a, const Part& b)
{
    const int64_t shorter = std::min(a.endNs - a.startNs, b.endNs - b.startNs);
    const auto tolerance = std::max<int64_t>(kEndToleranceFloorNs, int64_t(kEndToleranceFraction * double(shorter)));
    return std::abs(a.endNs - b.endNs) <= tolerance;
}

// Instances proposed by position whose parts do not all overlap in time (the latest arrival
// after the earliest end): counted per group.
std::vector<int64_t> orderInstancesThatNeverOverlap(const std::vector<CollectiveGroup>& groups,
                                                    const std::vector<std::vector<Unit>>& units,
                                                    const std::vector<std::vector<int64_t>>& keys)
{
    struct Span {
        int64_t latestStart = std::numeric_limits<int64_t>::min();
        int64_t earliestEnd = std::numeric_limits<int64_t>::max();
        int parts = 0;
    };
    std::map<std::pair<uint32_t, int64_t>, Span> spans;
    for (size_t r = 0; r < units.size(); ++r)
        for (size_t i = 0; i < units[r].size(); ++i) {
            const Unit& u = units[r][i];
            if (groups[u.group].rule != MatchRule::Order)
                continue;
            Span& s = spans[{u.group, keys[r][i]}];
            s.latestStart = std::max(s.latestStart, u.startNs);
            s.earliestEnd = std::min(s.earliestEnd, u.endNs);
            ++s.parts;
        }
    std::vector<int64_t> failing(groups.size(), 0);
    for (const auto& [key, s] : spans)
        if (s.parts >= 2 && s.latestStart > s.earliestEnd)
            ++failing[key.first];
    return failing;
}

// One group's parts clustered by end time: in order of end, each part not yet taken opens an
// instance, and takes from every other rank the first part (by end) that ends together with it
// and overlaps every part taken so far.
void clusterByEnd(uint32_t group, const std::vector<std::vector<Unit>>& units, std::vector<std::vector<int64_t>>& keys,
                  CollectiveGroup& g)
{
    std::vector<Part> parts;
    for (size_t r = 0; r < units.size(); ++r)
        for (size_t i = 0; i < units[r].size(); ++i)
            if (units[r][i].group == group)
                parts.push_back({uint32_t(r), uint32_t(i), units[r][i].startNs, units[r][i].endNs});
    std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) {
        return std::tie(a.endNs, a.startNs, a.rankIndex) < std::tie(b.endNs, b.startNs, b.rankIndex);
    });
    std::vector<uint8_t> taken(parts.size(), 0);
    int64_t next = 0;
    g.unpairedParts = 0;
    for (size_t a = 0; a < parts.size(); ++a) {
        if (taken[a])
            continue;
        taken[a] = 1;
        const int64_t key = next++;
        keys[parts[a].rankIndex][parts[a].unit] = key;
        std::vector<uint32_t> ranksIn{parts[a].rankIndex};
        int64_t latestStart = parts[a].startNs, earliestEnd = parts[a].endNs;
        for (size_t b = a + 1; b < parts.size() && endTogether(parts[a], parts[b]); ++b) {
            if (taken[b] || std::find(ranksIn.begin(), ranksIn.end(), parts[b].rankIndex) != ranksIn.end())
                continue;
            if (std::max(latestStart, parts[b].startNs) > std::min(earliestEnd, parts[b].endNs))
                continue;
            taken[b] = 1;
            keys[parts[b].rankIndex][parts[b].unit] = key;
            ranksIn.push_back(parts[b].rankIndex);
            latestStart = std::max(latestStart, parts[b].startNs);
            earliestEnd = std::min(earliestEnd, parts[b].endNs);
        }
        if (ranksIn.size() == 1)
            ++g.unpairedParts;
    }
}

} // namespace

std::vector<std::vector<int64_t>> instanceKeys(std::vector<CollectiveGroup>& groups,
                                               const std::vector<std::vector<Unit>>& units)
{
    std::vector<std::vector<int64_t>> keys(units.size());
    for (size_t r = 0; r < units.size(); ++r) {
        std::vector<int64_t> position(groups.size(), 0);
        keys[r].resize(units[r].size());
        for (size_t i = 0; i < units[r].size(); ++i) {
            const Unit& u = units[r][i];
            keys[r][i] = groups[u.group].rule == MatchRule::Seq ? u.seq : position[u.group]++;
        }
    }
    const std::vector<int64_t> failing = orderInstancesThatNeverOverlap(groups, units, keys);
    for (size_t g = 0; g < groups.size(); ++g) {
        groups[g].orderInstancesRejected = failing[g];
        if (failing[g] == 0)
            continue;
        groups[g].rule = MatchRule::EndTime;
        clusterByEnd(uint32_t(g), units, keys, groups[g]);
    }
    return keys;
}

} // namespace kscope::collective_detail
