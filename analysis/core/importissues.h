#pragma once

// The import issues of a run (load errors, bad events, warnings, skipped files) flattened into
// rows once: the CLI's `info`, the import-issues table and the GUI's Import issues panel all
// read these rows, so they list the same issues in the same order.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

struct Run;

enum class ImportIssueLevel { Error, Partial, BadEvents, Warning, Skipped };
const char* toString(ImportIssueLevel level);  // "error", "partial", "bad events", "warning", "skipped"

struct ImportIssueRow {
    ImportIssueLevel level = ImportIssueLevel::Error;
    std::filesystem::path file;
    int rank = -1;              // -1 when the file never got a rank
    int64_t byteOffset = -1;    // in the uncompressed JSON; -1 = not known
    std::string kind;           // LoadErrorKind or BadEventKind as text; empty for warnings and skipped files
    std::string message;        // the error's reason, the first bad event's excerpt, the warning
    int64_t count = -1;         // bad events counted, or events skipped; -1 = none
    bool inflatedOffset = false;  // byteOffset is in the inflated stream of a gzip file
};

// Rows in this order: load errors (partial ones as Partial), bad-event counters per rank,
// warnings, skipped files.
std::vector<ImportIssueRow> importIssueRows(const Run& run);

struct ImportIssueCounts {
    int errors = 0;         // files that could not be used at all
    int partial = 0;        // files read only up to an error
    int badEventRanks = 0;  // ranks with at least one bad event
    int warnings = 0;
    int skipped = 0;        // files in the folder that are not traces
};

ImportIssueCounts countImportIssues(const Run& run);

} // namespace kscope
