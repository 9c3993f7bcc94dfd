// kinetoscope-cli info: one row per rank with what was loaded and what went wrong.

#include "command.h"

#include "analysis/importissues.h"
#include "analysis/runsummary.h"

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
        case ImportIssueLevel::Partial: words = issue.kind + " at byte " + std::to_string(issue.byteOffset); break;
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
                     "streams", "device_name", "device_type", "first_ts_ns", "last_ts_ns", "span_us", "steps",
                     "import_issues"};
    auto count = [](uint64_t n) { return Cell{static_cast<int64_t>(n)}; };
    for (const RankSummary& r : summary.perRank) {
        const bool timed = r.hasTimedEvents;
        table.addRow({int64_t{r.rank}, r.file.filename().string(), count(r.events), count(r.gpuKernels),
                      count(r.memcpy), count(r.memset), count(r.cpuOps), count(r.runtimeCalls),
                      int64_t{r.streams}, r.deviceName, std::string(toString(r.deviceType)),
                      timed ? Cell{r.firstNs} : Cell{}, timed ? Cell{r.lastNs} : Cell{},
                      timed ? Cell{static_cast<double>(r.lastNs - r.firstNs) / 1000.0} : Cell{}, stepRange(r.steps),
                      issuesOf(issues, r.file)});
    }
    // Files that gave no rank have no row: their issues become notes.
    for (const ImportIssueRow& issue : issues) {
        if (issue.level == ImportIssueLevel::Error)
            table.notes.push_back(issue.file.filename().string() + ": " + issue.kind + " at byte "
                                  + std::to_string(issue.byteOffset) + ": " + issue.message);
        else if (issue.level == ImportIssueLevel::Skipped)
            table.notes.push_back("skipped (not a trace file): " + issue.file.filename().string());
    }
    return table;
}

int runInfo(const Arguments& args)
{
    return runAnalysis(args, infoTable);
}

const CommandRegistrar kRegistrar{{"info", "One row per rank: events, kernels, streams, device, span, steps, import issues",
                                   "[options] RUN_DIR", &runInfo}};

} // namespace

} // namespace kscope::cli
