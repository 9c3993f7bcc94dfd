#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct Collectives;

// Communication time per rank over the slice, stacked: waiting for the last rank to arrive, and
// moving data once it had. Complete instances only, as the analysis counts them.
BarChartData collectiveWaitBars(const Collectives& result, const QStringList& rankNames);
// Mean lateness (arrival - earliest arrival) per rank and step in µs: who keeps the others waiting.
HeatMapData collectiveLatenessMap(const Collectives& result, const QStringList& rankNames);

} // namespace kscope
