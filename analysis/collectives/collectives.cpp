#include "analysis/collectives/collectives.h"

#include "analysis/collectives/collectivematch.h"
#include "analysis/patterns/steps.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace kscope {

const char* toString(MatchRule rule)
{
    switch (rule) {
    case MatchRule::Seq: return "seq";
    case MatchRule::Order: return "order";
    case MatchRule::EndTime: return "end-time";
    }
    return "seq";
}

namespace {

using collective_detail::GroupKey;
using collective_detail::Unit;
using collective_detail::collectUnits;

constexpr int kMaxWorldSize = 1 << 20;  // a larger world_size is a crafted value, not a run

// "[0, 1, 2]" -> {0, 1, 2}; "[0, 1, 2, ..., 63]" (abbreviated lists) -> 0..63. Empty on anything else.
std::vector<int> parseRanksList(std::string_view text)
{
    std::vector<int> out;
    bool ellipsis = false;
    int beforeEllipsis = -1;
    size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            int value = 0;
            const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), value);
            if (ec != std::errc())
                return {};
            if (ellipsis) {
                for (int r = beforeEllipsis + 1; r < value; ++r)
                    out.push_back(r);
                ellipsis = false;
            }
            out.push_back(value);
            i = size_t(ptr - text.data());
        } else if (c == '.') {
            if (out.empty())
                return {};
            ellipsis = true;
            beforeEllipsis = out.back();
            ++i;
        } else if (c == '[' || c == ']' || c == ',' || c == ' ' || c == '"') {
            ++i;
        } else {
            return {};
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string groupLabel(const Run& run, const CollectiveGroup& g)
{
    std::string label = g.name ? "process group " + std::string(run.str(g.name)) : std::string("collectives without a process group");
    std::vector<int> all(g.members);
    all.insert(all.end(), g.ranksLeftOut.begin(), g.ranksLeftOut.end());
    std::sort(all.begin(), all.end());
    const bool contiguous = !all.empty() && all.back() - all.front() + 1 == int(all.size());
    if (contiguous && all.size() > 4) {
        label += " (ranks " + std::to_string(all.front()) + "-" + std::to_string(all.back()) + ")";
    } else if (g.ranksText) {
        std::string_view ranks = run.str(g.ranksText);
        if (ranks.size() >= 2 && ranks.front() == '"' && ranks.back() == '"')
            ranks = ranks.substr(1, ranks.size() - 2);
        if (ranks.size() > 60)
            label += " (" + std::to_string(all.size()) + " ranks)";
        else
            label += " (ranks " + std::string(ranks) + ")";
    }
    return label;
}

std::string rankList(const std::vector<int>& ranks)
{
    std::string out;
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (i == 8 && ranks.size() > 10) {
            out += ", ... (" + std::to_string(ranks.size()) + " ranks)";
            break;
        }
        out += (i ? ", " : "") + std::to_string(ranks[i]);
    }
    return out;
}

// "rank 2 is" / "ranks 2, 3 are".
std::string ranksPhrase(const std::vector<int>& ranks, const char* one, const char* many)
{
    return (ranks.size() == 1 ? "rank " : "ranks ") + rankList(ranks) + " " + (ranks.size() == 1 ? one : many);
}

std::string formatMicros(int64_t ns)
{
    const int64_t whole = ns / 1000, frac = (ns < 0 ? -ns : ns) % 1000;
    std::string text = std::to_string(whole);
    if (frac) {
        std::string digits = std::to_string(frac);
        text += "." + std::string(3 - digits.size(), '0') + digits;
        while (text.back() == '0')
            text.pop_back();
    }
    return text;
}

void addStats(CollectiveRankStats& s, const CollectiveInstance& in, const CollectiveArrival& a)
{
    const int64_t span = a.endNs - a.startNs;
    ++s.instances;
    s.commNs += span;
    s.waitNs += a.waitNs;  // at most its span by definition
    s.transferNs += span - a.waitNs;
    s.latenessNs += a.latenessNs;
    if (in.arrivalCount >= 2 && a.rank == in.lastRank) {
        ++s.lastCount;
        s.delayCausedNs += in.latestNs - in.secondLatestNs;
    }
}

// distributedInfo's world size (the largest any rank states), -1 when none does.
int runWorldSize(const Run& run)
{
    int worldSize = -1;
    for (const RankTrace& r : run.ranks)
        if (r.metadata.distributed)
            worldSize = std::max(worldSize, r.metadata.distributed->worldSize);
    return worldSize;
}

