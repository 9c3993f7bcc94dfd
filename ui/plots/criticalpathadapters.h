#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct RankPathSummaries;

// What bounds each rank's critical path, one stacked bar per rank (shares of the path in %); a
// rank without a path is named in the footnote. No bar at all: the caller says why (its message
// knows the window analysed).
BarChartData criticalPathBoundBars(const RankPathSummaries& summaries, const QStringList& rankNames);

} // namespace kscope
