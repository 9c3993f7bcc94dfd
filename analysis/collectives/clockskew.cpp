// Clock offsets between ranks from the ends of matched collectives (clockskew.h).

#include "analysis/collectives/clockskew.h"

#include "analysis/collectives/collectives.h"
#include "model/trace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <span>

namespace kscope {

namespace {

// The median of integer readings (the mean of the middle two, rounded toward the lower one).
int64_t median(std::vector<int64_t>& values)
{
    const size_t n = values.size();
    const size_t mid = n / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    const int64_t upper = values[mid];
    if (n % 2)
        return upper;
    const int64_t lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    return lower + (upper - lower) / 2;
}

int64_t medianAbsoluteDeviation(const std::vector<int64_t>& values, int64_t centre)
{
    std::vector<int64_t> deviations(values.size());
    std::transform(values.begin(), values.end(), deviations.begin(),
                   [centre](int64_t v) { return std::abs(v - centre); });
    return median(deviations);
}

// One instance as the estimate reads it: every part's rank trace and last kernel end.
struct Reading {
    uint32_t rankIndex;
    int64_t endNs;
};
using InstanceReadings = std::vector<Reading>;

std::vector<InstanceReadings> readingsOf(const Collectives& collectives, std::span<const uint32_t> instances)
{
    std::vector<InstanceReadings> out;
    out.reserve(instances.size());
    for (uint32_t i : instances) {
        const CollectiveInstance& inst = collectives.instances[i];
        InstanceReadings& parts = out.emplace_back();
        for (uint32_t a = 0; a < inst.arrivalCount; ++a) {
            const CollectiveArrival& arrival = collectives.arrivals[inst.firstArrival + a];
            parts.push_back({arrival.rankIndex, arrival.endNs});
        }
    }
    return out;
}

// Offsets of the rank traces in `slots` (indices into Run::ranks) from the readings: relative to
// the reference, then chained through placed ranks, as the header says.
std::vector<RankClockOffset> solveOffsets(const Run& run, const std::vector<InstanceReadings>& instances,
                                          std::vector<uint32_t> slots, int& referenceRank)
{
    std::sort(slots.begin(), slots.end(), [&run](uint32_t a, uint32_t b) {
        return std::pair(run.ranks[a].rank, a) < std::pair(run.ranks[b].rank, b);
    });
    std::map<uint32_t, RankClockOffset> bySlot;
    for (uint32_t s : slots)
        bySlot[s] = RankClockOffset{.rank = run.ranks[s].rank, .rankIndex = s};
    referenceRank = -1;
    if (slots.empty())
        return {};
    // The reference: the lowest-numbered rank that took part in an instance.
    std::vector<uint8_t> inSome(run.ranks.size(), 0);
    for (const InstanceReadings& parts : instances)
        for (const Reading& r : parts)
            inSome[r.rankIndex] = 1;
    const auto ref = std::find_if(slots.begin(), slots.end(), [&inSome](uint32_t s) { return inSome[s] != 0; });
    if (ref != slots.end()) {
        RankClockOffset& reference = bySlot[*ref];
        reference.estimated = true;
        reference.viaRank = reference.rank;
        referenceRank = reference.rank;
        for (const InstanceReadings& parts : instances)
            for (const Reading& r : parts)
                reference.instances += r.rankIndex == *ref ? 1 : 0;
        reference.reliable = reference.instances >= kClockSkewMinInstances;
    }
    std::vector<uint8_t> placed(run.ranks.size(), 0);
    if (ref != slots.end())
        placed[*ref] = 1;
    // Rounds: each places every rank that shares an instance with a rank placed before it, against
    // the partner it met in most instances (the lowest rank number on ties).
    for (bool progress = true; progress;) {
        progress = false;
        std::map<uint32_t, std::map<uint32_t, std::vector<int64_t>>> differences;  // unplaced -> partner -> end differences
        for (const InstanceReadings& parts : instances) {
            // Compared with one placed part per instance (its lowest rank number: the reference
            // where present), so a round costs one pass over the parts whatever the group size.
            const Reading* partner = nullptr;
            for (const Reading& p : parts)
                if (placed[p.rankIndex] && (!partner || std::pair(run.ranks[p.rankIndex].rank, p.rankIndex)
                                                            < std::pair(run.ranks[partner->rankIndex].rank, partner->rankIndex)))
                    partner = &p;
            if (!partner)
                continue;
            for (const Reading& u : parts)
                if (!placed[u.rankIndex] && bySlot.count(u.rankIndex))
                    differences[u.rankIndex][partner->rankIndex].push_back(u.endNs - partner->endNs);
        }
        std::vector<uint32_t> newlyPlaced;
        for (auto& [slot, partners] : differences) {
            auto best = partners.begin();
            for (auto it = partners.begin(); it != partners.end(); ++it) {
                const auto key = [&run](const auto& entry) {
                    return std::pair(-static_cast<int64_t>(entry.second.size()), run.ranks[entry.first].rank);
                };
                if (key(*it) < key(*best))
                    best = it;
            }
            std::vector<int64_t>& readings = best->second;
            const int64_t centre = median(readings);
            RankClockOffset& o = bySlot[slot];
            const RankClockOffset& partner = bySlot[best->first];
            o.estimated = true;
            o.offsetNs = partner.offsetNs + centre;
            o.spreadNs = medianAbsoluteDeviation(readings, centre);
            o.instances = static_cast<int64_t>(readings.size());
            o.reliable = o.instances >= kClockSkewMinInstances && partner.reliable;
            o.viaRank = partner.rank;
            newlyPlaced.push_back(slot);
        }
        for (uint32_t s : newlyPlaced)
            placed[s] = 1;
        progress = !newlyPlaced.empty();
    }
    std::vector<RankClockOffset> out;
    out.reserve(slots.size());
    for (uint32_t s : slots)
        out.push_back(bySlot[s]);
    return out;
}

std::string microsText(int64_t ns)
{
    const double us = double(ns) / 1000.0;
    char text[48];
    std::snprintf(text, sizeof text, "%.1f us", us);
    return text;
}

} // namespace

bool offsetExceedsWaits(const ClockSkew& skew, int64_t offsetNs)
{
    const int64_t size = std::abs(offsetNs);
    return size > kClockSkewNoiseNs && size > skew.medianWaitNs;
}

LastArrivalChanges lastArrivalChanges(const Collectives& collectives, const ClockSkew& skew, bool arrivalsAligned)
{
    LastArrivalChanges out;
    std::vector<int64_t> offset;
    std::vector<bool> known;
    for (const RankClockOffset& r : skew.ranks) {
        if (r.rankIndex >= offset.size()) {
            offset.resize(r.rankIndex + 1, 0);
            known.resize(r.rankIndex + 1, false);
        }
        offset[r.rankIndex] = r.offsetNs;
        known[r.rankIndex] = r.estimated;
    }
    for (const CollectiveInstance& inst : collectives.instances) {
        if (inst.arrivalCount < 2)
            continue;
        int recordedLast = -1, alignedLast = -1;
        int64_t recordedMax = INT64_MIN, alignedMax = INT64_MIN;
        bool all = true;
        for (uint32_t a = inst.firstArrival; a < inst.firstArrival + inst.arrivalCount && all; ++a) {
            const CollectiveArrival& arrival = collectives.arrivals[a];
            all = arrival.rankIndex < known.size() && known[arrival.rankIndex];
            if (!all)
                break;
            const int64_t off = offset[arrival.rankIndex];
            const int64_t recorded = arrivalsAligned ? arrival.startNs + off : arrival.startNs;
            const int64_t aligned = recorded - off;
            // Strictly later wins: arrivals are by rank, so ties go to the lowest rank, as lastRank.
            if (recorded > recordedMax) {
                recordedMax = recorded;
                recordedLast = static_cast<int>(a);
            }
            if (aligned > alignedMax) {
                alignedMax = aligned;
                alignedLast = static_cast<int>(a);
            }
        }
        if (!all)
            continue;
        ++out.instances;
        out.changed += recordedLast != alignedLast;
    }
    return out;
}

std::string lastArrivalNote(const LastArrivalChanges& changes, const ClockSkew& skew, bool aligned)
{
    if (changes.changed == 0)
        return {};
    const std::string counted = std::to_string(changes.changed) + " of " + std::to_string(changes.instances);
    if (aligned)
        return "on rank " + std::to_string(skew.referenceRank) + "'s clock the last rank to arrive is another than as recorded in "
               + counted + " collectives";
    return "the estimated clock offsets change the last rank to arrive in " + counted
           + " collectives: waits and stragglers here read across clocks; --align-clocks reads them on rank "
           + std::to_string(skew.referenceRank) + "'s";
}

ClockSkew estimateClockSkew(const Run& run, const Collectives& collectives)
{
    ClockSkew out;
    if (!collectives.error.empty()) {
        out.error = "no collectives: " + collectives.error;
        return out;
    }
    std::vector<uint32_t> usable;  // instances of two ranks or more
    std::vector<std::vector<uint32_t>> byGroup(collectives.groups.size());
    std::vector<int64_t> waits;
    for (uint32_t i = 0; i < collectives.instances.size(); ++i) {
        const CollectiveInstance& inst = collectives.instances[i];
        if (inst.arrivalCount < 2)
            continue;
        usable.push_back(i);
        byGroup[inst.group].push_back(i);
        if (!inst.partial())
            for (uint32_t a = 0; a < inst.arrivalCount; ++a)
                waits.push_back(collectives.arrivals[inst.firstArrival + a].waitNs);
    }
    out.instances = static_cast<int64_t>(usable.size());
    if (!waits.empty())
        out.medianWaitNs = median(waits);

    std::vector<uint32_t> everyRank(run.ranks.size());
    std::iota(everyRank.begin(), everyRank.end(), 0u);
    out.ranks = solveOffsets(run, readingsOf(collectives, usable), everyRank, out.referenceRank);
    if (usable.empty()) {
        out.error = collectives.instances.empty()
            ? "no GPU collectives in the run: clock offsets are estimated from collectives matched across ranks"
            : "no collective matched on two ranks or more: nothing to compare the clocks with";
        return out;
    }

    for (uint32_t g = 0; g < collectives.groups.size(); ++g) {
        if (byGroup[g].empty())
            continue;
        GroupClockSkew& group = out.groups.emplace_back();
        group.group = g;
        group.instances = static_cast<int64_t>(byGroup[g].size());
        const std::vector<InstanceReadings> readings = readingsOf(collectives, byGroup[g]);
        std::vector<uint32_t> members;
        for (const InstanceReadings& parts : readings)
            for (const Reading& r : parts)
                members.push_back(r.rankIndex);
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
        group.ranks = solveOffsets(run, readings, members, group.referenceRank);
    }

    int unplaced = 0;
    const RankClockOffset* largest = nullptr;
    for (const RankClockOffset& o : out.ranks) {
        unplaced += o.estimated ? 0 : 1;
        if (o.reliable && (!largest || std::abs(o.offsetNs) > std::abs(largest->offsetNs)))
            largest = &o;
    }
    if (largest)
        out.largestOffsetNs = std::abs(largest->offsetNs);
    if (unplaced > 0)
        out.notes.push_back(std::to_string(unplaced)
                            + " rank(s) share no collective with the reference rank's groups: no offset for them");
    if (largest && !waits.empty() && offsetExceedsWaits(out, largest->offsetNs))
        out.notes.push_back("rank " + std::to_string(largest->rank) + "'s clock is off by "
                            + microsText(largest->offsetNs) + " from rank " + std::to_string(out.referenceRank)
                            + "'s, more than the median collective wait (" + microsText(out.medianWaitNs)
                            + "): waits and arrival order read across ranks may be the clocks, not the ranks");
    for (const CollectiveGroup& group : collectives.groups)
        if (group.rule == MatchRule::EndTime) {
            out.notes.push_back("a process group was matched by end time (its units carry no Seq and order did not "
                                "pair them): offsets larger than the matching tolerance (20 us or 2%) cannot be "
                                "seen there");
            break;
        }
    return out;
}

} // namespace kscope
