#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct KernelDistribution;
struct IdleHistogram;

// Plot adapters for box plots and histograms: quantiles and bins come from analysis/.
BoxChartData kernelBoxes(const KernelDistribution& kernel, const QString& kernelName, const QStringList& rankNames);
HistogramData idleHistogramData(const IdleHistogram& result, const QString& rankName, bool logBins);

} // namespace kscope
