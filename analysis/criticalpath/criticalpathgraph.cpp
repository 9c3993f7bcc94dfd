#include "analysis/criticalpath/criticalpathgraph.h"
#include "analysis/criticalpath/criticalpathprep.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "analysis/htaorder.h"

#include <algorithm>
#include <climits>
#include <map>
#include <numeric>
#include <optional>

namespace kscope::cpdetail {

uint32_t RankGraph::addEdge(uint32_t src, uint32_t dst, CpEdgeType type, int64_t weightNs)
{
    const uint64_t key = (uint64_t{src} << 32) | dst;
    auto [it, inserted] = edgeAt.try_emplace(key, static_cast<uint32_t>(edges.size()));
    if (inserted) {
        edges.push_back({src, dst, type, weightNs, weightNs, kNoEvent, false});
        for (uint32_t n : {src, dst})
            if (!linked[n]) {
                linked[n] = 1;
                nodeOrder.push_back(n);
            }
    } else {
        CpEdge& e = edges[it->second];
        e.type = type;
        e.weightNs = e.pathWeightNs = weightNs;
    }
    return it->second;
}

namespace {

constexpr int64_t kKernelKernelDelayThresholdNs = 1500 * 1000;  // HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US

struct Builder {
    const Prep& p;
    const CriticalPathOptions& options;
    RankGraph& g;
    std::vector<uint8_t> clipped;
    std::vector<EventIndex> clippedFrame;
    int64_t noEdgeKernels = 0;
    bool inferStreamWaits = false;
    std::string error;  // the first inconsistency met (an event with a start node and no end node)

    // The end node of an event that has a start node; nullopt (and `error` set) when it has none.
    std::optional<uint32_t> endNodeOf(EventIndex e)
    {
        const auto it = g.endOf.find(e);
        if (it != g.endOf.end())
            return it->second;
        if (error.empty())
            error = "event " + std::to_string(e) + " has a start node and no end node";
        return std::nullopt;
    }

    bool hasNodes(EventIndex e) const { return g.startOf.count(e) != 0; }
    const CpNode& node(uint32_t n) const { return g.nodes[n]; }

    uint32_t add(uint32_t src, uint32_t dst, CpEdgeType type, bool zeroWeight = false)
    {
        const bool zero = zeroWeight || type == CpEdgeType::Dependency || type == CpEdgeType::SyncDependency;
        return g.addEdge(src, dst, type, zero ? 0 : g.nodes[dst].tsNs - g.nodes[src].tsNs);
    }

    // HTA's _attribute_edge.
    void attribute(uint32_t edge, EventIndex srcParent)
    {
        CpEdge& e = g.edges[edge];
        if (e.type != CpEdgeType::OperatorKernel && e.type != CpEdgeType::KernelKernelDelay)
            return;
        const CpNode& src = g.nodes[e.src];
        const CpNode& dst = g.nodes[e.dst];
        if (e.type == CpEdgeType::KernelKernelDelay || src.isStart)
            e.attributed = src.event;
        else if (!dst.isStart)
            e.attributed = dst.event;
        else
            e.attributed = srcParent;
    }

    bool isLockNode(uint32_t n) const { return p.nameFlags(g.nodes[n].event) & kLock; }
    bool sharesLock(uint32_t a, uint32_t b) const
    {
        return isLockNode(a) && isLockNode(b) && (g.nodes[a].isStart || !g.nodes[b].isStart);
    }

    void clip(const Window& w)
    {
        const EventTable& t = p.t;
        clipped.assign(t.size(), 0);
        for (EventIndex i : p.frame) {
            if (t.stream[i] == -1) {
                clipped[i] = t.tsNs[i] >= w.startNs && t.tsNs[i] <= w.endNs && t.durNs[i] > 0;
                continue;
            }
            if (p.nameFlags(i) & kStreamWaitEvent) {
                clipped[i] = 1;
                continue;
            }
            const EventIndex r = t.link[i];
            if (r != kNoEvent && t.stream[r] == -1 && isHtaVisible(t, r) && t.link[r] == i)
                clipped[i] = t.tsNs[r] >= w.startNs && t.tsNs[r] <= w.endNs && t.durNs[r] > 0;
        }
        for (EventIndex i : p.frame)
            if (clipped[i])
                clippedFrame.push_back(i);
    }

