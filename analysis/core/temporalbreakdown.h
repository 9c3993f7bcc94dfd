#pragma once

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct TemporalOptions {
    bool htaCompat = false;  // HTA's percentages (rounded to 2 decimals) and its failures
};

// One rank's GPU time between its first and last GPU activity (HTA's get_temporal_breakdown).
struct TemporalBreakdownRow {
    int rank = -1;
    RankIndex rankIndex;
    int64_t idleNs = 0;        // span minus the union of all GPU activity
    int64_t computeNs = 0;     // union of COMPUTATION kernels
    int64_t nonComputeNs = 0;  // busy but not computing: communication, memory, sync
    int64_t spanNs = 0;        // HTA's kernel_time: first start to last end
    double idlePctg = 0.0;
    double computePctg = 0.0;
    double nonComputePctg = 0.0;
};

struct TemporalBreakdown {
    std::vector<TemporalBreakdownRow> rows;  // by rank
    std::string error;                       // set when there is no result (rows empty)
    std::vector<std::string> notes;
};

TemporalBreakdown temporalBreakdown(const Run& run, const TemporalOptions& options);

} // namespace kscope
