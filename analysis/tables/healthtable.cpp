#include "analysis/tables/healthtable.h"

#include "analysis/core/tracehealth.h"

namespace kscope {

Table healthTable(const TraceHealth& result)
{
    Table table;
    table.columns = {"rank", "check", "severity", "count", "affects", "example"};
    for (const HealthProblem& problem : result.problems) {
        std::vector<Cell> cells;
        if (problem.rank >= 0)
            cells.emplace_back(int64_t{problem.rank});
        else
            cells.emplace_back();
        cells.emplace_back(std::string(toString(problem.check)));
        cells.emplace_back(std::string(toString(severityOf(problem.check))));
        cells.emplace_back(problem.count);
        cells.emplace_back(affectedAnalyses(problem.check));
        cells.emplace_back(problem.example);
        table.addRow(std::move(cells));
        if (problem.check != HealthCheck::FileFailed)
            table.rowRanks.push_back(problem.rankIndex);
    }
    // rowRanks names every row or none.
    if (table.rowRanks.size() != table.rows.size())
        table.rowRanks.clear();
    return withNotes(std::move(table), result);
}

} // namespace kscope
