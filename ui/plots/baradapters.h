#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct TemporalBreakdown;
struct Overlap;
struct KernelBreakdown;
struct IdleTime;

// Plot adapters: analysis result -> bars, in display units (µs or %). Percentages come from the
// analysis; nothing is summed here.
BarChartData temporalBars(const TemporalBreakdown& result, bool percent);
BarChartData overlapBars(const Overlap& result);
BarChartData kernelTypeBars(const KernelBreakdown& result);
// The streams of one rank, in the analysis's order (HTA's), stacked by idle cause.
BarChartData idleStreamBars(const IdleTime& result, int rank, bool percent);

} // namespace kscope
