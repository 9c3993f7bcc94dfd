#pragma once

// What HTA calls GPU activity, and the per-rank unions several analyses share.

#include "analysis/core/intervals.h"
#include "analysis/core/kerneltype.h"
#include "model/trace.h"

#include <string>
#include <vector>

namespace kscope {

// Events HTA keeps when it parses a trace: complete events, without the profiler's own span.
inline bool isHtaVisible(const EventTable& events, size_t i)
{
    return events.phase[i] == Phase::Complete && events.kind[i] != EventKind::TraceSpan;
}

// What runs on a GPU stream, by category: kernels, memcpy, memset, stream-bound syncs, MTIA's
// ccp events.
inline bool isGpuKind(EventKind kind)
{
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
        || kind == EventKind::CudaSync || kind == EventKind::MtiaCcp;
}

// The working set of the breakdowns: GPU activity on a stream. HTA takes every visible event
// with args.stream (stream != -1), so a cpu_op carrying "stream": 0 (Inductor's Triton launches)
// or a runtime call with a stream argument counts as a kernel. The default mode lets the event's
// category decide and never args.stream alone; every analysis and `info` use this one rule.
// Every such event is a row of EventTable::gpuRows: walk those, and ask this of each.
inline bool isGpuActivityRow(const EventTable& events, EventIndex gpuRow, bool htaCompat)
{
    return htaCompat || isGpuKind(events.kind[gpuRow]);
}

// Kernels, memcpys and memsets: what the idle-time analysis looks at (it leaves cuda_sync out).
// Already decided by category in both modes, as HTA's idle analysis does. Of a gpuRows row.
inline bool isGpuWorkRow(const EventTable& events, EventIndex gpuRow)
{
    const EventKind kind = events.kind[gpuRow];
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
        || kind == EventKind::MtiaCcp;
}

// The same two rules for any row of the table.
inline bool isOnGpuStreamAndVisible(const EventTable& events, size_t i)
{
    return events.visibleOnStream(i);  // with args.stream and isHtaVisible
}
inline bool isGpuActivity(const EventTable& events, size_t i, bool htaCompat)
{
    return isOnGpuStreamAndVisible(events, i) && isGpuActivityRow(events, static_cast<EventIndex>(i), htaCompat);
}
inline bool isGpuWork(const EventTable& events, size_t i)
{
    return isOnGpuStreamAndVisible(events, i) && isGpuWorkRow(events, static_cast<EventIndex>(i));
}

// The index of the entry for `stream` (entry.stream == stream) in a rank's short list of
// per-stream entries, trying `last` first: consecutive GPU ops are mostly on one stream.
// entries.size() when there is none yet.
template <typename Entry>
size_t findStream(const std::vector<Entry>& entries, int32_t stream, size_t last)
{
    if (last < entries.size() && entries[last].stream == stream)
        return last;
    size_t i = 0;
    while (i < entries.size() && entries[i].stream != stream)
        ++i;
    return i;
}

// Unions of one rank's GPU activity: all of it and per kernel type.
struct RankGpuUnions {
    std::vector<Interval> all;
    std::vector<Interval> computation;
    std::vector<Interval> communication;
    std::vector<Interval> memory;
};

RankGpuUnions gpuUnions(const RankTrace& rank, KernelTypeCache& types, bool htaCompat);

// "rank 3" etc. for notes.
std::string rankLabel(int rank);

} // namespace kscope
