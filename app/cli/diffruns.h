#pragma once

// What `diff` and `diff-summary` share: two runs on the command line (CONTROL_RUN TEST_RUN,
// --labels), both loaded with the common options, each run's load problems told apart
// ("control run: ..."), and the exit code of an incomplete comparison.

#include "command.h"

#include <string>
#include <vector>

namespace kscope::cli {

struct DiffInputs {
    std::string control;
    std::string test;
    std::string labels;  // "A,B"; empty: the runs' folder names
};

// The two positionals and --labels.
void addDiffInputs(CLI::App& app, DiffInputs& inputs);

struct DiffRuns {
    LoadedRun control;
    LoadedRun test;
    std::string controlLabel;
    std::string testLabel;
    double loadSeconds = 0.0;
};

// Loads both runs (the control run first) with the common options; `invocation` as the
// command's options left it (e.g. includeLastStep forced for HTA's diff). Null with exitCode 2
// when a run has no usable rank (reported, naming the run).
std::optional<DiffRuns> loadDiffRuns(const DiffInputs& inputs, const Invocation& invocation, int& exitCode);

// The label of a run given on the command line: its folder's name ("run" for /data/run/), a
// trace file's name without .json / .json.gz.
std::string runLabel(const std::string& input);

// Both runs' load outcome as notes, each naming its run: partial ranks, files that gave no rank,
// skipped *.json, ranks asked for with --ranks that a run lacks.
std::vector<std::string> diffLoadNotes(const DiffRuns& runs);

// "partial" (the control rank's) and "test_partial" columns on a table with "rank" and
// "test_rank" columns: always in the default mode, in HTA's mode only when a rank is partial.
Table withPartialColumns(Table table, const DiffRuns& runs, bool htaCompat);

// After the result was written: kExitOk, or kExitIncomplete (reported, naming the run) when a
// run had failed or partial files or lacked asked-for ranks, unless --allow-partial.
int diffIncompleteExit(const DiffRuns& runs, const Invocation& invocation);

// Rank and step numbers as "0-3" / "5, 9" for messages.
std::string numberList(const std::vector<int>& values);

} // namespace kscope::cli
