#pragma once

// `kinetoscope-cli bench timeline RUN`: the timeline index's build time and size, and what a frame's
// queries cost at full zoom-out, at one step and at 100 µs windows (the view's drawing comes on top).

#include "analysis/resulttable.h"
#include "model/trace.h"

#include <vector>

namespace kscope::cli {

std::vector<std::vector<Cell>> timelineBenchRows(const Run& run);

} // namespace kscope::cli
