#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct KernelDistribution;
struct IdleHistogram;

// Plot adapters for box plots and histograms: quantiles and bins come from analysis/.
BoxChartData kernelBoxes(const KernelDistribution& kernel, const QString& kernelName);
HistogramData idleHistogramData(const IdleHistogram& result, int rank, bool logBins);

} // namespace kscope
