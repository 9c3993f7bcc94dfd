// kinetoscope-cli temporal RUN: HTA's temporal breakdown, one row per rank.

#include "analysiscells.h"
#include "command.h"

#include "analysis/temporalbreakdown.h"

namespace kscope::cli {

namespace {

int runTemporal(const Arguments& args)
{
    const TemporalOptions options{.htaCompat = args.common.htaCompat};
    return runAnalysis(args, [&](const Run& run) { return temporalTable(temporalBreakdown(run, options)); });
}

const CommandRegistrar kRegistrar{
    {"temporal", "GPU time per rank split into idle, compute and non-compute (HTA temporal breakdown)",
     "RUN_DIR\n"
     "  Over each rank's GPU activity (kernels, memcpy, memset, stream syncs) from its first start to\n"
     "  its last end: idle = span minus busy time, compute = union of computation kernels,\n"
     "  non-compute = the rest of the busy time (communication, memory, sync).",
     &runTemporal}};

} // namespace

} // namespace kscope::cli
