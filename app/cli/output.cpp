// Loading RUN for a command and writing its result: what every analysis command shares after its
// options are parsed.

#include "command.h"

#include "analysis/tables/resulttables.h"
#include "model/atomicfile.h"
#include "model/log.h"
#include "model/runslice.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <sys/ioctl.h>
#include <unistd.h>

namespace kscope::cli {

namespace fs = std::filesystem;

namespace {

// Every file the runs loaded by this process came from: no result is written over one of them.
std::vector<fs::path>& filesRead()
{
    static std::vector<fs::path> files;
    return files;
}

bool isTraceName(const std::string& name)
{
    return name.ends_with(".json") || name.ends_with(".json.gz");
}

// "config.json (JSON, but not a trace: ...), notes.txt": at most `limit` files.
std::string listSkipped(const std::vector<SkippedFile>& skipped, bool traceNames, size_t limit = 8)
{
    std::string text;
    size_t listed = 0, total = 0;
    for (const SkippedFile& s : skipped) {
        if (isTraceName(s.file.filename().string()) != traceNames)
            continue;
        if (++total > limit)
            continue;
        text += (listed++ ? ", " : "") + s.file.filename().string();
        if (traceNames)
            text += " (" + s.reason + ")";
    }
    if (total > limit)
        text += ", ... (" + std::to_string(total) + " in all)";
    return text;
}

// Why a run gave no rank, on stderr: its errors, then one line that says what was found.
void reportNoUsableRank(const Run& run, const Invocation& invocation, const RankSet& present, const std::string& prefix)
{
    for (const LoadError& e : run.errors)
        std::cerr << "error: " << prefix << describe(e) << '\n';
    const bool discoveryFailed =
        run.errors.size() == 1 && run.errors[0].rank < 0 && run.errors[0].kind == LoadErrorKind::Unreadable
        && run.errors[0].byteOffset == 0 && !fs::is_regular_file(run.errors[0].file);
    if (discoveryFailed)
        return;
    const std::string where = run.folder.string();
    if (!invocation.common.ranks.empty() && !present.empty()) {
        std::cerr << "error: " << prefix << "no usable rank: --ranks " << invocation.common.ranks.toString(8)
                  << " matches none of the ranks of " << where << " (" << present.toString(8) << ")\n";
        return;
    }
    std::string found;
    const std::string notTraces = listSkipped(run.skippedFiles, true);
    const std::string others = listSkipped(run.skippedFiles, false);
    if (run.errors.empty() && notTraces.empty())
        found = "it holds no trace file (*.json, *.json.gz)";
    else if (!run.errors.empty())
        found = std::to_string(run.errors.size()) + (run.errors.size() == 1 ? " trace file" : " trace files")
            + " failed to load (above)";
    if (!notTraces.empty())
        found += (found.empty() ? "" : "; ") + std::string("skipped as no trace: ") + notTraces;
    if (!others.empty())
        found += (found.empty() ? "" : "; ") + std::string("skipped, not trace file names: ") + others;
    std::cerr << "error: " << prefix << "no usable rank in " << where << ": " << found << '\n';
}

std::string joined(const std::vector<std::string>& items)
{
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

// --step N: the run cut to that ProfilerStep, as the GUI's step selector cuts it. False (with
// the run's steps on stderr) when no rank has it.
bool sliceToStep(LoadedRun& loaded, int step, const std::string& prefix)
{
    std::vector<int> steps;
    std::vector<int> without;
    for (const RankTrace& r : loaded.run->ranks) {
        bool has = false;
        for (const ProfilerStep& s : r.steps) {
            steps.push_back(s.number);
            has = has || s.number == step;
        }
        if (!has)
            without.push_back(r.rank);
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    if (!std::binary_search(steps.begin(), steps.end(), step)) {
        std::string list;
        for (size_t k = 0; k < steps.size() && k < 12; ++k)
            list += (k ? ", " : "") + std::to_string(steps[k]);
        if (steps.size() > 12)
            list += ", ... (" + std::to_string(steps.size()) + " in all)";
        std::cerr << "error: " << prefix << "--step " << step << ": no rank has ProfilerStep#" << step << " ("
                  << (steps.empty() ? std::string("the run has no ProfilerStep left after trimming the last one")
                                    : "its steps: " + list)
                  << ")\n";
        return false;
    }
    if (!without.empty()) {
        RankSet lacking;
        for (int r : without)
            lacking.insert(r);
        loaded.notes.push_back(prefix + "--step " + std::to_string(step) + ": " + (without.size() == 1 ? "rank " : "ranks ")
                               + lacking.toString(8) + " " + (without.size() == 1 ? "has" : "have") + " no ProfilerStep#"
                               + std::to_string(step) + " (no events)");
    }
    loaded.run = sliceRunToStep(*loaded.run, step);
    return true;
}

// What HTA's last-step trimming took away, said once for every command it affects.
std::string trimmingNote(const Run& run)
{
    uint64_t events = 0, gpu = 0, memory = 0;
    RankSet ranks;
    for (const RankTrace& r : run.ranks)
        if (r.eventsTrimmed > 0) {
            events += r.eventsTrimmed;
            gpu += r.gpuEventsTrimmed;
            memory += r.memoryEventsTrimmed;
            ranks.insert(r.rank);
        }
    if (events == 0)
        return {};
    std::string text = "the last ProfilerStep and what follows it are left out, as HTA trims them: " +
                       std::to_string(events) + " events";
    if (gpu > 0 || memory > 0) {
        text += " (";
        if (gpu > 0)
            text += std::to_string(gpu) + " kernels, memcpys and memsets";
        if (memory > 0)
            text += std::string(gpu > 0 ? ", " : "") + std::to_string(memory) + " [memory] events";
        text += ")";
    }
    return text + " on " + (ranks.count() == 1 ? "rank " : "ranks ") + ranks.toString(8) +
           "; --include-last-step keeps them";
}

} // namespace

size_t tableWidth(const Invocation& invocation)
{
    if (invocation.common.width >= 0)
        return static_cast<size_t>(invocation.common.width);
    if (invocation.common.outputFile.empty() && isatty(STDOUT_FILENO)) {
        winsize size{};
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
            return size.ws_col;
    }
    if (const char* columns = std::getenv("COLUMNS"))
        return static_cast<size_t>(std::max(0, std::atoi(columns)));
    return 0;
}

std::optional<LoadedRun> loadRunForCommand(const Invocation& invocation, int& exitCode, const std::string& which)
{
    const std::string prefix = which.empty() ? std::string() : which + ": ";
    std::vector<fs::path> inputs(invocation.inputs.begin(), invocation.inputs.end());
    if (inputs.size() > 1) {
        for (const fs::path& input : inputs) {
            std::error_code ec;
            if (fs::is_directory(input, ec)) {
                std::cerr << "error: " << prefix << inputs.size() << " arguments for RUN and " << input.string()
                          << " is a folder: a run is one folder, or one or more trace files\n"
                          << "Run 'kinetoscope-cli " << invocation.command << " --help' for its options.\n";
                exitCode = kExitUsage;
                return std::nullopt;
            }
        }
    }
    LoadedRun loaded;
    loaded.run = loadRun(inputs, loadOptionsFor(invocation));
    const Run& run = *loaded.run;
    for (fs::path& file : inputFiles(run))
        filesRead().push_back(std::move(file));
    for (const LoadWarning& w : run.warnings)
        KSCOPE_LOG(Cli, Warning, prefix << w.file.string() << ": " << w.message);
    RankSet loadedRanks;
    for (const RankTrace& r : run.ranks)
        loadedRanks.insert(r.rank);
    RankSet present = loadedRanks;
    for (const RankSet::Range& r : run.ranksNotLoaded.ranges())
        present.insert(r.first, r.last);
    if (run.ranks.empty()) {
        reportNoUsableRank(run, invocation, present, prefix);
        exitCode = kExitNoRank;
        return std::nullopt;
    }
    const RankSet missing = invocation.common.ranks.minus(loadedRanks);
    if (!missing.empty())
        loaded.notes.push_back(prefix + (missing.count() == 1 ? "rank " : "ranks ") + missing.toString(8)
                               + " asked for with --ranks " + (missing.count() == 1 ? "is" : "are")
                               + " not in the run, which has ranks " + present.toString(8));
    if (const std::string trimmed = trimmingNote(run); !trimmed.empty())
        loaded.notes.push_back(prefix + trimmed);
    loaded.ranksMissing = !missing.empty();
    bool failed = loaded.ranksMissing;
    for (const LoadError& e : run.errors)
        failed = failed || e.kind != LoadErrorKind::Cancelled;
    loaded.incomplete = failed;
    if (invocation.common.step >= 0 && !sliceToStep(loaded, invocation.common.step, prefix)) {
        exitCode = kExitNoRank;
        return std::nullopt;
    }
    exitCode = kExitOk;
    return loaded;
}

OutputFormat resolvedFormat(const Invocation& invocation)
{
    const CommonOptions& common = invocation.common;
    if (common.format != OutputFormat::Auto)
        return common.format;
    return common.outputFile.empty() && isatty(STDOUT_FILENO) ? OutputFormat::Table : OutputFormat::Csv;
}

std::string renderTable(const Table& table, OutputFormat format, const Invocation& invocation, const TableStyle& style,
                        std::vector<std::string>* dropped)
{
    std::ostringstream text;
    switch (format) {
    case OutputFormat::Json: writeJson(table, text); break;
    case OutputFormat::Table: {
        std::vector<std::string> left = writeAligned(
            table, text,
            {.width = tableWidth(invocation), .fullNames = invocation.common.fullNames, .dropFirst = style.dropFirst,
             .keep = style.keep});
        if (dropped)
            dropped->insert(dropped->end(), left.begin(), left.end());
        break;
    }
    default: writeCsv(table, text); break;
    }
    return text.str();
}

int writeResult(const std::string& text, const Invocation& invocation)
{
    const CommonOptions& common = invocation.common;
    std::string error = common.outputFile.empty() ? std::string() : inputOverwriteError(common.outputFile, filesRead());
    if (error.empty())
        error = common.outputFile.empty() ? writeAll(STDOUT_FILENO, text) : writeFileAtomically(common.outputFile, text);
    if (error.empty())
        return kExitOk;
    std::cerr << "error: cannot write "
              << (common.outputFile.empty() ? std::string("the result to standard output") : common.outputFile) << ": "
              << error << '\n';
    return kExitOutputFailed;
}

void printNotes(const std::vector<std::string>& notes, const std::vector<std::string>& dropped,
                const Invocation& invocation)
{
    for (const std::string& note : notes)
        std::cerr << "note: " << note << '\n';
    if (!dropped.empty())
        std::cerr << "note: left out to fit " << tableWidth(invocation) << " characters: " << joined(dropped)
                  << " (--width 0 or --format csv shows every column)\n";
}

int emitTable(const Table& table, const Invocation& invocation, const TableStyle& style)
{
    const OutputFormat format = resolvedFormat(invocation);
    std::vector<std::string> dropped;
    if (const int written = writeResult(renderTable(table, format, invocation, style, &dropped), invocation);
        written != kExitOk)
        return written;
    printNotes(format == OutputFormat::Json ? std::vector<std::string>{} : table.notes, dropped, invocation);
    return kExitOk;
}

int emitRunTable(Table table, const LoadedRun& loaded, const Invocation& invocation, const TableStyle& style)
{
    const Run& run = *loaded.run;
    table = withLoadOutcome(std::move(table), run);
    table.notes.insert(table.notes.begin(), loaded.notes.begin(), loaded.notes.end());
    if (const int written = emitTable(table, invocation, style); written != kExitOk)
        return written;
    return incompleteExit(loaded, invocation);
}

int incompleteExit(const LoadedRun& loaded, const Invocation& invocation)
{
    const Run& run = *loaded.run;
    if (!loaded.incomplete || invocation.common.allowPartial)
        return kExitOk;
    int failed = 0, partial = 0;
    for (const LoadError& e : run.errors)
        if (e.kind != LoadErrorKind::Cancelled)
            ++(e.partial ? partial : failed);
    std::vector<std::string> what;
    if (failed)
        what.push_back(std::to_string(failed) + (failed == 1 ? " file failed to load" : " files failed to load"));
    if (partial)
        what.push_back(std::to_string(partial) + (partial == 1 ? " rank is partial" : " ranks are partial"));
    if (loaded.ranksMissing)
        what.push_back("asked-for ranks are missing");
    std::cerr << "error: incomplete result: " << joined(what) << " (see the notes); exit "
              << static_cast<int>(kExitIncomplete) << ", 0 with --allow-partial\n";
    return kExitIncomplete;
}

} // namespace kscope::cli
