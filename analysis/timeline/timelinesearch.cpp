#include "analysis/timeline/timelinesearch.h"

#include "analysis/operators/eventquery.h"
#include "analysis/timeline/timelineindex.h"

#include <algorithm>
#include <tuple>

namespace kscope {

TimelineSearch searchTimeline(const Run& run, const TimelineSearchOptions& options)
{
    TimelineSearch result;
    if (options.nameRegex.empty())
        return result;
    EventFilter filter;
    filter.nameRegex = options.nameRegex;
    EventMatcher matcher(run, filter);
    if (!matcher.error().empty()) {
        result.error = matcher.error();
        return result;
    }
    for (const RankTrace& rank : run.ranks) {
        const EventTable& t = rank.events;
        for (size_t i = 0; i < t.size(); ++i)
            if (drawnOnTimeline(t, i) && matcher.matches(t, i))
                result.matches.push_back({run.indexOf(rank), static_cast<EventIndex>(i)});
    }
    std::sort(result.matches.begin(), result.matches.end(), [&run](const EventRef& a, const EventRef& b) {
        return std::tie(run.at(a.rank).events.tsNs[a.event], a.rank, a.event)
               < std::tie(run.at(b.rank).events.tsNs[b.event], b.rank, b.event);
    });
    return result;
}

} // namespace kscope
