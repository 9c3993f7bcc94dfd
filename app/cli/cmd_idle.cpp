// kinetoscope-cli idle RUN / idle-hist RUN: why GPU streams sit idle (HTA idle time breakdown),
// and the distribution of the gaps.

#include "command.h"

#include "analysis/core/idlecauses.h"
#include "analysis/core/idletime.h"
#include "analysis/tables/idlecausetables.h"
#include "analysis/tables/resulttables.h"

#include <CLI/CLI.hpp>

#include <limits>
#include <memory>
#include <sstream>

namespace kscope::cli {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

void addGapOptions(CLI::App& app, std::vector<int>& streams, double& delayUs)
{
    app.add_option_function<std::string>(
           "--streams", [&streams](const std::string& text) { parseIntList(text, streams); },
           "only these streams, e.g. 7,20 (default: every stream)")
        ->check(intList())
        ->type_name("LIST");
    app.add_option("--consecutive-kernel-delay", delayUs,
                   "gaps shorter than this (us) whose launch came in time are kernel wait")
        ->check(numberFrom(0.0, kInfinity))
        ->type_name("US")
        ->capture_default_str();
}

Action setupIdle(CLI::App& app, const Invocation& invocation)
{
    auto options = std::make_shared<IdleTimeOptions>();
    addGapOptions(app, options->streams, options->consecutiveKernelDelayUs);
    app.add_flag("--stats", options->intervalStats,
                 "count/mean/std/quartiles of the gaps per category instead of their sums");
    return [options, &invocation] {
        options->htaCompat = invocation.common.htaCompat;
        // The run holds only the --ranks asked for; those missing are named by runAnalysis.
        options->ranks.clear();
        return runAnalysis(invocation, [&](const Run& run) {
            const IdleTime result = idleTimeBreakdown(run, *options);
            return options->intervalStats ? idleStatsTable(result) : idleTable(result);
        });
    };
}

Action setupIdleHistogram(CLI::App& app, const Invocation& invocation)
{
    auto options = std::make_shared<IdleHistogramOptions>();
    app.add_option("--bins", options->bins, "bins per rank, shared by the three categories")
        ->check(wholeNumber(1, 100000))
        ->type_name("N")
        ->capture_default_str();
    app.add_flag("--log", options->logScale, "geometric bins (zero-length gaps are then only counted in a note)");
    addGapOptions(app, options->streams, options->consecutiveKernelDelayUs);
    return [options, &invocation] {
        return runAnalysis(invocation, [&](const Run& run) {
            Table table;
            for (const RankTrace& rank : run.ranks) {
                IdleHistogramOptions one = *options;
                one.rank = run.indexOf(rank);
                Table part = idleHistogramTable(idleHistogram(run, one));
                table.columns = part.columns;
                for (auto& row : part.rows)
                    table.rows.push_back(std::move(row));
                for (auto& note : part.notes)
                    table.notes.push_back(std::move(note));
            }
            return table;
        });
    };
}

Action setupIdleCauses(CLI::App& app, const Invocation& invocation)
{
    auto options = std::make_shared<IdleCausesOptions>();
    auto byStep = std::make_shared<bool>(false);
    auto byStream = std::make_shared<bool>(false);
    app.add_option_function<std::string>(
           "--data-load-events",
           [options](const std::string& text) {
               std::stringstream in(text);
               for (std::string item; std::getline(in, item, ',');)
                   if (!item.empty())
                       options->dataLoadNames.push_back(item);
           },
           "CPU events whose name contains one of these are data loading, besides DataLoader's own")
        ->type_name("NAME,...");
    addGapOptions(app, options->streams, options->consecutiveKernelDelayUs);
    CLI::Option* steps = app.add_flag("--by-step", *byStep, "time per cause per rank and ProfilerStep");
    CLI::Option* streams =
        app.add_flag("--by-stream", *byStream, "time per cause per rank and GPU stream")->excludes(steps);
    app.add_flag("--gaps", options->listGaps, "one row per gap: its cause, the op that names it, the GPU op after it")
        ->excludes(steps)
        ->excludes(streams);
    return [options, byStep, byStream, &invocation] {
        const TableStyle style{.dropFirst = {"cause_time (us)", "step", "start (us)"}, .keep = {"rank", "cause"}};
        return runAnalysis(
            invocation,
            [&](const Run& run) {
                const IdleCauses result = idleCauses(run, *options);
                if (options->listGaps)
                    return idleCauseGapsTable(run, result);
                return idleCausesTable(result, *byStep     ? IdleCauseGrouping::Step
                                               : *byStream ? IdleCauseGrouping::Stream
                                                           : IdleCauseGrouping::Rank);
            },
            style);
    };
}

const CommandRegistrar kIdleRegistrar{
    {"idle", "Idle time per rank and stream by cause: host wait, kernel wait, other (HTA)",
     "Each gap before a kernel, memcpy or memset on a stream is host wait (its launch came after the\n"
     "previous work ended), kernel wait (shorter than --consecutive-kernel-delay) or other. Every rank\n"
     "by default (HTA: rank 0). Default mode: work that starts before the previous work on its stream\n"
     "has ended has no gap; such overlaps are counted in a note (HTA sums them as negative kernel wait).",
     &setupIdle}};

const CommandRegistrar kHistogramRegistrar{
    {"idle-hist", "Histogram of the idle gaps of each rank, per cause",
     "One histogram per rank (--ranks to choose), its bin edges shared by the three categories;\n"
     "--log bins geometrically. Gaps as the default mode of `idle` defines them (never negative).",
     &setupIdleHistogram}};

const CommandRegistrar kCausesRegistrar{
    {"idle-causes", "Why each idle gap happened: what the launching thread was doing (beyond HTA)",
     "For every gap on a GPU stream (the gaps of `idle`, default mode), what the host thread that\n"
     "launched the op after it was doing meanwhile, split over the gap instant by instant; the gap goes\n"
     "to the cause that held most of it. Causes: synchronization (cudaStreamSynchronize,\n"
     "cudaDeviceSynchronize, cudaEventSynchronize, cudaMemcpy, aten::item, aten::_local_scalar_dense),\n"
     "data_loading (DataLoader, --data-load-events), optimizer_step (Optimizer.*), cpu_op (any other op,\n"
     "annotation or Python function: the innermost spanning most of the gap), launch_overhead (the\n"
     "launch call ran into the gap, or a queued op started within --consecutive-kernel-delay),\n"
     "stream_wait (launched in time, held by a wait on another stream; cause_op is the op on the other\n"
     "stream that ended last before it), gpu_queued (launched in time, started late, no wait recorded),\n"
     "no_host_activity, launch_not_in_trace. A sync inside the optimizer is a sync; ProfilerStep#N is\n"
     "ignored. Default: time per rank and cause; --by-step per ProfilerStep; --gaps every gap.",
     &setupIdleCauses}};

} // namespace

} // namespace kscope::cli
