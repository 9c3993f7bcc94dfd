#pragma once

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

// What a run holds, for the GUI's Overview (the CLI's `info` counts the same per rank).
struct RunSummary {
    int ranks = 0;
    std::vector<std::string> devices;  // distinct device names, first seen first
    std::vector<int> steps;            // distinct ProfilerStep numbers, ascending
    int64_t firstNs = 0, lastNs = 0;   // over every rank's events (trace spans excluded)
    uint64_t events = 0;
    uint64_t gpuEvents = 0;            // on a stream: kernels, memcpy, memset, syncs
    int streams = 0;                   // distinct (rank, stream) pairs
    int maxStreamsPerRank = 0;
    uint64_t compressedBytes = 0;
};

RunSummary summarizeRun(const Run& run);

} // namespace kscope
