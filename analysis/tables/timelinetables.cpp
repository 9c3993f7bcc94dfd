#include "analysis/tables/timelinetables.h"

#include "analysis/tables/resulttables.h"
#include "analysis/timeline/spansummary.h"

namespace kscope {

Table spanSummaryTable(const Run& run, const SpanSummary& result)
{
    Table table;
    table.columns = {"name", "kernel_type", "count", micros("in_span (us)"), micros("mean (us)"), percent("share_of_span_gpu_time")};
    int64_t inside = 0;
    for (const SpanSummaryRow& row : result.rows)
        inside += row.insideNs;
    for (const SpanSummaryRow& row : result.rows)
        table.addRow({std::string(run.str(row.name)), std::string(toString(row.type)), row.count, microsCell(row.insideNs),
                      microsCell(double(row.durationNs) / double(row.count)),
                      inside > 0 ? Cell{100.0 * double(row.insideNs) / double(inside)} : Cell{}});
    return withNotes(std::move(table), result);
}

} // namespace kscope