    void createNodes()
    {
        const EventTable& t = p.t;
        std::vector<EventIndex> events;
        for (EventIndex i : clippedFrame)
            if ((p.catFlags(i) & kNodeCat) || (p.nameFlags(i) & kDataLoad) || (t.stream[i] != -1 && p.correlated(i)))
                events.push_back(i);
        g.nodes.reserve(events.size() * 2);
        for (EventIndex e : events) {
            const bool blocking = p.nameFlags(e) & kBlocking;
            g.nodes.push_back({e, t.tsNs[e], true, blocking});
            g.nodes.push_back({e, t.tsNs[e] + t.durNs[e], false, blocking});
        }
        std::sort(g.nodes.begin(), g.nodes.end(), [this](const CpNode& a, const CpNode& b) {
            if (a.tsNs != b.tsNs)
                return a.tsNs < b.tsNs;
            if (a.event != b.event)
                return p.index(a.event) < p.index(b.event);
            return a.isStart && !b.isStart;
        });
        g.linked.assign(g.nodes.size(), 0);
        for (uint32_t n = 0; n < g.nodes.size(); ++n)
            (g.nodes[n].isStart ? g.startOf : g.endOf)[g.nodes[n].event] = n;
    }

    // HTA's _construct_graph_from_cuda_runtime_events: calls that hold the runtime lock, chained
    // in order of completion.
    void runtimeLockEdges()
    {
        std::vector<uint32_t> starts;
        int64_t last = -1;
        for (uint32_t n = 0; n < g.nodes.size(); ++n) {
            if (!isLockNode(n))
                continue;
            if (g.nodes[n].isStart) {
                starts.push_back(n);
            } else {
                while (!starts.empty()) {
                    const uint32_t prev = starts.back();
                    starts.pop_back();
                    if (g.nodes[prev].event == g.nodes[n].event)
                        attribute(add(prev, n, CpEdgeType::OperatorKernel), g.nodes[n].event);
                    else
                        add(prev, n, CpEdgeType::Dependency);
                }
                if (last >= 0 && !g.nodes[static_cast<uint32_t>(last)].isStart)
                    add(static_cast<uint32_t>(last), n, CpEdgeType::Dependency);
            }
            last = n;
        }
    }

    std::optional<int64_t> uniqueTid(uint16_t nameFlag) const
    {
        std::optional<int64_t> tid;
        for (EventIndex i : clippedFrame) {
            if (!(p.nameFlags(i) & nameFlag) || !(p.catFlags(i) & kFwdCat))
                continue;
            const int64_t t = p.thread(i).tid;
            if (tid && *tid != t)
                return std::nullopt;
            tid = t;
        }
        return tid;
    }

    // HTA's _construct_graph_from_call_stacks: one call stack per CPU thread (the backward
    // thread merged into the forward one), walked depth first.
    void callStackEdges()
    {
        const EventTable& t = p.t;
        const auto fwd = uniqueTid(kForward);
        const auto bwd = uniqueTid(kAutograd);
        const bool remap = fwd && bwd && *fwd != *bwd && *fwd != 0 && *bwd != 0;
        std::map<std::pair<int64_t, int64_t>, std::vector<EventIndex>> groups;
        for (EventIndex i : clippedFrame) {
            const ThreadKey& k = p.thread(i);
            const int64_t tid = remap && k.tid == *bwd ? *fwd : k.tid;
            groups[{k.pid, tid}].push_back(i);
        }
        for (auto& [key, rows] : groups) {
            bool anyPositive = false, allNegative = true;
            for (EventIndex i : rows) {
                anyPositive |= t.stream[i] > 0;
                allNegative &= t.stream[i] < 0;
            }
            if (anyPositive || !allNegative || rows.empty())
                continue;  // a GPU stream or an unknown device
            walkCallStack(rows);
        }
    }

