// kinetoscope-cli diff CONTROL_RUN TEST_RUN: HTA's TraceDiff.compare_traces (count and total
// duration per op name, one rank and one step of each run) or its ops_diff (--ops), plus the
// averages over every rank and step both runs have (--all-ranks, --all-steps).

#include "diffruns.h"

#include "analysis/tables/difftables.h"
#include "analysis/diff/tracediff.h"
#include "model/log.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <tuple>

namespace kscope::cli {

namespace {

struct DiffArgs {
    DiffInputs inputs;
    std::vector<int> controlRanks;
    std::vector<int> testRanks;
    std::vector<int> controlSteps;
    std::vector<int> testSteps;
    std::string device = "all";
    bool shortNames = false;
    bool ops = false;
    bool allRanks = false;
    bool allSteps = false;
};

CLI::Option* addList(CLI::App& app, const std::string& name, std::vector<int>& values, const std::string& help)
{
    return app
        .add_option_function<std::string>(
            name, [&values](const std::string& text) { parseIntList(text, values); }, help)
        ->check(intList())
        ->type_name(name.find("rank") != std::string::npos ? "R" : "N");
}

std::string sideText(const std::vector<int>& ranks, const std::vector<int>& steps)
{
    return (ranks.size() == 1 ? "rank " : "ranks ") + numberList(ranks)
        + (steps.empty() ? std::string(", whole trace") : (steps.size() == 1 ? ", step " : ", steps ") + numberList(steps));
}

// What was compared, and where the runs do not match what else could be.
std::vector<std::string> comparedNotes(const Run& control, const Run& test, const TraceComparison& c,
                                       const DiffArgs& args)
{
    std::vector<std::string> notes;
    if (!args.allRanks || !args.allSteps)
        notes.push_back("compared control " + sideText(c.controlRanks, c.controlSteps) + " with test "
                        + sideText(c.testRanks, c.testSteps));
    for (const auto& [run, ranks, side] : {std::tuple{&control, &c.controlRanks, "control"}, {&test, &c.testRanks, "test"}}) {
        std::vector<int> partial;
        for (const LoadError& e : run->errors)
            if (e.partial && std::find(ranks->begin(), ranks->end(), e.rank) != ranks->end())
                partial.push_back(e.rank);
        if (!partial.empty())
            notes.push_back(std::string("the ") + side + " run's rank " + numberList(partial)
                            + " is partial: its counts and durations cover only the events read");
    }
    const std::vector<int> cr = runRanks(control), tr = runRanks(test);
    if (!args.allRanks && cr != tr)
        notes.push_back("the runs' ranks differ (control " + numberList(cr) + ", test " + numberList(tr)
                        + "): --all-ranks averages over the ranks in both, or pairs them in order when none is");
    const std::vector<int> cs = runSteps(control), ts = runSteps(test);
    if (!args.allSteps && c.controlSteps != c.testSteps && !cs.empty() && !ts.empty()) {
        std::vector<int> both;
        std::set_intersection(cs.begin(), cs.end(), ts.begin(), ts.end(), std::back_inserter(both));
        notes.push_back("different step numbers compared (control has steps " + numberList(cs) + ", test "
                        + numberList(ts) + "); "
                        + (both.empty() ? std::string("no step is in both runs: --all-steps averages each run over "
                                                      "its own steps")
                                        : "steps in both: " + numberList(both)
                                   + " (--control-step/--test-step, or --all-steps for their average)"));
    }
    return notes;
}

// The comparison had no result: why, and what the runs do have.
int reportNoComparison(const DiffRuns& runs, const TraceComparison& c, const Invocation& invocation)
{
    for (const std::string& note : diffLoadNotes(runs))
        std::cerr << "note: " << note << '\n';
    std::cerr << "error: no comparison: " << c.error << '\n';
    const Run& control = *runs.control.run;
    const Run& test = *runs.test.run;
    for (const Run* run : {&control, &test}) {
        const std::vector<int> steps = runSteps(*run);
        std::cerr << "  " << (run == &control ? "control" : "test") << " run "
                  << (run == &control ? runs.controlLabel : runs.testLabel) << ": ranks " << numberList(runRanks(*run))
                  << ", " << (steps.empty() ? std::string("no ProfilerStep") : "steps " + numberList(steps)) << '\n';
    }
    if (c.error.find("ProfilerStep#") != std::string::npos && !invocation.common.includeLastStep)
        std::cerr << "  each run's last ProfilerStep is left out by default (its GPU work is often cut short): "
                     "--include-last-step or --hta-compat keeps it\n";
    return kExitNoRank;
}

Table opsTable(const OpsDiff& ops, std::vector<std::string> notes)
{
    Table table;
    table.columns = {"change", "name"};
    const std::pair<const char*, const std::vector<std::string>*> lists[] = {
        {"added", &ops.added},         {"deleted", &ops.deleted},     {"increased", &ops.increased},
        {"decreased", &ops.decreased}, {"unchanged", &ops.unchanged},
    };
    for (const auto& [change, names] : lists)
        for (const std::string& name : *names)
            table.addRow({std::string(change), name});
    table.notes = std::move(notes);
    return table;
}

int runDiff(const DiffArgs& args, const Invocation& given)
{
    Invocation invocation = given;
    // HTA's LabeledTrace neither aligns nor trims: its numbers need the last step.
    if (invocation.common.htaCompat)
        invocation.common.includeLastStep = true;
    int exitCode = kExitOk;
    const auto runs = loadDiffRuns(args.inputs, invocation, exitCode);
    if (!runs)
        return exitCode;
    const Run& control = *runs->control.run;
    const Run& test = *runs->test.run;

    TraceDiffOptions options;
    options.htaCompat = invocation.common.htaCompat;
    options.shortNames = args.shortNames;
    options.device = args.device == "cpu" ? DiffDevice::Cpu : args.device == "gpu" ? DiffDevice::Gpu : DiffDevice::All;
    options.controlRanks = args.controlRanks;
    options.testRanks = args.testRanks;
    options.controlSteps = args.controlSteps;
    options.testSteps = args.testSteps;
    options.allRanks = args.allRanks;
    options.allSteps = args.allSteps;
    const auto start = std::chrono::steady_clock::now();
    const TraceComparison comparison = compareTraces(control, test, options);
    const OpsDiff ops = args.ops ? opsDiff(comparison) : OpsDiff{};
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    KSCOPE_LOG(Cli, Info, "diff computed in " << ms << " ms (" << comparison.rows.size() << " names)");
    if (!comparison.error.empty())
        return reportNoComparison(*runs, comparison, invocation);

    std::vector<std::string> notes = diffLoadNotes(*runs);
    for (std::string& note : comparedNotes(control, test, comparison, args))
        notes.push_back(std::move(note));
    int written = kExitOk;
    if (args.ops) {
        // HTA's dict, byte for byte, unless a table was asked for; it has no room for notes.
        const OutputFormat format = invocation.common.format;
        notes.insert(notes.end(), ops.notes.begin(), ops.notes.end());
        if (format == OutputFormat::Auto || format == OutputFormat::Json) {
            written = writeResult(opsDiffJson(ops) + "\n", invocation);
            if (written == kExitOk)
                printNotes(notes, {}, invocation);
        } else {
            written = emitTable(opsTable(ops, std::move(notes)), invocation);
        }
    } else {
        Table table = compareTracesTable(comparison, runs->controlLabel, runs->testLabel);
        notes.insert(notes.end(), table.notes.begin(), table.notes.end());
        table.notes = std::move(notes);
        written = emitTable(table, invocation, {.dropFirst = {"counts_change_categories"}});
    }
    if (written != kExitOk)
        return written;
    return diffIncompleteExit(*runs, invocation);
}

Action setupDiff(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<DiffArgs>();
    addDiffInputs(app, args->inputs);
    CLI::Option* controlRank =
        addList(app, "--control-rank", args->controlRanks, "the control run's rank (default: its first; a list is summed, as HTA does)");
    CLI::Option* testRank =
        addList(app, "--test-rank", args->testRanks, "the test run's rank (default: its first; a list is summed)");
    CLI::Option* controlStep = addList(app, "--control-step", args->controlSteps,
                                       "the control run's ProfilerStep number (default: its first; a list is summed)");
    CLI::Option* testStep = addList(app, "--test-step", args->testSteps,
                                    "the test run's ProfilerStep number (default: its first; a list is summed)");
    app.add_option("--device", args->device,
                   "which events: all, cpu or gpu (default mode: by category, kernels, memcpy, memset, syncs and GPU "
                   "annotations are GPU; --hta-compat: HTA's rule, any event with args.stream is GPU)")
        ->check(oneOf({"all", "cpu", "gpu"}))
        ->type_name("DEV")
        ->capture_default_str();
    app.add_flag("--short-names", args->shortNames, "group by HTA's short names (templates and arguments cut)");
    app.add_flag("--ops", args->ops,
                 "print HTA's ops_diff instead: the names added, deleted, increased, decreased and unchanged "
                 "(in count); its JSON unless --format table or csv asks for a table");
    app.add_flag("--all-ranks", args->allRanks,
                 "every rank both runs have (none in common: paired in order), values averaged per rank and step")
        ->excludes(controlRank)
        ->excludes(testRank);
    app.add_flag("--all-steps", args->allSteps,
                 "every ProfilerStep both runs have (none in common: each run over its own), averaged per rank and "
                 "step")
        ->excludes(controlStep)
        ->excludes(testStep);
    return [args, &invocation] { return runDiff(*args, invocation); };
}

const CommandRegistrar kDiffRegistrar{
    {"diff", "Two runs compared per op name: counts and total time, what appeared and vanished (HTA)",
     "HTA's TraceDiff.compare_traces: count and total duration (us) of each op name on one rank and one\n"
     "ProfilerStep of each run (default: the first of each), outer-joined, diff = test - control; rows\n"
     "are control's names sorted, then the names only test has. --ops: HTA's ops_diff instead, as its\n"
     "JSON (byte for byte, whatever the terminal) unless --format table or csv asks for a table\n"
     "(change, name); with --ops the notes always go to stderr. Other output follows --format.\n"
     "Last step: the default mode leaves out each run's last ProfilerStep like every command (its GPU\n"
     "work is often cut short; --include-last-step keeps it); --hta-compat keeps it, as HTA's\n"
     "LabeledTrace does, and rounds every event to whole microseconds as HTA does.\n"
     "The default mode vs HTA: durations are exact ns (HTA rounds each event to whole us first);\n"
     "--device by category (HTA: by args.stream); a run without ProfilerStep is compared whole, with a\n"
     "note (HTA raises); --all-ranks / --all-steps (beyond HTA, in both modes) average per rank x step.\n"
     "A rank or step a run lacks: no comparison, exit 2, with the ranks and steps each run has.\n"
     "--ranks loads only those ranks of both runs; each run's load problems are named with its side.",
     &setupDiff, kTableOutput | kLoadOptions}};

} // namespace

} // namespace kscope::cli
