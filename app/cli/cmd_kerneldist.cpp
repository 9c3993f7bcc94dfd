// kinetoscope-cli kernel-dist RUN: box-plot statistics of the heaviest kernels on every rank.

#include "analysiscells.h"
#include "command.h"

#include "analysis/kerneldistribution.h"

namespace kscope::cli {

namespace {

std::string joinMicros(const std::vector<int64_t>& values)
{
    std::string text;
    for (int64_t ns : values) {
        if (!text.empty())
            text += ' ';
        text += formatCell(microsCell(ns));
    }
    return text;
}

int runKernelDist(const Arguments& args)
{
    KernelDistributionOptions options;
    options.nameContains = args.value("kernel").value_or("");
    options.top = static_cast<int>(args.number("top", 20));
    options.maxOutliers = static_cast<size_t>(std::max(0.0, args.number("max-outliers", 50)));
    int exitCode = kExitOk;
    auto run = loadRunForCommand(args, exitCode);
    if (!run)
        return exitCode;
    const KernelDistributions result = kernelDistributions(*run, options);

    Table table;
    table.columns = {"name",         "kernel_type", "rank",      "count",         "sum (us)",     "min (us)",
                     "q1 (us)",      "median (us)", "q3 (us)",   "max (us)",      "mean (us)",    "stddev",
                     "whisker_low (us)", "whisker_high (us)", "outlier_count", "outliers (us)", "spread"};
    for (const KernelDistribution& kernel : result.kernels) {
        for (const KernelRankDistribution& d : kernel.ranks)
            table.addRow({std::string(run->str(kernel.name)), std::string(toString(kernel.type)), int64_t{d.rank},
                          d.count, microsCell(d.totalNs), microsCell(d.minNs), microsCell(d.q1Ns),
                          microsCell(d.medianNs), microsCell(d.q3Ns), microsCell(d.maxNs), microsCell(d.meanNs),
                          microsCell(d.stddevNs), microsCell(d.whiskerLowNs), microsCell(d.whiskerHighNs),
                          d.outlierCount, joinMicros(d.outliersNs), numberCell(kernel.spread)});
    }
    addOutcome(table, result.error, result.notes);
    if (!emitTable(table, args))
        return kExitUsage;
    return finalExitCode(*run, args);
}

const CommandRegistrar kRegistrar{
    {"kernel-dist", "Duration distribution (box-plot stats, outliers) of the top kernels on each rank",
     "RUN_DIR [--kernel TEXT] [--top N] [--max-outliers N]\n"
     "  --kernel TEXT      only kernels whose name contains TEXT\n"
     "  --top N            the N kernels with the most total GPU time (20; 0 = all)\n"
     "  --max-outliers N   outliers listed per kernel and rank, most extreme first (50)\n"
     "  Whiskers reach the furthest durations within 1.5 IQR of the quartiles; spread is the largest\n"
     "  over the smallest median across ranks, and the most imbalanced kernels come first.",
     &runKernelDist}};

} // namespace

} // namespace kscope::cli
