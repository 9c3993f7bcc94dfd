// kinetoscope-cli kernel-dist RUN: box-plot statistics of the heaviest kernels on every rank.

#include "analysiscells.h"
#include "command.h"

#include "analysis/kerneldistribution.h"

#include <algorithm>

namespace kscope::cli {

namespace {

int runKernelDist(const Arguments& args)
{
    KernelDistributionOptions options;
    options.nameContains = args.value("kernel").value_or(options.nameContains);
    options.top = static_cast<int>(args.number("top", options.top));
    options.maxOutliers =
        static_cast<size_t>(std::max(0.0, args.number("max-outliers", static_cast<double>(options.maxOutliers))));
    return runAnalysis(args, [&](const Run& run) { return kernelDistributionTable(run, kernelDistributions(run, options)); });
}

const CommandRegistrar kRegistrar{
    {"kernel-dist", "Duration distribution (box-plot stats, outliers) of the top kernels on each rank",
     "RUN_DIR [--kernel TEXT] [--top N] [--max-outliers N]\n"
     "  --kernel TEXT      only kernels whose name contains TEXT\n"
     "  --top N            the N kernels with the most total GPU time ("
         + shownDefault(KernelDistributionOptions{}.top) + "; 0 = all)\n"
         + "  --max-outliers N   outliers listed per kernel and rank, most extreme first ("
         + shownDefault(KernelDistributionOptions{}.maxOutliers) + ")\n"
         + "  Whiskers reach the furthest durations within 1.5 IQR of the quartiles; spread is the largest\n"
           "  over the smallest median across ranks, and the most imbalanced kernels come first.",
     &runKernelDist}};

} // namespace

} // namespace kscope::cli
