// kinetoscope-cli bench load RUN_DIR: loader throughput and memory, reported as rates and ratios.

#include "benchtimeline.h"
#include "command.h"

#include "model/barepass.h"
#include "model/runslice.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <malloc.h>
#include <memory>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace kscope::cli {

namespace {

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

uint64_t peakRssBytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

// Resident set now: what a load left behind once its run is released (malloc_trim first, so
// freed heap that glibc keeps for reuse does not read as a leak).
uint64_t currentRssBytes()
{
    malloc_trim(0);
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0, residentPages = 0;
    statm >> pages >> residentPages;
    return residentPages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// What choosing a step costs, as the GUI's step selector pays it: slices of the first steps kept
// at once (the session keeps up to three), their bytes and the resident set they add, each
// relative to the run.
void addStepSliceRows(Table& table, const Run& run)
{
    std::vector<int> steps;
    for (const RankTrace& rank : run.ranks)
        for (const ProfilerStep& s : rank.steps)
            if (std::find(steps.begin(), steps.end(), s.number) == steps.end())
                steps.push_back(s.number);
    std::sort(steps.begin(), steps.end());
    steps.resize(std::min<size_t>(steps.size(), 3));
    if (steps.empty())
        return;
    const double mb = 1024.0 * 1024.0;
    const double runBytes = static_cast<double>(run.residentBytes());
    const uint64_t rssBefore = currentRssBytes();
    std::vector<std::shared_ptr<Run>> slices;
    double sliceBytes = 0;
    for (int step : steps) {
        slices.push_back(sliceRunToStep(run, step));
        for (const RankTrace& r : slices.back()->ranks)
            sliceBytes += static_cast<double>(r.residentBytes());  // the string pool is shared
    }
    const double rssPerSlice = (static_cast<double>(currentRssBytes()) - static_cast<double>(rssBefore)) / slices.size();
    const double perSlice = sliceBytes / slices.size();
    table.addRow({std::string("step_slices_kept"), static_cast<int64_t>(slices.size()), std::string("")});
    table.addRow({std::string("step_slice_size"), perSlice / mb, std::string("MB")});
    table.addRow({std::string("step_slice_over_run"), runBytes > 0 ? perSlice / runBytes : 0.0, std::string("ratio")});
    table.addRow({std::string("rss_per_step_slice"), rssPerSlice / mb, std::string("MB")});
    table.addRow({std::string("rss_per_step_slice_over_run"), runBytes > 0 ? rssPerSlice / runBytes : 0.0, std::string("ratio")});
    table.addRow({std::string("peak_rss_with_slices"), peakRssBytes() / mb, std::string("MB")});
}

struct BenchArgs {
    std::string mode;
    int repeat = 1;
    unsigned threads = LoadOptions{}.threads;
    double chunkMb = static_cast<double>(LoadOptions{}.chunkBytes) / (1 << 20);
};

int runBench(const BenchArgs& bench, const Invocation& invocation)
{
    const int repeat = bench.repeat;
    LoadOptions options = loadOptionsFor(invocation);
    options.threads = bench.threads;
    constexpr double kMiB = 1 << 20;
    options.chunkBytes = static_cast<uint64_t>(bench.chunkMb * kMiB);
    const std::vector<std::filesystem::path> inputs(invocation.inputs.begin(), invocation.inputs.end());
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());

    Table table;
    table.columns = {"metric", "value", "unit"};
    double bestSeconds = 1e300;
    double bestCpuSeconds = 1e300;
    std::shared_ptr<Run> run;
    std::vector<uint64_t> rssBetweenLoads;  // after the 1st, 2nd, ... load was released
    for (int i = 0; i < std::max(repeat, 1); ++i) {
        if (run) {
            run.reset();
            rssBetweenLoads.push_back(currentRssBytes());
        }
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = cpuSeconds();
        run = loadRun(inputs, options);
        bestSeconds = std::min(bestSeconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        bestCpuSeconds = std::min(bestCpuSeconds, cpuSeconds() - cpuStart);
    }
    if (run->ranks.empty()) {
        for (const LoadError& e : run->errors)
            std::cerr << "error: " << describe(e) << '\n';
        std::cerr << "error: no usable rank to benchmark\n";
        return kExitNoRank;
    }
    uint64_t compressed = 0, uncompressed = 0, events = 0, read = 0;
    for (const RankTrace& r : run->ranks) {
        compressed += r.compressedBytes;
        uncompressed += r.uncompressedBytes;
        events += r.events.size();
        read += r.eventsRead;
    }
    if (bench.mode == "timeline") {
        table.addRow({std::string("ranks"), static_cast<int64_t>(run->ranks.size()), std::string("")});
        for (auto& row : timelineBenchRows(*run))
            table.addRow(std::move(row));
        return emitTable(table, invocation);
    }
    const double mb = 1024.0 * 1024.0;
    const uint64_t resident = run->residentBytes();
    table.addRow({std::string("ranks"), static_cast<int64_t>(run->ranks.size()), std::string("")});
    table.addRow({std::string("load_errors"), static_cast<int64_t>(run->errors.size()), std::string("")});
    table.addRow({std::string("threads"), static_cast<int64_t>(threads), std::string("")});
    table.addRow({std::string("compressed_throughput"), compressed / mb / bestSeconds, std::string("MB/s")});
    table.addRow({std::string("uncompressed_throughput"), uncompressed / mb / bestSeconds, std::string("MB/s")});
    // Per CPU-second: what one core does, whatever else the machine is running.
    table.addRow({std::string("uncompressed_per_cpu_second"), uncompressed / mb / bestCpuSeconds, std::string("MB/cpu-s")});
    table.addRow({std::string("parallel_speedup"), bestCpuSeconds / bestSeconds, std::string("cpu-s/s")});
    table.addRow({std::string("events_read_per_second"), read / bestSeconds, std::string("events/s")});
    table.addRow({std::string("events_read"), static_cast<int64_t>(read), std::string("")});
    table.addRow({std::string("events_kept"), static_cast<int64_t>(events), std::string("")});
    table.addRow({std::string("resident_bytes_per_event"), events ? static_cast<double>(resident) / events : 0.0,
                  std::string("B/event")});
    table.addRow({std::string("resident_size"), resident / mb, std::string("MB")});
    table.addRow({std::string("peak_rss"), peakRssBytes() / mb, std::string("MB")});
    table.addRow({std::string("peak_rss_over_resident"), resident ? static_cast<double>(peakRssBytes()) / resident : 0.0,
                  std::string("ratio")});
    table.addRow({std::string("json_bytes_per_event"), read ? static_cast<double>(uncompressed) / read : 0.0,
                  std::string("B/event")});
    // The floor, in the same process on the same files: ours as a fraction of it holds when the
    // machine is busy with something else (both runs slow down alike).
    std::vector<std::filesystem::path> files;
    for (const RunFile& file : discoverRunFiles(inputs).traces)
        files.push_back(file.path);
    BarePassResult bare;
    for (int i = 0; i < std::max(repeat, 1); ++i) {
        BarePassResult pass = barePass(files, threads, options.chunkBytes);
        if (i == 0 || pass.seconds < bare.seconds)
            bare = std::move(pass);
    }
    if (!bare.error.empty())
        std::cerr << "warning: bare pass: " << bare.error << '\n';
    const double bareThroughput = bare.seconds > 0 ? bare.uncompressedBytes / mb / bare.seconds : 0.0;
    table.addRow({std::string("bare_pass_throughput"), bareThroughput, std::string("MB/s")});
    table.addRow({std::string("bare_pass_events"), static_cast<int64_t>(bare.events), std::string("")});
    table.addRow({std::string("fraction_of_bare_pass"), bareThroughput > 0 ? uncompressed / mb / bestSeconds / bareThroughput : 0.0,
                  std::string("ratio")});
    if (rssBetweenLoads.size() >= 2) {
        // Flat when loading frees everything it took: a leak grows it with every repeat.
        const double growth = (double(rssBetweenLoads.back()) - double(rssBetweenLoads.front())) / (rssBetweenLoads.size() - 1);
        table.addRow({std::string("rss_after_first_release"), rssBetweenLoads.front() / mb, std::string("MB")});
        table.addRow({std::string("rss_after_last_release"), rssBetweenLoads.back() / mb, std::string("MB")});
        table.addRow({std::string("rss_growth_per_load"), growth / mb, std::string("MB")});
    }
    addStepSliceRows(table, *run);
    for (const auto& [name, extra] : benchExtensions()) {
        for (auto& row : extra(*run, invocation))
            table.addRow(std::move(row));
    }
    return emitTable(table, invocation);
}

Action setupBench(CLI::App& app, const Invocation& invocation)
{
    auto bench = std::make_shared<BenchArgs>();
    app.add_option("MODE", bench->mode,
                   "load: time loading RUN (then each analysis on it); timeline: the timeline index and its queries")
        ->required()
        ->check(oneOf({"load", "timeline"}))
        ->type_name("");
    app.add_option("--repeat", bench->repeat, "load N times, report the best")
        ->check(wholeNumber(1, 1000))->type_name("N")->capture_default_str();
    app.add_option("--threads", bench->threads, "loader threads (0 = every core)")
        ->check(wholeNumber(0, 1024))->type_name("N")->capture_default_str();
    app.add_option("--chunk-mb", bench->chunkMb, "inflated MiB handed to the JSON parser at once")
        ->check(numberFrom(1.0 / 16, 4096))->type_name("MB")->capture_default_str();
    return [bench, &invocation] { return runBench(*bench, invocation); };
}

const CommandRegistrar kRegistrar{{"bench", "Benchmark: load throughput (MB/s, events/s), bytes/event, peak RSS",
                                   "kinetoscope-cli bench load RUN [--repeat N] [--threads N] [--chunk-mb N]\n"
                                   "kinetoscope-cli bench timeline RUN: the timeline index (build ms, bytes per event)\n"
                                   "and the queries of a 1600-pixel frame, at full zoom-out, one step and 100 us windows",
                                   &setupBench, kRunInput | kTableOutput | kLoadOptions}};

} // namespace

std::map<std::string, BenchExtension>& benchExtensions()
{
    static std::map<std::string, BenchExtension> extensions;
    return extensions;
}

} // namespace kscope::cli
