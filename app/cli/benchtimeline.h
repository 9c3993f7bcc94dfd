#pragma once

// `kinetoscope-cli bench timeline RUN`: the timeline index's build time and size, what a frame's
// queries cost at full zoom-out, at one step and at 100 µs windows, and, in a build with the GUI,
// whole frames drawn by the Timeline view's widget offscreen.

#include "analysis/resulttable.h"
#include "analysis/timeline/timelineindex.h"
#include "model/trace.h"

#include <memory>
#include <vector>

namespace kscope::cli {

std::vector<std::vector<Cell>> timelineBenchRows(const Run& run);

// The frames drawn (GUI builds register it; without the GUI the rows are the queries alone).
using TimelineFrameBench = std::vector<std::vector<Cell>> (*)(std::shared_ptr<const Run> run,
                                                              std::shared_ptr<const TimelineIndex> index);
TimelineFrameBench& timelineFrameBench();

} // namespace kscope::cli
