#pragma once

#include "trace.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <stop_token>
#include <vector>

namespace kscope {

struct LoadOptions {
    // HTA's normalisation: timestamps of fractional traces rounded (start up, end down to us).
    bool htaCompat = false;
    // HTA drops events launched in the last ProfilerStep; true keeps them.
    bool includeLastStep = false;
    // Keep grid/block/occupancy of kernels (about 60 B per kernel, ~18 B per event on average).
    bool keepKernelLaunchArgs = false;
    // Keep flow events (ph s/t/f). Kineto's flows repeat the launch correlation, which the model
    // already links, so by default they are only counted (RankTrace::flowEventsRead).
    bool keepFlows = false;
    unsigned threads = 0;                            // 0 = hardware concurrency
    uint64_t chunkBytes = 16ull << 20;               // inflated bytes handed to the JSON parser at once
    uint64_t memoryBudgetBytes = 0;                  // 0 = no limit on concurrent inflated buffers
    uint64_t maxUncompressedBytes = 64ull << 30;     // gzip-bomb guard per file
    std::vector<int> onlyRanks;                      // empty = all
};

// Polled by the UI; written by loader threads.
struct LoadProgress {
    std::atomic<uint64_t> bytesTotal{0};   // compressed bytes of all files
    std::atomic<uint64_t> bytesDone{0};    // compressed bytes consumed
    std::atomic<uint32_t> filesTotal{0};
    std::atomic<uint32_t> filesDone{0};
    std::atomic<uint64_t> eventsDone{0};
};

struct RunFile {
    std::filesystem::path path;
    uint64_t bytes = 0;
};

struct DiscoveredFiles {
    std::vector<RunFile> traces;  // sorted by name
    std::vector<std::filesystem::path> skipped;
    std::string error;  // folder missing or unreadable
};

// Lists *.json / *.json.gz in a folder (non-recursive) or takes one file.
DiscoveredFiles discoverRunFiles(const std::filesystem::path& folderOrFile);

// Loads every rank of a run in parallel. Never throws for bad input: errors are in Run::errors.
// A cancelled load returns a Run whose errors hold one Cancelled entry.
std::shared_ptr<Run> loadRun(const std::filesystem::path& folderOrFile, const LoadOptions& options,
                             LoadProgress* progress = nullptr, std::stop_token stop = {});

// Parses one trace file on the calling thread into a rank with its own string pool.
struct ParsedFile {
    RankTrace trace;
    StringPool strings;
    std::optional<LoadError> error;
    int rankFromContent = -1;   // distributedInfo.rank
};
ParsedFile parseTraceFile(const std::filesystem::path& file, const LoadOptions& options,
                          LoadProgress* progress = nullptr, std::stop_token stop = {});

// Parses an in-memory JSON document (tests, chunk-boundary checks).
ParsedFile parseTraceText(std::string_view json, const LoadOptions& options);

// The rank a trace declares in distributedInfo near its start (Kineto writes the metadata before
// traceEvents), read from its first 256 KiB only; -1 when not found there.
int peekDeclaredRank(const std::filesystem::path& file);

// The rank a file name suggests ("rank-3", "rank3", "worker3", "_3."), or -1.
int rankFromFileName(const std::string& fileName);

// Kineto "ts"/"dur" number token to exact integer nanoseconds. False if not a number.
bool microsToNanos(std::string_view token, int64_t& nanos);

} // namespace kscope
