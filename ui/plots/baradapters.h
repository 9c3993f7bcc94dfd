#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct TemporalBreakdown;
struct Overlap;
struct KernelBreakdown;
struct IdleTime;
struct IdleCauses;

// Plot adapters: analysis result -> bars, in display units (µs or %). Percentages come from the
// analysis; nothing is summed here.
BarChartData temporalBars(const TemporalBreakdown& result, const QStringList& rankNames, bool percent);
BarChartData overlapBars(const Overlap& result, const QStringList& rankNames);
BarChartData kernelTypeBars(const KernelBreakdown& result);
// The streams of one rank, in the analysis's order (HTA's), stacked by idle cause.
// rank: the number on the result's rows (asked for one rank trace); rankName: how the title names it.
// A rank of the idle chart: the number its rows carry and how it is named.
struct IdleRank {
    int number = -1;
    QString name;
};
// One rank's streams, or several ranks' side by side (keys "r0 s7") when several are selected.
BarChartData idleStreamBars(const IdleTime& result, const QVector<IdleRank>& ranks, bool percent);
// One rank's idle time by host-side cause: a stacked bar for the rank (IdleCauses::byRank), then
// one per stream (byStream), a series per cause; a click on a segment gives its cause (IdleCause).
BarChartData idleCauseBars(const IdleCauses& result, const IdleRank& rank, bool percent);

} // namespace kscope
