#pragma once

// kinetoscope-cli's commands: one file per command, each registering itself with its own options
// (CLI11, bound to the analysis' options struct so --help shows the analysis' defaults). The
// options every command shares are declared once, in addCommonOptions (options.cpp).

#include "model/loader.h"
#include "table.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Validator;
} // namespace CLI

namespace kscope::cli {

enum ExitCode : int {
    kExitOk = 0,
    kExitUsage = 1,            // a bad command line: nothing was run, nothing on stdout
    kExitNoRank = 2,           // nothing usable to analyse (or synth could not write its run)
    kExitIncomplete = 3,       // ranks failed, were cut short or were asked for and missing
    kExitOutputFailed = 4,     // the result could not be written (--output or stdout)
    kExitRegression = 5,       // diff-summary --fail-above: a kernel's total time grew past the limit
    kExitFindings = 6,         // findings --fail-on: a finding at least that severe
};

// Options every command that loads a run understands (see addCommonOptions).
struct CommonOptions {
    OutputFormat format = OutputFormat::Auto;
    std::string outputFile;
    int width = -1;  // table format: -1 = the terminal's width, 0 = no limit
    bool fullNames = false;
    bool htaCompat = false;
    bool includeLastStep = false;
    bool allowPartial = false;
    RankSet ranks;  // empty = all
    int step = -1;  // --step N: only ProfilerStep N (model/runslice.h); -1 = the whole run
    int64_t maxUncompressedMb = 0;  // 0 = LoadOptions' default (twice the physical memory)
    std::string logLevel;
};

// One command line once parsed: the command, the common options, the run given.
struct Invocation {
    std::string command;
    CommonOptions common;
    std::vector<std::string> inputs;  // RUN: one folder, or one or more trace files
};

// Which common options a command takes.
enum CommonSet : unsigned {
    kRunInput = 1,     // RUN... positional
    kTableOutput = 2,  // --format, --output, --width, --full-names
    kLoadOptions = 4,  // --hta-compat, --include-last-step, --allow-partial, --ranks
    kStep = 8,         // --step N (loadRunForCommand slices the run to that ProfilerStep)
    kAnalysis = kRunInput | kTableOutput | kLoadOptions | kStep,
};

using Action = std::function<int()>;

struct Command {
    std::string name;
    std::string summary;
    std::string details;  // help text after the options
    // Adds the command's own options to its app, bound to values the returned action reads;
    // runs before the common options are added, so its positionals come first.
    std::function<Action(CLI::App& app, const Invocation& invocation)> setup;
    unsigned common = kAnalysis;
};

// Each command file registers itself: static const CommandRegistrar reg{{...}};
struct CommandRegistrar {
    explicit CommandRegistrar(Command command);
};
const std::map<std::string, Command>& commands();

// The one place the common options are declared and checked.
void addCommonOptions(CLI::App& app, Invocation& invocation, unsigned which);

// Validators with messages that name the option and what it takes.
CLI::Validator wholeNumber(int64_t lowest, int64_t highest);
CLI::Validator numberFrom(double lowest, double highest);
CLI::Validator oneOf(std::vector<std::string> values);
CLI::Validator intList();  // "7,20"

// "7,20" into numbers; false on a syntax error.
bool parseIntList(const std::string& text, std::vector<int>& values);

// An option's default as --help shows it, from the analysis' own options struct.
std::string shownDefault(double value);

// How the table format fits a command's table: the columns worth least, dropped first.
struct TableStyle {
    std::vector<std::string> dropFirst;
    std::vector<std::string> keep;  // never left out to fit the width (the sort key, the row's name)
};

// A loaded run and what the command line asked for that it lacks.
struct LoadedRun {
    std::shared_ptr<Run> run;
    std::vector<std::string> notes;  // requested ranks not in the run, what trimming left out, ...
    bool ranksMissing = false;       // --ranks asked for ranks the run lacks
    bool incomplete = false;         // failed or partial files, missing ranks: exit 3
};

// Loads the run with the common options. When nothing is usable prints why (what was found,
// skipped and failed, the ranks present) and returns null with exitCode 1 or 2.
// `which` ("control run") prefixes every message, for commands that load more than one run.
std::optional<LoadedRun> loadRunForCommand(const Invocation& invocation, int& exitCode, const std::string& which = {});
// The pieces of emitTable, for commands that print more than one table: the format --format and
// the terminal give; one table rendered (the columns left out to fit --width in `dropped`); text
// written to --output (atomically) or stdout (kExitOk or kExitOutputFailed, reported); the notes
// on stderr ("note: ..."), then what was left out to fit.
OutputFormat resolvedFormat(const Invocation& invocation);
std::string renderTable(const Table& table, OutputFormat format, const Invocation& invocation,
                        const TableStyle& style, std::vector<std::string>* dropped = nullptr);
int writeResult(const std::string& text, const Invocation& invocation);
// The width text for the terminal fits: --width, else the terminal's, else $COLUMNS; 0 = no limit.
size_t tableWidth(const Invocation& invocation);
void printNotes(const std::vector<std::string>& notes, const std::vector<std::string>& dropped,
                const Invocation& invocation);
// Writes the table in the chosen format to --output (atomically) or stdout, its notes to stderr
// (in JSON they are part of the output); kExitOk or kExitOutputFailed.
int emitTable(const Table& table, const Invocation& invocation, const TableStyle& style = {});
// withLoadOutcome + the run's notes, emitTable, then the exit code (3 when incomplete, unless
// --allow-partial).
int emitRunTable(Table table, const LoadedRun& loaded, const Invocation& invocation, const TableStyle& style);
// After a result is written: kExitIncomplete with the reason on stderr when ranks failed, were cut
// short or are missing (unless --allow-partial), else kExitOk.
int incompleteExit(const LoadedRun& loaded, const Invocation& invocation);

// What every analysis command does once its options are read: load RUN with the common
// options, compute the result table (compute: Table(const Run&)), print it, return the exit code.
template <typename Compute>
int runAnalysis(const Invocation& invocation, Compute compute, const TableStyle& style = {})
{
    int exitCode = kExitOk;
    const auto loaded = loadRunForCommand(invocation, exitCode);
    if (!loaded)
        return exitCode;
    return emitRunTable(compute(static_cast<const Run&>(*loaded->run)), *loaded, invocation, style);
}

LoadOptions loadOptionsFor(const Invocation& invocation);
// A command's --rank R (HTA's rank=R argument): the invocation with --ranks R; rank < 0 = as given.
Invocation withRank(const Invocation& invocation, int rank);

int runCli(int argc, char** argv);

// Extra rows for `bench load` (e.g. analysis timings after load), registered by other command files:
// static const bool reg = (benchExtensions()["analyses"] = &fn, true);
using BenchExtension = std::vector<std::vector<Cell>> (*)(const Run& run, const Invocation& invocation);
std::map<std::string, BenchExtension>& benchExtensions();

} // namespace kscope::cli
