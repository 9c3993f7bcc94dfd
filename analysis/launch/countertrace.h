#pragma once

#include "analysis/rankchoice.h"

// Traces with counters (HTA's generate_trace_with_counters): a copy of each rank's trace file
// with the queue length per stream and the memcpy bandwidth per kind appended as counter events
// ("ph": "C"), so Perfetto or chrome://tracing draw them as tracks under the kernels. The copy
// is the original's bytes with the events spliced in before traceEvents' closing bracket: the
// original file is never touched, and the copy streams (no JSON is parsed again).

#include "model/trace.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace kscope {

struct QueueLength;
struct MemoryBandwidth;

struct CounterTraceOptions {
    bool htaCompat = false;
    RankChoice ranks;        // empty = every rank
    bool queueLength = true;
    bool memoryBandwidth = true;
    std::filesystem::path outputDir;
    std::string suffix = "_with_counters";  // HTA's output_suffix
    int gzipLevel = 1;                      // for gzipped inputs (zlib 1 to 9)
};

struct CounterTraceFile {
    int rank = -1;
    std::filesystem::path input;
    std::filesystem::path output;
    int64_t counterEvents = 0;
    uint64_t bytesRead = 0;     // of the input, inflated
    uint64_t bytesWritten = 0;  // of the output, inflated (the file on disk may be gzip)
    std::string error;          // empty when written
};

struct CounterTraces {
    std::vector<CounterTraceFile> files;  // by rank
    double seconds = 0.0;                 // writing (after the series are computed)
    std::string error;
    std::vector<std::string> notes;
};

// The output's name: the input's with the suffix before its last ".json" (HTA's
// trace_file.replace(".json", suffix + ".json")), or appended with ".json" when it has none.
std::filesystem::path counterTraceName(const std::filesystem::path& input, const std::string& suffix);

// The counter events of one rank, one JSON object per call of `emit` (no separators). HTA's mode
// writes exactly HTA's events: "Queue Length" with id = stream and the stream's pid; the copy
// kind ("Memcpy HtoD", ...) with args {"Memcpy BW": GB/s}; ts absolute in microseconds.
int64_t forEachCounterEvent(const Run& run, const RankTrace& rank, const QueueLength* queue,
                            const MemoryBandwidth* bandwidth, const std::function<void(std::string_view)>& emit);

// Computes the series of the ranks asked for and writes one file per rank into outputDir.
CounterTraces writeTracesWithCounters(const Run& run, const CounterTraceOptions& options);

} // namespace kscope
