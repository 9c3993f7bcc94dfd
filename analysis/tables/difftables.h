#pragma once

// The two-run results as tables (what the CLI prints and the GUI exports) and HTA's ops_diff
// JSON. Durations in microseconds, like HTA.

#include "analysis/resulttable.h"

#include <string>

namespace kscope {

struct TraceComparison;
struct OpsDiff;
struct DiffSummary;

// HTA's compare_traces frame: index column "name" ("short_name" with short names), then
// <control>_counts, <control>_total_duration, <test>_counts, <test>_total_duration, diff_counts,
// diff_duration (µs), counts_change_categories. Equal labels: the test label becomes
// "<label>_control_test", as HTA renames it. Averaged comparisons (allRanks/allSteps) give
// decimal counts.
Table compareTracesTable(const TraceComparison& result, const std::string& controlLabel,
                         const std::string& testLabel);

// HTA's ops_diff dict as its golden files hold it: json.dump(indent=1), ASCII only (\uXXXX
// escapes), keys added, deleted, increased, decreased, unchanged; no trailing newline.
std::string opsDiffJson(const OpsDiff& diff);

// diffSummary per rank: "rank" (control's), "test_rank", then for each quantity the control
// value, the test value and diff = test - control, as <label>_<quantity>, diff_<quantity>.
// Temporal: idle_time(us), compute_time(us), non_compute_time(us), kernel_time(us) and the
// three _pctg columns.
Table diffTemporalTable(const DiffSummary& summary, const std::string& controlLabel, const std::string& testLabel);
// Overlap: comm_time(us) and comp_comm_overlap_pctg.
Table diffOverlapTable(const DiffSummary& summary, const std::string& controlLabel, const std::string& testLabel);
// Top kernels by |change of total time|: name, change (added, deleted, slower, faster, same),
// count, total_time(us), mean_time(us) and diff_total_time_pctg (empty without a control total).
Table diffKernelsTable(const DiffSummary& summary, const std::string& controlLabel, const std::string& testLabel);

} // namespace kscope