// The process groups of the units: members (the ranks list, the world for the default group,
// the ranks seen), which are not in the run or left out on purpose, and the matching rule.
std::vector<CollectiveGroup> resolveGroups(const Run& run, const std::vector<GroupKey>& groupKeys,
                                           const std::vector<std::vector<Unit>>& units, int worldSize)
{
    std::vector<CollectiveGroup> groups(groupKeys.size());
    std::vector<std::set<int>> seenRanks(groupKeys.size());
    std::vector<uint8_t> allSeq(groupKeys.size(), 1);
    std::vector<int32_t> declaredSizes(groupKeys.size(), 0);
    for (size_t r = 0; r < run.ranks.size(); ++r)
        for (const Unit& u : units[r]) {
            seenRanks[u.group].insert(run.ranks[r].rank);
            declaredSizes[u.group] = std::max(declaredSizes[u.group], u.groupSize);
            if (u.seq < 0)
                allSeq[u.group] = 0;
        }
    for (size_t g = 0; g < groupKeys.size(); ++g) {
        CollectiveGroup& group = groups[g];
        group.name = StringId{groupKeys[g].name};
        group.ranksText = StringId{groupKeys[g].ranks};
        std::set<int> members(seenRanks[g]);
        const std::vector<int> listed = group.ranksText ? parseRanksList(run.str(group.ranksText)) : std::vector<int>{};
        members.insert(listed.begin(), listed.end());
        const int32_t declaredSize = declaredSizes[g];
        // The default group (no name, no ranks list) is the world: distributedInfo says how large.
        if (listed.empty() && !group.name && worldSize > 0 && worldSize <= kMaxWorldSize)
            for (int m = 0; m < worldSize; ++m)
                members.insert(m);
        if (listed.empty() && declaredSize > int32_t(members.size()))
            group.unnamedMembers = declaredSize - int32_t(members.size());
        for (int m : members) {
            if (!run.findRank(m) && run.ranksNotLoaded.contains(m)) {
                group.ranksLeftOut.push_back(m);
                continue;
            }
            group.members.push_back(m);
            if (!run.findRank(m))
                group.ranksNotInRun.push_back(m);
        }
        group.rule = allSeq[g] ? MatchRule::Seq : MatchRule::Order;
    }
    return groups;
}

// A bus bandwidth above what the slowest participant's links carry is flagged.
void flagAboveLinkBandwidth(const Run& run, Collectives& result)
{
    std::unordered_map<int, double> linkByRank;
    for (const RankTrace& r : run.ranks)
        if (!r.metadata.devices.empty())
            linkByRank[r.rank] = linkBandwidthGBps(r.metadata.devices.front().name);
    for (CollectiveInstance& in : result.instances) {
        if (in.busbwGBps < 0.0)
            continue;
        double link = 0.0;
        for (const CollectiveArrival& a : std::span(result.arrivals).subspan(in.firstArrival, in.arrivalCount)) {
            auto it = linkByRank.find(a.rank);
            if (it != linkByRank.end() && it->second > 0.0)
                link = link > 0.0 ? std::min(link, it->second) : it->second;
        }
        in.aboveLinkBandwidth = link > 0.0 && in.busbwGBps > link;
    }
}

