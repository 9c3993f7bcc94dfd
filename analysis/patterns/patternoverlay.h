#pragma once

// The trace with frequent kernel patterns overlaid (HTA's _overlay_frequent_patterns_with_trace):
// a copy of each rank's trace file in which every event of a top pattern's occurrences (the
// operator, the CPU events beneath it, its GPU work) carries args.Patterns = {pattern: count},
// so searching "Patterns" in Perfetto or chrome://tracing highlights them. Events are matched to
// the file by thread, name, start and duration; everything else is copied byte for byte (HTA
// also strips the args and names of every other event, compress_other_kernels: we do not).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

struct Run;
struct KernelPatterns;

struct PatternOverlayFile {
    int rank = -1;
    std::filesystem::path input;
    std::filesystem::path output;  // <dir>/overlaid_<input's file name>, compressed like the input
    int64_t eventsMarked = 0;
    std::string error;  // empty when written
};

struct PatternOverlay {
    std::vector<PatternOverlayFile> files;  // one per rank with a top pattern
    std::string error;
    std::vector<std::string> notes;
};

PatternOverlay writePatternOverlays(const Run& run, const KernelPatterns& patterns, const std::filesystem::path& dir);

} // namespace kscope
