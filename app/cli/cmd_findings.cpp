// kinetoscope-cli findings RUN: what is wrong with the run and what to do about it, each finding
// with its severity, evidence and suggestion; --format json as one stable object, --fail-on for CI.

#include "command.h"

#include "analysis/findings/findings.h"
#include "analysis/tables/findingstable.h"
#include "analysis/tables/resulttables.h"
#include "model/jsonwrite.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace kscope::cli {

namespace {

constexpr int kJsonVersion = 1;

struct FindingsArgs {
    std::string failOn;  // empty: never fail
};

void jsonInts(std::ostream& out, const std::vector<int>& values)
{
    out << '[';
    for (size_t i = 0; i < values.size(); ++i)
        out << (i ? ", " : "") << values[i];
    out << ']';
}

// `text` in lines of at most `width` characters (0: one line), each after `indent`; words longer
// than a line stay whole.
std::string wrapped(const std::string& text, size_t width, const std::string& indent)
{
    std::string out, line;
    const size_t room = width > indent.size() + 20 ? width - indent.size() : 0;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(start, end - start);
        if (room && !line.empty() && line.size() + 1 + word.size() > room) {
            out += indent + line + '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        start = end + 1;
    }
    if (!line.empty())
        out += indent + line + '\n';
    return out;
}

std::string plural(size_t count, const char* one, const char* many)
{
    return std::to_string(count) + ' ' + (count == 1 ? one : many);
}

// The terminal's form: one paragraph per finding (the title, the evidence in words, what to do,
// its id, time at stake and view), wrapped to the width; a table would cut the sentences.
std::string findingsText(const Findings& result, size_t width)
{
    size_t counts[3] = {};
    for (const Finding& f : result.findings)
        ++counts[static_cast<int>(f.severity)];
    std::string out = wrapped(plural(result.findings.size(), "finding", "findings") + " on "
                                  + plural(static_cast<size_t>(result.ranks), "rank", "ranks") + ": "
                                  + std::to_string(counts[2]) + " critical, " + plural(counts[1], "warning", "warnings")
                                  + ", " + std::to_string(counts[0])
                                  + " info (trace problems first, then the most time at stake)",
                              width, "");
    const std::string indent(10, ' ');
    for (const Finding& f : result.findings) {
        std::string severity = toString(f.severity);
        severity.resize(indent.size(), ' ');
        const std::string title = wrapped(f.title, width, indent);
        out += '\n' + severity + title.substr(indent.size());
        out += wrapped(f.detail, width, indent);
        out += wrapped("What to do: " + f.suggestion, width, indent);
        char stake[64];
        std::snprintf(stake, sizeof stake, "%.2f ms", f.timeAtStakeUs / 1000.0);
        out += wrapped(f.id + " | " + stake + " at stake | shown by: kinetoscope-cli " + f.command + " (the " + f.view + " view)", width, indent);
    }
    return out;
}

// The schema (README "Findings"): kind, version, ranks, findings (each with its evidence, where
// the timeline shows it and the selection that opens it), notes.
std::string findingsJson(const Findings& result, const std::vector<std::string>& notes, int64_t runStartNs)
{
    std::ostringstream out;
    out << "{\"kind\": \"kinetoscope-findings\", \"version\": " << kJsonVersion << ", \"ranks\": " << result.ranks
        << ",\n \"findings\": [";
    for (size_t i = 0; i < result.findings.size(); ++i) {
        const Finding& f = result.findings[i];
        out << (i ? ",\n  " : "\n  ") << "{\"id\": " << jsonString(f.id) << ", \"rule\": " << jsonString(f.rule)
            << ", \"severity\": \"" << toString(f.severity) << "\", \"trace_problem\": "
            << (f.traceProblem ? "true" : "false") << ",\n   \"title\": " << jsonString(f.title)
            << ",\n   \"detail\": " << jsonString(f.detail) << ",\n   \"suggestion\": " << jsonString(f.suggestion)
            << ",\n   \"time_at_stake_us\": " << formatCell(f.timeAtStakeUs) << ", \"ranks\": ";
        jsonInts(out, f.ranks);
        out << ", \"steps\": ";
        jsonInts(out, f.steps);
        out << ",\n   \"evidence\": [";
        for (size_t e = 0; e < f.evidence.size(); ++e) {
            const FindingEvidence& ev = f.evidence[e];
            out << (e ? ", " : "") << "{\"name\": " << jsonString(ev.name) << ", \"value\": " << formatCell(ev.value)
                << ", \"unit\": " << jsonString(ev.unit) << ", \"source\": " << jsonString(ev.source);
            if (ev.rank >= 0)
                out << ", \"rank\": " << ev.rank;
            out << '}';
        }
        // Where the timeline shows it, us since the run's first event (the timeline's clock).
        out << "],\n   \"time_range_us\": ";
        if (f.windowEndNs > f.windowStartNs)
            out << '[' << formatCell(double(f.windowStartNs - runStartNs) / 1000.0) << ", "
                << formatCell(double(f.windowEndNs - runStartNs) / 1000.0) << ']';
        else
            out << "null";
        out << ", \"view\": " << jsonString(f.view) << ", \"command\": " << jsonString(f.command)
            << ", \"selection\": {\"rank\": ";
        if (f.ranks.size() == 1)
            out << f.ranks.front();
        else
            out << "null";
        out << ", \"ranks\": ";
        jsonInts(out, f.ranks);
        out << ", \"step\": ";
        if (f.steps.size() == 1)
            out << f.steps.front();
        else
            out << "null";
        out << "}}";
    }
    out << "],\n \"notes\": [";
    for (size_t n = 0; n < notes.size(); ++n)
        out << (n ? ",\n  " : "\n  ") << jsonString(notes[n]);
    out << "]}\n";
    return out.str();
}

int runFindings(const FindingsArgs& args, const Invocation& invocation)
{
    FindingSeverity failOn = FindingSeverity::Info;
    const bool gate = !args.failOn.empty();
    if (gate && !parseFindingSeverity(args.failOn, failOn)) {
        std::cerr << "error: --fail-on: expects info, warning or critical, got '" << args.failOn << "'\n"
                  << "Run 'kinetoscope-cli findings --help' for its options.\n";
        return kExitUsage;
    }
    int exitCode = kExitOk;
    const auto loaded = loadRunForCommand(invocation, exitCode);
    if (!loaded)
        return exitCode;
    const Run& run = *loaded->run;
    const Findings result = findings(run);
    int written = kExitOk;
    if (resolvedFormat(invocation) == OutputFormat::Json) {
        std::vector<std::string> notes = loaded->notes;
        for (const std::string& note : withLoadOutcome(Table{}, run).notes)
            notes.push_back(note);
        notes.insert(notes.end(), result.notes.begin(), result.notes.end());
        if (!result.error.empty())
            notes.push_back("no result: " + result.error);
        written = writeResult(findingsJson(result, notes, run.minTsNs), invocation);
        if (written == kExitOk)
            written = incompleteExit(*loaded, invocation);
    } else if (resolvedFormat(invocation) == OutputFormat::Table) {
        const Table notes = withLoadOutcome(withNotes(Table{}, result), run);
        std::vector<std::string> all = loaded->notes;
        all.insert(all.end(), notes.notes.begin(), notes.notes.end());
        written = writeResult(findingsText(result, tableWidth(invocation)), invocation);
        printNotes(all, {}, invocation);
        if (written == kExitOk)
            written = incompleteExit(*loaded, invocation);
    } else {
        written = emitRunTable(findingsTable(result), *loaded, invocation, {});
    }
    if (written != kExitOk)
        return written;
    if (gate && anyAtLeast(result, failOn)) {
        size_t count = 0;
        for (const Finding& f : result.findings)
            count += f.severity >= failOn;
        std::cerr << "error: --fail-on " << args.failOn << ": " << count << (count == 1 ? " finding" : " findings")
                  << " at " << args.failOn << " or above\n";
        return kExitFindings;
    }
    return kExitOk;
}

Action setupFindings(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<FindingsArgs>();
    app.add_option("--fail-on", args->failOn,
                   "exit 6 when a finding is at least this severe: info, warning or critical (for CI)");
    return [args, &invocation] { return runFindings(*args, invocation); };
}

const CommandRegistrar kRegistrar{
    {"findings", "What slows the run down and what to do about it: findings with evidence and a suggestion",
     "Each rule reads the analyses' own results (temporal, idle, overlap, queue, launch-stats, steps,\n"
     "collectives, health) and fires above a threshold (README \"Findings\" lists them and why).\n"
     "Trace problems come first, then the findings by the time at stake, most first.\n"
     "--format json is one stable object (kind \"kinetoscope-findings\", version 1).",
     &setupFindings}};

} // namespace

} // namespace kscope::cli
