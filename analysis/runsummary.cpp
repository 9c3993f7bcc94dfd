#include "runsummary.h"

#include <algorithm>
#include <climits>
#include <set>

namespace kscope {

RunSummary summarizeRun(const Run& run)
{
    RunSummary summary;
    summary.ranks = static_cast<int>(run.ranks.size());
    std::set<int> steps;
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const RankTrace& rank : run.ranks) {
        for (const DeviceProperties& device : rank.metadata.devices)
            if (std::find(summary.devices.begin(), summary.devices.end(), device.name) == summary.devices.end())
                summary.devices.push_back(device.name);
        for (const ProfilerStep& step : rank.steps)
            steps.insert(step.number);
        const EventTable& t = rank.events;
        std::set<int32_t> streams;
        for (size_t i = 0; i < t.size(); ++i) {
            if (t.stream[i] >= 0) {
                streams.insert(t.stream[i]);
                ++summary.gpuEvents;
            }
            if (t.kind[i] == EventKind::TraceSpan)
                continue;
            first = std::min(first, t.tsNs[i]);
            last = std::max(last, t.tsNs[i] + t.durNs[i]);
        }
        summary.events += t.size();
        summary.streams += static_cast<int>(streams.size());
        summary.maxStreamsPerRank = std::max(summary.maxStreamsPerRank, static_cast<int>(streams.size()));
        summary.compressedBytes += rank.compressedBytes;
    }
    summary.steps.assign(steps.begin(), steps.end());
    if (first != INT64_MAX) {
        summary.firstNs = first;
        summary.lastNs = last;
    }
    return summary;
}

} // namespace kscope
