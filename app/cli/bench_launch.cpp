// `kinetoscope-cli bench load RUN` extra rows: launch stats, queue length and memory bandwidth
// timed on the loaded run (best of three; launch stats and queue length run the ranks on every
// core), and writing the traces with counters.

#include "benchtimer.h"
#include "command.h"

#include "analysis/launch/countertrace.h"
#include "analysis/launch/launchstats.h"
#include "analysis/tables/launchtables.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"

#include <chrono>
#include <filesystem>
#include <unistd.h>

namespace kscope::cli {

namespace {

std::vector<std::vector<Cell>> launchTimings(const Run& run, const Invocation& invocation)
{
    const bool hta = invocation.common.htaCompat;
    const double launch = bestSeconds([&] { (void)launchHistogramTable(kernelLaunchStats(run, {.htaCompat = hta})); });
    const double queue = bestSeconds([&] { (void)queueSummaryTable(queueLength(run, {.htaCompat = hta})); });
    const double bandwidth =
        bestSeconds([&] { (void)memoryBwSummaryTable(memoryBandwidth(run, {.htaCompat = hta})); });
    std::vector<std::vector<Cell>> rows = {
        {std::string("analysis_launch_stats"), launch * 1000.0, std::string("ms")},
        {std::string("analysis_queue_length_summary"), queue * 1000.0, std::string("ms")},
        {std::string("analysis_memory_bw_summary"), bandwidth * 1000.0, std::string("ms")},
        {std::string("analysis_launch_queue_bw"), (launch + queue + bandwidth) * 1000.0, std::string("ms")},
    };
    // Traces with counters: every rank's file copied with its counter events, into a scratch folder.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("kscope-bench-counters-" + std::to_string(::getpid()));
    CounterTraceOptions options;
    options.htaCompat = hta;
    options.outputDir = dir;
    uint64_t bytes = 0, compressed = 0;
    double seconds = 1e300;
    int64_t events = 0;
    bool ok = true;
    for (int i = 0; i < 2; ++i) {
        const CounterTraces result = writeTracesWithCounters(run, options);
        seconds = std::min(seconds, result.seconds);
        bytes = compressed = 0;
        events = 0;
        for (const CounterTraceFile& f : result.files) {
            ok &= f.error.empty();
            bytes += f.bytesRead;
            events += f.counterEvents;
            std::error_code ec;
            compressed += fs::file_size(f.output, ec);
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (!ok)
        return rows;
    const double mb = 1024.0 * 1024.0;
    rows.push_back({std::string("counters_write_throughput"), bytes / mb / seconds, std::string("MB/s")});
    rows.push_back({std::string("counters_write_seconds"), seconds, std::string("s")});
    rows.push_back({std::string("counters_events_written"), events, std::string("")});
    rows.push_back({std::string("counters_output_size"), compressed / mb, std::string("MB")});
    return rows;
}

const bool kRegistered = (benchExtensions()["launch_counters"] = &launchTimings, true);

} // namespace

} // namespace kscope::cli
