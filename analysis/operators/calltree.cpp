#include "analysis/operators/calltree.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>

namespace kscope {

bool isLaunchedGpuWork(const EventTable& t, EventIndex e)
{
    if (t.stream[e] < 0 || t.phase[e] != Phase::Complete)
        return false;
    const EventKind kind = t.kind[e];
    if (kind != EventKind::Kernel && kind != EventKind::Memcpy && kind != EventKind::Memset && kind != EventKind::MtiaCcp)
        return false;
    const EventIndex launch = t.link[e];
    return launch != kNoEvent && t.stream[launch] < 0;
}

std::vector<EventIndex> htaFrameOrder(const EventTable& t)
{
    const size_t n = t.size();
    std::vector<EventIndex> rows(n);
    if (t.fileIndex.size() != n) {
        std::iota(rows.begin(), rows.end(), 0);
        return rows;
    }
    uint32_t last = 0;
    for (uint32_t f : t.fileIndex)
        last = std::max(last, f);
    std::vector<EventIndex> at(static_cast<size_t>(last) + 1, kNoEvent);
    bool unique = true;
    for (size_t i = 0; i < n && unique; ++i) {
        EventIndex& slot = at[t.fileIndex[i]];
        unique = slot == kNoEvent;
        slot = static_cast<EventIndex>(i);
    }
    if (!unique) {  // positions repeat only in runs built in code: sort, ties by row
        std::iota(rows.begin(), rows.end(), 0);
        std::stable_sort(rows.begin(), rows.end(), [&t](EventIndex a, EventIndex b) { return t.fileIndex[a] < t.fileIndex[b]; });
        return rows;
    }
    size_t k = 0;
    for (EventIndex e : at)
        if (e != kNoEvent)
            rows[k++] = e;
    return rows;
}

namespace {

// Sums each node's GPU events into its ancestors, deepest nodes first (parents may sit at any row).
void accumulateKernels(CallTree& tree)
{
    const size_t n = tree.parent.size();
    int32_t maxDepth = 0;
    for (int32_t d : tree.depth)
        maxDepth = std::max(maxDepth, d);
    std::vector<uint32_t> byDepth(static_cast<size_t>(maxDepth) + 2, 0);
    for (int32_t d : tree.depth)
        if (d >= 0)
            ++byDepth[static_cast<size_t>(d) + 1];
    std::partial_sum(byDepth.begin(), byDepth.end(), byDepth.begin());
    std::vector<EventIndex> order(byDepth.back());
    std::vector<uint32_t> next(byDepth.begin(), byDepth.end() - 1);
    for (size_t i = 0; i < n; ++i)
        if (tree.depth[i] >= 0)
            order[next[static_cast<size_t>(tree.depth[i])]++] = static_cast<EventIndex>(i);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const EventIndex p = tree.parent[static_cast<size_t>(*it)];
        if (p == kNoEvent || !tree.inTree(p))
            continue;
        tree.kernels[static_cast<size_t>(p)] += tree.kernels[static_cast<size_t>(*it)];
        tree.kernelNs[static_cast<size_t>(p)] += tree.kernelNs[static_cast<size_t>(*it)];
    }
}

CallTree defaultTree(const RankTrace& rank)
{
    const EventTable& t = rank.events;
    const size_t n = t.size();
    CallTree tree;
    tree.parent.assign(n, kNoEvent);
    tree.depth.assign(n, -1);
    tree.kernels.assign(n, 0);
    tree.kernelNs.assign(n, 0);
    // The model's parents come before their children in row order; its depth saturates at 255,
    // so count it again.
    for (size_t i = 0; i < n; ++i) {
        if (t.phase[i] != Phase::Complete || (t.stream[i] >= 0 && !isHostKind(t.kind[i])))
            continue;
        const EventIndex p = t.parent[i];
        tree.parent[i] = p;
        tree.depth[i] = p != kNoEvent && p < static_cast<EventIndex>(i) && tree.depth[static_cast<size_t>(p)] >= 0
            ? tree.depth[static_cast<size_t>(p)] + 1
            : 0;
    }
    for (size_t i = 0; i < n; ++i) {
        const auto e = static_cast<EventIndex>(i);
        if (!isLaunchedGpuWork(t, e) || tree.depth[static_cast<size_t>(t.link[e])] < 0)
            continue;
        tree.parent[i] = t.link[e];
        tree.depth[i] = tree.depth[static_cast<size_t>(t.link[e])] + 1;
        tree.kernels[i] = 1;
        tree.kernelNs[i] = t.durNs[i];
    }
    accumulateKernels(tree);
    return tree;
}

// ---- HTA's CallGraph ------------------------------------------------------------------------

// One end of an event in HTA's events array (trace_call_stack.py: index, dur, kind, time).
struct EndPoint {
    int64_t time;
    int64_t dur;
    uint32_t index;  // HTA's row index: the position in the file
    EventIndex row;
    bool open;
};

// HTA's _less_than within one time: closing ends before opening ones (shorter closes first,
// longer opens first, then by index), a zero-length event inside whatever opens or closes there
// (its start before its end; several nest in file order). When an event ends, another starts
// and a zero-length one sits at that time, HTA's rules form a cycle (closing < opening < zero <
// closing) and its sort's outcome depends on the input order: the zero-length event is then
// put inside the event that ends (kZeroBeforeClosing) or the one that starts.
constexpr bool kZeroBeforeClosing = true;

// Class of an end point in its time group: 0 = zero-length before closing, 1 = closing, 2 =
// zero-length between, 3 = opening, 4 = zero-length after opening.
int endClass(const EndPoint& p, bool closing, bool opening)
{
    if (p.dur != 0)
        return p.open ? 3 : 1;
    if (closing && opening)
        return kZeroBeforeClosing ? 0 : 4;
    return closing ? 0 : 4;
}

bool sameTimeLess(const EndPoint& x, int xc, const EndPoint& y, int yc)
{
    if (xc != yc)
        return xc < yc;
    if (x.dur == 0) {
        if (x.open != y.open)
            return x.open;
        return x.open ? x.index < y.index : x.index > y.index;
    }
    if (x.dur != y.dur)
        return x.open ? x.dur > y.dur : x.dur < y.dur;
    return x.open ? x.index < y.index : x.index > y.index;
}

constexpr int64_t kNoNode = INT64_MIN;
constexpr int64_t kNonExistentNode = -2;  // HTA's NON_EXISTENT_NODE_INDEX: never taken for a root

class HtaCallGraph {
public:
    HtaCallGraph(const RankTrace& rank, const StringPool& strings) : m_rank(rank), m_t(rank.events), m_strings(strings)
    {
        const size_t n = m_t.size();
        m_parent.assign(n, kNoNode);
        m_depth.assign(n, -1);
        m_gpu.assign(n, 0);
    }

