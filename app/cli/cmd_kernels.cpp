// kinetoscope-cli kernel-types RUN / kernels RUN: HTA's GPU kernel breakdown, its two tables.

#include "command.h"

#include "analysis/core/kernelbreakdown.h"
#include "analysis/tables/resulttables.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <limits>
#include <memory>

namespace kscope::cli {

namespace {

// Both frames of HTA's get_gpu_kernel_breakdown come from one analysis; each command prints one.
Action setupBreakdown(CLI::App& app, const Invocation& invocation, bool typesFrame)
{
    auto options = std::make_shared<KernelBreakdownOptions>();
    auto noMemory = std::make_shared<bool>(false);
    app.add_option("--duration-ratio", options->durationRatio,
                   "kernels past this quantile of the running total fold into \"others\"")
        ->check(numberFrom(0.0, 1.0))
        ->type_name("R")
        ->capture_default_str();
    app.add_option("--num-kernels", options->numKernels, "at most N kernels per rank and type before folding")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    app.add_flag("--no-memory-kernels", *noMemory, "leave memcpy/memset out");
    return [options, noMemory, &invocation, typesFrame] {
        options->htaCompat = invocation.common.htaCompat;
        options->includeMemoryKernels = !*noMemory;
        const TableStyle style{.dropFirst = {"stddev (us)", "stddev", "min (us)", "max (us)"}, .keep = {"sum (us)"}};
        return runAnalysis(
            invocation,
            [&](const Run& run) {
                const KernelBreakdown result = kernelBreakdown(run, *options);
                return typesFrame ? kernelTypesTable(result) : kernelsTable(run, result);
            },
            style);
    };
}

const CommandRegistrar kTypesRegistrar{
    {"kernel-types", "Share of GPU busy time per kernel type and type overlap (HTA kernel breakdown)",
     "Unions of COMPUTATION, COMMUNICATION and MEMORY kernels, cut where they overlap; summed over\n"
     "ranks, in microseconds. --duration-ratio and --num-kernels shape the kernels table only.",
     [](CLI::App& app, const Invocation& invocation) { return setupBreakdown(app, invocation, true); }}};

const CommandRegistrar kKernelsRegistrar{
    {"kernels", "Per-kernel duration statistics per rank and type, top kernels + \"others\" (HTA)",
     "Kernels grouped by name on each rank; beyond --num-kernels or --duration-ratio the rest folds\n"
     "into \"others\". Times in microseconds. Default mode: every row's statistics are over its\n"
     "launches, the \"others\" row's over every folded launch. --hta-compat, where a type folds: its\n"
     "kept kernels show only their sum (min = max = mean = sum, stddev 0) and \"others\" the statistics\n"
     "of the folded kernels' sums, one value per kernel.",
     [](CLI::App& app, const Invocation& invocation) { return setupBreakdown(app, invocation, false); }}};

} // namespace

} // namespace kscope::cli
