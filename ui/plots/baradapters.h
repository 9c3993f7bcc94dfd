#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct TemporalBreakdown;
struct Overlap;
struct KernelBreakdown;
struct IdleTime;

// Plot adapters: analysis result -> bars, in display units (µs or %). Percentages come from the
// analysis; nothing is summed here.
BarChartData temporalBars(const TemporalBreakdown& result, const QStringList& rankNames, bool percent);
BarChartData overlapBars(const Overlap& result, const QStringList& rankNames);
BarChartData kernelTypeBars(const KernelBreakdown& result);
// The streams of one rank, in the analysis's order (HTA's), stacked by idle cause.
// rank: the number on the result's rows (asked for one rank trace); rankName: how the title names it.
BarChartData idleStreamBars(const IdleTime& result, int rank, const QString& rankName, bool percent);

} // namespace kscope
