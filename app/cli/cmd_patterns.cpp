// kinetoscope-cli patterns RUN --op NAME: frequent GPU kernel sequences under an operator (HTA's
// get_frequent_cuda_kernel_sequences), optionally overlaid on the traces; op-kernels RUN: the
// kernels each aten:: operator launches and its delays (HTA's get_aten_op_kernels_and_delay).

#include "command.h"

#include "analysis/patterns/kernelpatterns.h"
#include "analysis/launch/opkernels.h"
#include "analysis/patterns/patternoverlay.h"
#include "analysis/tables/patterntables.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <iostream>
#include <memory>

namespace kscope::cli {

namespace {

struct PatternArgs {
    KernelPatternOptions options;
    std::string overlayDir;
    int rank = -1;
};


Action setupPatterns(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<PatternArgs>();
    app.add_option("--op", args->options.operatorName,
                   "the operator: every event whose name contains this text (HTA's operator_name), e.g. aten::linear; "
                   "without it, the operator whose kernel sequence repeats most on the first rank asked for")
        ->type_name("NAME");
    app.add_option("--min-pattern-len", args->options.minPatternLength,
                   "only operators with at least N GPU events beneath them")
        ->check(wholeNumber(1, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    app.add_option("--top-k", args->options.topK,
                   "the N most frequent patterns per rank are listed and overlaid (0 = all; --hta-compat lists all, as "
                   "HTA returns them)")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    app.add_option("--rank", args->rank, "only rank R (HTA's rank argument; the same as --ranks R)")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("R");
    app.add_option("--overlay", args->overlayDir,
                   "also write each rank's trace to DIR/overlaid_<file> with args.Patterns on the top patterns' events")
        ->type_name("DIR");
    return [args, &invocation] {
        args->options.htaCompat = invocation.common.htaCompat;
        bool overlayFailed = false;  // an overlay asked for and not written fails the command
        const int code = runAnalysis(
            withRank(invocation, args->rank),
            [&](const Run& run) {
                const KernelPatterns result = frequentKernelSequences(run, args->options);
                Table table = patternsTable(run, result);
                if (!args->overlayDir.empty()) {
                    const PatternOverlay overlay = writePatternOverlays(run, result, args->overlayDir);
                    overlayFailed = !overlay.error.empty();
                    for (const PatternOverlayFile& f : overlay.files) {
                        overlayFailed |= !f.error.empty();
                        table.notes.push_back(f.error.empty() ? "wrote " + f.output.string() + " (" + std::to_string(f.eventsMarked)
                                                                    + " events marked)"
                                                              : "rank " + std::to_string(f.rank) + ": " + f.error);
                    }
                    table.notes.insert(table.notes.end(), overlay.notes.begin(), overlay.notes.end());
                    if (!overlay.error.empty())
                        table.notes.push_back("no overlay: " + overlay.error);
                }
                return table;
            },
            {.dropFirst = {"CPU op duration (us)"}});
        return code == kExitOk && overlayFailed ? int(kExitOutputFailed) : code;
    };
}

Action setupOpKernels(CLI::App&, const Invocation& invocation)
{
    return [&invocation] {
        OpKernelsOptions options;
        options.htaCompat = invocation.common.htaCompat;
        return runAnalysis(
            invocation, [&](const Run& run) { return opKernelsTable(run, opKernelDelays(run, options)); },
            {.dropFirst = {"avg_aten_op_launch_delay (us)", "avg_aten_op_launch_delay"}});
    };
}

const CommandRegistrar kPatternsRegistrar{
    {"patterns", "Frequent GPU kernel sequences launched under an operator, with their GPU and CPU time (HTA)",
     "Every event whose name contains --op with at least --min-pattern-len GPU events beneath it is\n"
     "an occurrence; its pattern is its name and its GPU events' names in start order ('|'-joined).\n"
     "Per pattern: occurrences, the Σ of their GPU events' durations and of the operators' own\n"
     "durations (us); most frequent first. Every rank by default (HTA: one rank, --rank R).\n"
     "Default mode: the outermost matching operators, at whatever call depth, on each thread's own\n"
     "stack (HTA takes only those at the least depth found, so one matching event higher up hides the\n"
     "others); exact nanoseconds (HTA raises \"Unexpected case\" on nanosecond traces); GPU work on\n"
     "any stream. --overlay DIR writes DIR/overlaid_<trace> with args.Patterns on the top patterns'\n"
     "events, the rest of the trace unchanged.",
     &setupPatterns}};

const CommandRegistrar kOpKernelsRegistrar{
    {"op-kernels", "Kernels each aten:: operator launches, with its launch and runtime delays (HTA)",
     "For each kernel launch the innermost enclosing aten:: operator; per operator occurrence its\n"
     "kernels in launch order (kernel_sequence, ' -> '-joined), the delay from its start to its first\n"
     "launch and from that launch to the kernel's start; averaged (us) over the occurrences with the\n"
     "same sequence; most frequent first. Every rank by default (HTA: rank 0).\n"
     "Default mode: the operator is looked for on the launching thread (HTA takes any thread's\n"
     "operator that spans the launch), every kernel launch call counts (HTA: cuda*LaunchKernel,\n"
     "cuLaunchKernel, runFunction), each rank on its own (HTA adds the earlier ranks' launches into\n"
     "each later rank's table: --hta-compat does too).",
     &setupOpKernels}};

} // namespace

} // namespace kscope::cli
