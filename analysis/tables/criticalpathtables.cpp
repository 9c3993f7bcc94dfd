#include "analysis/tables/criticalpathtables.h"

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/core/kerneltype.h"
#include "analysis/tables/resulttables.h"

#include "model/trace.h"

namespace kscope {

namespace {


Cell us(int64_t ns)
{
    return Cell{static_cast<double>(ns) / 1000.0};
}

Cell threadPart(const Run& run, const RankTrace& rank, EventIndex e, bool pid)
{
    const ThreadKey& k = rank.threads[rank.events.thread[e]];
    const StringId name = pid ? k.pidName : k.tidName;
    if (name)
        return Cell{std::string(run.str(name))};
    return Cell{pid ? k.pid : k.tid};
}

} // namespace

Table criticalPathSummaryTable(const CriticalPath& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"bound_by", percent("duration")};  // HTA's summary(): the share of the path, named so
    if (!hta)
        table.columns = {"bound_by", micros("duration (us)"), percent("percent")};
    for (const CpSummaryRow& r : result.summary) {
        if (hta) {
            table.addRow({std::string(toString(r.bound)), r.percent});
            continue;
        }
        // HTA's blank bound: the path's zero-weight dependency hops. Nothing to read when they
        // carry no time; named when they do.
        if (r.bound == CpBound::None && r.durationNs == 0)
            continue;
        table.addRow({std::string(r.bound == CpBound::None ? "dependency (no op)" : toString(r.bound)), us(r.durationNs),
                      r.percent});
    }
    if (!hta && result.success)
        table.notes.push_back("path of rank " + std::to_string(result.rank) + ": " + std::to_string(result.segments.size())
                              + " segments, " + formatCell(us(result.lengthNs)) + " us of a window of "
                              + formatCell(us(result.windowEndNs - result.windowStartNs)) + " us ('" + result.annotation + "')");
    return withNotes(std::move(table), result);
}

Table criticalPathBreakdownTable(const Run& run, const CriticalPath& result)
{
    Table table;
    const bool hta = result.options.htaCompat;
    table.columns = {"event_idx", micros(hta ? "duration" : "duration (us)"), "type", "s_name", "cat", "pid", "tid", "stream", "index", "bound_by", "event"};
    if (!hta)  // where each segment starts, from the run's first event: the path reads in time order
        table.columns.insert(table.columns.begin() + 1, micros("start (us)"));
    const RankTrace* rank = run.has(result.rankIndex) ? &run.at(result.rankIndex) : nullptr;
    for (const CpSegment& s : result.segments) {
        std::vector<Cell> row;
        const bool has = rank && s.event != kNoEvent;
        const int64_t index = has ? result.eventId(s.event) : -1;
        row.push_back(has ? Cell{index} : Cell{});
        if (!hta) {
            const bool known = s.edge < result.edges.size() && result.edges[s.edge].src < result.nodes.size();
            row.push_back(known ? us(result.nodes[result.edges[s.edge].src].tsNs - run.minTsNs) : Cell{});
        }
        row.push_back(us(s.durationNs));
        row.emplace_back(std::string(toString(s.type)));
        if (has) {
            const EventTable& t = rank->events;
            row.emplace_back(shortenKernelName(run.str(t.name[s.event])));
            row.emplace_back(std::string(run.str(t.category[s.event])));
            row.push_back(threadPart(run, *rank, s.event, true));
            row.push_back(threadPart(run, *rank, s.event, false));
            row.emplace_back(int64_t{t.stream[s.event]});
        } else {
            row.insert(row.end(), 5, Cell{});
        }
        row.push_back(has ? Cell{index} : Cell{});
        row.emplace_back(std::string(toString(s.bound)));
        row.push_back(has ? Cell{int64_t{s.event}} : Cell{});
        table.addRow(std::move(row));
    }
    return withNotes(std::move(table), result);
}

Table criticalPathEdgesTable(const CriticalPath& result)
{
    Table table;
    table.columns = {"src", "dst", "weight", "type", "on_path"};
    for (const CpEdge& e : result.edges)
        table.addRow({int64_t{e.src}, int64_t{e.dst}, us(e.pathWeightNs), std::string(toString(e.type)),
                      int64_t{e.onPath ? 1 : 0}});
    return withNotes(std::move(table), result);
}

Table criticalPathNodesTable(const Run& run, const CriticalPath& result)
{
    Table table;
    table.columns = {"node_idx", "ev_idx", "ts", "is_start", "event"};
    for (uint32_t n : result.path) {
        const CpNode& node = result.nodes[n];
        table.addRow({int64_t{n}, Cell{result.eventId(node.event)}, us(node.tsNs - run.minTsNs),
                      std::string(node.isStart ? "True" : "False"), int64_t{node.event}});
    }
    return withNotes(std::move(table), result);
}

} // namespace kscope
