// kinetoscope-cli temporal RUN: HTA's temporal breakdown, one row per rank.

#include "analysiscells.h"
#include "command.h"

#include "analysis/temporalbreakdown.h"

namespace kscope::cli {

namespace {

int runTemporal(const Arguments& args)
{
    int exitCode = kExitOk;
    auto run = loadRunForCommand(args, exitCode);
    if (!run)
        return exitCode;
    const TemporalBreakdown result = temporalBreakdown(*run, {.htaCompat = args.common.htaCompat});

    return emitRunTable(temporalTable(result), *run, args);
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
