#include "analysis/criticalpath/criticalpathoverlay.h"

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/core/gpuactivity.h"
#include "analysis/tracerewrite.h"

#include "model/trace.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace kscope {

namespace fs = std::filesystem;

CriticalPathOverlay writeCriticalPathOverlay(const Run& run, const CriticalPath& path, const fs::path& dir,
                                             const CriticalPathOverlayOptions& options)
{
    CriticalPathOverlay result;
    const RankTrace* rank = run.has(path.rankIndex) ? &run.at(path.rankIndex) : nullptr;
    if (!rank || !path.success) {
        result.error = path.error.empty() ? "no critical path" : path.error;
        return result;
    }
    const EventTable& t = rank->events;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) {
        result.error = dir.string() + " is not a folder";
        return result;
    }
    result.output = dir / ("overlaid_critical_path_" + rank->file.filename().string());

    // Events on the path, found in the file by position (HTA's mode keeps it) or by start, duration and name.
    std::unordered_set<EventIndex> critical;
    for (uint32_t n : path.path)
        critical.insert(path.nodes[n].event);
    const bool byPosition = !path.htaIndex.empty();
    std::unordered_set<uint32_t> positions;
    std::unordered_multimap<uint64_t, EventIndex> byKey;
    for (EventIndex e : critical) {
        if (byPosition)
            positions.insert(static_cast<uint32_t>(path.htaIndex[static_cast<size_t>(e)]));
        else
            byKey.emplace(spanKey(t.tsNs[e], t.durNs[e]), e);
    }

    // Flow events: path edges of the shown kinds, or every edge.
    const bool allEdges = options.showAllEdges && !options.onlyCriticalEvents;
    std::vector<std::string> flows;
    auto endpoint = [&](const CpEdge& e, uint32_t node, int64_t id, bool start) {
        const CpNode& n = path.nodes[node];
        const EventIndex ev = n.event;
        int64_t tsNs = t.tsNs[ev];
        if (!n.isStart) {
            tsNs += t.durNs[ev];
            if (isGpuKind(t.kind[ev]))
                tsNs -= std::min<int64_t>(1000, t.durNs[ev]);
        }
        const ThreadKey& k = rank->threads[t.thread[ev]];
        const int64_t weight = e.weightNs / 1000;
        flows.push_back("{\"ph\": \"" + std::string(start ? "s" : "f") + "\", \"id\": " + std::to_string(id)
            + ", \"pid\": " + threadToken(run, k, true) + ", \"tid\": " + threadToken(run, k, false)
            + ", \"ts\": " + std::to_string(tsNs / 1000) + ", \"cat\": \"critical_path\", \"name\": \"critical_path\", "
            + "\"args\": {\"weight\": " + std::to_string(weight) + ", \"critical\": " + (e.onPath ? "true" : "false")
            + ", \"type\": \"" + toString(e.type) + "\"}" + (start ? "" : ", \"bp\": \"e\"") + "}");
    };
    int64_t flowId = 0;
    for (const CpEdge& e : path.edges) {
        if (allEdges) {
            if (!path.options.showZeroWeightLaunchEdges && e.type == CpEdgeType::KernelLaunchDelay && e.weightNs == 0)
                continue;
        } else if (!e.onPath
                   || !(e.type == CpEdgeType::Dependency || e.type == CpEdgeType::KernelLaunchDelay
                        || e.type == CpEdgeType::SyncDependency)) {
            continue;
        }
        endpoint(e, e.src, flowId, true);
        endpoint(e, e.dst, flowId, false);
        ++flowId;
    }
    result.flows = flowId;

    TraceRewrite how;
    how.output = result.output;
    how.edit = [&](const TraceElement& element) {
        ElementEdit edit;
        const bool complete = element.isComplete();
        bool mark = false;
        if (complete && byPosition) {
            mark = positions.count(element.position) != 0;
        } else if (int64_t tsNs = 0, durNs = 0; complete && storedSpan(run, *rank, element, tsNs, durNs)) {
            const auto [lo, hi] = byKey.equal_range(spanKey(tsNs, durNs));
            std::string name;
            for (auto it = lo; it != hi && !mark; ++it) {
                if (name.empty())
                    name = jsonscan::unescaped(element.token("name"));
                mark = run.str(t.name[it->second]) == name
                    && threadToken(run, rank->threads[t.thread[it->second]], false) == element.token("tid");
            }
        }
        const std::string_view category = element.token("cat");
        edit.keep = !options.onlyCriticalEvents || !complete || mark || category == "\"user_annotation\""
            || category == "\"python_function\"";
        if (mark) {
            ++result.eventsMarked;
            edit.argsMembers = "\"critical\": 1";
        }
        return edit;
    };
    how.append = [&](const auto& emit) {
        for (const std::string& flow : flows)
            emit(flow);
    };
    if (const TraceRewriteResult written = rewriteTrace(run, *rank, how); !written.error.empty()) {
        result.error = written.error;
        result.eventsMarked = 0;
    }
    return result;
}

} // namespace kscope
