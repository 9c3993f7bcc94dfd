#pragma once

#include "analysis/rankchoice.h"

// Kernel launch statistics (HTA's get_cuda_kernel_launch_stats): for each GPU op and the runtime
// call that launched it, how long the call took on the CPU, how long the op ran on the GPU and
// how long the GPU waited after the call returned; and the three views HTA draws of them.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct LaunchStatsOptions {
    bool htaCompat = false;
    RankChoice ranks;                  // empty = every rank (HTA's default is rank 0 only)
    double runtimeCutoffUs = 50.0;     // a launch call longer than this is a runtime outlier
    double launchDelayCutoffUs = 100.0;  // a delay longer than this is a launch-delay outlier
    bool includeMemoryEvents = true;   // also cudaMemcpyAsync / cudaMemsetAsync (and HIP's in the default mode)
    int bins = 300;                    // bins of each histogram (HTA draws its outlier charts with 300)
};

// Which of HTA's three views a launch falls in (a launch can be in several).
enum LaunchFlag : uint8_t {
    kShortKernel = 1,         // cpu_duration <= runtime cutoff and gpu_duration < cpu_duration
    kRuntimeOutlier = 2,      // cpu_duration > runtime cutoff
    kLaunchDelayOutlier = 4,  // launch_delay > launch-delay cutoff
};

// One launch and the GPU work it started (HTA: one row of the joined frame, one per GPU op). In the
// default mode a launch that ran several GPU ops (a CUDA/HIP graph) is one row: its first op, the
// span of all of them, the delay to the first.
struct KernelLaunch {
    int64_t correlation = -1;
    EventIndex launch = kNoEvent;  // the runtime (or driver) call, in the rank's event table
    EventIndex gpu = kNoEvent;     // the kernel, memcpy or memset (a graph's first)
    StringId launchName;           // cudaLaunchKernel, cudaGraphLaunch, hipLaunchKernel, ...
    StringId kernelName;           // the GPU op's name: selects the kernel in the GUI
    int32_t stream = -1;
    int64_t launchTsNs = 0;
    int64_t cpuDurationNs = 0;
    int64_t gpuDurationNs = 0;     // a graph's: first op's start to last op's end
    int64_t launchDelayNs = 0;     // gpu start - (call start + call duration), never below 0 (as HTA)
    uint32_t gpuOps = 1;           // GPU ops this launch ran (always 1 in HTA's mode)
    uint8_t flags = 0;             // LaunchFlag bits
};

// A histogram of one view: bins + 1 edges in microseconds, empty when the view has no launch.
struct LaunchHistogram {
    std::vector<double> edgesUs;
    std::vector<int64_t> counts;
    int64_t total = 0;
};

// Launches per runtime call (default mode): what HTA counts and what it misses.
struct LaunchApiCount {
    StringId name;          // null: GPU ops whose launch is not in the trace
    int64_t calls = 0;      // distinct launch calls
    int64_t gpuOps = 0;     // GPU ops they launched (a graph launch runs many)
    int64_t cpuDurationNs = 0;  // sums over calls, for means
    int64_t launchDelayNs = 0;  // to each call's first GPU op
    bool countedByHta = false;  // HTA's get_cuda_kernel_launch_stats sees these
};

struct RankLaunchStats {
    int rank = -1;
    std::vector<KernelLaunch> launches;  // HTA's row order in its mode; else by launch, then GPU op
    LaunchHistogram shortKernels;        // of cpu_duration
    LaunchHistogram runtimeOutliers;     // of cpu_duration
    LaunchHistogram launchDelayOutliers; // of launch_delay
    std::vector<uint32_t> runtimeOutlierRows;      // indices into launches, in their order
    std::vector<uint32_t> launchDelayOutlierRows;
    std::vector<LaunchApiCount> apis;    // default mode: by calls, most first; last the ops without a launch
    int64_t opsWithoutLaunch = 0;        // GPU ops whose launch is not in the trace (default mode)
};

struct LaunchStats {
    std::vector<RankLaunchStats> ranks;
    LaunchStatsOptions options;
    std::string error;
    std::vector<std::string> notes;
};

LaunchStats kernelLaunchStats(const Run& run, const LaunchStatsOptions& options);

// The names each mode takes as launches (the default mode adds the driver API, graph and HIP
// launches HTA does not see).
std::vector<std::string_view> launchApiNames(bool htaCompat, bool includeMemoryEvents);

} // namespace kscope
