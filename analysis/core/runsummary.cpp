#include "analysis/core/runsummary.h"

#include "analysis/core/gpuactivity.h"

#include <algorithm>
#include <climits>
#include <set>

namespace kscope {

RankSummary summarizeRank(const RankTrace& rank, bool htaCompat)
{
    RankSummary summary;
    summary.rank = rank.rank;
    summary.file = rank.file;
    const EventTable& t = rank.events;
    summary.events = t.size();
    std::set<int32_t> streams;
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (size_t i = 0; i < t.size(); ++i) {
        switch (t.kind[i]) {
        case EventKind::Kernel: ++summary.gpuKernels; break;
        case EventKind::Memcpy: ++summary.memcpy; break;
        case EventKind::Memset: ++summary.memset; break;
        case EventKind::CpuOp: ++summary.cpuOps; break;
        case EventKind::Runtime:
        case EventKind::Driver: ++summary.runtimeCalls; break;
        default: break;
        }
        if (isGpuActivity(t, i, htaCompat)) {
            streams.insert(t.stream[i]);
            ++summary.gpuEvents;
        }
        if (t.kind[i] == EventKind::TraceSpan)
            continue;
        first = std::min(first, t.tsNs[i]);
        last = std::max(last, t.tsNs[i] + t.durNs[i]);
    }
    summary.streams = static_cast<int>(streams.size());
    if (!rank.metadata.devices.empty())
        summary.deviceName = rank.metadata.devices.front().name;
    summary.deviceType = rank.deviceType;
    summary.hasTimedEvents = first != INT64_MAX;
    if (summary.hasTimedEvents) {
        summary.firstNs = first;
        summary.lastNs = last;
    }
    std::set<int> steps;
    for (const ProfilerStep& step : rank.steps)
        steps.insert(step.number);
    summary.steps.assign(steps.begin(), steps.end());
    return summary;
}

RunSummary summarizeRun(const Run& run)
{
    RunSummary summary;
    summary.ranks = static_cast<int>(run.ranks.size());
    std::set<int> steps;
    int64_t first = INT64_MAX, last = INT64_MIN;
    summary.perRank.reserve(run.ranks.size());
    for (const RankTrace& rank : run.ranks) {
        for (const DeviceProperties& device : rank.metadata.devices)
            if (std::find(summary.devices.begin(), summary.devices.end(), device.name) == summary.devices.end())
                summary.devices.push_back(device.name);
        const RankSummary& r = summary.perRank.emplace_back(summarizeRank(rank, run.htaCompat));
        steps.insert(r.steps.begin(), r.steps.end());
        if (r.hasTimedEvents) {
            first = std::min(first, r.firstNs);
            last = std::max(last, r.lastNs);
        }
        summary.events += r.events;
        summary.gpuEvents += r.gpuEvents;
        summary.streams += r.streams;
        summary.maxStreamsPerRank = std::max(summary.maxStreamsPerRank, r.streams);
        summary.compressedBytes += rank.compressedBytes;
        summary.eventsTrimmed += rank.eventsTrimmed;
        summary.gpuEventsTrimmed += rank.gpuEventsTrimmed;
        summary.memoryEventsTrimmed += rank.memoryEventsTrimmed;
    }
    summary.steps.assign(steps.begin(), steps.end());
    if (first != INT64_MAX) {
        summary.firstNs = first;
        summary.lastNs = last;
    }
    return summary;
}

} // namespace kscope
