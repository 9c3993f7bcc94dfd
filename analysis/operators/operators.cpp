#include "analysis/operators/operators.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/diff/tracediff.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace kscope {

namespace {

bool isOp(EventKind kind, bool annotations)
{
    return kind == EventKind::CpuOp || (annotations && kind == EventKind::UserAnnotation);
}

bool isDeviceWork(EventKind kind)
{
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset;
}

// Lazily decided per string id: 0 unknown, 1 no, 2 yes.
class TensorCoreCache {
public:
    explicit TensorCoreCache(const StringPool& strings) : m_strings(strings), m_state(strings.size(), 0) {}
    bool uses(StringId name)
    {
        if (!name || name.value >= m_state.size())
            return false;
        uint8_t& s = m_state[name.value];
        if (s == 0)
            s = usesTensorCores(m_strings.view(name)) ? 2 : 1;
        return s == 2;
    }

private:
    const StringPool& m_strings;
    std::vector<uint8_t> m_state;
};

// One rank's rows, not yet sorted or folded.
void analyseRank(const Run& run, const RankTrace& rank, const OperatorOptions& options, TensorCoreCache& tc,
                 std::vector<OperatorRow>& rows, TensorCoreShare& share)
{
    const EventTable& t = rank.events;
    const size_t n = t.size();
    const bool annotations = options.includeAnnotations;

    std::vector<EventIndex> ops;
    for (size_t i = 0; i < n; ++i) {
        const auto e = static_cast<EventIndex>(i);
        if (isOp(t.kind[e], annotations) && innermostOp(t, e, annotations) == e)
            ops.push_back(e);
    }
    // Compact per-op accumulators, indexed by position in `ops`.
    std::vector<uint32_t> slot(n, UINT32_MAX);
    for (size_t k = 0; k < ops.size(); ++k)
        slot[ops[k]] = static_cast<uint32_t>(k);
    struct Acc {
        int64_t childHostNs = 0;
        int64_t devSelf = 0, devTotal = 0, tcSelf = 0, tcTotal = 0, gpuEvents = 0;
        uint32_t parentOp = UINT32_MAX;
    };
    std::vector<Acc> acc(ops.size());
    for (size_t k = 0; k < ops.size(); ++k) {
        const EventIndex p = t.parent[ops[k]];
        const EventIndex op = p == kNoEvent ? kNoEvent : innermostOp(t, p, annotations);
        if (op != kNoEvent)
            acc[k].parentOp = slot[op];
    }

    // GPU work: to the innermost op around its launch.
    for (size_t i = 0; i < n; ++i) {
        const auto g = static_cast<EventIndex>(i);
        const EventKind kind = t.kind[g];
        if (!isDeviceWork(kind) || t.stream[g] < 0 || t.phase[g] != Phase::Complete)
            continue;
        const int64_t dur = t.durNs[g];
        const bool tensor = kind == EventKind::Kernel && tc.uses(t.name[g]);
        if (kind == EventKind::Kernel) {
            ++share.kernels;
            share.kernelNs += dur;
            if (tensor) {
                ++share.tensorCoreKernels;
                share.tensorCoreNs += dur;
            }
        }
        const EventIndex op = launchingOp(t, g, annotations);
        if (op == kNoEvent) {
            share.outsideOpsNs += dur;
            if (t.link[g] == kNoEvent) {
                ++share.withoutLaunch;
                share.withoutLaunchNs += dur;
            }
            continue;
        }
        Acc& a = acc[slot[op]];
        a.devSelf += dur;
        a.devTotal += dur;
        a.gpuEvents += 1;
        if (tensor) {
            a.tcSelf += dur;
            a.tcTotal += dur;
        }
    }
    // Children after parents in `ops`: a backward pass rolls totals up.
    for (size_t k = ops.size(); k-- > 0;) {
        const Acc& a = acc[k];
        if (a.parentOp == UINT32_MAX)
            continue;
        Acc& p = acc[a.parentOp];
        p.childHostNs += t.durNs[ops[k]];
        p.devTotal += a.devTotal;
        p.tcTotal += a.tcTotal;
        p.gpuEvents += a.gpuEvents;
    }

    // Groups: by name, (name, shape) or (name, stack of enclosing ops).
    std::vector<uint32_t> stackId;  // OpGroupBy::Stack: per op a stack id (0 = top level)
    std::vector<std::pair<uint32_t, StringId>> stacks{{0, StringId{}}};  // id -> (parent stack, name)
    if (options.groupBy == OpGroupBy::Stack) {
        stackId.assign(ops.size(), 0);
        std::unordered_map<uint64_t, uint32_t> known;
        for (size_t k = 0; k < ops.size(); ++k) {
            const uint32_t parentStack = acc[k].parentOp == UINT32_MAX ? 0 : stackId[acc[k].parentOp];
            const uint64_t key = (uint64_t(parentStack) << 32) | t.name[ops[k]].value;
            auto [it, added] = known.try_emplace(key, static_cast<uint32_t>(stacks.size()));
            if (added)
                stacks.emplace_back(parentStack, t.name[ops[k]]);
            stackId[k] = it->second;
        }
    }
    std::unordered_map<uint64_t, uint32_t> groupOf;
    std::vector<OperatorRow> local;
    auto shapeIt = t.shapeArgs.begin();
    for (size_t k = 0; k < ops.size(); ++k) {
        const EventIndex e = ops[k];
        const StringId name = t.name[e];
        uint64_t key = name.value;
        StringId dims;
        if (options.groupBy == OpGroupBy::Shape) {
            while (shapeIt != t.shapeArgs.end() && shapeIt->event < e)
                ++shapeIt;
            if (shapeIt != t.shapeArgs.end() && shapeIt->event == e)
                dims = t.shapeOf(*shapeIt).inputDims;
            key |= uint64_t(dims.value) << 32;
        } else if (options.groupBy == OpGroupBy::Stack) {
            key = stackId[k];
        }
        auto [it, added] = groupOf.try_emplace(key, static_cast<uint32_t>(local.size()));
        if (added) {
            OperatorRow row;
            row.rank = rank.rank;
            row.name = name;
            row.inputDims = dims;
            if (options.groupBy == OpGroupBy::Stack) {
                for (uint32_t s = stacks[stackId[k]].first; s != 0; s = stacks[s].first)
                    row.stack.push_back(stacks[s].second);
                std::reverse(row.stack.begin(), row.stack.end());
            }
            local.push_back(std::move(row));
        }
        OperatorRow& row = local[it->second];
        const Acc& a = acc[k];
        const int64_t dur = t.durNs[e];
        row.calls += 1;
        row.hostTotalNs += dur;
        row.hostSelfNs += std::max<int64_t>(0, dur - a.childHostNs);
        row.deviceTotalNs += a.devTotal;
        row.deviceSelfNs += a.devSelf;
        row.tensorCoreTotalNs += a.tcTotal;
        row.tensorCoreSelfNs += a.tcSelf;
        row.gpuEvents += a.gpuEvents;
    }

    std::sort(local.begin(), local.end(), [&run](const OperatorRow& a, const OperatorRow& b) {
        if (a.deviceTotalNs != b.deviceTotalNs)
            return a.deviceTotalNs > b.deviceTotalNs;
        if (a.hostTotalNs != b.hostTotalNs)
            return a.hostTotalNs > b.hostTotalNs;
        if (a.name != b.name)
            return run.str(a.name) < run.str(b.name);
        return run.str(a.inputDims) < run.str(b.inputDims);
    });
    if (options.top > 0 && local.size() > options.top) {
        OperatorRow others;
        others.rank = rank.rank;
        for (size_t k = options.top; k < local.size(); ++k) {
            const OperatorRow& r = local[k];
            others.calls += r.calls;
            others.hostTotalNs += r.hostTotalNs;
            others.hostSelfNs += r.hostSelfNs;
            others.deviceTotalNs += r.deviceTotalNs;
            others.deviceSelfNs += r.deviceSelfNs;
            others.tensorCoreTotalNs += r.tensorCoreTotalNs;
            others.tensorCoreSelfNs += r.tensorCoreSelfNs;
            others.gpuEvents += r.gpuEvents;
            ++others.foldedRows;
        }
        local.resize(options.top);
        local.push_back(std::move(others));
    }
    rows.insert(rows.end(), std::make_move_iterator(local.begin()), std::make_move_iterator(local.end()));
}

} // namespace