    void walkCallStack(const std::vector<EventIndex>& rows)
    {
        const EventTable& t = p.t;
        struct Ev {
            int64_t time;
            int64_t dur;
            int64_t idx;
            EventIndex event;
            bool start;
        };
        std::vector<Ev> evs;
        evs.reserve(rows.size() * 2);
        for (EventIndex i : rows) {
            const int64_t dur = std::max<int64_t>(t.durNs[i], 0);
            evs.push_back({t.tsNs[i], dur, p.index(i), i, true});
            evs.push_back({t.tsNs[i] + dur, dur, p.index(i), i, false});
        }
        // HTA's compare_events.
        auto cmp = [](const Ev& x, const Ev& y) -> int64_t {
            if (x.idx == y.idx)
                return x.start ? -1 : 1;
            int64_t r = x.time - y.time;
            if (r != 0)
                return r;
            if (x.start == y.start) {
                if (x.start)
                    return x.dur == y.dur ? (x.idx < y.idx ? -1 : 1) : (x.dur < y.dur ? 1 : -1);
                return x.dur == y.dur ? (x.idx < y.idx ? 1 : -1) : (x.dur < y.dur ? -1 : 1);
            }
            if (x.dur > 0 && y.dur > 0)
                return x.start ? 1 : -1;
            if (x.dur == 0 && y.dur == 0)
                return x.idx - y.idx;
            return x.start ? -1 : 1;
        };
        std::stable_sort(evs.begin(), evs.end(), [&](const Ev& a, const Ev& b) { return cmp(a, b) < 0; });
        // Parents and children as HTA's CallStackGraph builds them: a start nests in the top of
        // the stack, an end pops the top whatever it is.
        std::unordered_map<EventIndex, uint32_t> slot;
        slot.reserve(rows.size());
        std::vector<EventIndex> parent;
        std::vector<std::vector<uint32_t>> children(1);  // 0 = root
        std::vector<EventIndex> who{kNoEvent};
        std::vector<uint32_t> stack;
        for (const Ev& e : evs) {
            if (e.start) {
                const uint32_t s = static_cast<uint32_t>(who.size());
                who.push_back(e.event);
                parent.push_back(kNoEvent);
                children.emplace_back();
                const uint32_t top = stack.empty() ? 0 : stack.back();
                children[top].push_back(s);
                parent.back() = top == 0 ? kNoEvent : who[top];
                stack.push_back(s);
            } else if (!stack.empty()) {
                stack.pop_back();
            }
        }
        // Depth-first walk (enter, children, exit), iteratively.
        int64_t last = -1;
        int depth = 0;
        EventIndex lastParent = kNoEvent;
        auto visit = [&](uint32_t s, bool enter) {
            if (s == 0)
                return;
            const EventIndex ev = who[s];
            const auto st = g.startOf.find(ev);
            if (st == g.startOf.end())
                return;
            const std::optional<uint32_t> end = enter ? std::optional<uint32_t>(st->second) : endNodeOf(ev);
            if (!end)
                return;
            const uint32_t target = *end;
            if (last >= 0 && !sharesLock(static_cast<uint32_t>(last), target)) {
                uint32_t e;
                if (enter)
                    e = add(static_cast<uint32_t>(last), target,
                            depth == 0 ? CpEdgeType::Dependency : CpEdgeType::OperatorKernel);
                else
                    e = add(static_cast<uint32_t>(last), target, CpEdgeType::OperatorKernel,
                            g.nodes[st->second].isBlocking);
                attribute(e, lastParent);
            }
            last = target;
            lastParent = parent[s - 1];
            depth += enter ? 1 : -1;
        };
        std::vector<std::pair<uint32_t, size_t>> walk{{0, 0}};
        visit(0, true);
        while (!walk.empty()) {
            auto& [s, next] = walk.back();
            if (next < children[s].size()) {
                const uint32_t c = children[s][next++];
                visit(c, true);
                walk.push_back({c, 0});
            } else {
                visit(s, false);
                walk.pop_back();
            }
        }
    }

