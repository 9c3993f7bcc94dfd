#pragma once

// Profiler steps and stragglers.
// - Steps (HTA's get_profiler_steps): the ProfilerStep numbers left after trimming; beyond HTA,
//   per rank and step the step's CPU span (its ProfilerStep event) and its GPU span (the GPU
//   work it launched), so step time can be compared across ranks (a rank x step heat map).
// - Stragglers (HTA's get_potential_stragglers, find_stragglers_with_late_start_comm_kernels):
//   in every step, the last long NCCL kernel of each (rank, stream, name); the (stream, name)
//   whose duration varies most across ranks is the witness; per step the ranks whose
//   normalised start of it is among the `candidates` latest are flagged; the most flagged
//   ranks are the stragglers. Default mode: every NCCL kernel name (HTA knows only
//   ncclKernel_*, so finds nothing on NCCL >= 2.19's ncclDevKernel_*), stream 0 and step 0
//   count, one rank or too few ranks per step answer instead of raising.

#include "analysis/rankchoice.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kscope {

struct StepSpan {
    int rank = -1;
    int step = -1;
    EventIndex event = kNoEvent;  // the rank's ProfilerStep event (the first, if several)
    int64_t cpuStartNs = 0, cpuEndNs = 0;
    int64_t gpuStartNs = 0, gpuEndNs = 0;  // of the step's GPU work; equal when it has none
    int64_t gpuEvents = 0;                 // kernels, memcpys, memsets launched in the step
    RankIndex rankIndex;
    bool hasGpu() const { return gpuEvents > 0; }
    int64_t cpuNs() const { return cpuEndNs - cpuStartNs; }
    int64_t gpuNs() const { return gpuEndNs - gpuStartNs; }
};

struct ProfilerSteps {
    std::vector<int> steps;       // distinct step numbers over the ranks, ascending (HTA's list)
    std::vector<StepSpan> spans;  // by rank, then step
    std::string error;
    std::vector<std::string> notes;
};

// `ranks` empty = every rank (the list of numbers is over those ranks too).
ProfilerSteps profilerSteps(const Run& run, const RankChoice& ranks = {});

// Which clock a step's time is read on.
enum class StepClock {
    Gpu,         // its GPU work's span; a step without GPU work has no time
    Cpu,         // its ProfilerStep annotation
    GpuElseCpu,  // the GPU span where the step has GPU work, else the annotation
};

// Medians of step times: over every rank x step, per step across ranks, per rank across steps.
struct StepTimeStats {
    size_t spans = 0;  // rank x step pairs with a time
    double medianNs = 0.0, minNs = 0.0, maxNs = 0.0;
    std::map<int, double> medianOfStep;  // step number -> median across its ranks
    int slowestRank = -1;                // the rank with the largest median (ties: lowest number)
    double slowestMedianNs = 0.0;
};
StepTimeStats stepTimeStats(const ProfilerSteps& steps, StepClock clock);
// The time of one span on that clock; NaN where it has none.
double stepTimeNs(const StepSpan& span, StepClock clock);

struct StragglerOptions {
    bool htaCompat = false;
    int candidates = 2;      // HTA's num_candidates: flagged per step, and ranks returned
    std::vector<int> steps;  // empty = every step (HTA's profiler_steps=None)
};

// The witness collective on one rank in one step.
struct StragglerStep {
    int rank = -1;
    int step = -1;
    EventIndex kernel = kNoEvent;
    int64_t startNs = 0;  // the kernel's start and duration
    int64_t durNs = 0;
    double normalizedStart = 0.0;     // (start - first event of the steps) / mean step time
    double normalizedDuration = 0.0;  // duration / mean step time
    bool flagged = false;             // among the step's `candidates` latest starts
};

struct StragglerRank {
    int rank = -1;
    int flaggedSteps = 0;
    bool straggler = false;  // in Stragglers::ranks
};

struct Stragglers {
    std::vector<int> ranks;  // the potential stragglers, most often flagged first (HTA's answer)
    StringId kernel;         // the witness: its name and stream
    int32_t stream = -1;
    double meanStepNs = 0.0;
    std::vector<StragglerStep> steps;       // by rank, then step
    std::vector<StragglerRank> perRank;     // by rank
    bool htaCompat = false;
    std::string error;
    std::vector<std::string> notes;
};

Stragglers potentialStragglers(const Run& run, const StragglerOptions& options);

} // namespace kscope