// The notes: the rule per group, what is missing, the straggler answer against HTA's.
void addNotes(const Run& run, const CollectiveOptions& options, int worldSize, int64_t oversized, int64_t partial,
              Collectives& result)
{
    const CollectiveStraggler& st = result.straggler;
    for (const CollectiveGroup& g : result.groups) {
        std::string note = groupLabel(run, g) + ": " + std::to_string(g.instances) + " instances matched by " +
                           (g.rule == MatchRule::Seq     ? "Seq"
                            : g.rule == MatchRule::Order ? "order within the group on each rank (no Seq)"
                                                         : "end time (no Seq)");
        if (g.rule == MatchRule::EndTime)
            note += ": matching by order paired kernels that never overlap in time in " +
                    std::to_string(g.orderInstancesRejected) +
                    " instances, so parts that overlap and end together (within 2% or 20 us) were paired; " +
                    std::to_string(g.unpairedParts) + " parts found no partner";
        if (g.partialInstances)
            note += "; " + std::to_string(g.partialInstances) + " seen on only some ranks";
        if (g.mismatchedInstances)
            note += "; " + std::to_string(g.mismatchedInstances) + " whose name or size differs between ranks";
        result.notes.push_back(note);
        if (!g.ranksLeftOut.empty())
            result.notes.push_back(groupLabel(run, g) + ": " + ranksPhrase(g.ranksLeftOut, "was", "were") +
                                   " not loaded (--ranks); its figures are among the ranks loaded");
        if (!g.ranksNotInRun.empty())
            result.notes.push_back(groupLabel(run, g) + ": " + ranksPhrase(g.ranksNotInRun, "is", "are") +
                                   " not in the run" +
                                   (g.name || g.ranksText ? std::string() : std::string(" (world_size ") + std::to_string(worldSize) + ")") +
                                   "; its instances are partial");
        if (g.unnamedMembers > 0)
            result.notes.push_back(groupLabel(run, g) + ": its Group size says " + std::to_string(g.unnamedMembers) +
                                   " more ranks take part than the run names; its instances are partial");
    }
    if (oversized)
        result.notes.push_back(std::to_string(oversized) +
                               " collectives have a message size too large to count in bytes (elements x dtype size): "
                               "their size is unknown");
    if (partial)
        result.notes.push_back(std::to_string(partial) +
                               " partial instances are left out of the per-rank statistics and the straggler answer");
    if (st.rank >= 0) {
        std::string note = "straggler: rank " + std::to_string(st.rank) + " arrived last in " +
                           std::to_string(st.lastCount) + " of " + std::to_string(st.instances) +
                           " collectives, delaying them by " + formatMicros(st.delayCausedNs) + " us in all (" +
                           formatMicros(int64_t(st.delayPerStepNs + 0.5)) + " us per step)";
        if (options.compareWithHta) {
            if (!st.htaRanks.empty())
                note += std::string("; HTA's heuristic (stragglers) names ") + rankList(st.htaRanks) +
                        (st.agreesWithHta ? " (agrees)" : " (differs: it ranks one collective's normalised start per step)");
            else
                note += "; HTA's heuristic has no answer" + (st.htaError.empty() ? std::string() : ": " + st.htaError);
        }
        result.notes.push_back(note);
    }
}

// An instance's timing from its arrivals (one per rank trace): earliest, latest and second
// latest start, each arrival's wait and lateness, skew, transfer and bandwidths.
void timeInstance(CollectiveInstance& in, std::span<CollectiveArrival> arrivals)
{
    in.earliestNs = std::numeric_limits<int64_t>::max();
    in.latestNs = std::numeric_limits<int64_t>::min();
    in.endNs = std::numeric_limits<int64_t>::min();
    size_t last = 0;  // the arrival, not its rank number: two files may claim one rank
    for (size_t k = 0; k < arrivals.size(); ++k) {
        const CollectiveArrival& a = arrivals[k];
        if (a.startNs < in.earliestNs) {
            in.earliestNs = a.startNs;
            in.firstRank = a.rank;
        }
        if (a.startNs > in.latestNs) {
            in.latestNs = a.startNs;
            in.lastRank = a.rank;
            last = k;
        }
        in.endNs = std::max(in.endNs, a.endNs);
    }
    in.secondLatestNs = in.latestNs;
    if (arrivals.size() >= 2) {
        in.secondLatestNs = std::numeric_limits<int64_t>::min();
        for (size_t k = 0; k < arrivals.size(); ++k)
            if (k != last)
                in.secondLatestNs = std::max(in.secondLatestNs, arrivals[k].startNs);
    }
    for (CollectiveArrival& a : arrivals) {
        a.waitNs = std::max<int64_t>(0, std::min(in.latestNs, a.endNs) - a.startNs);
        a.latenessNs = a.startNs - in.earliestNs;
        in.waitTotalNs += a.waitNs;
    }
    in.skewNs = in.latestNs - in.earliestNs;
    in.transferNs = std::max<int64_t>(0, in.endNs - in.latestNs);
    if (in.bytes >= 0 && in.transferNs > 0) {
        in.algbwGBps = double(in.bytes) / double(in.transferNs);
        const double factor = busBandwidthFactor(in.name, in.groupSize);
        if (factor >= 0.0)
            in.busbwGBps = in.algbwGBps * factor;
    }
}

} // namespace

