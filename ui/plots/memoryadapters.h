#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct MemoryTimeline;
struct Run;

// Allocated and reserved bytes per device of one rank over time (ms since the run's first event),
// its ProfilerSteps as bands, each device's peak allocated marked.
SeriesChartData memorySeriesData(const MemoryTimeline& result, const Run& run, RankIndex rank);

} // namespace kscope
