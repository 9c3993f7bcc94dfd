#pragma once

// Critical path of one rank (HTA's CriticalPathAnalysis / CPGraph): a graph whose nodes are the
// starts and ends of CPU ops, runtime calls and GPU ops in a window (an annotation's N-th
// instance), whose edges are the spans of those events and the dependencies between them
// (nesting on a thread, the CUDA runtime lock, kernel launches, kernels queued on a stream, CUDA
// synchronisation); the longest path through it is the critical path, each of its segments
// attributed to an event and to what bounds it (CPU, GPU compute, communication, launch or
// kernel-kernel overhead).
//
// Beyond HTA, criticalPathAllRanks() links the ranks at their collectives (a collective ends
// no earlier than its last participant arrives) and follows the step's path across ranks.

#include "model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kscope {

enum class CpEdgeType : uint8_t {
    OperatorKernel,     // the span of an op or kernel, or nesting on a thread
    Dependency,         // consecutive top-level ops, the runtime lock (weight 0)
    KernelLaunchDelay,  // launch call start -> kernel start
    KernelKernelDelay,  // previous kernel end -> kernel start on a stream
    SyncDependency,     // GPU -> CPU sync, GPU -> GPU event wait (weight 0)
    CrossRank,          // --all-ranks only: last arrival at a collective -> its end on another rank
};

// HTA's names: "critical_path_operator", "critical_path_dependency", ...
const char* toString(CpEdgeType type);

enum class CpBound : uint8_t {
    None,  // dependency and sync edges (HTA's "")
    CpuBound,
    DataLoading,
    GpuCommunicationBound,
    GpuComputeBound,
    GpuKernelKernelOverhead,
    GpuKernelLaunchOverhead,
};
// HTA's names: "", "cpu_bound", "data_loading", ... (enum order = alphabetical, as HTA's groupby)
const char* toString(CpBound bound);

struct CriticalPathOptions {
    bool htaCompat = false;
    std::optional<RankIndex> rank;  // unset = the run's first rank
    // Substring of an event name (HTA's annotation); its instances in trace order bound the window.
    // "" = the whole trace. Unset = "ProfilerStep#" (the first step).
    std::optional<std::string> annotation;
    int instanceStart = 0;  // HTA's instance_id (or the first of a (start, end) tuple)
    int instanceEnd = 0;    // inclusive
    std::vector<std::string> dataLoadEvents;  // names containing one of these are data_loading
    // HTA's environment switches.
    bool addZeroWeightLaunchEdges = false;     // CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE
    bool showZeroWeightLaunchEdges = false;    // CRITICAL_PATH_SHOW_ZERO_WEIGHT_LAUNCH_EDGE (overlay)
    bool strictNegativeWeightChecks = false;   // CRITICAL_PATH_STRICT_NEGATIVE_WEIGHT_CHECKS
    // Across ranks only: read arrivals and waits on the reference rank's clock, each rank moved by
    // its estimated offset (clock-skew); segments' starts are then on that clock too.
    bool alignClocks = false;
};

struct CpNode {
    EventIndex event = kNoEvent;  // in the rank's event table
    int64_t tsNs = 0;
    bool isStart = false;
    bool isBlocking = false;
};

struct CpEdge {
    uint32_t src = 0;  // node ids
    uint32_t dst = 0;
    CpEdgeType type = CpEdgeType::Dependency;
    int64_t weightNs = 0;      // dest.ts - src.ts (0 for dependency / sync), as HTA's CPEdge.weight
    int64_t pathWeightNs = 0;  // what the longest path used (negative weights cleared, as HTA)
    EventIndex attributed = kNoEvent;  // the event this span belongs to (ops, kernels, delays)
    bool onPath = false;
};

// One edge of the path, attributed.
struct CpSegment {
    uint32_t edge = 0;  // into CriticalPath::edges
    EventIndex event = kNoEvent;
    int64_t durationNs = 0;
    CpEdgeType type = CpEdgeType::Dependency;
    CpBound bound = CpBound::None;
};

