#include "analysis/tables/idlecausetables.h"

#include "analysis/core/idlecauses.h"
#include "analysis/tables/resulttables.h"

#include "model/trace.h"

namespace kscope {

Table idleCausesTable(const IdleCauses& result, IdleCauseGrouping grouping)
{
    const bool byStep = grouping == IdleCauseGrouping::Step, byStream = grouping == IdleCauseGrouping::Stream;
    Table table;
    table.columns = {"rank"};
    if (byStep)
        table.columns.emplace_back("step");
    if (byStream)
        table.columns.emplace_back("stream");
    for (TableColumn column : {TableColumn("cause"), TableColumn("gaps"), micros("idle_time (us)"), fraction("ratio")})
        table.columns.push_back(std::move(column));
    for (const IdleCauseRow& row : byStep ? result.byStep : byStream ? result.byStream : result.byRank) {
        std::vector<Cell> cells;
        cells.emplace_back(int64_t{row.rank});
        if (byStep)
            cells.emplace_back(int64_t{row.step});
        if (byStream)
            cells.emplace_back(int64_t{row.stream});
        cells.emplace_back(std::string(toString(row.cause)));
        cells.emplace_back(row.gaps);
        cells.push_back(microsCell(row.idleNs));
        cells.push_back(numberCell(row.ratio));
        table.addRow(std::move(cells));
        table.rowRanks.push_back(row.rankIndex);
    }
    return withNotes(std::move(table), result);
}

Table idleCauseGapsTable(const Run& run, const IdleCauses& result, std::optional<IdleCause> only)
{
    Table table;
    table.columns = {"rank", "stream", "step", micros("start (us)"), micros("duration (us)"), "cause",
                     micros("cause_time (us)"), "cause_op", "next"};
    for (const IdleCauseGap& gap : result.gaps) {
        if (!run.has(gap.rankIndex) || (only && gap.cause != *only))
            continue;
        const EventTable& events = run.at(gap.rankIndex).events;
        std::vector<Cell> cells;
        cells.emplace_back(int64_t{gap.rank});
        cells.emplace_back(int64_t{gap.stream});
        cells.emplace_back(int64_t{gap.step});
        cells.emplace_back(static_cast<double>(gap.startNs - run.minTsNs) / 1000.0);
        cells.push_back(microsCell(gap.endNs - gap.startNs));
        cells.emplace_back(std::string(toString(gap.cause)));
        cells.push_back(microsCell(gap.causeNs));
        if (gap.causeName.empty())
            cells.emplace_back();
        else
            cells.emplace_back(gap.causeName);
        cells.emplace_back(std::string(run.str(events.name[gap.next])));
        table.addRow(std::move(cells));
        table.rowRanks.push_back(gap.rankIndex);
    }
    return withNotes(std::move(table), result);
}

} // namespace kscope
