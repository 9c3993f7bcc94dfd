// kinetoscope-cli overlap RUN: share of communication time overlapped by computation, per rank.

#include "command.h"

#include "analysis/core/overlap.h"
#include "analysis/tables/resulttables.h"

namespace kscope::cli {

namespace {

Action setupOverlap(CLI::App&, const Invocation& invocation)
{
    return [&invocation] {
        const OverlapOptions options{.htaCompat = invocation.common.htaCompat};
        return runAnalysis(invocation, [&](const Run& run) { return overlapTable(commCompOverlap(run, options)); });
    };
}

const CommandRegistrar kRegistrar{
    {"overlap", "Percentage of communication time overlapped by computation, per rank (HTA)",
     "|union(communication kernels) ∩ union(computation kernels)| / |union(communication kernels)|.\n"
     "A rank without communication kernels gets an empty value and a note.",
     &setupOverlap}};

} // namespace

} // namespace kscope::cli
