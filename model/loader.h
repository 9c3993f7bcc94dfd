#pragma once

#include "rankset.h"
#include "trace.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

namespace kscope {

// Twice the physical memory, at least 8 GiB: a streamed trace keeps ~7% of its JSON size.
uint64_t defaultMaxUncompressedBytes();

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
    // Inflated bytes read into a worker's window at once. 4 MiB, not 16: the window is the one
    // buffer a worker fills whole, and at 16 MiB it kept peak RSS about 60 MB higher on the
    // 4-rank benchmark run for no measurable speed (simdjson batches are 4 MiB either way).
    uint64_t chunkBytes = 4ull << 20;
    uint64_t memoryBudgetBytes = 0;                  // 0 = no limit on concurrent inflated buffers
    // Gzip-bomb guards per file: inflated bytes (default twice the physical memory, at least 8 GiB)
    // and, past 1 GiB inflated, the compression ratio (deflate tops out near 1032:1, traces ~5-30:1).
    uint64_t maxUncompressedBytes = defaultMaxUncompressedBytes();
    uint32_t maxGzipRatio = 200;                     // 0 = no ratio guard
    RankSet onlyRanks;                               // empty = all
};

// Polled by the UI; written by loader threads.
struct LoadProgress {
    std::atomic<uint64_t> bytesTotal{0};   // compressed bytes of all files
    std::atomic<uint64_t> bytesDone{0};    // compressed bytes consumed
    std::atomic<uint32_t> filesTotal{0};
    std::atomic<uint32_t> filesDone{0};
    std::atomic<uint64_t> eventsDone{0};
};

// Progressive loading (the GUI shows what is read so far): while the files of a run load, the
// ranks read so far are assembled into a run of their own, with Run::filesStillLoading set, and
// handed to `deliver` on a loader thread. A snapshot copies the ranks it holds, so snapshots are
// rationed: none before `firstAfterSeconds` (a quick load shows only its whole run), then at most
// one per `minIntervalSeconds`, each holding at least twice the ranks of the one before (all the
// copies together cost about one more assembly), none once more than `maxFractionRead` of the
// run's bytes are read (the whole run is near; what a snapshot costs is the analyses the GUI runs
// on it, beside the load), none past `maxBytes` resident, none of a run of one file.
struct ProgressiveLoad {
    std::function<void(std::shared_ptr<Run>)> deliver;
    double firstAfterSeconds = 0.3;
    double minIntervalSeconds = 0.5;
    double maxFractionRead = 0.5;
    uint64_t maxBytes = defaultMaxSnapshotBytes();
    // An eighth of the physical memory, at least 256 MiB: the GUI holds a snapshot beside the load.
    static uint64_t defaultMaxSnapshotBytes();
};

struct RunFile {
    std::filesystem::path path;
    uint64_t bytes = 0;
};

struct DiscoveredFiles {
    std::vector<RunFile> traces;  // sorted by name
    std::vector<SkippedFile> skipped;
    std::filesystem::path folder;  // the run folder, or the folder of the (first) file given
    std::filesystem::path errorPath;  // what the error is about
    std::string error;  // "no such file or folder", unreadable folder, several folders
};

// Lists *.json / *.json.gz in a folder (non-recursive) or takes one file.
DiscoveredFiles discoverRunFiles(const std::filesystem::path& folderOrFile);
// A run given as one folder, or as one or more trace files (`run/rank*.json.gz`): each file is a
// rank whatever its name; the same file twice is read once. Several folders are an error.
DiscoveredFiles discoverRunFiles(const std::vector<std::filesystem::path>& inputs);

// Loads every rank of a run in parallel. Never throws for bad input: errors are in Run::errors.
// A cancelled load returns a Run whose errors hold one Cancelled entry. With `progressive`, the
// ranks read so far are handed out while it loads (see ProgressiveLoad).
std::shared_ptr<Run> loadRun(const std::filesystem::path& folderOrFile, const LoadOptions& options,
                             LoadProgress* progress = nullptr, std::stop_token stop = {},
                             const ProgressiveLoad* progressive = nullptr);
std::shared_ptr<Run> loadRun(const std::vector<std::filesystem::path>& inputs, const LoadOptions& options,
                             LoadProgress* progress = nullptr, std::stop_token stop = {},
                             const ProgressiveLoad* progressive = nullptr);

// Parses one trace file on the calling thread into a rank with its own string pool.
struct ParsedFile {
    RankTrace trace;
    StringPool strings;
    std::optional<LoadError> error;
    int rankFromContent = -1;   // distributedInfo.rank
};
// threads > 1: the file's events are read on two threads (for a run with fewer files than cores).
ParsedFile parseTraceFile(const std::filesystem::path& file, const LoadOptions& options,
                          LoadProgress* progress = nullptr, std::stop_token stop = {}, unsigned threads = 1);

// The earliest timestamp among the events a load would keep of one file (what Run::minTsNs takes
// from a loaded rank, HTA's rounding included with htaCompat), without keeping any event: files
// left out by onlyRanks still set the run's time origin. nullopt when unreadable or empty.
std::optional<int64_t> earliestEventTimestamp(const std::filesystem::path& file, const LoadOptions& options);

// Parses an in-memory JSON document (tests, chunk-boundary checks).
ParsedFile parseTraceText(std::string_view json, const LoadOptions& options);

// loadRun's second half: records the files' errors (a file with a non-partial error gives no
// rank), assigns ranks (distributedInfo, else the file name, else the next free number, with a
// warning), keeps options.onlyRanks, remaps every file's string ids into run.strings, sorts the
// ranks and applies HTA's run-wide last-step trimming. Tests assemble runs built in code with it.
void assembleRun(Run& run, std::vector<ParsedFile> parsed, const LoadOptions& options, unsigned workers = 1);

} // namespace kscope
