#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct TraceComparison;

// The ops whose total time changed most, as grouped horizontal bars: control, test and the
// difference (test - control) per op, in the unit that fits the largest value.
BarChartData opChangeBars(const TraceComparison& comparison, const QString& controlLabel, const QString& testLabel,
                          int maxOps = 15);

} // namespace kscope
