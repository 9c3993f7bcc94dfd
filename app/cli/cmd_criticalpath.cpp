// kinetoscope-cli critical-path RUN: the critical path of one rank in an annotated window (HTA's
// critical_path_analysis): its summary by bound, its segments, the graph's edges, the path's
// nodes, the trace with the path overlaid; --all-ranks follows it across ranks at collectives.

#include "command.h"

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/rankchoice.h"
#include "analysis/criticalpath/criticalpathoverlay.h"
#include "analysis/tables/criticalpathtables.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

namespace kscope::cli {

namespace {

struct CriticalPathArgs {
    CriticalPathOptions options;
    int rank = -1;  // --rank: a number (the first file claiming it)
    std::string annotation;
    bool annotationGiven = false;
    std::string instance;
    std::string dataLoad;
    std::string overlayDir;
    bool breakdown = false;
    bool edges = false;
    bool path = false;
    bool allRanks = false;
    bool shares = false;
    bool onlyCritical = false;
    bool allEdges = false;
};

bool envFlag(const char* name)
{
    const char* v = std::getenv(name);
    return v && std::string(v) != "0" && std::string(v) != "";
}

// "N" or "N,M" (HTA's instance_id int or (start, end) tuple).
bool parseInstance(const std::string& text, int& start, int& end)
{
    std::vector<int> values;
    if (!parseIntList(text, values) || values.empty() || values.size() > 2)
        return false;
    start = values[0];
    end = values.size() == 2 ? values[1] : values[0];
    return start >= 0 && end >= start;
}

std::vector<std::string> splitNames(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

Action setupCriticalPath(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<CriticalPathArgs>();
    app.add_option("--rank", args->rank, "the rank to analyse (HTA's rank); default the run's first")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("R");
    CLI::Option* annotation = app.add_option(
        "--annotation", args->annotation,
        "the window: the instances of the events whose name contains NAME (HTA's annotation); \"\" = the whole "
        "trace; default ProfilerStep# (the first step)");
    annotation->type_name("NAME");
    app.add_option("--instance-id", args->instance, "which instance of the annotation: N, or N,M for N to M inclusive")
        ->type_name("N[,M]")
        ->default_str("0");
    app.add_option("--data-load-events", args->dataLoad,
                   "CPU events whose name contains one of these count as data_loading (HTA's data_load_events)")
        ->type_name("NAME,...");
    CLI::Option* breakdown = app.add_flag("--breakdown", args->breakdown, "one row per segment of the path");
    CLI::Option* edges = app.add_flag("--edges", args->edges, "every edge of the graph");
    CLI::Option* path = app.add_flag("--path", args->path, "the nodes on the path");
    CLI::Option* allRanks = app.add_flag("--all-ranks", args->allRanks,
                                         "beyond HTA: link the ranks at their collectives and follow the step's path "
                                         "across them (one row per segment; --shares: per rank)");
    app.add_flag("--shares", args->shares, "with --all-ranks: how much of the path each rank holds");
    app.add_flag("--align-clocks", args->options.alignClocks,
                 "with --all-ranks: read arrivals and waits on one clock, each rank moved by its estimated offset "
                 "(clock-skew)")
        ->needs(allRanks);
    app.add_option("--overlay", args->overlayDir,
                   "also write the rank's trace to DIR/overlaid_critical_path_<file>: args.critical on the path's "
                   "events, flow events for its dependency, launch and sync edges (HTA's overlay)")
        ->type_name("DIR");
    app.add_flag("--only-critical", args->onlyCritical,
                 "with --overlay: keep only the path's events and user annotations (HTA's only_show_critical_events)");
    app.add_flag("--all-edges", args->allEdges, "with --overlay: a flow for every edge of the graph (show_all_edges)");
    app.add_flag("--add-zero-weight-launch-edges", args->options.addZeroWeightLaunchEdges,
                 "a 0-weight launch edge to every kernel (CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE)");
    app.add_flag("--show-zero-weight-launch-edges", args->options.showZeroWeightLaunchEdges,
                 "overlay them too (CRITICAL_PATH_SHOW_ZERO_WEIGHT_LAUNCH_EDGE)");
    app.add_flag("--strict-negative-weight-checks", args->options.strictNegativeWeightChecks,
                 "refuse a graph with an edge below -1 us (CRITICAL_PATH_STRICT_NEGATIVE_WEIGHT_CHECKS)");
    breakdown->excludes(edges)->excludes(path)->excludes(allRanks);
    edges->excludes(path)->excludes(allRanks);
    path->excludes(allRanks);
    return [args, annotation, &invocation] {
        CriticalPathOptions& o = args->options;
        o.htaCompat = invocation.common.htaCompat;
        if (annotation->count() > 0)
            o.annotation = args->annotation;
        if (!args->instance.empty() && !parseInstance(args->instance, o.instanceStart, o.instanceEnd)) {
            std::cerr << "error: --instance-id takes N or N,M (N <= M), not '" << args->instance << "'\n";
            return int{kExitUsage};
        }
        o.dataLoadEvents = splitNames(args->dataLoad);
        o.addZeroWeightLaunchEdges |= envFlag("CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE");
        o.showZeroWeightLaunchEdges |= envFlag("CRITICAL_PATH_SHOW_ZERO_WEIGHT_LAUNCH_EDGE");
        o.strictNegativeWeightChecks |= envFlag("CRITICAL_PATH_STRICT_NEGATIVE_WEIGHT_CHECKS");
        if (args->allRanks) {
            return runAnalysis(invocation, [&](const Run& run) {
                const CrossRankPath result = criticalPathAllRanks(run, o);
                return args->shares ? crossRankSharesTable(result) : crossRankPathTable(run, result);
            });
        }
        const TableStyle style{.dropFirst = {"cat", "pid", "index", "event", "event_idx"}};
        bool overlayFailed = false;
        const int code = runAnalysis(
            withRank(invocation, args->rank),
            [&](const Run& run) {
                o.rank = rankNumbered(run, args->rank);
                const CriticalPath result = criticalPath(run, o);
                Table table = args->breakdown ? criticalPathBreakdownTable(run, result)
                    : args->edges             ? criticalPathEdgesTable(result)
                    : args->path              ? criticalPathNodesTable(run, result)
                                              : criticalPathSummaryTable(result);
                if (!args->overlayDir.empty() && result.success) {
                    CriticalPathOverlayOptions overlay;
                    overlay.onlyCriticalEvents = args->onlyCritical;
                    overlay.showAllEdges = args->allEdges;
                    const CriticalPathOverlay written = writeCriticalPathOverlay(run, result, args->overlayDir, overlay);
                    overlayFailed = !written.error.empty();
                    table.notes.push_back(written.error.empty()
                                              ? "wrote " + written.output.string() + " (" + std::to_string(written.eventsMarked)
                                                    + " events marked, " + std::to_string(written.flows) + " flows)"
                                              : "no overlay: " + written.error);
                }
                return table;
            },
            style);
        return code == kExitOk && overlayFailed ? int(kExitOutputFailed) : code;
    };
}

const CommandRegistrar kRegistrar{
    {"critical-path", "Critical path of a step on one rank: what bounds it, CPU, GPU or communication (HTA)",
     "HTA's critical_path_analysis: a graph of the window's CPU ops, runtime calls and GPU ops (their spans,\n"
     "nesting, the runtime lock, launches, kernels queued on a stream, CUDA syncs); its longest path,\n"
     "each segment attributed to an event and a bound. Default: the summary (% of the path per bound);\n"
     "--breakdown, --edges, --path: HTA's frames; --overlay DIR: the trace with the path drawn in.\n"
     "Times in us. --hta-compat: HTA's numbers and ids (event_idx = the event's position in the file).\n"
     "--all-ranks (beyond HTA): ranks linked at collectives, the path crosses to the last to arrive.",
     &setupCriticalPath}};

} // namespace

} // namespace kscope::cli