struct CpSummaryRow {
    CpBound bound = CpBound::None;
    int64_t durationNs = 0;
    double percent = 0.0;  // of the path's duration (HTA's summary())
};

struct CriticalPath {
    CriticalPathOptions options;
    int rank = -1;
    RankIndex rankIndex;
    std::string annotation;  // as used
    std::string windowName;  // the window's first instance ("ProfilerStep#102"); "" for the whole trace
    int64_t windowStartNs = 0;
    int64_t windowEndNs = 0;
    std::vector<CpNode> nodes;     // sorted by (ts, event), HTA's node ids
    std::vector<CpEdge> edges;     // by (src, dst)
    std::vector<uint32_t> path;    // node ids from first to last
    std::vector<CpSegment> segments;  // one per edge of the path, in path order
    std::vector<CpSummaryRow> summary;  // by bound, HTA's order
    int64_t lengthNs = 0;          // sum of the path's weights
    // HTA's mode: each event's position in traceEvents (HTA's ev_idx); empty in the default mode.
    std::vector<int64_t> htaIndex;
    int64_t eventId(EventIndex e) const
    {
        return e == kNoEvent ? -1 : htaIndex.empty() ? int64_t{e} : htaIndex[static_cast<size_t>(e)];
    }
    bool success = false;          // HTA's second return value
    std::string error;             // no rank, no annotation, no such instance, invalid graph
    std::vector<std::string> notes;
};

CriticalPath criticalPath(const Run& run, const CriticalPathOptions& options);


// ---- across ranks (beyond HTA) ----

struct CrossRankSegment {
    int rank = -1;
    RankIndex rankIndex;          // its RankTrace (two files may claim one rank number)
    EventIndex event = kNoEvent;  // kNoEvent for dependency / cross-rank hops
    int64_t startNs = 0;
    int64_t durationNs = 0;
    CpEdgeType type = CpEdgeType::Dependency;
    CpBound bound = CpBound::None;
};

struct CrossRankShare {
    int rank = -1;
    int64_t durationNs = 0;  // of the path spent on this rank
    double percent = 0.0;
    int64_t collectivesLast = 0;  // collectives on the path this rank arrived at last
};

struct CrossRankPath {
    CriticalPathOptions options;
    std::vector<CrossRankSegment> segments;  // in time order
    std::vector<CrossRankShare> shares;      // per rank with a graph (per file), by rank
    int64_t lengthNs = 0;
    int64_t collectivesLinked = 0;  // collective instances matched on every participant
    int endRank = -1;               // where the path ends
    std::string error;
    std::vector<std::string> notes;
};

// The step's critical path when ranks wait for each other at collectives: every rank's graph as
// above (options.rank ignored), plus for each collective matched across ranks (process group and
// Seq, else the n-th call of the same name) an edge from each participant's kernel start to the
// others' kernel end.
CrossRankPath criticalPathAllRanks(const Run& run, const CriticalPathOptions& options);

// Every rank's own path in one window, summarised (what bounds each rank: the GUI's bars).
struct RankPathSummaries {
    struct Summary {
        int rank = -1;
        RankIndex rankIndex;
        int64_t lengthNs = 0;
        std::vector<CpSummaryRow> rows;
        // The events on the path bound by the CPU or by data loading, summed by name, longest first
        // (at most kTopHostEvents): what a host-bound path spends its time in.
        struct HostEvent {
            std::string name;
            CpBound bound = CpBound::CpuBound;
            int64_t durationNs = 0;
            bool waitsForGpu = false;  // a runtime call that can block until the GPU is done
        };
        std::vector<HostEvent> hostEvents;
        // Of the cpu_bound time, the part in runtime calls that can block until the GPU is done
        // (a synchronize, a memcpy to pageable memory): HTA counts it as CPU, though the host waits.
        int64_t hostWaitNs = 0;
        std::string error;
    };
    static constexpr size_t kTopHostEvents = 5;
    std::vector<Summary> ranks;  // in the run's rank order
};
// criticalPath() of each rank with these options (options.rank ignored).
RankPathSummaries criticalPathOfEachRank(const Run& run, const CriticalPathOptions& options);

} // namespace kscope
