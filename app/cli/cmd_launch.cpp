// kinetoscope-cli launch-stats RUN: kernel launch statistics (HTA's get_cuda_kernel_launch_stats)
// and the three views HTA draws of them, as rows, bins, outliers or counts per launch API.

#include "command.h"

#include "analysis/launch/launchstats.h"
#include "analysis/tables/launchtables.h"

#include <CLI/CLI.hpp>

#include <limits>
#include <memory>

namespace kscope::cli {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct LaunchArgs {
    LaunchStatsOptions options;
    bool noMemory = false;
    bool histogram = false;
    bool outliers = false;
    bool byApi = false;
};

Action setupLaunchStats(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<LaunchArgs>();
    app.add_option("--runtime-cutoff", args->options.runtimeCutoffUs,
                   "launch calls longer than this (us) are runtime outliers; shorter ones whose GPU op is even "
                   "shorter are short kernels")
        ->check(numberFrom(0.0, kInfinity))
        ->type_name("US")
        ->capture_default_str();
    app.add_option("--launch-delay-cutoff", args->options.launchDelayCutoffUs,
                   "launch delays longer than this (us) are launch-delay outliers")
        ->check(numberFrom(0.0, kInfinity))
        ->type_name("US")
        ->capture_default_str();
    app.add_flag("--no-memory-events", args->noMemory, "leave cudaMemcpyAsync / cudaMemsetAsync launches out");
    CLI::Option* hist = app.add_flag("--hist", args->histogram,
                                     "the three views as histograms: short kernels and runtime outliers (of "
                                     "cpu_duration), launch-delay outliers (of launch_delay)");
    app.add_option("--bins", args->options.bins, "bins per histogram")
        ->check(wholeNumber(1, 100000))
        ->type_name("N")
        ->capture_default_str();
    CLI::Option* outliers = app.add_flag("--outliers", args->outliers,
                                         "only the runtime and launch-delay outliers, with their kernels");
    CLI::Option* byApi =
        app.add_flag("--by-api", args->byApi, "launches per runtime call, and the GPU ops whose launch is missing");
    hist->excludes(outliers)->excludes(byApi);
    outliers->excludes(byApi);
    return [args, &invocation] {
        args->options.htaCompat = invocation.common.htaCompat;
        args->options.includeMemoryEvents = !args->noMemory;
        // --by-api's rows are runtime calls: their name stays; the others' launch_api gives way first.
        const TableStyle style = args->byApi
            ? TableStyle{.dropFirst = {"counted_by_hta"}, .keep = {"launch_api", "calls"}}
            : TableStyle{.dropFirst = {"launch_api", "stream", "correlation"}};
        return runAnalysis(
            invocation,
            [&](const Run& run) {
                const LaunchStats result = kernelLaunchStats(run, args->options);
                if (args->histogram)
                    return launchHistogramTable(result);
                if (args->outliers)
                    return launchOutliersTable(run, result);
                if (args->byApi)
                    return launchApisTable(run, result);
                return launchStatsTable(run, result);
            },
            style);
    };
}

const CommandRegistrar kRegistrar{
    {"launch-stats", "Kernel launch statistics: CPU call time, GPU time, launch delay per GPU op (HTA)",
     "One row per GPU op and the runtime call that launched it (joined on correlation): cpu_duration\n"
     "(the call), gpu_duration (the op), launch_delay (op start - call end, never below 0); us.\n"
     "Every rank by default (HTA: rank 0). --hist gives HTA's three charts as bins, --outliers the\n"
     "outlier rows, --by-api the count per launch call.\n"
     "Default mode: also cuLaunchKernel, cudaGraphLaunch (one row per op of the graph) and HIP\n"
     "launches, which HTA does not see (counted in a note); GPU ops whose launch is not in the trace\n"
     "are counted, never joined to another call. --hta-compat: HTA's calls and HTA's row order.",
     &setupLaunchStats}};

} // namespace

} // namespace kscope::cli
