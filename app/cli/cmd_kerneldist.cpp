// kinetoscope-cli kernel-dist RUN: box-plot statistics of the heaviest kernels on every rank.

#include "command.h"

#include "analysis/core/kerneldistribution.h"
#include "analysis/tables/resulttables.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <memory>

namespace kscope::cli {

namespace {

Action setupKernelDist(CLI::App& app, const Invocation& invocation)
{
    auto options = std::make_shared<KernelDistributionOptions>();
    app.add_option("--kernel", options->nameContains, "only kernels whose name contains TEXT")->type_name("TEXT");
    app.add_option("--top", options->top, "the N kernels with the most total GPU time (0 = all)")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    app.add_option("--max-outliers", options->maxOutliers, "outliers listed per kernel and rank, most extreme first")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    return [options, &invocation] {
        const TableStyle style{.dropFirst = {"outliers (us)", "whisker_low (us)", "whisker_high (us)", "stddev (us)",
                                             "mean (us)", "q1 (us)", "q3 (us)", "kernel_type", "min (us)", "max (us)",
                                             "sum (us)", "outlier_count"},
                               .keep = {"spread", "median (us)"}};
        return runAnalysis(
            invocation, [&](const Run& run) { return kernelDistributionTable(run, kernelDistributions(run, *options)); },
            style);
    };
}

const CommandRegistrar kRegistrar{
    {"kernel-dist", "Duration distribution (box-plot stats, outliers) of the top kernels on each rank",
     "Whiskers reach the furthest durations within 1.5 IQR of the quartiles; spread is the largest over\n"
     "the smallest median across ranks, and the most imbalanced kernels come first. Times in\n"
     "microseconds.",
     &setupKernelDist}};

} // namespace

} // namespace kscope::cli
