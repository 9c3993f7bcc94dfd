// kinetoscope-cli overlap RUN: share of communication time overlapped by computation, per rank.

#include "analysiscells.h"
#include "command.h"

#include "analysis/overlap.h"

namespace kscope::cli {

namespace {

int runOverlap(const Arguments& args)
{
    const OverlapOptions options{.htaCompat = args.common.htaCompat};
    return runAnalysis(args, [&](const Run& run) { return overlapTable(commCompOverlap(run, options)); });
}

const CommandRegistrar kRegistrar{
    {"overlap", "Percentage of communication time overlapped by computation, per rank (HTA)",
     "RUN_DIR\n"
     "  |union(communication kernels) ∩ union(computation kernels)| / |union(communication kernels)|.\n"
     "  A rank without communication kernels gets an empty value.",
     &runOverlap}};

} // namespace

} // namespace kscope::cli
