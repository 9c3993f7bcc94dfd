#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct LaunchHistogram;
struct QueueLength;
struct MemoryBandwidth;

// One of HTA's three launch views as a histogram (edges and counts come from the analysis).
HistogramData launchHistogramData(const LaunchHistogram& histogram, const QString& title, const QString& keyLabel);
// Queue length per stream and bandwidth per copy kind of one rank, as step lines over time (ms
// from the earliest point shown), thinned to about `buckets` buckets each.
// rank: the number on the result's series (asked for one rank trace); rankName: how the title names it.
// Times from originNs: the run's first event (Run::minTsNs), the origin of every view.
SeriesChartData queueSeriesData(const QueueLength& result, RankIndex rank, const QString& rankName, int64_t originNs,
                                int buckets);
SeriesChartData bandwidthSeriesData(const MemoryBandwidth& result, RankIndex rank, const QString& rankName,
                                    int64_t originNs, int buckets);

} // namespace kscope
