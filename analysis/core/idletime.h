#pragma once

#include "analysis/rankchoice.h"

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

// Why a GPU stream sat idle before a kernel (HTA's IdleTimeType, in its order).
enum class IdleCategory : uint8_t {
    HostWait,    // the launch came after the previous kernel had ended: the CPU was late
    KernelWait,  // a short gap between back-to-back kernels: launch overhead
    Other,       // anything else, e.g. waiting on another stream
};
inline constexpr int kIdleCategoryCount = 3;
const char* toString(IdleCategory category);  // "host_wait", "kernel_wait", "other"

struct IdleTimeOptions {
    bool htaCompat = false;
    RankChoice ranks;          // empty = every rank (HTA's default is rank 0 only)
    std::vector<int> streams;  // empty = every stream
    double consecutiveKernelDelayUs = 30.0;  // HTA compares it with µs gaps, whatever its docs say
    bool intervalStats = false;
};

// Σ of one category's gaps on one stream (HTA's idle_time / idle_time_ratio).
struct IdleTimeRow {
    int rank = -1;
    int stream = -1;
    IdleCategory category = IdleCategory::Other;
    int64_t idleNs = 0;
    double ratio = 0.0;  // of the stream's idle time; NaN when the stream never idles
};

// describe() of one category's gaps, in microseconds like HTA; NaN where pandas gives NaN.
struct IdleIntervalStats {
    int rank = -1;
    int stream = -1;
    IdleCategory category = IdleCategory::Other;
    int64_t count = 0;
    double meanUs = 0.0, stdUs = 0.0, minUs = 0.0, p25Us = 0.0, p50Us = 0.0, p75Us = 0.0, maxUs = 0.0;
};

// Default mode: GPU ops that started before the previous work on their stream had ended. They
// have no gap before them (HTA gives them a negative one and sums it as kernel wait).
struct IdleOverlap {
    int rank = -1;
    int stream = -1;
    int64_t count = 0;
    int64_t overlapNs = 0;  // how long they ran beside the earlier work
};

struct IdleTime {
    std::vector<IdleTimeRow> rows;          // by requested rank, stream (first seen), category
    std::vector<IdleIntervalStats> stats;   // same order; filled when intervalStats
    std::vector<IdleOverlap> overlaps;      // default mode only; by rank, stream
    // Gaps before GPU ops whose launching call lies outside the trace window. Default mode: never
    // host wait, counted here and in a note; --hta-compat: joined to HTA's row 0, as HTA does.
    int64_t launchNotInTrace = 0;
    bool htaCompat = false;                 // HTA's column names in the tables
    std::string error;
    std::vector<std::string> notes;
};

IdleTime idleTimeBreakdown(const Run& run, const IdleTimeOptions& options);

// Histogram of one rank's gap lengths per category, on shared bin edges (beyond HTA).
struct IdleHistogramOptions {
    std::optional<RankIndex> rank;  // unset: the run's first rank
    std::vector<int> streams;  // empty = every stream
    int bins = 50;
    bool logScale = false;     // geometric bins; zero-length gaps are then only counted
    double consecutiveKernelDelayUs = 30.0;
    size_t longestGaps = 20;   // how many of the longest gaps to list (IdleHistogram::longest)
};

// One gap on a stream: from the end of the work before it to the start of `next`.
struct IdleGap {
    int stream = -1;
    IdleCategory category = IdleCategory::Other;
    int64_t startNs = 0;
    int64_t endNs = 0;
    EventIndex next = kNoEvent;  // the GPU op after the gap, in the rank's event table
    EventIndex previous = kNoEvent;  // the GPU op whose end opened the gap (the latest end so far)
};

// Every gap of one rank as the default mode defines them (positive length; overlapping work has
// none), in the start order of the GPU op after each, over all streams (or those asked for). The
// idle breakdown sums exactly these; idle-gap causes explains each one.
std::vector<IdleGap> idleGaps(const RankTrace& rank, const std::vector<int>& streams, double consecutiveKernelDelayUs);

// Gaps as the default mode defines them: never negative (overlapping work is noted apart).
struct IdleHistogram {
    int rank = -1;
    RankIndex rankIndex;  // its RankTrace in the run
    std::vector<double> edgesUs;  // bins + 1 edges
    std::vector<int64_t> counts[kIdleCategoryCount];
    int64_t nonPositiveGaps = 0;  // zero-length gaps, left out of log bins (back-to-back kernels)
    std::vector<IdleGap> longest;  // the longest gaps of every stream, longest first (ties: earliest)
    std::string error;
    std::vector<std::string> notes;
};

IdleHistogram idleHistogram(const Run& run, const IdleHistogramOptions& options);

} // namespace kscope
