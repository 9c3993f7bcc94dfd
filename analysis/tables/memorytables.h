#pragma once

// Tables of the memory analysis, as the CLI prints them and the GUI exports them. Bytes are
// whole bytes; times us since the run's first event.

#include "analysis/resulttable.h"

namespace kscope {

struct Run;
struct MemoryTimeline;
struct CategoryTimeline;

// Per rank and device: events, allocations, frees, peaks, what is left allocated, the device's memory.
Table memorySummaryTable(const Run& run, const MemoryTimeline& result);
// --series: rank, device, ts (us), allocated, reserved, op (one row per point; op: the cpu_op
// around the event when MemoryOptions::perOp).
Table memorySeriesTable(const Run& run, const MemoryTimeline& result);
// --steps: the peak per ProfilerStep.
Table memoryStepsTable(const MemoryTimeline& result);
// --per-op: allocations and bytes per enclosing operator.
Table memoryOpsTable(const Run& run, const MemoryTimeline& result);
// --unfreed: the largest allocations not freed inside the window.
Table memoryUnfreedTable(const Run& run, const MemoryTimeline& result);
// export_memory_timeline: time (ms since the first point, HTA's x axis) and bytes per category.
Table categoryTimelineTable(const CategoryTimeline& result);
// Its peaks per category.
Table categoryPeaksTable(const CategoryTimeline& result);

} // namespace kscope
