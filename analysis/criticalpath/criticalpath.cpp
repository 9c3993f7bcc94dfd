#include "analysis/criticalpath/criticalpath.h"

#include "analysis/criticalpath/criticalpathgraph.h"
#include "analysis/rankchoice.h"
#include "analysis/operators/eventquery.h"
#include "analysis/core/kerneltype.h"

#include <algorithm>
#include <limits>
#include <climits>

namespace kscope {

const char* toString(CpEdgeType type)
{
    switch (type) {
    case CpEdgeType::OperatorKernel: return "critical_path_operator";
    case CpEdgeType::Dependency: return "critical_path_dependency";
    case CpEdgeType::KernelLaunchDelay: return "critical_path_kernel_launch_delay";
    case CpEdgeType::KernelKernelDelay: return "critical_path_kernel_kernel_delay";
    case CpEdgeType::SyncDependency: return "critical_path_sync_dependency";
    case CpEdgeType::CrossRank: return "critical_path_cross_rank";
    }
    return "";
}

const char* toString(CpBound bound)
{
    switch (bound) {
    case CpBound::None: return "";
    case CpBound::CpuBound: return "cpu_bound";
    case CpBound::DataLoading: return "data_loading";
    case CpBound::GpuCommunicationBound: return "gpu_communication_bound";
    case CpBound::GpuComputeBound: return "gpu_compute_bound";
    case CpBound::GpuKernelKernelOverhead: return "gpu_kernel_kernel_overhead";
    case CpBound::GpuKernelLaunchOverhead: return "gpu_kernel_launch_overhead";
    }
    return "";
}

namespace cpdetail {

// networkx.dag_longest_path on the graph as built (node order, predecessor order and
// topological generations decide the ties, as in networkx). Empty when the graph has a cycle.
std::vector<uint32_t> longestPath(const RankGraph& g, bool& cyclic)
{
    const size_t n = g.nodes.size();
    std::vector<std::vector<uint32_t>> in(n), out(n);
    for (uint32_t e = 0; e < g.edges.size(); ++e) {
        in[g.edges[e].dst].push_back(e);
        out[g.edges[e].src].push_back(e);
    }
    std::vector<uint32_t> indegree(n, 0);
    for (uint32_t v : g.nodeOrder)
        indegree[v] = static_cast<uint32_t>(in[v].size());
    std::vector<uint32_t> topo, generation, nextGeneration;
    topo.reserve(g.nodeOrder.size());
    for (uint32_t v : g.nodeOrder)
        if (indegree[v] == 0)
            generation.push_back(v);
    while (!generation.empty()) {
        nextGeneration.clear();
        for (uint32_t v : generation) {
            topo.push_back(v);
            for (uint32_t e : out[v])
                if (--indegree[g.edges[e].dst] == 0)
                    nextGeneration.push_back(g.edges[e].dst);
        }
        generation.swap(nextGeneration);
    }
    cyclic = topo.size() != g.nodeOrder.size();
    if (cyclic || topo.empty())
        return {};
    std::vector<int64_t> dist(n, 0);
    std::vector<uint32_t> from(n, 0);
    for (uint32_t v : topo) {
        bool any = false;
        int64_t best = 0;
        uint32_t bestU = v;
        for (uint32_t e : in[v]) {
            const int64_t cand = dist[g.edges[e].src] + g.edges[e].pathWeightNs;
            if (!any || cand > best) {
                any = true;
                best = cand;
                bestU = g.edges[e].src;
            }
        }
        if (!any || best < 0) {
            dist[v] = 0;
            from[v] = v;
        } else {
            dist[v] = best;
            from[v] = bestU;
        }
    }
    uint32_t v = topo.front();
    for (uint32_t u : topo)
        if (dist[u] > dist[v])
            v = u;
    std::vector<uint32_t> path;
    int64_t u = -1;
    while (u != static_cast<int64_t>(v)) {
        path.push_back(v);
        u = v;
        v = from[v];
    }
    std::reverse(path.begin(), path.end());
    return path;
}

CpBound boundOf(const Run& run, const RankTrace& rank, const CriticalPathOptions& options, CpEdgeType type,
                EventIndex event)
{
    switch (type) {
    case CpEdgeType::KernelKernelDelay: return CpBound::GpuKernelKernelOverhead;
    case CpEdgeType::KernelLaunchDelay: return CpBound::GpuKernelLaunchOverhead;
    case CpEdgeType::Dependency:
    case CpEdgeType::SyncDependency: return CpBound::None;
    case CpEdgeType::CrossRank: return CpBound::GpuCommunicationBound;
    case CpEdgeType::OperatorKernel: break;
    }
    if (event == kNoEvent)
        return CpBound::None;
    const std::string name = shortenKernelName(run.str(rank.events.name[event]));
    if (rank.events.stream[event] < 0) {
        for (const std::string& p : options.dataLoadEvents)
            if (!p.empty() && name.find(p) != std::string::npos)
                return CpBound::DataLoading;
        return CpBound::CpuBound;
    }
    return classifyKernelName(name) == KernelType::Communication ? CpBound::GpuCommunicationBound
                                                                 : CpBound::GpuComputeBound;
}

// HTA's _validate_graph: negative weights cleared (or refused when strict), no sync edge within
// a stream.
std::string validate(const RankTrace& rank, const CriticalPathOptions& options, RankGraph& g,
                     std::vector<std::string>& notes)
{
    const int64_t minusOne = -1000;  // HTA's -1 us
    int64_t cleared = 0;
    for (CpEdge& e : g.edges) {
        if (!options.strictNegativeWeightChecks && (e.weightNs <= minusOne || (!options.htaCompat && e.weightNs < 0))) {
            e.pathWeightNs = 0;
            ++cleared;
        } else if (e.weightNs < minusOne) {
            return "an edge has a negative weight (" + std::to_string(e.weightNs) + " ns) between events "
                + std::to_string(g.nodes[e.src].event) + " and " + std::to_string(g.nodes[e.dst].event);
        } else if (!options.htaCompat && e.weightNs < 0) {
            e.pathWeightNs = 0;
        }
        if (e.type == CpEdgeType::SyncDependency) {
            const int32_t a = rank.events.stream[g.nodes[e.src].event];
            const int32_t b = rank.events.stream[g.nodes[e.dst].event];
            if (a != -1 && a == b)
                return "a CUDA sync edge links two kernels of the same stream (" + std::to_string(a) + ")";
        }
    }
    if (cleared > 0)
        notes.push_back(std::to_string(cleared)
                        + " edges had a negative weight (a child ending after its parent), counted as 0 on the path");
    return {};
}

} // namespace cpdetail

CriticalPath criticalPath(const Run& run, const CriticalPathOptions& options)
{
    using namespace cpdetail;
    CriticalPath result;
    result.options = options;
    result.annotation = options.annotation.value_or("ProfilerStep#");
    const RankTrace* rank = oneRank(run, options.rank);
    if (!rank) {
        result.error = run.ranks.empty() ? "the run has no rank" : positionsNotInRun(run, {*options.rank}).front();
        return result;
    }
    result.rank = rank->rank;
    result.rankIndex = run.indexOf(*rank);
    {
        bool anySync = false;
        for (size_t i = 0; i < rank->events.size() && !anySync; ++i)
            anySync = rank->events.kind[i] == EventKind::CudaSync;
        if (!anySync)
            result.notes.push_back("the trace has no cuda_sync events, so the critical path may be inaccurate (see "
                                   "https://github.com/pytorch/pytorch/pull/105187 to record them)");
    }
    Window window;
    result.error = findWindow(run, *rank, options, result.annotation, window);
    if (!result.error.empty())
        return result;
    result.windowStartNs = window.startNs;
    result.windowEndNs = window.endNs;
    result.windowName = window.name;
    RankGraph g;
    result.error = buildRankGraph(run, *rank, options, window, g, result.notes);
    if (!result.error.empty())
        return result;
    result.error = validate(*rank, options, g, result.notes);
    bool cyclic = false;
    std::vector<uint32_t> path;
    if (result.error.empty()) {
        path = longestPath(g, cyclic);
        if (cyclic)
            result.error = "the graph has cycles";
        else if (path.size() < 2)
            result.error = "the graph has no edge";
    }

    // Edges by (src, dst), as HTA's frame of the graph lists them.
    std::vector<uint32_t> byNodes(g.edges.size());
    for (uint32_t e = 0; e < byNodes.size(); ++e)
        byNodes[e] = e;
    std::sort(byNodes.begin(), byNodes.end(), [&g](uint32_t a, uint32_t b) {
        return g.edges[a].src != g.edges[b].src ? g.edges[a].src < g.edges[b].src : g.edges[a].dst < g.edges[b].dst;
    });
    std::vector<uint32_t> newIndex(g.edges.size(), 0);
    result.edges.reserve(g.edges.size());
    for (uint32_t e : byNodes) {
        newIndex[e] = static_cast<uint32_t>(result.edges.size());
        result.edges.push_back(g.edges[e]);
    }
    if (result.error.empty()) {
        // Per bound, the path's weights as the path counts them (negative weights cleared), over
        // the path's length. HTA's summary() sums the raw weights (its breakdown's durations) over
        // their own total, which a cleared negative weight can bring to 0 or below (percentages
        // past 100, NaN): --hta-compat does that too.
        std::vector<int64_t> sums(7, 0), rawSums(7, 0);
        int64_t rawTotal = 0;
        std::vector<uint8_t> seen(7, 0);
        for (size_t k = 0; k + 1 < path.size(); ++k) {
            const auto at = g.edgeAt.find((uint64_t{path[k]} << 32) | path[k + 1]);
            if (at == g.edgeAt.end()) {
                result.error = "the path steps from node " + std::to_string(path[k]) + " to node "
                    + std::to_string(path[k + 1]) + " without an edge";
                result.segments.clear();
                result.lengthNs = 0;
                for (CpEdge& edge : result.edges)
                    edge.onPath = false;
                path.clear();
                break;
            }
            const uint32_t e = newIndex[at->second];
            CpEdge& edge = result.edges[e];
            edge.onPath = true;
            const CpBound bound = boundOf(run, *rank, options, edge.type, edge.attributed);
            result.segments.push_back({e, edge.attributed, edge.weightNs, edge.type, bound});
            result.lengthNs += edge.pathWeightNs;
            sums[static_cast<size_t>(bound)] += edge.pathWeightNs;
            rawSums[static_cast<size_t>(bound)] += edge.weightNs;
            rawTotal += edge.weightNs;
            seen[static_cast<size_t>(bound)] = 1;
        }
        if (result.error.empty()) {
            for (size_t b = 0; b < sums.size(); ++b) {
                if (!seen[b])
                    continue;
                double percent = 0.0;
                if (options.htaCompat)
                    percent = rawTotal != 0 ? static_cast<double>(rawSums[b]) / static_cast<double>(rawTotal) * 100.0
                                            : std::numeric_limits<double>::quiet_NaN();  // pandas: 0 / 0
                else if (result.lengthNs > 0)
                    percent = static_cast<double>(sums[b]) / static_cast<double>(result.lengthNs) * 100.0;
                result.summary.push_back({static_cast<CpBound>(b), options.htaCompat ? rawSums[b] : sums[b], percent});
            }
            result.success = true;
        }
    }
    if (options.htaCompat) {
        // HTA's ev_idx: the event's position in traceEvents, as the loader recorded it.
        result.htaIndex.assign(rank->events.size(), -1);
        auto index = [&](EventIndex e) {
            if (e >= 0 && static_cast<size_t>(e) < result.htaIndex.size())
                result.htaIndex[static_cast<size_t>(e)] = htaRowIndex(*rank, static_cast<size_t>(e));
        };
        for (const CpNode& n : g.nodes)
            index(n.event);
        for (const CpEdge& e : g.edges)
            index(e.attributed);
    }
    result.path = std::move(path);
    result.nodes = std::move(g.nodes);
    return result;
}

} // namespace kscope
