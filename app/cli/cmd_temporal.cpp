// kinetoscope-cli temporal RUN: HTA's temporal breakdown, one row per rank.

#include "command.h"

#include "analysis/tables/resulttables.h"
#include "analysis/core/temporalbreakdown.h"

namespace kscope::cli {

namespace {

Action setupTemporal(CLI::App&, const Invocation& invocation)
{
    return [&invocation] {
        const TemporalOptions options{.htaCompat = invocation.common.htaCompat};
        return runAnalysis(invocation, [&](const Run& run) { return temporalTable(temporalBreakdown(run, options)); });
    };
}

const CommandRegistrar kRegistrar{
    {"temporal", "GPU time per rank split into idle, compute and non-compute (HTA temporal breakdown)",
     "Over each rank's GPU activity (kernels, memcpy, memset, stream syncs) from its first start to its\n"
     "last end: idle = span minus busy time, compute = union of computation kernels, non-compute = the\n"
     "rest of the busy time (communication, memory, sync). Times in microseconds.",
     &setupTemporal}};

} // namespace

} // namespace kscope::cli
