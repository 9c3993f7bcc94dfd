#pragma once

#include "model/loader.h"
#include "table.h"

#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace kscope::cli {

enum ExitCode : int { kExitOk = 0, kExitUsage = 1, kExitNoRank = 2, kExitSomeRanksFailed = 3 };

// Options every command understands, parsed before the command's own flags.
struct CommonOptions {
    OutputFormat format = OutputFormat::Auto;
    std::string outputFile;
    bool htaCompat = false;
    bool includeLastStep = false;
    bool allowPartial = false;
    std::vector<int> ranks;  // empty = all
    std::string logLevel;
};

// What a command sees: the common options, its positional arguments and its own --flags.
class Arguments {
public:
    CommonOptions common;
    std::vector<std::string> positional;

    // Own flags: "--name value" or "--name=value"; bare "--name" means "true".
    std::optional<std::string> value(const std::string& name) const;
    bool flag(const std::string& name) const;
    double number(const std::string& name, double fallback) const;
    // Flags given but never asked for: reported as usage errors by the dispatcher.
    std::vector<std::string> unusedFlags() const;

    std::map<std::string, std::string> flags;
    mutable std::map<std::string, bool> asked;
};

struct Command {
    std::string name;
    std::string summary;
    std::string usage;  // full --help text after the summary
    std::function<int(const Arguments&)> run;
    // Own flags that take no value (e.g. "gzip"); every other own flag takes one.
    std::vector<std::string> booleanFlags = {};
    // Common option names this command uses with its own meaning (synth's --ranks N).
    std::vector<std::string> ownCommonFlags = {};
};

// Each command file registers itself: static CommandRegistrar reg{{"name", "summary", "usage", &fn}};
struct CommandRegistrar {
    explicit CommandRegistrar(Command command);
};
const std::map<std::string, Command>& commands();

// Loads RUN_DIR (positional[0]) with the common options, prints errors to stderr.
// Returns the run, or sets exitCode (2: no usable rank) and returns null.
std::shared_ptr<Run> loadRunForCommand(const Arguments& args, int& exitCode);
// Exit code after a successful analysis: 3 when ranks failed and --allow-partial was not given.
int finalExitCode(const Run& run, const Arguments& args);
// Writes the table in the requested format to --output or stdout.
bool emitTable(const Table& table, const Arguments& args);
// emitTable, then the command's exit code: 1 when the output could not be written, else finalExitCode.
int emitRunTable(const Table& table, const Run& run, const Arguments& args);
// What every analysis command does once its options are read: load RUN_DIR with the common
// options, compute the result table (compute: Table(const Run&)), print it, return the exit code.
template <typename Compute>
int runAnalysis(const Arguments& args, Compute compute)
{
    int exitCode = kExitOk;
    const auto run = loadRunForCommand(args, exitCode);
    if (!run)
        return exitCode;
    return emitRunTable(compute(static_cast<const Run&>(*run)), *run, args);
}

// An option's default as its help text shows it ("0.8", "10"), taken from the analysis' own
// options struct so the help cannot drift from what the analysis does.
template <typename Value>
std::string shownDefault(Value value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

// Parses "0,2-5" into ranks; false on syntax error.
bool parseRankList(const std::string& text, std::vector<int>& ranks);

int runCli(int argc, char** argv);

// Extra rows for `bench load` (e.g. analysis timings after load), registered by other command files:
// static const bool reg = (benchExtensions()["analyses"] = &fn, true);
using BenchExtension = std::vector<std::vector<Cell>> (*)(const Run& run, const Arguments& args);
std::map<std::string, BenchExtension>& benchExtensions();

} // namespace kscope::cli
