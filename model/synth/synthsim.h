#pragma once

// Runs the synthetic step program for every rank and step: CPU scopes and launches on a
// logical CPU clock, GPU activity on two streams, collectives that end together on all ranks.
//
// Two passes over the same interpreter: planCollectives() advances all ranks in lockstep up to
// each collective to learn when it ends everywhere (the last rank's start + transfer time);
// simulateRank() then replays one rank with those ends known, writing events and recording
// its GPU activity for the truth. Draws are keyed by (seed, rank, step, instruction), so both
// passes see the same numbers.

#include "synthprogram.h"

#include <cstdint>
#include <vector>

namespace kscope {

class SynthTraceWriter;

struct SynthContext {
    const SynthOptions* options = nullptr;
    const SynthProgram* program = nullptr;
    int totalSteps = 0;       // kept steps + the warm-down step
    int64_t quantumNs = 1;    // 1000 in microsecond mode: every time is a whole microsecond
    int64_t clockStartNs = 0; // trace clock at the profiler start (ts are relative to baseTimeNanoseconds)
    int stragglerRank = -1;
    int slowKernelRank = -1;
};

inline constexpr int kStragglerSlowdownPercent = 135;  // straggler's backward kernels
// The straggler's NCCL kernels start this much later than they otherwise would (its CPU stalls
// before each collective launch), on top of its slower backward kernels.
inline constexpr int64_t kStragglerArrivalDelayNs = 150'000;
// "Seq" of the first collective of the process group; each collective adds one.
inline constexpr int64_t kFirstCollectiveSeq = 1;

// Identity of a rank's process and threads (pids as separate processes would have them).
int64_t synthPid(int rank);
int64_t synthAutogradTid(int rank);
inline int synthDevice(int rank) { return rank % 8; }

struct SynthCollectivePlan {
    std::vector<int64_t> endNs;             // [step * collectivesPerStep + k]
    std::vector<int64_t> lateNs;            // per rank: sum of (start - earliest start), kept steps
    std::vector<int64_t> startNs;           // [(step * collectivesPerStep + k) * ranks + rank]: arrivals
    int collectivesPerStep = 0;
    int ranks = 0;
};

SynthCollectivePlan planCollectives(const SynthContext& context);

// One GPU activity as the truth needs it.
struct SynthGpuRecord {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t launchNs = 0;  // ts of the runtime call that launched it
    uint16_t gpuOp = 0;
    bool launchedInLastStep = false;
};

struct SynthStepSpan {
    int number = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
};

// An idle gap the generator placed on a stream, with the host cause it built in.
struct SynthPlacedGap {
    int stream = 0;
    int step = 0;           // ProfilerStep number of the op after the gap
    int64_t startNs = 0;    // the previous op's end
    int64_t endNs = 0;      // the op's start
    SynthPlacedCause cause = SynthPlacedCause::None;
    bool kept = true;       // launched before the last step: what loading with trimming keeps
};

// The [memory] events before the last step (what loading with trimming keeps), as written.
struct SynthMemoryTruth {
    int64_t events = 0;
    int64_t peakAllocated = 0;
    int64_t peakReserved = 0;
    std::vector<int64_t> stepEndAllocated;  // per kept step, after its last event
};

struct SynthRankOutput {
    SynthMemoryTruth memory;
    std::vector<SynthPlacedGap> placedGaps;  // in time order
    std::vector<SynthGpuRecord> gpu;  // in launch order
    std::vector<SynthStepSpan> steps;
    int64_t firstTsNs = 0;  // earliest X event except the profiler span
    int64_t lastEndNs = 0;  // latest end of any event
};

// Replays one rank. writer may be null (sizing runs); output is filled either way.
void simulateRank(const SynthContext& context, const SynthCollectivePlan& plan, int rank, SynthTraceWriter* writer,
                  SynthRankOutput& output);

} // namespace kscope
