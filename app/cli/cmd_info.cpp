// kinetoscope-cli info: one row per rank with what was loaded and what went wrong.

#include "command.h"

#include "analysis/core/importissues.h"
#include "analysis/tables/resulttables.h"
#include "analysis/core/runsummary.h"

namespace kscope::cli {

namespace {

// "3-7 (5)": the first and last step numbers and how many distinct steps there are.
std::string stepRange(const std::vector<int>& steps)
{
    if (steps.empty())
        return {};
    return std::to_string(steps.front()) + (steps.size() > 1 ? "-" + std::to_string(steps.back()) : "") + " ("
        + std::to_string(steps.size()) + ")";
}

// The issues of one rank's file in a few words each, "; "-separated.
std::string issuesOf(const std::vector<ImportIssueRow>& issues, const std::filesystem::path& file)
{
    std::string text;
    for (const ImportIssueRow& issue : issues) {
        if (issue.file != file)
            continue;
        std::string words;
        switch (issue.level) {
        case ImportIssueLevel::Error:
        case ImportIssueLevel::Partial:
            words = issue.kind + " at byte " + std::to_string(issue.byteOffset)
                + (issue.inflatedOffset ? " of the inflated stream" : "");
            break;
        case ImportIssueLevel::BadEvents: words = std::to_string(issue.count) + " " + issue.kind; break;
        case ImportIssueLevel::Warning: words = issue.message; break;
        case ImportIssueLevel::Skipped: continue;
        }
        text += (text.empty() ? "" : "; ") + words;
    }
    return text;
}

Table infoTable(const Run& run)
{
    const RunSummary summary = summarizeRun(run);
    const std::vector<ImportIssueRow> issues = importIssueRows(run);
    Table table;
    table.columns = {"rank", "file", "events", "gpu_kernels", "memcpy", "memset", "cpu_ops", "runtime_calls",
                     "streams", "device_name", "device_type", "first_ts_ns", "last_ts_ns", micros("start (us)"), micros("span (us)"),
                     "steps", "import_issues"};
    auto count = [](uint64_t n) { return Cell{static_cast<int64_t>(n)}; };
    for (const RankSummary& r : summary.perRank) {
        const bool timed = r.hasTimedEvents;
        table.addRow({int64_t{r.rank}, r.file.filename().string(), count(r.events), count(r.gpuKernels),
                      count(r.memcpy), count(r.memset), count(r.cpuOps), count(r.runtimeCalls),
                      int64_t{r.streams}, r.deviceName, std::string(toString(r.deviceType)),
                      timed ? Cell{r.firstNs} : Cell{}, timed ? Cell{r.lastNs} : Cell{},
                      timed ? Cell{static_cast<double>(r.firstNs - run.minTsNs) / 1000.0} : Cell{},
                      timed ? Cell{static_cast<double>(r.lastNs - r.firstNs) / 1000.0} : Cell{}, stepRange(r.steps),
                      issuesOf(issues, r.file)});
    }
    // first_ts_ns is a rank's own first event; every µs column of every command counts from the
    // run's (ranks left out with --ranks included, after HTA's rounding in its mode).
    if (!summary.perRank.empty())
        table.notes.push_back("times in us, here (start) and in every command, count from the run's earliest event at " +
                              std::to_string(run.minTsNs) + " ns");
    // Failed files and skipped *.json are notes of every command (withLoadOutcome); info also
    // lists the other files it skipped.
    for (const SkippedFile& skipped : run.skippedFiles) {
        const std::string name = skipped.file.filename().string();
        if (!name.ends_with(".json") && !name.ends_with(".json.gz"))
            table.notes.push_back("skipped " + name + ": " + skipped.reason);
    }
    return table;
}

Action setupInfo(CLI::App&, const Invocation& invocation)
{
    return [&invocation] {
        const TableStyle style{.dropFirst = {"first_ts_ns", "last_ts_ns", "start (us)", "device_type", "runtime_calls", "cpu_ops",
                                             "memset", "memcpy", "file", "events", "device_name", "span (us)",
                                             "steps", "gpu_kernels", "streams"}};
        return runAnalysis(invocation, infoTable, style);
    };
}

const CommandRegistrar kRegistrar{
    {"info", "One row per rank: events, kernels, streams, device, span, steps, import issues",
     "gpu_kernels counts kernel events; streams are those with GPU activity (a cpu_op carrying\n"
     "args.stream is not GPU activity unless --hta-compat). Import issues: errors with their byte\n"
     "offset (in the inflated stream of a .gz), bad events counted per kind, warnings.",
     &setupInfo}};

} // namespace

} // namespace kscope::cli
