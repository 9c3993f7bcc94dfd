#pragma once

// Tables of the critical-path analysis as the CLI prints them and the GUI exports them: HTA's
// summary(), get_critical_path_breakdown(), the graph's edges and the path's nodes; the
// cross-rank path and each rank's share of it. Times in microseconds; HTA's column names.

#include "analysis/resulttable.h"

namespace kscope {

struct Run;
struct CriticalPath;
struct CrossRankPath;

// HTA's summary(): bound_by, duration (% of the path). The default mode adds duration (us).
Table criticalPathSummaryTable(const CriticalPath& result);
// One row per segment of the path, in path order: event_idx (HTA's index), duration, type,
// s_name, cat, pid, tid, stream, index, bound_by, and our event index (event).
Table criticalPathBreakdownTable(const Run& run, const CriticalPath& result);
// Every edge of the graph (src, dst: node ids; weight; type; on_path), networkx's order.
Table criticalPathEdgesTable(const CriticalPath& result);
// The nodes of the path: node_idx, ev_idx, ts (us since the run's first event), is_start, event.
Table criticalPathNodesTable(const Run& run, const CriticalPath& result);

// --all-ranks: the cross-rank path (one row per segment) and the share of each rank.
Table crossRankPathTable(const Run& run, const CrossRankPath& result);
Table crossRankSharesTable(const CrossRankPath& result);

} // namespace kscope
