// kinetoscope-cli bench load RUN_DIR: loader throughput and memory, reported as rates and ratios.

#include "command.h"

#include <chrono>
#include <iostream>
#include <sys/resource.h>
#include <thread>

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

int runBench(const Arguments& args)
{
    if (args.positional.size() < 2 || args.positional[0] != "load") {
        std::cerr << "usage: kinetoscope-cli bench load RUN_DIR [--repeat N] [--threads N] [--chunk-mb N]\n";
        return kExitUsage;
    }
    const int repeat = static_cast<int>(args.number("repeat", 1));
    LoadOptions options;
    options.htaCompat = args.common.htaCompat;
    options.includeLastStep = args.common.includeLastStep;
    options.threads = static_cast<unsigned>(args.number("threads", options.threads));
    constexpr double kMiB = 1 << 20;
    options.chunkBytes = static_cast<uint64_t>(args.number("chunk-mb", static_cast<double>(options.chunkBytes) / kMiB) * kMiB);
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());

    Table table;
    table.columns = {"metric", "value", "unit"};
    double bestSeconds = 1e300;
    double bestCpuSeconds = 1e300;
    std::shared_ptr<Run> run;
    for (int i = 0; i < std::max(repeat, 1); ++i) {
        run.reset();
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = cpuSeconds();
        run = loadRun(args.positional[1], options);
        bestSeconds = std::min(bestSeconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        bestCpuSeconds = std::min(bestCpuSeconds, cpuSeconds() - cpuStart);
    }
    uint64_t compressed = 0, uncompressed = 0, events = 0, read = 0;
    for (const RankTrace& r : run->ranks) {
        compressed += r.compressedBytes;
        uncompressed += r.uncompressedBytes;
        events += r.events.size();
        read += r.eventsRead;
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
    table.addRow({std::string("events_kept"), static_cast<int64_t>(events), std::string("")});
    table.addRow({std::string("resident_bytes_per_event"), events ? static_cast<double>(resident) / events : 0.0,
                  std::string("B/event")});
    table.addRow({std::string("resident_size"), resident / mb, std::string("MB")});
    table.addRow({std::string("peak_rss"), peakRssBytes() / mb, std::string("MB")});
    table.addRow({std::string("peak_rss_over_resident"), resident ? static_cast<double>(peakRssBytes()) / resident : 0.0,
                  std::string("ratio")});
    table.addRow({std::string("json_bytes_per_event"), read ? static_cast<double>(uncompressed) / read : 0.0,
                  std::string("B/event")});
    for (const auto& [name, extra] : benchExtensions()) {
        for (auto& row : extra(*run, args))
            table.addRow(std::move(row));
    }
    emitTable(table, args);
    return kExitOk;
}

const CommandRegistrar kRegistrar{{"bench", "Benchmark: load throughput (MB/s, events/s), bytes/event, peak RSS",
                                   "load RUN_DIR [--repeat N] [--threads N] [--chunk-mb N]", &runBench}};

} // namespace

std::map<std::string, BenchExtension>& benchExtensions()
{
    static std::map<std::string, BenchExtension> extensions;
    return extensions;
}

} // namespace kscope::cli
