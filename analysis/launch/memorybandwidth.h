#pragma once

#include "analysis/rankchoice.h"

// Memory copy bandwidth over time per copy kind (HTA's get_memory_bw_time_series and
// get_memory_bw_summary): each memcpy/memset adds its GB/s while it runs, so the series is the
// concurrent bandwidth of that kind.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct MemoryBandwidthOptions {
    bool htaCompat = false;
    RankChoice ranks;        // empty = every rank (HTA's default is rank 0 only)
};

// One kind's step function: gbps[i] from tsNs[i] until tsNs[i + 1]. HTA's mode has a point per
// copy start and end (HTA's order and float sums, tiny residues after a copy ends included); the
// default mode one point per distinct time, exactly 0 whenever no copy of the kind runs.
struct MemoryBwSeries {
    int rank = -1;
    RankIndex rankIndex;  // two files may claim one rank number
    std::string kind;        // "Memcpy HtoD", "Memcpy DtoH", "Memcpy DtoD", "Memcpy PtoP", "Memset", ...
    ThreadIndex thread = 0;  // of its first copy (pid = device)
    std::vector<int64_t> tsNs;
    std::vector<double> gbps;
};

// describe() of the points above zero (HTA's summary); timeWeightedMean (default mode only, else
// NaN): the mean GB/s over the time some copy of the kind runs.
struct MemoryBwStats {
    int rank = -1;
    std::string kind;
    int64_t count = 0;
    double mean = 0, std = 0, min = 0, p25 = 0, p50 = 0, p75 = 0, max = 0;
    double timeWeightedMean = 0;
    int64_t busyNs = 0;  // time some copy of the kind runs (default mode)
};

struct MemoryBandwidth {
    std::vector<MemoryBwSeries> series;  // by rank, kind ascending (HTA's groupby order)
    std::vector<MemoryBwStats> stats;    // kinds with a point above zero
    MemoryBandwidthOptions options;
    std::string error;
    std::vector<std::string> notes;
};

MemoryBandwidth memoryBandwidth(const Run& run, const MemoryBandwidthOptions& options);

// HTA's get_memory_kernel_type: "Memset", the first 11 characters of a "Memcpy..." name, else
// "Memcpy Unknown".
std::string memoryKind(std::string_view name);

} // namespace kscope