EventIndex innermostOp(const EventTable& t, EventIndex e, bool includeAnnotations)
{
    for (EventIndex at = e; at != kNoEvent; at = t.parent[at]) {
        if (t.phase[at] != Phase::Complete || isGpuKind(t.kind[at]))
            return kNoEvent;
        if (isOp(t.kind[at], includeAnnotations))
            return at;
    }
    return kNoEvent;
}

EventIndex launchingOp(const EventTable& t, EventIndex g, bool includeAnnotations)
{
    if (!isDeviceWork(t.kind[g]) || t.stream[g] < 0 || t.phase[g] != Phase::Complete || t.link[g] == kNoEvent)
        return kNoEvent;
    return innermostOp(t, t.link[g], includeAnnotations);
}

const char* toString(OpGroupBy groupBy)
{
    switch (groupBy) {
    case OpGroupBy::Shape: return "shape";
    case OpGroupBy::Stack: return "stack";
    case OpGroupBy::Name: break;
    }
    return "name";
}

bool usesTensorCores(std::string_view name)
{
    // TensorBoard's list (its xmma_* entries widened to any xmma kernel), then newer names.
    static constexpr std::array<std::string_view, 19> kTags = {
        "h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "c1688",
        "dgrad_1x1_stride_2x2", "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
        "xmma", "tensorop", "gmma", "wmma", "mfma", "MFMA"};
    for (std::string_view tag : kTags)
        if (name.find(tag) != std::string_view::npos)
            return true;
    // Tensile (rocBLAS, hipBLASLt): ..._MI32x32x8x1_... names the MFMA instruction used.
    for (size_t at = name.find("_MI"); at != std::string_view::npos; at = name.find("_MI", at + 1)) {
        size_t i = at + 3;
        size_t digits = 0;
        while (i < name.size() && name[i] >= '0' && name[i] <= '9') {
            ++i;
            ++digits;
        }
        if (digits > 0 && i < name.size() && name[i] == 'x')
            return true;
    }
    return false;
}

