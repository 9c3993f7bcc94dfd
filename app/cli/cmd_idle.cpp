// kinetoscope-cli idle RUN / idle-hist RUN: why GPU streams sit idle (HTA idle time breakdown),
// and the distribution of the gaps.

#include "command.h"

#include "analysis/core/idletime.h"
#include "analysis/tables/resulttables.h"

#include <CLI/CLI.hpp>

#include <limits>
#include <memory>

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

} // namespace

} // namespace kscope::cli