    CallTree build();

private:
    struct Root {
        bool exists = true;
        std::vector<EventIndex> children;
    };
    struct Stack {
        size_t thread = 0;
        int64_t rootKey = 0;
        std::vector<EventIndex> rows;  // every event of the thread, in file order
    };

    uint32_t htaIndex(EventIndex e) const
    {
        return m_t.fileIndex.size() == m_t.size() ? m_t.fileIndex[e] : static_cast<uint32_t>(e);
    }
    bool isNode(EventIndex e) const { return m_parent[static_cast<size_t>(e)] != kNoNode; }
    int32_t depthOf(int64_t node) const { return node < 0 ? -1 : m_depth[static_cast<size_t>(node)]; }

    void addEdge(int64_t parent, EventIndex child, bool gpu)
    {
        if (isNode(child))
            return;  // HTA logs the duplicate edge and keeps the first
        m_parent[static_cast<size_t>(child)] = parent;
        m_depth[static_cast<size_t>(child)] = depthOf(parent) + 1;
        m_gpu[static_cast<size_t>(child)] = gpu;
        if (parent < 0)
            m_roots[parent].children.push_back(child);
    }
    void walkStack(const Stack& stack);
    void linkBackward(const Stack& main, Stack& bwd);
    void finish(CallTree& tree);

