// Two runs on one command line: see diffruns.h.

#include "diffruns.h"

#include "analysis/tables/resulttables.h"
#include "model/log.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

namespace kscope::cli {

namespace fs = std::filesystem;

namespace {

// "A,B" into two non-empty labels.
bool splitLabels(const std::string& text, std::string& control, std::string& test)
{
    const size_t comma = text.find(',');
    if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos)
        return false;
    control = text.substr(0, comma);
    test = text.substr(comma + 1);
    return !control.empty() && !test.empty();
}

RankSet partialRanks(const Run& run)
{
    RankSet partial;
    for (const LoadError& e : run.errors)
        if (e.partial && e.rank >= 0)
            partial.insert(e.rank);
    return partial;
}

// "2 files failed to load, 1 rank is partial, asked-for ranks are missing"; empty when complete.
std::string incompleteness(const LoadedRun& loaded)
{
    int failed = 0, partial = 0;
    for (const LoadError& e : loaded.run->errors)
        if (e.kind != LoadErrorKind::Cancelled)
            ++(e.partial ? partial : failed);
    std::string text;
    auto add = [&text](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
    if (failed)
        add(std::to_string(failed) + (failed == 1 ? " file failed to load" : " files failed to load"));
    if (partial)
        add(std::to_string(partial) + (partial == 1 ? " rank is partial" : " ranks are partial"));
    if (loaded.ranksMissing)
        add("asked-for ranks are missing");
    return text;
}

} // namespace

void addDiffInputs(CLI::App& app, DiffInputs& inputs)
{
    app.add_option("CONTROL_RUN", inputs.control,
                   "the baseline run: one folder of traces (one *.json or *.json.gz per rank) or one trace file")
        ->required()
        ->type_name("");
    app.add_option("TEST_RUN", inputs.test, "the run compared with it (diff = test - control)")
        ->required()
        ->type_name("");
    app.add_option("--labels", inputs.labels,
                   "the two runs' labels in column names, e.g. before,after (default: the runs' folder names; "
                   "equal labels: the test label becomes <label>_control_test, as HTA renames it)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                std::string a, b;
                return splitLabels(text, a, b)
                    ? std::string()
                    : "expects two non-empty labels separated by one comma, like before,after, got '" + text + "'";
            },
            ""))
        ->type_name("A,B");
}

std::string runLabel(const std::string& input)
{
    fs::path path = fs::path(input).lexically_normal();
    if (path.filename().empty())  // "run/" normalises to "run/"
        path = path.parent_path();
    if (path.empty() || path == "." || path == "..") {
        std::error_code ec;
        const fs::path absolute = fs::weakly_canonical(fs::absolute(path.empty() ? fs::path(".") : path), ec);
        if (!ec && !absolute.filename().empty())
            path = absolute;
    }
    std::string name = path.filename().string();
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        for (const char* suffix : {".json.gz", ".json"})
            if (name.size() > std::string(suffix).size() && name.ends_with(suffix)) {
                name.resize(name.size() - std::string(suffix).size());
                break;
            }
    }
    return name.empty() ? input : name;
}

std::optional<DiffRuns> loadDiffRuns(const DiffInputs& inputs, const Invocation& invocation, int& exitCode)
{
    DiffRuns runs;
    if (inputs.labels.empty()) {
        runs.controlLabel = runLabel(inputs.control);
        runs.testLabel = runLabel(inputs.test);
    } else {
        splitLabels(inputs.labels, runs.controlLabel, runs.testLabel);
    }
    const auto start = std::chrono::steady_clock::now();
    for (const bool isControl : {true, false}) {
        Invocation one = invocation;
        one.inputs = {isControl ? inputs.control : inputs.test};
        auto loaded = loadRunForCommand(one, exitCode, isControl ? "control run" : "test run");
        if (!loaded)
            return std::nullopt;
        (isControl ? runs.control : runs.test) = std::move(*loaded);
    }
    runs.loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    KSCOPE_LOG(Cli, Info, "both runs loaded in " << runs.loadSeconds << " s");
    exitCode = kExitOk;
    return runs;
}

std::vector<std::string> diffLoadNotes(const DiffRuns& runs)
{
    std::vector<std::string> notes;
    for (const LoadedRun* loaded : {&runs.control, &runs.test}) {
        const std::string side = loaded == &runs.control ? "control run: " : "test run: ";
        for (const std::string& note : loadOutcomeNotes(*loaded->run))
            notes.push_back(side + note);
        notes.insert(notes.end(), loaded->notes.begin(), loaded->notes.end());  // prefixed when loaded
    }
    return notes;
}

Table withPartialColumns(Table table, const DiffRuns& runs, bool htaCompat)
{
    const RankSet control = partialRanks(*runs.control.run);
    const RankSet test = partialRanks(*runs.test.run);
    if (htaCompat && control.empty() && test.empty())
        return table;
    const auto at = [&table](const char* name) {
        const auto it = std::find(table.columns.begin(), table.columns.end(), name);
        return it == table.columns.end() ? table.columns.size() : static_cast<size_t>(it - table.columns.begin());
    };
    const size_t controlColumn = at("rank");
    const size_t testColumn = at("test_rank");
    table.columns.push_back("partial");
    table.columns.push_back("test_partial");
    auto isIn = [](const std::vector<Cell>& row, size_t column, const RankSet& ranks) -> int64_t {
        const auto* rank = column < row.size() ? std::get_if<int64_t>(&row[column]) : nullptr;
        return rank && ranks.contains(static_cast<int>(*rank));
    };
    for (std::vector<Cell>& row : table.rows) {
        const int64_t c = isIn(row, controlColumn, control);
        const int64_t t = isIn(row, testColumn, test);
        row.resize(table.columns.size() - 2);
        row.emplace_back(c);
        row.emplace_back(t);
    }
    return table;
}

int diffIncompleteExit(const DiffRuns& runs, const Invocation& invocation)
{
    if (invocation.common.allowPartial || (!runs.control.incomplete && !runs.test.incomplete))
        return kExitOk;
    std::string what;
    for (const LoadedRun* loaded : {&runs.control, &runs.test}) {
        if (!loaded->incomplete)
            continue;
        what += (what.empty() ? "" : "; ") + std::string(loaded == &runs.control ? "control run: " : "test run: ")
            + incompleteness(*loaded);
    }
    std::cerr << "error: incomplete result: " << what << " (see the notes); exit " << static_cast<int>(kExitIncomplete)
              << ", 0 with --allow-partial\n";
    return kExitIncomplete;
}

std::string numberList(const std::vector<int>& values)
{
    RankSet set;
    for (int v : values)
        set.insert(v);
    return set.toString(12);
}

} // namespace kscope::cli