Operators operatorStats(const Run& run, const OperatorOptions& options)
{
    Operators result;
    result.groupBy = options.groupBy;
    TensorCoreCache tc(run.strings);
    bool anyShape = false;
    for (const RankTrace& rank : run.ranks) {
        if (!chosen(options.ranks, run.indexOf(rank)))
            continue;
        TensorCoreShare share;
        share.rank = rank.rank;
        analyseRank(run, rank, options, tc, result.rows, share);
        anyShape = anyShape || !rank.events.shapeArgs.empty();
        result.tensorCores.push_back(share);
    }
    if (result.tensorCores.empty())
        result.error = options.ranks.empty() ? "the run has no rank" : "none of the ranks asked for is in the run";
    else if (result.rows.empty())
        result.notes.push_back("no CPU operator (cpu_op) in the trace"
                               + std::string(options.includeAnnotations ? " and no user annotation" : ""));
    if (options.groupBy == OpGroupBy::Shape && !anyShape)
        result.notes.push_back("the trace has no input shapes (record it with record_shapes=True): one row per name");
    for (const TensorCoreShare& s : result.tensorCores) {
        if (s.outsideOpsNs > 0)
            result.notes.push_back(rankLabel(s.rank) + ": " + std::to_string(s.outsideOpsNs / 1000)
                                   + " us of GPU work was launched outside every operator (not in any row)");
        if (s.withoutLaunch > 0)
            result.notes.push_back(rankLabel(s.rank) + ": of it " + std::to_string(s.withoutLaunch) +
                                   " GPU events (" + std::to_string(s.withoutLaunchNs / 1000) +
                                   " us) have no launch in the trace (launched before it began): no op owns them");
    }
    return result;
}

