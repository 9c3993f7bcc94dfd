// kinetoscope-cli health RUN: what makes the run's answers unreliable, per rank, and which
// analyses each problem degrades (analysis/core/tracehealth.h).

#include "command.h"

#include "analysis/core/tracehealth.h"
#include "analysis/tables/healthtable.h"

#include <CLI/CLI.hpp>

namespace kscope::cli {

namespace {

Action setupHealth(CLI::App&, const Invocation& invocation)
{
    return [&invocation] {
        const TableStyle style{.dropFirst = {"affects", "severity"}, .keep = {"rank", "check"}};
        return runAnalysis(invocation, [](const Run& run) { return healthTable(traceHealth(run)); }, style);
    };
}

const CommandRegistrar kRegistrar{
    {"health", "What makes this run's answers unreliable, per rank, and which analyses it degrades",
     "One row per problem found: file_failed and file_partial (with the byte offset and reason),\n"
     "bad_events (refused at load, per kind, with the first excerpt), timestamp_unit (ranks mixing\n"
     "whole-us and ns timestamps), gpu_op_without_launch, launch_without_gpu_op, overlap_on_stream (a\n"
     "GPU op starting before the previous one on its stream ended), zero_duration_gpu_op,\n"
     "step_count_differs (from the count most ranks have), clock_skew (a rank's clock off by more than\n"
     "the median collective wait, see clock-skew), no_gpu_activity, no_cpu_ops, no_record_param_comms,\n"
     "no_collective_seq, no_profiler_steps. count: the events, ops or steps concerned; affects: the\n"
     "commands whose answers it degrades; example: one instance (times since the run's first event).\n"
     "Severity: error (data missing), warning (answers may be wrong), info (an analysis falls back).",
     &setupHealth}};

} // namespace

} // namespace kscope::cli
