#pragma once

// The timeline's index: every rank's events laid out in rows (a GPU stream, a GPU annotation lane,
// a CPU thread at one call depth), and for a time window and a pixel width what a frame draws.
// Exact events where they are wider than a pixel; where many are narrower, merged spans that say
// how many events they hold, how much time they cover and which is the longest (its name and
// kind colour the span). A frame so never draws more than a couple of items per pixel column of a
// row, whatever the zoom: coarser summaries are built once per run (or step slice), finest first,
// each kept only where it merges at least eight items of the level below into one.

#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace kscope {

enum class TimelineRowKind : uint8_t {
    GpuStream,      // kernels, memcpy, memset and stream syncs of one stream
    GpuAnnotation,  // gpu_user_annotation ranges of one stream, on their own lane
    CpuThread,      // one call depth of one CPU thread
};

// What a frame draws: one event (count 1), or a merge of events each narrower than the pixel and
// separated by less than it.
struct TimelineItem {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t busyNs = 0;         // time covered by its events (their union)
    EventIndex longest = kNoEvent;  // the event itself, or the longest merged one
    uint32_t count = 0;         // events behind the item
    bool isEvent() const { return count == 1; }
};

// One level of summaries: the row's items with events shorter than gapNs merged across gaps
// shorter than gapNs.
struct TimelineLevel {
    int64_t gapNs = 0;
    std::vector<TimelineItem> items;  // by start
    std::vector<int64_t> blockMaxEndNs;  // as TimelineRow's, over the items
};

struct TimelineRow {
    RankIndex rank;
    TimelineRowKind kind = TimelineRowKind::GpuStream;
    int32_t stream = -1;  // GpuStream and GpuAnnotation
    ThreadIndex thread = 0;  // CpuThread
    uint8_t depth = 0;       // CpuThread: 0 = outermost
    std::vector<EventIndex> events;  // complete events by start (then end), rows of the rank's table
    // Running maximum of the events' ends at the last event of each block of kBlock: where the
    // first event ending after a time can be, found by binary search.
    std::vector<int64_t> blockMaxEndNs;
    std::vector<TimelineLevel> levels;  // finest first
    int64_t firstNs = 0;                // the row's extent
    int64_t lastNs = 0;

    static constexpr size_t kBlock = 64;
};

struct TimelineIndex {
    std::vector<TimelineRow> rows;  // per rank in run order: streams, annotation lanes, threads by depth
    int64_t beginNs = 0;  // the run's extent over the rows (absolute trace time)
    int64_t endNs = 0;
    size_t events = 0;  // events in rows

    size_t residentBytes() const;
};

// Whether the timeline draws this event (a complete event on a GPU stream, an annotation lane or a
// CPU thread; not instants, counters or the trace's own span).
bool drawnOnTimeline(const EventTable& events, size_t row);

// Builds the rows of every rank of `run` (a whole run or a step slice; its event tables are
// referenced, never copied); the rows' summaries are built on every core (up to 8 threads).
TimelineIndex buildTimelineIndex(const Run& run);

// What to draw of `row` in [fromNs, toNs) (absolute) at nsPerPixel: items overlapping the window
// in start order, items narrower than a pixel merged across gaps narrower than a pixel. An event
// partly inside the window is returned whole.
std::vector<TimelineItem> timelineItems(const Run& run, const TimelineRow& row, int64_t fromNs, int64_t toNs,
                                        double nsPerPixel);

} // namespace kscope
