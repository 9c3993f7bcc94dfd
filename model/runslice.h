#pragma once

#include "trace.h"

#include <memory>

namespace kscope {

// The part of a run that belongs to one ProfilerStep: on every rank the events whose step is
// `step` (CPU work by containment, GPU work through its launch), with links and parents
// remapped. Analyses run on it unchanged, which is how the GUI's step selector narrows every
// panel to one iteration. Ranks without that step keep their place with no events.
std::shared_ptr<Run> sliceRunToStep(const Run& run, int step);

} // namespace kscope
