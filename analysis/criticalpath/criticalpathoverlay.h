#pragma once

// The rank's trace with its critical path overlaid (HTA's overlay_critical_path_analysis):
// args.critical = 1 on every event with a node on the path, and a flow (ph s/f, cat
// "critical_path", args weight / critical / type) per path edge of the dependency, kernel launch
// and sync kinds (every edge with showAllEdges). Written to
// <dir>/overlaid_critical_path_<file>, compressed like the input; Perfetto, chrome://tracing and
// our own loader read it.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model/ids.h"

namespace kscope {

struct Run;
struct RankTrace;
struct CriticalPath;

struct CriticalPathOverlayOptions {
    bool onlyCriticalEvents = false;  // keep only the path's events (and user annotations, python functions)
    bool showAllEdges = false;        // a flow per edge of the graph (forced off by onlyCriticalEvents)
};

struct CriticalPathOverlay {
    std::filesystem::path output;
    int64_t eventsMarked = 0;
    int64_t flows = 0;  // flow pairs written
    std::string error;
};

CriticalPathOverlay writeCriticalPathOverlay(const Run& run, const CriticalPath& path, const std::filesystem::path& dir,
                                             const CriticalPathOverlayOptions& options = {});

} // namespace kscope