std::vector<KernelTensorCoreRow> kernelTensorCores(const Run& run, const RankChoice& ranks)
{
    std::vector<KernelTensorCoreRow> rows;
    TensorCoreCache tc(run.strings);
    for (const RankTrace& rank : run.ranks) {
        if (!chosen(ranks, run.indexOf(rank)))
            continue;
        const EventTable& t = rank.events;
        std::unordered_map<uint32_t, size_t> at;
        const size_t first = rows.size();
        for (size_t i = 0; i < t.size(); ++i) {
            if (t.kind[i] != EventKind::Kernel || t.stream[i] < 0 || t.phase[i] != Phase::Complete)
                continue;
            auto [it, added] = at.try_emplace(t.name[i].value, rows.size());
            if (added)
                rows.push_back({rank.rank, t.name[i], 0, 0, tc.uses(t.name[i])});
            rows[it->second].count += 1;
            rows[it->second].totalNs += t.durNs[i];
        }
        std::sort(rows.begin() + static_cast<std::ptrdiff_t>(first), rows.end(),
                  [&run](const KernelTensorCoreRow& a, const KernelTensorCoreRow& b) {
                      if (a.totalNs != b.totalNs)
                          return a.totalNs > b.totalNs;
                      return run.str(a.name) < run.str(b.name);
                  });
    }
    return rows;
}

OpsSummary opsSummary(const Run& run, const OpsSummaryOptions& options)
{
    OpsSummary result;
    if (run.ranks.empty()) {
        result.error = "the run has no rank";
        return result;
    }
    const RankTrace* rank = options.rank < 0 ? &run.ranks.front() : run.findRank(options.rank);
    if (!rank) {
        result.error = "Invalid argument rank=" + std::to_string(options.rank);
        return result;
    }
    result.rank = rank->rank;
    result.step = options.step;
    if (options.step == -1) {
        const std::vector<int> steps = runSteps(run);
        if (steps.empty()) {
            result.error = "the trace has no ProfilerStep (HTA: \"doesn't have any iteration\")";
            return result;
        }
        result.step = steps.front();
    }
    const EventTable& t = rank->events;
    std::unordered_map<uint64_t, size_t> at;
    for (size_t i = 0; i < t.size(); ++i) {
        if (!isHtaVisible(t, i) || (result.step >= 0 && t.step[i] != result.step))
            continue;
        if ((options.device == 1 && t.stream[i] != -1) || (options.device == 2 && t.stream[i] == -1))
            continue;
        const uint64_t key = (uint64_t(t.category[i].value) << 32) | t.name[i].value;
        auto [it, added] = at.try_emplace(key, result.rows.size());
        if (added)
            result.rows.push_back({t.category[i], t.name[i], 0, 0});
        result.rows[it->second].count += 1;
        result.rows[it->second].totalNs += t.durNs[i];
    }
    std::sort(result.rows.begin(), result.rows.end(), [&run](const OpsSummaryRow& a, const OpsSummaryRow& b) {
        const std::string_view ca = run.str(a.category), cb = run.str(b.category);
        if (ca != cb)
            return ca < cb;
        return run.str(a.name) < run.str(b.name);
    });
    if (!run.htaCompat)
        result.notes.push_back("durations are exact nanoseconds (HTA rounds each event to whole microseconds)");
    result.notes.push_back("cat_id and name_id are this run's string ids: HTA's come from a Python set's order, "
                           "which changes with the interpreter's hash seed");
    return result;
}

} // namespace kscope
