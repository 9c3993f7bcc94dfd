#include "analysis/core/importissues.h"

#include "model/trace.h"

namespace kscope {

const char* toString(ImportIssueLevel level)
{
    switch (level) {
    case ImportIssueLevel::Error: return "error";
    case ImportIssueLevel::Partial: return "partial";
    case ImportIssueLevel::BadEvents: return "bad events";
    case ImportIssueLevel::Warning: return "warning";
    case ImportIssueLevel::Skipped: return "skipped";
    }
    return "error";
}

std::vector<ImportIssueRow> importIssueRows(const Run& run)
{
    std::vector<ImportIssueRow> rows;
    // LoadError does not record how many events were lost after the error (the rest of the file
    // is never parsed), so errors carry no count.
    for (const LoadError& e : run.errors)
        rows.push_back({e.partial ? ImportIssueLevel::Partial : ImportIssueLevel::Error, e.file, e.rank,
                        static_cast<int64_t>(e.byteOffset), toString(e.kind), e.message, -1, e.inflated});
    for (const RankTrace& rank : run.ranks)
        for (const BadEventCounter& c : rank.badEvents) {
            const BadEventSample* first = c.samples.empty() ? nullptr : &c.samples.front();
            rows.push_back({ImportIssueLevel::BadEvents, rank.file, rank.rank,
                            first ? static_cast<int64_t>(first->byteOffset) : -1, toString(c.kind),
                            first ? first->excerpt : std::string(), static_cast<int64_t>(c.count), rank.gzip});
        }
    for (const LoadWarning& w : run.warnings)
        rows.push_back({ImportIssueLevel::Warning, w.file, w.rank, -1, {}, w.message, -1});
    for (const SkippedFile& skipped : run.skippedFiles)
        rows.push_back({ImportIssueLevel::Skipped, skipped.file, -1, -1, {}, skipped.reason, -1});
    return rows;
}

ImportIssueCounts countImportIssues(const Run& run)
{
    ImportIssueCounts counts;
    for (const LoadError& e : run.errors)
        ++(e.partial ? counts.partial : counts.errors);
    for (const RankTrace& rank : run.ranks)
        if (!rank.badEvents.empty())
            ++counts.badEventRanks;
    counts.warnings = static_cast<int>(run.warnings.size());
    counts.skipped = static_cast<int>(run.skippedFiles.size());
    return counts;
}

} // namespace kscope
