// kinetoscope-cli diff-summary CONTROL_RUN TEST_RUN: per rank, the temporal breakdown and the
// communication/computation overlap of both runs side by side, and the kernels whose total time
// changed most; --format json as one stable object, --fail-above for CI (exit 5).

#include "diffruns.h"

#include "analysis/findings/findings.h"
#include "analysis/tables/difftables.h"
#include "analysis/tables/findingstable.h"
#include "analysis/tables/resulttables.h"
#include "analysis/diff/tracediff.h"
#include "model/jsonwrite.h"
#include "model/log.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

namespace kscope::cli {

namespace {

constexpr int kJsonVersion = 1;

struct SummaryArgs {
    DiffInputs inputs;
    int top = static_cast<int>(DiffSummaryOptions{}.topKernels);
    std::string table;  // temporal, overlap, kernels, findings; empty: all four
    std::optional<double> failAbove;
    double failMinUs = 0.0;
};

// A kernel whose total time grew past --fail-above.
struct Regression {
    int controlRank = -1;
    int testRank = -1;
    const KernelChange* kernel = nullptr;
};

struct Judgement {
    std::vector<Regression> exceeded;
    int64_t testOnly = 0;  // kernels with no control time: not judged
};

Judgement judge(const DiffSummary& summary, const SummaryArgs& args)
{
    Judgement out;
    if (!args.failAbove)
        return out;
    for (const RankDiff& r : summary.ranks)
        for (const KernelChange& k : r.kernels) {
            if (k.controlTotalNs <= 0) {
                out.testOnly += k.testCount > 0;
                continue;
            }
            const double pctg = k.deltaPctg();
            if (std::isfinite(pctg) && pctg > *args.failAbove
                && static_cast<double>(k.deltaNs()) >= args.failMinUs * 1000.0)
                out.exceeded.push_back({r.controlRank, r.testRank, &k});
        }
    return out;
}

void jsonString(std::ostream& out, const std::string& s)
{
    out << kscope::jsonString(s);
}

void jsonInts(std::ostream& out, const std::vector<int>& values)
{
    out << '[';
    for (size_t i = 0; i < values.size(); ++i)
        out << (i ? ", " : "") << values[i];
    out << ']';
}

void jsonTable(std::ostream& out, const Table& table)
{
    out << '{';
    writeJsonTableMembers(table, out, "  ");
    out << '}';
}

void jsonSide(std::ostream& out, const std::string& label, const std::string& input, const LoadedRun& loaded)
{
    out << "{\"label\": ";
    jsonString(out, label);
    out << ", \"run\": ";
    jsonString(out, input);
    out << ", \"ranks\": ";
    jsonInts(out, runRanks(*loaded.run));
    out << ", \"steps\": ";
    jsonInts(out, runSteps(*loaded.run));
    out << ", \"incomplete\": " << (loaded.incomplete ? "true" : "false") << '}';
}

// The four tables the JSON holds, with fixed labels so that its keys never depend on --labels.
struct SummaryTables {
    Table temporal;
    Table overlap;
    Table kernels;
    Table findings;
};

SummaryTables summaryTables(const DiffSummary& summary, const std::vector<FindingDiffRow>& findingChanges,
                            const DiffRuns& runs, const std::string& controlLabel, const std::string& testLabel,
                            bool htaCompat)
{
    return {withPartialColumns(diffTemporalTable(summary, controlLabel, testLabel), runs, htaCompat),
            withPartialColumns(diffOverlapTable(summary, controlLabel, testLabel), runs, htaCompat),
            withPartialColumns(diffKernelsTable(summary, controlLabel, testLabel), runs, htaCompat),
            findingsDiffTable(findingChanges, controlLabel, testLabel)};
}

std::string summaryJson(const DiffSummary& summary, const std::vector<FindingDiffRow>& findingChanges,
                        const DiffRuns& runs, const SummaryArgs& args, const Judgement& judgement,
                        const std::vector<std::string>& notes, bool htaCompat)
{
    const SummaryTables tables = summaryTables(summary, findingChanges, runs, "control", "test", htaCompat);
    std::ostringstream out;
    out << "{\"kind\": \"kinetoscope-diff-summary\", \"version\": " << kJsonVersion << ",\n \"control\": ";
    jsonSide(out, runs.controlLabel, args.inputs.control, runs.control);
    out << ",\n \"test\": ";
    jsonSide(out, runs.testLabel, args.inputs.test, runs.test);
    const std::pair<const char*, const std::vector<int>*> lists[] = {
        {"compared_steps", &summary.steps},           {"control_only_steps", &summary.controlOnlySteps},
        {"test_only_steps", &summary.testOnlySteps},  {"control_only_ranks", &summary.controlOnlyRanks},
        {"test_only_ranks", &summary.testOnlyRanks},
    };
    for (const auto& [key, values] : lists) {
        out << ",\n \"" << key << "\": ";
        jsonInts(out, *values);
    }
    out << ",\n \"top_kernels\": " << args.top;
    out << ",\n \"temporal\": ";
    jsonTable(out, tables.temporal);
    out << ",\n \"overlap\": ";
    jsonTable(out, tables.overlap);
    out << ",\n \"kernels\": ";
    jsonTable(out, tables.kernels);
    out << ",\n \"findings\": ";
    jsonTable(out, tables.findings);
    out << ",\n \"fail_above\": ";
    if (!args.failAbove) {
        out << "null";
    } else {
        out << "{\"pctg\": " << formatCell(*args.failAbove) << ", \"min_delta_us\": " << formatCell(args.failMinUs)
            << ", \"test_only_kernels\": " << judgement.testOnly << ", \"exceeded\": [";
        for (size_t i = 0; i < judgement.exceeded.size(); ++i) {
            const Regression& r = judgement.exceeded[i];
            out << (i ? ",\n   " : "\n   ") << "{\"rank\": " << r.controlRank << ", \"test_rank\": " << r.testRank
                << ", \"name\": ";
            jsonString(out, r.kernel->name);
            out << ", \"control_total_time(us)\": " << formatCell(static_cast<double>(r.kernel->controlTotalNs) / 1000.0)
                << ", \"test_total_time(us)\": " << formatCell(static_cast<double>(r.kernel->testTotalNs) / 1000.0)
                << ", \"diff_total_time_pctg\": " << formatCell(r.kernel->deltaPctg()) << '}';
        }
        out << "]}";
    }
    out << ",\n \"notes\": [";
    for (size_t n = 0; n < notes.size(); ++n) {
        out << (n ? ",\n  " : "\n  ");
        jsonString(out, notes[n]);
    }
    out << "]}\n";
    return out.str();
}

// Columns the table format leaves out first, so that the diffs stay: each side's percentages and
// means, the test side's partial column, then each side's other values but idle and compute time.
TableStyle styleOf(const Table& table)
{
    TableStyle style;
    auto side = [](const std::string& column) { return !column.starts_with("diff_") && column != "test_rank"; };
    for (const std::string& column : table.columns)
        if (side(column) && (column.ends_with("_pctg") || column.ends_with("_mean_time(us)")))
            style.dropFirst.push_back(column);
    style.dropFirst.push_back("test_partial");
    for (const std::string& column : table.columns)
        if (column.starts_with("diff_") && column.ends_with("_mean_time(us)"))
            style.dropFirst.push_back(column);
    for (const std::string& column : table.columns)
        if (side(column) && column.ends_with(")") && column.find("idle_time") == std::string::npos
            && column.find("_compute_time") == std::string::npos)
            style.dropFirst.push_back(column);
    for (const std::string& column : table.columns)
        if (side(column) && (column.ends_with("_count") || column.find("_compute_time") != std::string::npos))
            style.dropFirst.push_back(column);
    return style;
}

int printTables(const SummaryTables& tables, const SummaryArgs& args, const std::vector<std::string>& notes,
                const Invocation& invocation)
{
    const OutputFormat format = resolvedFormat(invocation);
    const std::string top = std::to_string(args.top);
    const std::tuple<const char*, std::string, const Table*> parts[] = {
        {"temporal", "Temporal breakdown per rank (us; diff = test - control)", &tables.temporal},
        {"overlap", "Communication overlapped by computation per rank", &tables.overlap},
        {"kernels", "Top " + top + " kernels per rank by change of total time (us)", &tables.kernels},
        {"findings", "Findings that appeared, disappeared or changed severity (kinetoscope-cli findings on each run)",
         &tables.findings},
    };
    std::string text;
    std::vector<std::string> dropped;
    for (const auto& [key, title, table] : parts) {
        if (!args.table.empty() && args.table != key)
            continue;
        if (args.table.empty())
            text += (text.empty() ? "" : "\n") + (format == OutputFormat::Csv ? "# " + std::string(key) : title) + "\n";
        std::vector<std::string> left;
        text += renderTable(*table, format, invocation, styleOf(*table), &left);
        for (const std::string& column : left)
            dropped.push_back(std::string(key) + " " + column);
    }
    if (const int written = writeResult(text, invocation); written != kExitOk)
        return written;
    printNotes(notes, dropped, invocation);
    return kExitOk;
}

void reportJudgement(const Judgement& judgement, const SummaryArgs& args)
{
    if (!args.failAbove)
        return;
    if (judgement.testOnly > 0)
        std::cerr << "note: --fail-above: " << judgement.testOnly
                  << (judgement.testOnly == 1 ? " kernel is" : " kernels are")
                  << " only in the test run, not judged (no control time to grow from)\n";
    if (judgement.exceeded.empty())
        return;
    std::cerr << "error: --fail-above " << shownDefault(*args.failAbove) << ": " << judgement.exceeded.size()
              << (judgement.exceeded.size() == 1 ? " kernel's" : " kernels'") << " total time grew by more than "
              << shownDefault(*args.failAbove) << "%:\n";
    for (const Regression& r : judgement.exceeded) {
        char pctg[32];
        std::snprintf(pctg, sizeof pctg, "+%.2f%%", r.kernel->deltaPctg());
        const std::string change = std::string(pctg) + " (" + formatCell(microsCell(r.kernel->controlTotalNs)) + " -> "
            + formatCell(microsCell(r.kernel->testTotalNs)) + " us)";
        std::cerr << "  rank " << r.controlRank;
        if (r.testRank != r.controlRank)
            std::cerr << " (test rank " << r.testRank << ")";
        std::cerr << ": " << change << " " << r.kernel->name << '\n';
    }
}

int runSummary(const SummaryArgs& args, const Invocation& invocation)
{
    const bool htaCompat = invocation.common.htaCompat;
    if (!args.table.empty() && invocation.common.format == OutputFormat::Json) {
        std::cerr << "error: --table is for --format table or csv: the JSON object always holds all three tables\n"
                     "Run 'kinetoscope-cli diff-summary --help' for its options.\n";
        return kExitUsage;
    }
    int exitCode = kExitOk;
    const auto runs = loadDiffRuns(args.inputs, invocation, exitCode);
    if (!runs)
        return exitCode;

    DiffSummaryOptions options;
    options.htaCompat = htaCompat;
    // --fail-above judges every kernel, not only the top ones shown.
    options.topKernels = args.failAbove ? std::numeric_limits<size_t>::max() : static_cast<size_t>(args.top);
    const auto start = std::chrono::steady_clock::now();
    DiffSummary summary = diffSummary(*runs->control.run, *runs->test.run, options);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    KSCOPE_LOG(Cli, Info, "diff-summary computed in " << ms << " ms");
    if (!summary.error.empty()) {
        std::cerr << "error: no summary: " << summary.error << '\n';
        return kExitNoRank;
    }
    const Judgement judgement = judge(summary, args);
    DiffSummary shown = summary;  // the regressions point into `summary`: the top kernels are cut in a copy
    for (RankDiff& r : shown.ranks)
        if (r.kernels.size() > static_cast<size_t>(args.top))
            r.kernels.resize(static_cast<size_t>(args.top));

    // Each run's findings, whole (the rules judge a run as `findings` does), matched by subject.
    const Findings controlFindings = findings(*runs->control.run);
    const Findings testFindings = findings(*runs->test.run);
    const std::vector<FindingDiffRow> findingChanges = diffFindings(controlFindings, testFindings);

    std::vector<std::string> notes = diffLoadNotes(*runs);
    const OutputFormat format = resolvedFormat(invocation);
    int written = kExitOk;
    if (format == OutputFormat::Json) {
        notes.insert(notes.end(), summary.notes.begin(), summary.notes.end());
        written = writeResult(summaryJson(shown, findingChanges, *runs, args, judgement, notes, htaCompat), invocation);
    } else {
        SummaryTables tables =
            summaryTables(shown, findingChanges, *runs, runs->controlLabel, runs->testLabel, htaCompat);
        // The three tables carry the same summary notes (and the same label note): print them once.
        notes.insert(notes.end(), tables.temporal.notes.begin(), tables.temporal.notes.end());
        written = printTables(tables, args, notes, invocation);
    }
    if (written != kExitOk)
        return written;
    reportJudgement(judgement, args);
    if (const int incomplete = diffIncompleteExit(*runs, invocation); incomplete != kExitOk)
        return incomplete;
    return judgement.exceeded.empty() ? kExitOk : kExitRegression;
}

Action setupSummary(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<SummaryArgs>();
    addDiffInputs(app, args->inputs);
    app.add_option("--top", args->top, "kernels per rank, by absolute change of total time")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    app.add_option("--table", args->table,
                   "print one table: temporal, overlap, kernels or findings (default: all four, each after a title "
                   "line; \"# temporal\" etc. in csv)")
        ->check(oneOf({"temporal", "overlap", "kernels", "findings"}))
        ->type_name("NAME");
    CLI::Option* failAbove =
        app.add_option_function<double>(
               "--fail-above", [args](double value) { args->failAbove = value; },
               "exit 5 when any kernel's total time on a rank grew by more than PCT percent "
               "(diff_total_time_pctg; every kernel is judged, not only the top ones), naming them on stderr")
            ->check(numberFrom(0.0, std::numeric_limits<double>::infinity()))
            ->type_name("PCT");
    app.add_option("--fail-min-us", args->failMinUs,
                   "--fail-above ignores kernels whose total time grew by less than US microseconds (noise)")
        ->check(numberFrom(0.0, std::numeric_limits<double>::infinity()))
        ->type_name("US")
        ->capture_default_str()
        ->needs(failAbove);
    return [args, &invocation] { return runSummary(*args, invocation); };
}

const CommandRegistrar kSummaryRegistrar{
    {"diff-summary", "Two runs per rank side by side: temporal breakdown, overlap, top kernel changes, findings",
     "Per rank pair (the same rank numbers, else paired in order): idle, compute, non-compute and kernel\n"
     "(span) time of both runs with diff = test - control, the communication overlapped by computation\n"
     "before and after, and the --top kernels by absolute change of total time (count, total and mean,\n"
     "diff_total_time_pctg = 100 * diff / control total). Runs with different steps are cut to the steps\n"
     "both have. Then the findings (kinetoscope-cli findings) of each whole run that appeared, disappeared,\n"
     "changed severity or stayed, matched by rule (by check and by step for trace problems and slow steps).\n"
     "Last step: left out like in every command (--include-last-step keeps it), also with\n"
     "--hta-compat, as HTA's analyses of one trace trim it.\n"
     "--format json: one object, stable (\"version\": 1; keys never depend on --labels):\n"
     "  kind (\"kinetoscope-diff-summary\"), version, control and test ({label, run, ranks, steps,\n"
     "  incomplete}), compared_steps (empty: whole runs), control_only_steps, test_only_steps,\n"
     "  control_only_ranks, test_only_ranks, top_kernels, temporal, overlap and kernels ({columns, units,\n"
     "  rows}: the tables' columns with the labels control and test, the unit of each column that has\n"
     "  one, each row an object), findings (the same form: change, subject, each side's severity, ranks\n"
     "  and time at stake, title), fail_above (null, or\n"
     "  {pctg, min_delta_us, test_only_kernels, exceeded: [{rank, test_rank, name, control_total_time(us),\n"
     "  test_total_time(us), diff_total_time_pctg}]}) and notes.\n"
     "--fail-above judges kernels only; findings --fail-on gates on findings.\n"
     "--fail-above: kernels only in the test run are not judged (they have no control time; a note counts\n"
     "them). Exit 5 is returned after the result is written, unless exit 3 or 4 applies.\n"
     "--ranks loads only those ranks of both runs; each run's load problems are named with its side.",
     &setupSummary, kTableOutput | kLoadOptions}};

} // namespace

} // namespace kscope::cli
