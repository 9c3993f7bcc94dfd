// kinetoscope-cli queue-length RUN / memory-bw RUN: launch queue length per GPU stream and memory
// copy bandwidth per copy kind, as summaries or as step functions (HTA's trace counters).

#include "command.h"

#include "analysis/tables/launchtables.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <memory>

namespace kscope::cli {

namespace {

struct QueueArgs {
    QueueLengthOptions options;
    bool series = false;
    bool blocked = false;
};

Action setupQueueLength(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<QueueArgs>();
    CLI::Option* series = app.add_flag("--series", args->series,
                                       "the step function: one row per change (rank, ts, pid, tid, stream, "
                                       "queue_length)");
    CLI::Option* blocked = app.add_flag("--blocked", args->blocked,
                                        "time each stream spent with a full launch queue (--max-queue-length)");
    app.add_option("--max-queue-length", args->options.maxQueueLength,
                   "a queue this long is full (CUDA's per-stream limit)")
        ->check(wholeNumber(1, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    series->excludes(blocked);
    return [args, &invocation] {
        args->options.htaCompat = invocation.common.htaCompat;
        return runAnalysis(invocation, [&](const Run& run) {
            const QueueLength result = queueLength(run, args->options);
            if (args->series)
                return queueSeriesTable(run, result);
            if (args->blocked)
                return queueBlockedTable(result);
            return queueSummaryTable(result);
        });
    };
}

Action setupMemoryBw(CLI::App& app, const Invocation& invocation)
{
    auto options = std::make_shared<MemoryBandwidthOptions>();
    auto series = std::make_shared<bool>(false);
    app.add_flag("--series", *series, "the step function: one row per change (rank, ts, pid, name, memory_bw (GB/s); HTA's memory_bw_gbps with --hta-compat)");
    return [options, series, &invocation] {
        options->htaCompat = invocation.common.htaCompat;
        return runAnalysis(invocation, [&](const Run& run) {
            const MemoryBandwidth result = memoryBandwidth(run, *options);
            return *series ? memoryBwSeriesTable(run, result) : memoryBwSummaryTable(result);
        });
    };
}

const CommandRegistrar kQueueRegistrar{
    {"queue-length", "Launch queue length per GPU stream: summary, series, time blocked on a full queue (HTA)",
     "+1 when a runtime call enqueues work on a stream, -1 when that work starts on the GPU. The summary\n"
     "is describe() of each stream's points (count, mean, std, min, quartiles, max). Every rank by\n"
     "default (HTA: rank 0). Default mode: exact ns, one point per distinct time, graph launches\n"
     "enqueue all their ops, a time-weighted mean beside HTA's, and --blocked lists every full stream\n"
     "(HTA keeps one per rank) relative to the rank's span. GPU ops whose launch is not in the trace\n"
     "are left out and counted in a note.",
     &setupQueueLength}};

const CommandRegistrar kMemoryRegistrar{
    {"memory-bw", "Memory copy bandwidth (GB/s) per copy kind over time: summary or series (HTA)",
     "Each memcpy/memset adds its \"memory bandwidth (GB/s)\" while it runs (zero-length copies count\n"
     "as 1 us, as HTA does); kinds: Memcpy HtoD, DtoH, DtoD, PtoP, Memset, ... The summary is\n"
     "describe() of the points above zero. Every rank by default (HTA: rank 0). Default mode: copies\n"
     "by category (HIP's too), one point per distinct time, exactly 0 while no copy runs, and the\n"
     "time-weighted mean and busy time beside HTA's columns.",
     &setupMemoryBw}};

} // namespace

} // namespace kscope::cli
