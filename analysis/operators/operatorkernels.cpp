#include "analysis/operators/operatorkernels.h"

#include "analysis/operators/operators.h"
#include "analysis/tables/resulttables.h"

#include <algorithm>
#include <unordered_map>

namespace kscope {

OperatorKernels operatorKernels(const Run& run, const OperatorKernelsOptions& options)
{
    OperatorKernels result;
    result.op = options.op;
    const RankTrace* rank = oneRank(run, options.rank);
    if (!rank) {
        result.error = run.ranks.empty() ? "the run has no rank" : positionsNotInRun(run, {*options.rank}).front();
        return result;
    }
    result.rank = rank->rank;
    if (!options.op) {
        result.error = "no operator given";
        return result;
    }
    const EventTable& t = rank->events;
    const bool annotations = options.includeAnnotations;
    auto named = [&](EventIndex op) { return t.name[op] == options.op; };
    std::unordered_map<uint32_t, size_t> rowOf;
    for (size_t i = 0; i < t.size(); ++i) {
        const EventIndex e = EventIndex(i);
        if (named(e) && innermostOp(t, e, annotations) == e)
            ++result.opCalls;
        // The ops enclosing the launching call, innermost first. Device self: the innermost op
        // must be it; device total: each call of it among them.
        int64_t calls = 0;
        for (EventIndex op = launchingOp(t, e, annotations); op != kNoEvent;
             op = t.parent[op] == kNoEvent ? kNoEvent : innermostOp(t, t.parent[op], annotations)) {
            calls += named(op) ? 1 : 0;
            if (options.selfOnly)
                break;
        }
        if (calls == 0)
            continue;
        const EventKind kind = t.kind[e];
        const auto [it, added] = rowOf.try_emplace(t.name[e].value, result.rows.size());
        if (added) {
            OperatorKernelRow row;
            row.name = t.name[e];
            row.kind = kind;
            row.minNs = t.durNs[e];
            row.maxNs = t.durNs[e];
            row.tensorCores = kind == EventKind::Kernel && usesTensorCores(run.str(t.name[e]));
            result.rows.push_back(row);
        }
        OperatorKernelRow& row = result.rows[it->second];
        row.count += calls;
        row.totalNs += calls * t.durNs[e];
        row.minNs = std::min(row.minNs, t.durNs[e]);
        row.maxNs = std::max(row.maxNs, t.durNs[e]);
    }
    std::sort(result.rows.begin(), result.rows.end(), [&](const OperatorKernelRow& a, const OperatorKernelRow& b) {
        if (a.totalNs != b.totalNs)
            return a.totalNs > b.totalNs;
        return run.str(a.name) < run.str(b.name);
    });
    if (result.opCalls == 0)
        result.error = "rank " + std::to_string(result.rank) + " has no call of " + std::string(run.str(options.op));
    return result;
}

Table operatorKernelsTable(const Run& run, const OperatorKernels& result)
{
    Table table;
    table.columns = {"rank", "operator", "name", "kind", "tensor_cores", "count", micros("total (us)"), micros("min (us)"), micros("max (us)")};
    const std::string op(run.str(result.op));
    for (const OperatorKernelRow& r : result.rows) {
        const char* kind = r.kind == EventKind::Memcpy ? "memcpy" : r.kind == EventKind::Memset ? "memset" : "kernel";
        table.addRow({int64_t(result.rank), op, std::string(run.str(r.name)), std::string(kind),
                      int64_t(r.tensorCores ? 1 : 0), r.count, microsCell(r.totalNs), microsCell(r.minNs),
                      microsCell(r.maxNs)});
    }
    if (!result.error.empty())
        table.notes.push_back(result.error);
    return table;
}

} // namespace kscope
