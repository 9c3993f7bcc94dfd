#pragma once

// Tables of the launch, queue, bandwidth, counter-trace and CUPTI analyses, as the CLI prints
// them and the GUI exports them; HTA's column names in its mode, units in the default mode's.

#include "analysis/resulttable.h"

namespace kscope {

struct Run;
struct LaunchStats;
struct QueueLength;
struct MemoryBandwidth;
struct CounterTraces;
struct CuptiCounters;

// launch-stats: one row per GPU op and its launch (HTA's frame, with the rank).
Table launchStatsTable(const Run& run, const LaunchStats& result);
// --hist: the three views (short_kernels, runtime_outliers, launch_delay_outliers) as bins.
Table launchHistogramTable(const LaunchStats& result);
// --outliers: the runtime and launch-delay outliers with their kernels' names.
Table launchOutliersTable(const Run& run, const LaunchStats& result);
// --by-api: launches per runtime call (default mode), and the GPU ops whose launch is missing.
Table launchApisTable(const Run& run, const LaunchStats& result);

// queue-length: describe() per rank and stream; --series: the step functions; --blocked.
Table queueSummaryTable(const QueueLength& result);
Table queueSeriesTable(const Run& run, const QueueLength& result);
Table queueBlockedTable(const QueueLength& result);

// memory-bw: describe() per rank and copy kind; --series: the step functions.
Table memoryBwSummaryTable(const MemoryBandwidth& result);
Table memoryBwSeriesTable(const Run& run, const MemoryBandwidth& result);

// counters: the files written.
Table counterTracesTable(const CounterTraces& result);

// cupti-counters: one row per profiled kernel.
Table cuptiCountersTable(const Run& run, const CuptiCounters& result);

} // namespace kscope
