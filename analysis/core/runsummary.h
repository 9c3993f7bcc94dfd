#pragma once

#include "model/trace.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

// What one rank holds: a row of the CLI's `info`.
struct RankSummary {
    int rank = -1;
    std::filesystem::path file;
    uint64_t events = 0;
    uint64_t gpuKernels = 0;
    uint64_t memcpy = 0;
    uint64_t memset = 0;
    uint64_t cpuOps = 0;
    uint64_t runtimeCalls = 0;          // CUDA/HIP runtime and driver calls
    uint64_t gpuEvents = 0;             // on a stream: kernels, memcpy, memset, syncs
    int streams = 0;                    // distinct streams of those events
    std::string deviceName;             // the first device in the metadata; empty when none
    DeviceType deviceType = DeviceType::Unknown;
    bool hasTimedEvents = false;        // false: no event but trace spans, firstNs/lastNs mean nothing
    int64_t firstNs = 0, lastNs = 0;    // over the rank's events (trace spans excluded)
    std::vector<int> steps;             // distinct ProfilerStep numbers, ascending
};

// What a run holds, for the GUI's Overview and the CLI's `info`.
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
    // What HTA's last-step trimming left out of the ranks (every answer lacks it).
    uint64_t eventsTrimmed = 0, gpuEventsTrimmed = 0, memoryEventsTrimmed = 0;
    std::vector<RankSummary> perRank;  // in the run's rank order
};

// GPU events and streams count what the analyses count as GPU activity (gpuactivity.h), in the
// run's mode.
RankSummary summarizeRank(const RankTrace& rank, bool htaCompat = false);
RunSummary summarizeRun(const Run& run);

} // namespace kscope
