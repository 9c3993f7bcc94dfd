#pragma once

// The timeline's search: every drawn event (every row of the timeline index) whose name matches a
// regular expression, in time order, so "next" and "previous" step through them.

#include "model/trace.h"

#include <string>
#include <vector>

namespace kscope {

struct TimelineSearchOptions {
    std::string nameRegex;  // ECMAScript, searched in the name (not anchored)
};

struct TimelineSearch {
    std::vector<EventRef> matches;  // rows of the searched run's tables, by start, then rank
    std::string error;              // a bad regular expression
};

TimelineSearch searchTimeline(const Run& run, const TimelineSearchOptions& options);

} // namespace kscope
