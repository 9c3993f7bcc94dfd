#pragma once

// What HTA calls GPU activity, and the per-rank unions several analyses share.

#include "intervals.h"
#include "kerneltype.h"
#include "model/trace.h"

#include <string>
#include <vector>

namespace kscope {

// Events HTA keeps when it parses a trace: complete events, without the profiler's own span.
inline bool isHtaVisible(const EventTable& events, size_t i)
{
    return events.phase[i] == Phase::Complete && events.kind[i] != EventKind::TraceSpan;
}

// HTA's working set for the breakdowns: visible events with a stream (stream != -1), which
// includes memcpy, memset and stream-bound syncs.
inline bool isGpuActivity(const EventTable& events, size_t i)
{
    return events.stream[i] != -1 && isHtaVisible(events, i);
}

// Kernels, memcpys and memsets: what the idle-time analysis looks at (it leaves cuda_sync out).
inline bool isGpuWork(const EventTable& events, size_t i)
{
    if (!isGpuActivity(events, i))
        return false;
    const EventKind kind = events.kind[i];
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
        || kind == EventKind::MtiaCcp;
}

// Unions of one rank's GPU activity: all of it and per kernel type.
struct RankGpuUnions {
    std::vector<Interval> all;
    std::vector<Interval> computation;
    std::vector<Interval> communication;
    std::vector<Interval> memory;
};

RankGpuUnions gpuUnions(const RankTrace& rank, KernelTypeCache& types);

// "rank 3" etc. for notes.
std::string rankLabel(int rank);

} // namespace kscope
