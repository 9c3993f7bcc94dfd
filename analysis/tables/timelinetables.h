#pragma once

// Tables of the timeline's analyses as the GUI shows and exports them. Times in microseconds.

#include "analysis/resulttable.h"

namespace kscope {

struct Run;
struct SpanSummary;

// What lies inside a span, by name: name, kernel_type, count, in_span (us), mean (us) (of the
// whole durations), share of the GPU time inside the span (%).
Table spanSummaryTable(const Run& run, const SpanSummary& result);

} // namespace kscope