Collectives matchCollectives(const Run& run, const CollectiveOptions& options)
{
    Collectives result;
    result.htaCompat = options.htaCompat;

    // 1. Units per rank, and the process groups they name.
    std::vector<uint8_t> nameIsCollective(run.strings.size(), 2);
    std::map<GroupKey, uint32_t> groupIndex;
    std::vector<GroupKey> groupKeys;
    std::vector<std::vector<Unit>> units(run.ranks.size());
    int64_t oversized = 0;
    for (size_t r = 0; r < run.ranks.size(); ++r)
        units[r] = collectUnits(run, run.ranks[r], nameIsCollective, groupIndex, groupKeys, result.kernels, oversized);
    if (result.kernels == 0) {
        result.error = "no collective (NCCL / RCCL) kernel in the run";
        result.clockSkew = estimateClockSkew(run, result);  // says why it has no offsets
        return result;
    }

    // 1b. On the reference rank's clock: the offsets read from matching without alignment.
    ClockSkew appliedSkew;
    if (options.alignClocks) {
        CollectiveOptions unaligned = options;
        unaligned.alignClocks = false;
        unaligned.compareWithHta = false;
        appliedSkew = matchCollectives(run, unaligned).clockSkew;
        int64_t moved = 0;
        for (const RankClockOffset& offset : appliedSkew.ranks) {
            if (!offset.estimated || offset.rankIndex >= units.size() || offset.offsetNs == 0)
                continue;
            ++moved;
            for (Unit& u : units[offset.rankIndex]) {
                u.startNs -= offset.offsetNs;
                u.endNs -= offset.offsetNs;
            }
        }
        if (appliedSkew.referenceRank >= 0)
            result.notes.push_back("clocks aligned on rank " + std::to_string(appliedSkew.referenceRank) + "'s: "
                                   + std::to_string(moved) + (moved == 1 ? " rank's" : " ranks'")
                                   + " collective kernels moved by the offsets of clock-skew; times are on that clock");
        else
            result.notes.push_back("--align-clocks: no clock offset could be estimated (" + appliedSkew.error
                                   + "); times are as recorded");
    }

    // 2. Groups: members, the rule.
    const int worldSize = runWorldSize(run);
    result.groups = resolveGroups(run, groupKeys, units, worldSize);

    // 3. Match: (group, key) over the ranks; key = Seq or the position in the group on the rank.
    struct Entry {
        uint32_t group;
        int64_t key;
        uint32_t rankIndex;
        uint32_t unit;
    };
    std::vector<Entry> entries;
    const std::vector<std::vector<int64_t>> keys = collective_detail::instanceKeys(result.groups, units);
    for (size_t r = 0; r < run.ranks.size(); ++r)
        for (size_t i = 0; i < units[r].size(); ++i)
            entries.push_back({units[r][i].group, keys[r][i], uint32_t(r), uint32_t(i)});
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return std::tie(a.group, a.key, a.rankIndex, a.unit) < std::tie(b.group, b.key, b.rankIndex, b.unit);
    });

    for (size_t begin = 0; begin < entries.size();) {
        size_t end = begin + 1;
        while (end < entries.size() && entries[end].group == entries[begin].group && entries[end].key == entries[begin].key)
            ++end;
        CollectiveGroup& group = result.groups[entries[begin].group];
        CollectiveInstance in;
        in.group = entries[begin].group;
        in.seq = entries[begin].key;
        in.rule = group.rule;
        in.firstArrival = uint32_t(result.arrivals.size());
        const Unit& first = units[entries[begin].rankIndex][entries[begin].unit];
        const RankTrace& firstRank = run.ranks[entries[begin].rankIndex];
        in.name = first.name;
        in.kernelName = firstRank.events.name[first.firstKernel];
        in.dtype = first.dtype;
        in.bytes = first.bytes;
        in.groupSize = first.groupSize > 0 ? first.groupSize : int32_t(group.members.size() + group.ranksLeftOut.size());
        in.step = first.step;
        for (size_t e = begin; e < end; ++e) {
            const Unit& u = units[entries[e].rankIndex][entries[e].unit];
            const int rankNumber = run.ranks[entries[e].rankIndex].rank;
            if (u.name != in.name || u.bytes != in.bytes)
                in.mismatch = true;
            if (result.arrivals.size() > in.firstArrival && result.arrivals.back().rankIndex == entries[e].rankIndex) {
                // Two units with one key on a rank (a Seq written twice): one arrival.
                CollectiveArrival& a = result.arrivals.back();
                a.startNs = std::min(a.startNs, u.startNs);
                a.endNs = std::max(a.endNs, u.endNs);
                a.kernels += u.kernels;
                continue;
            }
            CollectiveArrival a;
            a.rank = rankNumber;
            a.rankIndex = entries[e].rankIndex;
            a.kernel = u.firstKernel;
            a.kernels = u.kernels;
            a.step = u.step;
            a.startNs = u.startNs;
            a.endNs = u.endNs;
            result.arrivals.push_back(a);
        }
        in.arrivalCount = uint32_t(result.arrivals.size() - in.firstArrival);
        const auto arrivals = std::span(result.arrivals).subspan(in.firstArrival, in.arrivalCount);
        timeInstance(in, arrivals);
        size_t next = 0;
        for (int m : group.members) {
            while (next < arrivals.size() && arrivals[next].rank < m)
                ++next;
            if (next >= arrivals.size() || arrivals[next].rank != m)
                in.missingRanks.push_back(m);
        }
        in.unnamedMissing = group.unnamedMembers;
        ++group.instances;
        if (in.partial())
            ++group.partialInstances;
        if (in.mismatch)
            ++group.mismatchedInstances;
        result.instances.push_back(std::move(in));
        begin = end;
    }

    // 4. Link bandwidth.
    flagAboveLinkBandwidth(run, result);

    // Chronological order; arrivals stay where they are (instances point into them).
    std::stable_sort(result.instances.begin(), result.instances.end(),
                     [](const CollectiveInstance& a, const CollectiveInstance& b) {
                         return std::tie(a.earliestNs, a.group, a.seq) < std::tie(b.earliestNs, b.group, b.seq);
                     });

    // 5. Per rank and per rank and step, over complete instances.
    std::map<uint32_t, CollectiveRankStats> perRank;  // by rank trace (RankIndex), so in rank order
    std::map<std::pair<uint32_t, int>, CollectiveRankStats> perRankStep;
    for (const RankTrace& r : run.ranks) {
        perRank[run.indexOf(r).value].rank = r.rank;
        perRank[run.indexOf(r).value].rankIndex = run.indexOf(r);
    }
    int64_t partial = 0, multiRank = 0;
    std::set<int> steps;
    for (const CollectiveInstance& in : result.instances) {
        if (in.partial()) {
            ++partial;
            continue;
        }
        if (in.arrivalCount >= 2) {
            ++multiRank;
            if (in.step >= 0)
                steps.insert(in.step);
        }
        for (const CollectiveArrival& a : std::span(result.arrivals).subspan(in.firstArrival, in.arrivalCount)) {
            addStats(perRank[a.rankIndex], in, a);
            CollectiveRankStats& s = perRankStep[{a.rankIndex, a.step}];
            s.rank = a.rank;
            s.rankIndex = RankIndex{a.rankIndex};
            s.step = a.step;
            addStats(s, in, a);
        }
    }
    for (auto& [rank, s] : perRank)
        result.perRank.push_back(s);
    for (auto& [key, s] : perRankStep)
        result.perRankStep.push_back(s);

    // 6. The straggler, and HTA's.
    CollectiveStraggler& st = result.straggler;
    st.instances = multiRank;
    st.steps = int(steps.size());
    for (const CollectiveRankStats& s : result.perRank) {
        if (s.lastCount == 0)
            continue;
        if (st.rank < 0 || s.lastCount > st.lastCount ||
            (s.lastCount == st.lastCount && s.delayCausedNs > st.delayCausedNs)) {
            st.rank = s.rank;
            st.lastCount = s.lastCount;
            st.delayCausedNs = s.delayCausedNs;
        }
    }
    st.delayPerStepNs = st.steps > 0 ? double(st.delayCausedNs) / st.steps : double(st.delayCausedNs);
    if (options.compareWithHta) {
        const Stragglers hta = potentialStragglers(run, {.htaCompat = options.htaCompat});
        st.htaRanks = hta.ranks;
        st.htaError = hta.error;
        st.agreesWithHta = st.rank >= 0 && std::find(hta.ranks.begin(), hta.ranks.end(), st.rank) != hta.ranks.end();
    }

    addNotes(run, options, worldSize, oversized, partial, result);
    // 7. Each rank's clock offset, read from these instances' ends (clockskew.h); aligned, the
    // offsets that were applied.
    result.clockSkew = options.alignClocks ? std::move(appliedSkew) : estimateClockSkew(run, result);
    if (std::string note = lastArrivalNote(lastArrivalChanges(result, result.clockSkew, options.alignClocks),
                                           result.clockSkew, options.alignClocks);
        !note.empty())
        result.notes.push_back(std::move(note));
    return result;
}

} // namespace kscope