    void inferWaits(const std::vector<LaunchCall>& launches, std::unordered_map<EventIndex, EventIndex>& kernelSync) const
    {
        const EventTable& t = p.t;
        std::map<std::pair<int64_t, int64_t>, std::vector<const LaunchCall*>> byThread;
        for (const LaunchCall& l : launches)
            byThread[{p.thread(l.event).pid, p.thread(l.event).tid}].push_back(&l);
        for (EventIndex w : p.frame) {
            if (!(p.nameFlags(w) & kStreamWaitCall))
                continue;
            const EventIndex partner = p.partner(w);
            if (partner != kNoEvent && t.stream[partner] != -1)
                continue;  // HTA's own rule links it
            const auto it = byThread.find({p.thread(w).pid, p.thread(w).tid});
            if (it == byThread.end())
                continue;
            const auto& calls = it->second;
            const auto next = std::find_if(calls.begin(), calls.end(),
                                           [&](const LaunchCall* l) { return t.tsNs[l->event] > t.tsNs[w]; });
            if (next == calls.end())
                continue;
            const EventIndex dest = p.partner((*next)->event);
            // The op last launched before the wait, from any thread, on another stream.
            auto prev = std::lower_bound(launches.begin(), launches.end(), t.tsNs[w],
                                         [&](const LaunchCall& l, int64_t ts) { return t.tsNs[l.event] < ts; });
            while (prev != launches.begin()) {
                --prev;
                if (prev->stream != (*next)->stream) {
                    if (dest != kNoEvent)
                        kernelSync.try_emplace(dest, p.partner(prev->event));
                    break;
                }
            }
        }
    }

