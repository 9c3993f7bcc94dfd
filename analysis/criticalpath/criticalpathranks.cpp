// The critical path across ranks (beyond HTA): each rank's graph as HTA builds it, joined at the
// collectives matched across ranks (analysis/collectives/collectives.h). A collective cannot finish before
// its last participant arrives: from the last arrival's kernel start an edge goes to every other
// participant's kernel end, and the time the others spent inside the collective waiting for it
// weighs nothing, so the longest path runs through the rank that arrived last. Each collective
// kernel also gets an edge from its launch call weighing the launch-to-start delay, dependency
// edges weigh the time between their ends (so that paths on different ranks compare as the time
// each was busy), and a cudaStreamWaitEvent without its GPU record is taken to wait for the op last
// launched on another stream.

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/criticalpath/criticalpathgraph.h"
#include "analysis/tables/criticalpathtables.h"

#include "analysis/collectives/clockskew.h"
#include "analysis/collectives/collectives.h"
#include "analysis/tables/resulttables.h"

#include <algorithm>
#include <climits>
#include <map>

namespace kscope {

namespace {

struct GlobalNode {
    int rankSlot = 0;
    uint32_t local = 0;
};

struct GlobalEdge {
    uint32_t src = 0, dst = 0;  // global node ids
    int64_t weightNs = 0;
    CpEdgeType type = CpEdgeType::Dependency;
    EventIndex attributed = kNoEvent;
};

} // namespace

CrossRankPath criticalPathAllRanks(const Run& run, const CriticalPathOptions& options)
{
    using namespace cpdetail;
    CrossRankPath result;
    result.options = options;
    const std::string annotation = options.annotation.value_or("ProfilerStep#");

    // Every rank's own graph. Slots are the ranks with one, keyed by their position in run.ranks:
    // two files may carry one rank number, and their event tables must not mix.
    std::vector<const RankTrace*> ranks;
    std::vector<uint32_t> rankIndex;
    std::vector<RankGraph> graphs;
    std::vector<uint32_t> offset;
    constexpr size_t kNoSlot = static_cast<size_t>(-1);
    std::vector<size_t> slotOfIndex(run.ranks.size(), kNoSlot);
    uint32_t total = 0;
    for (size_t index = 0; index < run.ranks.size(); ++index) {
        const RankTrace& rank = run.ranks[index];
        Window window;
        std::string error = findWindow(run, rank, options, annotation, window);
        RankGraph g;
        std::vector<std::string> notes;
        if (error.empty())
            error = buildRankGraph(run, rank, options, window, g, notes, true);
        if (error.empty())
            error = validate(rank, options, g, notes);
        if (!error.empty()) {
            result.notes.push_back("rank " + std::to_string(rank.rank) + " left out: " + error);
            continue;
        }
        slotOfIndex[index] = ranks.size();
        ranks.push_back(&rank);
        rankIndex.push_back(static_cast<uint32_t>(index));
        offset.push_back(total);
        total += static_cast<uint32_t>(g.nodes.size());
        graphs.push_back(std::move(g));
    }
    if (graphs.empty()) {
        result.error = "no rank has a graph for '" + annotation + "'";
        return result;
    }
    std::vector<GlobalNode> nodes(total);
    std::vector<GlobalEdge> edges;
    std::map<std::pair<size_t, uint64_t>, size_t> localEdge;  // (slot, src<<32|dst) -> global edge
    for (size_t k = 0; k < graphs.size(); ++k) {
        for (uint32_t n = 0; n < graphs[k].nodes.size(); ++n)
            nodes[offset[k] + n] = {static_cast<int>(k), n};
        for (const CpEdge& e : graphs[k].edges) {
            localEdge[{k, (uint64_t{e.src} << 32) | e.dst}] = edges.size();
            // Time between consecutive ops on a thread counts too (HTA weighs it 0), so that the
            // lengths of paths on different ranks compare as the time the rank was busy. A sync
            // edge still weighs 0: that time is spent waiting.
            int64_t w = e.pathWeightNs;
            if (e.type == CpEdgeType::Dependency)
                w = std::max<int64_t>(0, graphs[k].nodes[e.dst].tsNs - graphs[k].nodes[e.src].tsNs);
            edges.push_back({offset[k] + e.src, offset[k] + e.dst, w, e.type, e.attributed});
        }
    }

    // Collectives: the last to arrive holds everyone's end.
    const Collectives collectives = matchCollectives(run, CollectiveOptions{.htaCompat = options.htaCompat, .compareWithHta = false});
    // Each slot's clock minus the reference's: what its times lose to be read on that clock.
    std::vector<int64_t> clockOffset(graphs.size(), 0);
    const ClockSkew& skew = collectives.clockSkew;
    if (options.alignClocks) {
        int64_t moved = 0;
        for (const RankClockOffset& r : skew.ranks)
            if (r.estimated && r.rankIndex < slotOfIndex.size() && slotOfIndex[r.rankIndex] != kNoSlot) {
                clockOffset[slotOfIndex[r.rankIndex]] = r.offsetNs;
                moved += r.offsetNs != 0;
            }
        result.notes.push_back(skew.referenceRank >= 0
                                   ? "clocks aligned on rank " + std::to_string(skew.referenceRank) + "'s: "
                                         + std::to_string(moved) + " ranks moved by the offsets of clock-skew"
                                   : "--align-clocks: no clock offset could be estimated (" + skew.error
                                         + "); times are as recorded");
    }
    if (std::string note = lastArrivalNote(lastArrivalChanges(collectives, skew, false), skew, options.alignClocks);
        !note.empty())
        result.notes.push_back(std::move(note));
    const auto onReferenceClock = [&](size_t slot, int64_t ns) { return ns - clockOffset[slot]; };
    for (const CollectiveInstance& inst : collectives.instances) {
        struct Part {
            size_t slot;
            uint32_t start, end;
            int64_t startNs;
        };
        std::vector<Part> parts;
        for (uint32_t a = inst.firstArrival; a < inst.firstArrival + inst.arrivalCount; ++a) {
            const CollectiveArrival& arrival = collectives.arrivals[a];
            const size_t slot = arrival.rankIndex < slotOfIndex.size() ? slotOfIndex[arrival.rankIndex] : kNoSlot;
            if (slot == kNoSlot)
                continue;
            const RankGraph& g = graphs[slot];
            const auto s = g.startOf.find(arrival.kernel);
            const auto e = g.endOf.find(arrival.kernel);
            if (s == g.startOf.end() || e == g.endOf.end())
                continue;
            parts.push_back({slot, s->second, e->second, onReferenceClock(slot, g.nodes[s->second].tsNs)});
        }
        if (parts.size() < 2)
            continue;
        ++result.collectivesLinked;
        const auto last = std::max_element(parts.begin(), parts.end(),
                                           [](const Part& a, const Part& b) { return a.startNs < b.startNs; });
        for (const Part& p : parts) {
            // The kernel starts no earlier than its launch: an edge from the call, weighing the
            // delay (HTA adds one only when the stream was idle; the last rank's delay is the wait
            // it caused).
            const RankGraph& pg = graphs[p.slot];
            const EventIndex launch = ranks[p.slot]->events.link[pg.nodes[p.start].event];
            if (launch != kNoEvent)
                if (const auto ls = pg.startOf.find(launch); ls != pg.startOf.end()) {
                    const uint32_t src = offset[p.slot] + ls->second;
                    const auto existing = localEdge.find({p.slot, (uint64_t{ls->second} << 32) | p.start});
                    const int64_t delay = std::max<int64_t>(0, pg.nodes[p.start].tsNs - pg.nodes[ls->second].tsNs);
                    if (existing != localEdge.end())
                        edges[existing->second].weightNs = delay;
                    else
                        edges.push_back({src, offset[p.slot] + p.start, delay, CpEdgeType::KernelLaunchDelay, kNoEvent});
                }
            if (&p == &*last)
                continue;
            const RankGraph& g = graphs[p.slot];
            // Waiting inside the collective for the last arrival is no work: only the transfer weighs.
            const auto own = localEdge.find({p.slot, (uint64_t{p.start} << 32) | p.end});
            const int64_t transferNs = std::max<int64_t>(0, onReferenceClock(p.slot, g.nodes[p.end].tsNs) - last->startNs);
            if (own != localEdge.end())
                edges[own->second].weightNs = transferNs;
            edges.push_back({offset[last->slot] + last->start, offset[p.slot] + p.end, transferNs, CpEdgeType::CrossRank,
                             kNoEvent});
        }
    }

    // Longest path (Kahn's order; ties to the earlier node).
    std::vector<std::vector<uint32_t>> in(total), out(total);
    for (uint32_t e = 0; e < edges.size(); ++e) {
        in[edges[e].dst].push_back(e);
        out[edges[e].src].push_back(e);
    }
    std::vector<uint32_t> indegree(total), order, ready;
    for (uint32_t v = 0; v < total; ++v)
        if ((indegree[v] = static_cast<uint32_t>(in[v].size())) == 0)
            ready.push_back(v);
    while (!ready.empty()) {
        const uint32_t v = ready.back();
        ready.pop_back();
        order.push_back(v);
        for (uint32_t e : out[v])
            if (--indegree[edges[e].dst] == 0)
                ready.push_back(edges[e].dst);
    }
    if (order.size() != total) {
        result.error = "the joined graph has cycles (clocks of the ranks too far apart?)";
        return result;
    }
    std::vector<int64_t> dist(total, 0);
    std::vector<int64_t> via(total, -1);  // edge
    for (uint32_t v : order)
        for (uint32_t e : in[v]) {
            const int64_t cand = dist[edges[e].src] + edges[e].weightNs;
            if (via[v] < 0 || cand > dist[v]) {
                dist[v] = cand;
                via[v] = e;
            }
        }
    uint32_t end = 0;
    for (uint32_t v = 0; v < total; ++v)
        if (dist[v] > dist[end])
            end = v;
    std::vector<uint32_t> pathEdges;
    for (uint32_t v = end; via[v] >= 0 && dist[v] > 0; v = edges[static_cast<size_t>(via[v])].src)
        pathEdges.push_back(static_cast<uint32_t>(via[v]));
    std::reverse(pathEdges.begin(), pathEdges.end());

    std::vector<CrossRankShare> shares(ranks.size());
    for (size_t k = 0; k < ranks.size(); ++k)
        shares[k].rank = ranks[k]->rank;
    for (uint32_t e : pathEdges) {
        const GlobalEdge& edge = edges[e];
        const GlobalNode& src = nodes[edge.src];
        const GlobalNode& dst = nodes[edge.dst];
        const size_t slot = static_cast<size_t>(edge.type == CpEdgeType::CrossRank ? dst.rankSlot : src.rankSlot);
        const RankTrace& rank = *ranks[slot];
        CrossRankSegment s;
        s.rank = rank.rank;
        s.rankIndex = RankIndex{rankIndex[slot]};
        s.event = edge.attributed;
        s.startNs = onReferenceClock(static_cast<size_t>(src.rankSlot),
                                     graphs[static_cast<size_t>(src.rankSlot)].nodes[src.local].tsNs);
        s.durationNs = edge.weightNs;
        s.type = edge.type;
        s.bound = boundOf(run, rank, options, edge.type, edge.attributed);
        result.segments.push_back(s);
        result.lengthNs += s.durationNs;
        shares[slot].durationNs += s.durationNs;
        if (edge.type == CpEdgeType::CrossRank)
            ++shares[static_cast<size_t>(src.rankSlot)].collectivesLast;
    }
    result.endRank = ranks[static_cast<size_t>(nodes[end].rankSlot)]->rank;
    const CrossRankShare* top = nullptr;
    for (CrossRankShare& share : shares) {
        share.percent = result.lengthNs > 0 ? 100.0 * static_cast<double>(share.durationNs) / static_cast<double>(result.lengthNs) : 0.0;
        result.shares.push_back(share);
    }
    for (const CrossRankShare& s : result.shares)
        if (!top || s.durationNs > top->durationNs)
            top = &s;
    if (top && result.lengthNs > 0)
        result.notes.push_back("rank " + std::to_string(top->rank) + " holds " + std::to_string(static_cast<int>(top->percent + 0.5))
                               + "% of the path (" + std::to_string(result.collectivesLinked) + " collectives linked, "
                               + std::to_string(top->collectivesLast) + " of those on the path it arrived at last)");
    if (result.collectivesLinked == 0)
        result.notes.push_back("no collective matched across ranks: each rank's path stands alone, the longest is shown");
    return result;
}

Table crossRankPathTable(const Run& run, const CrossRankPath& result)
{
    Table table;
    table.columns = {"rank", micros("start (us)"), micros("duration (us)"), "type", "name", "bound_by", "event"};
    for (const CrossRankSegment& s : result.segments) {
        const RankTrace* rank = run.has(s.rankIndex) ? &run.at(s.rankIndex) : nullptr;
        const bool has = rank && s.event >= 0 && static_cast<size_t>(s.event) < rank->events.size();
        std::vector<Cell> row;
        row.reserve(table.columns.size());
        row.emplace_back(int64_t{s.rank});
        row.push_back(microsCell(s.startNs - run.minTsNs));
        row.push_back(microsCell(s.durationNs));
        row.emplace_back(std::string(toString(s.type)));
        if (has)
            row.emplace_back(std::string(run.str(rank->events.name[s.event])));
        else
            row.emplace_back();
        row.emplace_back(std::string(toString(s.bound)));
        if (has)
            row.emplace_back(int64_t{s.event});
        else
            row.emplace_back();
        table.addRow(std::move(row));
    }
    table.notes = result.notes;
    if (!result.error.empty())
        table.notes.push_back("no result: " + result.error);
    return table;
}

Table crossRankSharesTable(const CrossRankPath& result)
{
    Table table;
    table.columns = {"rank", micros("duration (us)"), "percent", "collectives_last"};
    for (const CrossRankShare& s : result.shares)
    {
        std::vector<Cell> row;
        row.emplace_back(int64_t{s.rank});
        row.push_back(microsCell(s.durationNs));
        row.emplace_back(s.percent);
        row.emplace_back(s.collectivesLast);
        table.addRow(std::move(row));
    }
    table.notes = result.notes;
    if (!result.error.empty())
        table.notes.push_back("no result: " + result.error);
    return table;
}

namespace {

// A runtime call that may hold the host until the GPU is done: a synchronize, and a memcpy, which
// blocks when the host side is pageable memory.
bool waitsForGpu(const EventTable& t, EventIndex e, std::string_view name)
{
    return (t.kind[e] == EventKind::Runtime || t.kind[e] == EventKind::Driver)
        && (name.find("Synchronize") != std::string_view::npos || name.find("Memcpy") != std::string_view::npos);
}

// The host events on the path (kTopHostEvents of them) and the cpu_bound time spent waiting.
void summarizeHostEvents(const Run& run, const RankTrace& rank, const CriticalPath& path, RankPathSummaries::Summary& out)
{
    using HostEvent = RankPathSummaries::Summary::HostEvent;
    std::map<std::pair<std::string_view, CpBound>, HostEvent> byName;
    for (const CpSegment& s : path.segments) {
        if ((s.bound != CpBound::CpuBound && s.bound != CpBound::DataLoading) || s.event == kNoEvent || s.durationNs <= 0)
            continue;
        const std::string_view name = run.str(rank.events.name[s.event]);
        HostEvent& e = byName[{name, s.bound}];
        e.bound = s.bound;
        e.durationNs += s.durationNs;
        e.waitsForGpu = waitsForGpu(rank.events, s.event, name);
        if (e.waitsForGpu && s.bound == CpBound::CpuBound)
            out.hostWaitNs += s.durationNs;
    }
    for (auto& [key, e] : byName) {
        e.name = std::string(key.first);
        out.hostEvents.push_back(std::move(e));
    }
    std::stable_sort(out.hostEvents.begin(), out.hostEvents.end(),
                     [](const HostEvent& a, const HostEvent& b) { return a.durationNs > b.durationNs; });
    if (out.hostEvents.size() > RankPathSummaries::kTopHostEvents)
        out.hostEvents.resize(RankPathSummaries::kTopHostEvents);
}

} // namespace

RankPathSummaries criticalPathOfEachRank(const Run& run, const CriticalPathOptions& options)
{
    RankPathSummaries paths;
    for (const RankTrace& rank : run.ranks) {
        CriticalPathOptions each = options;
        each.rank = run.indexOf(rank);
        const CriticalPath path = criticalPath(run, each);
        RankPathSummaries::Summary& summary = paths.ranks.emplace_back();
        summary.rank = rank.rank;
        summary.rankIndex = run.indexOf(rank);
        summary.lengthNs = path.lengthNs;
        summary.rows = path.summary;
        summary.error = path.error;
        summarizeHostEvents(run, rank, path, summary);
    }
    return paths;
}

} // namespace kscope