    const RankTrace& m_rank;
    const EventTable& m_t;
    const StringPool& m_strings;
    std::vector<int64_t> m_parent;  // row or root key (negative); kNoNode when not a node
    std::vector<int32_t> m_depth;
    std::vector<uint8_t> m_gpu;
    std::map<int64_t, Root> m_roots;
    bool m_unexpected = false;
};

void HtaCallGraph::walkStack(const Stack& stack)
{
    // Starts in row order (by time already), ends sorted by time, merged; ties resolved below.
    std::vector<EventIndex> cpu;
    for (EventIndex e : stack.rows)
        if (m_t.stream[e] == -1)
            cpu.push_back(e);
    std::sort(cpu.begin(), cpu.end());
    std::vector<std::pair<int64_t, EventIndex>> ends;
    ends.reserve(cpu.size());
    for (EventIndex e : cpu)
        ends.emplace_back(m_t.endNs(e), e);
    std::sort(ends.begin(), ends.end());
    std::vector<EndPoint> points;
    points.reserve(2 * cpu.size());
    size_t o = 0, c = 0;
    while (o < cpu.size() || c < ends.size()) {
        if (c >= ends.size() || (o < cpu.size() && m_t.tsNs[cpu[o]] <= ends[c].first)) {
            const EventIndex e = cpu[o++];
            points.push_back({m_t.tsNs[e], m_t.durNs[e], htaIndex(e), e, true});
        } else {
            const EventIndex e = ends[c++].second;
            points.push_back({m_t.endNs(e), m_t.durNs[e], htaIndex(e), e, false});
        }
    }
    std::vector<std::pair<int, EndPoint>> group;
    for (size_t i = 0; i < points.size();) {
        size_t j = i;
        bool zero = false, negative = false, closing = false, opening = false;
        for (; j < points.size() && points[j].time == points[i].time; ++j) {
            zero = zero || points[j].dur == 0;
            negative = negative || points[j].dur < 0;
            closing = closing || (points[j].dur != 0 && !points[j].open);
            opening = opening || (points[j].dur != 0 && points[j].open);
        }
        // HTA's comparator raises ValueError("Unexpected case") comparing a zero-length event
        // with a negative-length one (its rounding makes those of sub-microsecond calls).
        m_unexpected = m_unexpected || (zero && negative);
        if (j - i > 1) {
            group.clear();
            for (size_t k = i; k < j; ++k)
                group.emplace_back(endClass(points[k], closing, opening), points[k]);
            std::sort(group.begin(), group.end(), [](const auto& a, const auto& b) {
                return sameTimeLess(a.second, a.first, b.second, b.first);
            });
            for (size_t k = i; k < j; ++k)
                points[k] = group[k - i].second;
        }
        i = j;
    }
    std::vector<EventIndex> open;
    for (const EndPoint& p : points) {
        if (p.open) {
            addEdge(open.empty() ? stack.rootKey : open.back(), p.row, false);
            open.push_back(p.row);
        } else if (!open.empty()) {
            open.pop_back();  // HTA pops whatever is on top
        }
    }
}

void HtaCallGraph::linkBackward(const Stack& main, Stack& bwd)
{
    auto startsWith = [this](EventIndex e, std::string_view prefix) {
        return m_t.name[e] && m_strings.view(m_t.name[e]).starts_with(prefix);
    };
    std::vector<EventIndex> parents;
    for (std::string_view prefix : {std::string_view("## backward ##"), std::string_view("ProfilerStep#")}) {
        for (EventIndex e : main.rows)
            if (startsWith(e, prefix))
                parents.push_back(e);
        if (!parents.empty())
            break;
    }
    int64_t rootKey = bwd.rootKey;
    for (EventIndex idx : parents) {
        if (!isNode(idx))
            continue;  // HTA raises; a main-thread event is always a node
        auto rootIt = m_roots.find(rootKey);
        if (rootIt == m_roots.end() || !rootIt->second.exists)
            break;
        Root& root = rootIt->second;
        const int64_t ts = m_t.tsNs[idx], end = m_t.endNs(idx);
        size_t moved = 0;
        for (EventIndex c : root.children)
            if (m_t.tsNs[c] >= ts && m_t.endNs(c) <= end && m_parent[static_cast<size_t>(c)] != idx) {
                m_parent[static_cast<size_t>(c)] = idx;  // may be idx itself: HTA then loops it on itself
                ++moved;
            }
        if (moved == 0)
            continue;
        std::erase_if(root.children, [this, idx](EventIndex c) { return m_parent[static_cast<size_t>(c)] == idx; });
        if (root.children.empty()) {
            root.exists = false;
            // HTA: the stack's root becomes the root above the new parent.
            int64_t up = m_parent[static_cast<size_t>(idx)];
            EventIndex at = idx;
            while (up >= 0 && isNode(static_cast<EventIndex>(up)) && up != at) {
                at = static_cast<EventIndex>(up);
                up = m_parent[static_cast<size_t>(at)];
            }
            rootKey = up;
        }
    }
}

void HtaCallGraph::finish(CallTree& tree)
{
    const size_t n = m_t.size();
    // Children of rows, from the final parents.
    std::vector<uint32_t> first(n + 1, 0);
    for (size_t i = 0; i < n; ++i)
        if (m_parent[i] >= 0 && m_parent[i] != static_cast<int64_t>(i))
            ++first[static_cast<size_t>(m_parent[i]) + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::vector<EventIndex> children(first.back());
    {
        std::vector<uint32_t> next(first.begin(), first.end() - 1);
        for (size_t i = 0; i < n; ++i)
            if (m_parent[i] >= 0 && m_parent[i] != static_cast<int64_t>(i))
                children[next[static_cast<size_t>(m_parent[i])]++] = static_cast<EventIndex>(i);
    }
    tree.parent.assign(n, kNoEvent);
    tree.depth.assign(n, -1);
    tree.kernels.assign(n, 0);
    tree.kernelNs.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        if (m_parent[i] == kNoNode)
            continue;
        tree.depth[i] = m_depth[i];  // unreachable nodes keep the depth they were added with
        if (m_parent[i] >= 0 && m_parent[i] != static_cast<int64_t>(i))
            tree.parent[i] = static_cast<EventIndex>(m_parent[i]);
    }
    // Depths again from every root (HTA's _compute_depth over the whole graph), then kernel
    // counts over what the roots reach (_add_kernel_info_to_cpu_ops); the rest counts none.
    std::vector<EventIndex> preorder;
    std::vector<std::pair<EventIndex, int32_t>> todo;
    std::vector<uint8_t> seen(n, 0);
    for (const auto& [key, root] : m_roots) {
        if (!root.exists || key == kNonExistentNode)
            continue;
        for (EventIndex c : root.children)
            if (m_parent[static_cast<size_t>(c)] == key)
                todo.emplace_back(c, 0);
        while (!todo.empty()) {
            const auto [e, d] = todo.back();
            todo.pop_back();
            if (seen[static_cast<size_t>(e)])
                continue;
            seen[static_cast<size_t>(e)] = 1;
            tree.depth[static_cast<size_t>(e)] = d;
            preorder.push_back(e);
            for (uint32_t k = first[static_cast<size_t>(e)]; k < first[static_cast<size_t>(e) + 1]; ++k)
                todo.emplace_back(children[k], d + 1);
        }
    }
    for (auto it = preorder.rbegin(); it != preorder.rend(); ++it) {
        const auto e = static_cast<size_t>(*it);
        if (m_gpu[e]) {
            tree.kernels[e] = 1;
            tree.kernelNs[e] = m_t.durNs[e];
        }
        const EventIndex p = tree.parent[e];
        if (p != kNoEvent && seen[static_cast<size_t>(p)]) {
            tree.kernels[static_cast<size_t>(p)] += tree.kernels[e];
            tree.kernelNs[static_cast<size_t>(p)] += tree.kernelNs[e];
        }
    }
}

CallTree HtaCallGraph::build()
{
    // HTA's frame: events with a duration and a category, "Trace" spans dropped; grouped by (pid, tid).
    std::vector<std::vector<EventIndex>> byThread(m_rank.threads.size());
    const std::vector<EventIndex> rows = htaFrameOrder(m_t);
    for (EventIndex e : rows)
        if (m_t.phase[e] == Phase::Complete && m_t.category[e] && m_t.kind[e] != EventKind::TraceSpan)
            byThread[m_t.thread[e]].push_back(e);
    std::vector<size_t> threadOrder;
    for (size_t k = 0; k < byThread.size(); ++k)
        if (!byThread[k].empty())
            threadOrder.push_back(k);
    std::sort(threadOrder.begin(), threadOrder.end(), [this](size_t a, size_t b) {
        const ThreadKey& x = m_rank.threads[a];
        const ThreadKey& y = m_rank.threads[b];
        return std::tie(x.pid, x.tid) < std::tie(y.pid, y.tid);
    });

    std::vector<Stack> stacks;
    for (size_t k : threadOrder) {
        const ThreadKey& key = m_rank.threads[k];
        bool allGpuStreams = true, allCpu = true;
        for (EventIndex e : byThread[k]) {
            allGpuStreams = allGpuStreams && m_t.stream[e] > 0;
            allCpu = allCpu && m_t.stream[e] == -1;
        }
        const bool numericPid = !key.pidName, numericTid = !key.tidName;
        // infer_device_type: streams all > 0, or pid 0, or tid 0, is a GPU stream: no stack.
        if (allGpuStreams || (numericPid && key.pid == 0) || (numericTid && key.tid == 0))
            continue;
        (void)allCpu;  // CPU and "unknown" threads both get a stack
        Stack stack{k, -std::llabs(key.tid), byThread[k]};
        m_roots.try_emplace(stack.rootKey);
        stacks.push_back(std::move(stack));
    }
    for (const Stack& stack : stacks)
        walkStack(stack);
    // _link_cpu_and_gpu: GPU events on streams > 0 under their launch, if it is on a stack.
    std::vector<uint8_t> onStack(m_rank.threads.size(), 0);
    for (const Stack& stack : stacks)
        onStack[stack.thread] = 1;
    for (EventIndex g : rows) {
        const EventIndex launch = m_t.link[g];
        if (m_t.stream[g] <= 0 || m_t.phase[g] != Phase::Complete || launch == kNoEvent || m_t.stream[launch] != -1
            || !onStack[m_t.thread[launch]] || htaIndex(launch) == 0 || !isNode(launch))
            continue;
        addEdge(launch, g, true);
    }
    // _connect_stacks: the thread with ProfilerStep# is "main", one with autograd:: "bwd".
    std::vector<std::pair<int, size_t>> labelled;  // (0 = bwd, 1 = main), stack
    for (size_t s = 0; s < stacks.size(); ++s) {
        bool main = false, bwd = false;
        for (EventIndex e : stacks[s].rows) {
            if (!m_t.name[e])
                continue;
            const std::string_view name = m_strings.view(m_t.name[e]);
            main = main || name.starts_with("ProfilerStep#");
            bwd = bwd || name.find("autograd::") != std::string_view::npos;
        }
        if (main || bwd)
            labelled.emplace_back(main ? 1 : 0, s);
    }
    std::stable_sort(labelled.begin(), labelled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (labelled.size() == 2)
        linkBackward(stacks[labelled[1].second], stacks[labelled[0].second]);

    CallTree tree;
    finish(tree);
    if (m_unexpected)
        tree.htaError = "HTA raises ValueError (\"Unexpected case\") building its call graph: after its rounding to "
                        "microseconds, a zero-length and a negative-length event meet at one time";
    return tree;
}

} // namespace

CallTree buildCallTree(const RankTrace& rank, const StringPool& strings, bool htaCompat)
{
    if (!htaCompat)
        return defaultTree(rank);
    return HtaCallGraph(rank, strings).build();
}

} // namespace kscope