    // HTA's _construct_graph_from_kernels.
    void kernelEdges()
    {
        const EventTable& t = p.t;
        const std::vector<int64_t> q = queueLengths(p);
        const std::vector<LaunchCall> launches = launchCalls(p);
        const std::map<int64_t, EventIndex> previous = previousLaunches(p, launches);
        const std::unordered_map<EventIndex, EventIndex> next = nextLaunches(p, launches);

        std::vector<EventIndex> gpu;
        for (EventIndex i : clippedFrame)
            if ((t.stream[i] != -1 || (p.nameFlags(i) & (kEventSync | kContextSync))) && p.correlated(i))
                gpu.push_back(i);
        auto isSync = [&](EventIndex i) { return (p.catFlags(i) & kSyncCat) != 0; };
        const std::vector<uint32_t> order =
            p.sortBy(gpu.size(), [&](size_t k) { return isSync(gpu[k]) ? t.endNs(gpu[k]) : t.tsNs[gpu[k]]; });

        std::vector<std::pair<int32_t, uint32_t>> lastNode;  // stream -> end node, in first-seen order
        auto lastOf = [&](int32_t stream) -> int64_t {
            for (const auto& [s, n] : lastNode)
                if (s == stream)
                    return n;
            return -1;
        };
        std::unordered_map<EventIndex, EventIndex> kernelSync;  // dest kernel -> kernel it waits for
        if (inferStreamWaits)
            inferWaits(launches, kernelSync);
        auto syncEdge = [&](uint32_t gpuNode, EventIndex runtime) {
            if (runtime == kNoEvent)
                return;
            const auto end = g.endOf.find(runtime);
            if (end != g.endOf.end())
                add(gpuNode, end->second, CpEdgeType::SyncDependency);
        };
        auto sourceKernel = [&](EventIndex row) -> EventIndex {
            const SyncArgs* s = findSparse(t.syncArgs, row);
            if (!s)
                return kNoEvent;
            const auto it = previous.find(s->waitOnEventRecordCorrelation);
            if (it == previous.end())
                return kNoEvent;
            return p.partner(it->second);
        };

        for (uint32_t k : order) {
            const EventIndex eid = gpu[k];
            if (isSync(eid)) {
                const uint16_t f = p.nameFlags(eid);
                if (f & (kStreamWaitEvent | kEventSync)) {
                    const SyncArgs* s = findSparse(t.syncArgs, eid);
                    if (!s || previous.find(s->waitOnEventRecordCorrelation) == previous.end())
                        continue;
                    const EventIndex src = sourceKernel(eid);
                    if (f & kStreamWaitEvent) {
                        const auto it = next.find(p.partner(eid));
                        if (it == next.end())
                            continue;
                        const EventIndex dest = p.partner(it->second);
                        if (dest != kNoEvent)
                            kernelSync[dest] = src;
                    } else if (src != kNoEvent) {
                        const auto end = g.endOf.find(src);
                        if (end != g.endOf.end())
                            syncEdge(end->second, p.partner(eid));
                    }
                    continue;
                }
                if (f & kContextSync) {
                    for (const auto& [stream, n] : lastNode)
                        syncEdge(n, p.partner(eid));
                } else if (f & kStreamSync) {
                    const int64_t n = lastOf(t.stream[eid]);
                    if (n >= 0)
                        syncEdge(static_cast<uint32_t>(n), p.partner(eid));
                }
                continue;
            }
            const auto st = g.startOf.find(eid);
            if (st == g.startOf.end())
                continue;
            const uint32_t start = st->second;
            const std::optional<uint32_t> endNode = endNodeOf(eid);
            if (!endNode)
                continue;
            const uint32_t end = *endNode;
            attribute(add(start, end, CpEdgeType::OperatorKernel), kNoEvent);
            const int32_t stream = t.stream[eid];
            const EventIndex runtime = p.partner(eid);

            int64_t syncEnd = -1;  // end node of the kernel this one waits for
            bool hasSync = false;
            if (const auto ks = kernelSync.find(eid); ks != kernelSync.end()) {
                if (ks->second != kNoEvent) {
                    hasSync = true;
                    const auto se = g.endOf.find(ks->second);
                    if (se == g.endOf.end()) {
                        hasSync = false;
                    } else {
                        syncEnd = se->second;
                        add(se->second, start, CpEdgeType::SyncDependency);
                    }
                }
                ks->second = kNoEvent;
            }
            bool edgeAdded = syncEnd >= 0;
            bool launchAdded = false;
            const int64_t prev = lastOf(stream);
            const int64_t qRuntime = runtime == kNoEvent ? kNoQueue : q[runtime];
            const int64_t runtimeTs = runtime == kNoEvent ? INT64_MIN : t.tsNs[runtime];
            const auto runtimeStart = runtime == kNoEvent ? g.startOf.end() : g.startOf.find(runtime);
            if (qRuntime == 1 && q[eid] == 0 && (prev < 0 || g.nodes[prev].tsNs < runtimeTs)
                && (!hasSync || g.nodes[syncEnd].tsNs < runtimeTs) && runtimeStart != g.startOf.end()) {
                add(runtimeStart->second, start, CpEdgeType::KernelLaunchDelay);
                edgeAdded = launchAdded = true;
            } else if (prev >= 0 && g.nodes[start].tsNs - g.nodes[prev].tsNs < kKernelKernelDelayThresholdNs
                       && (!hasSync || g.nodes[syncEnd].tsNs < g.nodes[prev].tsNs)) {
                attribute(add(static_cast<uint32_t>(prev), start, CpEdgeType::KernelKernelDelay), kNoEvent);
                edgeAdded = true;
            }
            if (!edgeAdded)
                ++noEdgeKernels;
            if (options.addZeroWeightLaunchEdges && !launchAdded && runtimeStart != g.startOf.end())
                add(runtimeStart->second, start, CpEdgeType::KernelLaunchDelay, true);
            bool found = false;
            for (auto& [s, n] : lastNode)
                if (s == stream) {
                    n = end;
                    found = true;
                }
            if (!found)
                lastNode.emplace_back(stream, end);
        }
    }
};

bool isGpuRow(const EventTable& t, EventIndex i)
{
    return t.stream[i] != -1;
}

} // namespace

std::string findWindow(const Run& run, const RankTrace& rank, const CriticalPathOptions& options,
                       const std::string& annotation, Window& window)
{
    const EventTable& t = rank.events;
    const Prep p(run, rank, options);
    if (p.frame.empty())
        return "rank " + std::to_string(rank.rank) + " has no events";
    if (annotation.empty()) {
        window.startNs = INT64_MAX;
        window.endNs = INT64_MIN;
        for (EventIndex i : p.frame) {
            window.startNs = std::min(window.startNs, t.tsNs[i]);
            window.endNs = std::max(window.endNs, t.endNs(i));
        }
        return {};
    }
    std::vector<uint8_t> matches(run.strings.size() + 1, 0);
    bool any = false;
    for (size_t id = 1; id < run.strings.size(); ++id)
        if (run.strings.view(StringId{static_cast<uint32_t>(id)}).find(annotation) != std::string_view::npos) {
            matches[id] = 1;
            any = true;
        }
    if (!any)
        return "no event name contains the annotation '" + annotation + "'";
    // HTA's frame holds the GPU rows first, then the CPU rows.
    std::vector<EventIndex> instances;
    for (int pass = 0; pass < 2; ++pass)
        for (EventIndex i : p.frame)
            if (matches[t.name[i].value] && isGpuRow(t, i) == (pass == 0))
                instances.push_back(i);
    if (instances.empty())
        return "rank " + std::to_string(rank.rank) + " has no event whose name contains '" + annotation + "'";
    const int count = static_cast<int>(instances.size());
    if (options.instanceStart < 0 || options.instanceStart >= count || options.instanceEnd < options.instanceStart)
        return "instance " + std::to_string(options.instanceStart) + " of '" + annotation + "' does not exist (rank "
            + std::to_string(rank.rank) + " has " + std::to_string(count) + ")";
    window.startNs = INT64_MAX;
    window.endNs = INT64_MIN;
    window.name = std::string(run.str(t.name[instances[options.instanceStart]]));
    for (int k = options.instanceStart; k <= std::min(options.instanceEnd, count - 1); ++k) {
        window.startNs = std::min(window.startNs, t.tsNs[instances[k]]);
        window.endNs = std::max(window.endNs, t.endNs(instances[k]));
    }
    return {};
}

std::string buildRankGraph(const Run& run, const RankTrace& rank, const CriticalPathOptions& options,
                           const Window& window, RankGraph& graph, std::vector<std::string>& notes,
                           bool inferStreamWaits)
{
    const Prep p(run, rank, options);
    Builder b{p, options, graph, {}, {}, 0, inferStreamWaits};
    b.clip(window);
    b.createNodes();
    if (graph.nodes.empty())
        return "no CPU op, runtime call or GPU op in the window";
    b.runtimeLockEdges();
    b.callStackEdges();
    b.kernelEdges();
    if (!b.error.empty())
        return b.error;
    if (b.noEdgeKernels > 0)
        notes.push_back(std::to_string(b.noEdgeKernels)
                        + " GPU ops got no launch, kernel-kernel or sync edge (as HTA warns: their queue was not "
                          "empty but no earlier op on their stream)");
    return {};
}

} // namespace kscope::cpdetail
