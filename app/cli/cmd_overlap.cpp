// kinetoscope-cli overlap RUN: share of communication time overlapped by computation, per rank.

#include "analysiscells.h"
#include "command.h"

#include "analysis/overlap.h"

namespace kscope::cli {

namespace {

int runOverlap(const Arguments& args)
{
    int exitCode = kExitOk;
    auto run = loadRunForCommand(args, exitCode);
    if (!run)
        return exitCode;
    const Overlap result = commCompOverlap(*run, {.htaCompat = args.common.htaCompat});

    return emitRunTable(overlapTable(result), *run, args);
}

const CommandRegistrar kRegistrar{
    {"overlap", "Percentage of communication time overlapped by computation, per rank (HTA)",
     "RUN_DIR\n"
     "  |union(communication kernels) ∩ union(computation kernels)| / |union(communication kernels)|.\n"
     "  A rank without communication kernels gets an empty value.",
     &runOverlap}};

} // namespace

} // namespace kscope::cli
