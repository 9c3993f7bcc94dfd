// kinetoscope-cli kernel-types RUN / kernels RUN: HTA's GPU kernel breakdown, its two tables.

#include "analysiscells.h"
#include "command.h"

#include "analysis/kernelbreakdown.h"

#include <iostream>

namespace kscope::cli {

namespace {

std::string optionsHelp()
{
    const KernelBreakdownOptions defaults;
    return "  --duration-ratio R     kernels past this quantile of the running total fold into \"others\" ("
        + shownDefault(defaults.durationRatio) + ")\n"
        + "  --num-kernels N        at most N kernels per rank and type before folding ("
        + shownDefault(defaults.numKernels) + ")\n"
        + "  --no-memory-kernels    leave memcpy/memset out\n"
          "  --hta-compat           HTA's numbers exactly: folded tables keep only sums for kept kernels";
}

bool breakdownOptions(const Arguments& args, KernelBreakdownOptions& options)
{
    options.htaCompat = args.common.htaCompat;
    options.durationRatio = args.number("duration-ratio", options.durationRatio);
    options.numKernels = static_cast<int>(args.number("num-kernels", options.numKernels));
    options.includeMemoryKernels = !args.flag("no-memory-kernels");
    if (!(options.durationRatio >= 0.0 && options.durationRatio <= 1.0) || options.numKernels < 0) {
        std::cerr << "error: --duration-ratio must lie in [0, 1] and --num-kernels be >= 0\n";
        return false;
    }
    return true;
}

// Both frames of HTA's get_gpu_kernel_breakdown come from one analysis; each command prints one.
int runBreakdown(const Arguments& args, bool typesFrame)
{
    KernelBreakdownOptions options;
    if (!breakdownOptions(args, options))
        return kExitUsage;
    return runAnalysis(args, [&](const Run& run) {
        const KernelBreakdown result = kernelBreakdown(run, options);
        return typesFrame ? kernelTypesTable(result) : kernelsTable(run, result);
    });
}

int runKernelTypes(const Arguments& args)
{
    return runBreakdown(args, true);
}

int runKernels(const Arguments& args)
{
    return runBreakdown(args, false);
}

const CommandRegistrar kTypesRegistrar{
    {"kernel-types", "Share of GPU busy time per kernel type and type overlap (HTA kernel breakdown)",
     "RUN_DIR [options]\n"
     "  Unions of COMPUTATION, COMMUNICATION and MEMORY kernels, cut where they overlap;\n"
     "  summed over ranks, in microseconds.\n"
         + optionsHelp(),
     &runKernelTypes, {"no-memory-kernels"}}};

const CommandRegistrar kKernelsRegistrar{
    {"kernels", "Per-kernel duration statistics per rank and type, top kernels + \"others\" (HTA)",
     "RUN_DIR [options]\n"
     "  Kernels grouped by name on each rank; beyond --num-kernels or --duration-ratio the\n"
     "  rest folds into \"others\". Times in microseconds.\n"
         + optionsHelp(),
     &runKernels, {"no-memory-kernels"}}};

} // namespace

} // namespace kscope::cli
