// kinetoscope-cli steps RUN: the ProfilerSteps (HTA's get_profiler_steps) and each rank's CPU and
// GPU span per step; stragglers RUN: HTA's late-start-of-communication straggler heuristic
// (get_potential_stragglers) with the evidence per rank and step.

#include "command.h"

#include "analysis/tables/patterntables.h"
#include "analysis/patterns/steps.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <memory>

namespace kscope::cli {

namespace {

Action setupSteps(CLI::App& app, const Invocation& invocation)
{
    auto list = std::make_shared<bool>(false);
    app.add_flag("--list", *list, "only the step numbers (HTA's get_profiler_steps)");
    return [list, &invocation] {
        return runAnalysis(invocation, [&](const Run& run) {
            const ProfilerSteps result = profilerSteps(run);
            return *list ? stepListTable(result) : stepSpansTable(run, result);
        });
    };
}

struct StragglerArgs {
    StragglerOptions options;
    bool summary = false;
};

Action setupStragglers(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<StragglerArgs>();
    app.add_option("--candidates", args->options.candidates,
                   "ranks flagged per step (the latest starts) and ranks returned (HTA's num_candidates)")
        ->check(wholeNumber(1, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    app.add_flag("--summary", args->summary, "one row per rank: steps flagged, straggler or not");
    return [args, &invocation] {
        args->options.htaCompat = invocation.common.htaCompat;
        return runAnalysis(invocation, [&](const Run& run) {
            const Stragglers result = potentialStragglers(run, args->options);
            Table table = args->summary ? stragglerRanksTable(result) : stragglersTable(run, result);
            if (args->summary && !result.ranks.empty()) {
                std::string ranks;
                for (size_t k = 0; k < result.ranks.size(); ++k)
                    ranks += (k ? ", " : "") + std::to_string(result.ranks[k]);
                table.notes.insert(table.notes.begin(), "potential stragglers: " + ranks);
            }
            return table;
        });
    };
}

const CommandRegistrar kStepsRegistrar{
    {"steps", "ProfilerSteps per rank: CPU span and GPU span of each step (HTA's step list with --list)",
     "Per rank and step: the ProfilerStep's start (us since the run's first event) and duration, the\n"
     "start and span of the GPU work launched in it, and how many GPU ops that is. The last step is\n"
     "trimmed as HTA trims it (--include-last-step keeps it).\n"
     "--list prints only the step numbers over all ranks (HTA's get_profiler_steps).",
     &setupSteps}};

const CommandRegistrar kStragglersRegistrar{
    {"stragglers", "Ranks that start the dominant collective late, step after step (HTA's straggler heuristic)",
     "In each step the last long NCCL kernel (1% of the mean step time or more) of every rank, stream\n"
     "and name; the (stream, kernel) whose duration varies most across ranks is the witness. Per step\n"
     "the --candidates ranks that start it latest are flagged; the most flagged ranks are returned.\n"
     "Rows: rank, step, the witness's start and duration, normalised by the mean step time, flagged.\n"
     "Default mode: every NCCL kernel name (HTA finds only ncclKernel_*, nothing on NCCL >= 2.19's\n"
     "ncclDevKernel_*), step 0 and stream 0 count; one rank, or fewer ranks than --candidates in a\n"
     "step, answer instead of raising. --step N looks at that step alone.",
     &setupStragglers}};

} // namespace

} // namespace kscope::cli
