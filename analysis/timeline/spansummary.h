#pragma once

// What lies inside a time span (the timeline's Shift+drag, Perfetto's area selection): the GPU work
// of every rank overlapping it, by name, with the time each name spent inside the span.

#include "analysis/core/kerneltype.h"
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct SpanSummaryOptions {
    int64_t fromNs = 0;  // since the run's earliest event, as the session's time range
    int64_t toNs = 0;
};

struct SpanSummaryRow {
    StringId name;
    KernelType type = KernelType::Other;
    int64_t count = 0;       // kernels, memcpys and memsets overlapping the span
    int64_t insideNs = 0;    // their time inside the span
    int64_t durationNs = 0;  // their whole durations
};

struct SpanSummary {
    int64_t fromNs = 0;
    int64_t toNs = 0;
    std::vector<SpanSummaryRow> rows;  // by time inside the span, longest first, then name
    int64_t events = 0;
    std::string error;  // an empty span
    std::vector<std::string> notes;
};

SpanSummary summarizeSpan(const Run& run, const SpanSummaryOptions& options);

} // namespace kscope
