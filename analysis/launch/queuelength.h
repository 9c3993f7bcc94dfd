#pragma once

#include "analysis/rankchoice.h"

// Launch queue length per GPU stream (HTA's get_queue_length_time_series, _summary and
// get_time_spent_blocked_on_full_queue): +1 when a runtime call enqueues work on a stream, -1
// when that work starts on the GPU.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

inline constexpr int64_t kCudaMaxLaunchQueuePerStream = 1024;  // HTA's CUDA_MAX_LAUNCH_QUEUE_PER_STREAM

struct QueueLengthOptions {
    bool htaCompat = false;
    RankChoice ranks;        // empty = every rank (HTA's default is rank 0 only)
    int64_t maxQueueLength = kCudaMaxLaunchQueuePerStream;  // a stream at or above it is "full"
};

// One stream's step function: the length from tsNs[i] until tsNs[i + 1]. HTA's mode has a point
// per launch and per GPU op (equal times repeat, in HTA's order); the default mode one point per
// distinct time, with the length after everything that happened then.
struct QueueSeries {
    int rank = -1;
    RankIndex rankIndex;  // two files may claim one rank number
    int32_t stream = -1;
    ThreadIndex thread = 0;  // the stream's GPU thread (pid = device), from its first op
    std::vector<int64_t> tsNs;
    std::vector<int32_t> length;
};

// pandas describe() of a stream's points (HTA's summary); timeWeightedMean (default mode only,
// else NaN) weights each length by how long it lasted.
struct QueueStats {
    int rank = -1;
    int32_t stream = -1;
    int64_t count = 0;
    double mean = 0, std = 0, min = 0, p25 = 0, p50 = 0, p75 = 0, max = 0;
    double timeWeightedMean = 0;
};

// Time a stream spent at or above maxQueueLength (the CPU blocks on a full queue).
struct QueueBlocked {
    int rank = -1;
    int32_t stream = -1;
    int64_t durationNs = 0;
    double relative = 0;  // of the rank's trace duration
};

struct QueueLength {
    std::vector<QueueSeries> series;    // by rank, stream ascending (HTA's groupby order)
    std::vector<QueueStats> stats;      // same order
    std::vector<QueueBlocked> blocked;  // default: every full stream; HTA's mode: its last one per rank
    int64_t maxObserved = 0;            // the largest length seen in any series
    QueueLengthOptions options;
    std::string error;
    std::vector<std::string> notes;
};

QueueLength queueLength(const Run& run, const QueueLengthOptions& options);

// The runtime calls that enqueue GPU work in each mode (HTA's get_runtime_launch_events_mask;
// the default mode adds graph launches, which enqueue every op of the graph at once).
std::vector<std::string_view> queueLaunchNames(bool htaCompat);

} // namespace kscope
