#include "analysis/timeline/timelineindex.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <tuple>

namespace kscope {

namespace {

// The finest summary merges across gaps of a microsecond; each next is four times coarser.
constexpr int64_t kFinestGapNs = 1000;
constexpr int64_t kLevelFactor = 4;
// A level is kept only when it has at most this fraction of the items of the level below.
constexpr size_t kMinReduction = 8;
// A row with fewer events has no summaries: a frame merges them as it reads them, which costs less
// than the summaries' memory (1,000 ranks of small rows spent more on summaries than on events).
constexpr size_t kMinEventsForLevels = 256;

// Where an event goes, or nowhere (instants, counters, the trace's own span).
struct RowKey {
    TimelineRowKind kind;
    int32_t stream;
    ThreadIndex thread;
    uint8_t depth;
    auto operator<=>(const RowKey&) const = default;
};

bool rowOf(const EventTable& t, size_t i, RowKey& key)
{
    if (t.phase[i] != Phase::Complete || t.durNs[i] < 0)
        return false;
    switch (t.kind[i]) {
    case EventKind::TraceSpan:
        return false;  // "PyTorch Profiler (0)": the whole trace, no work
    case EventKind::Kernel:
    case EventKind::Memcpy:
    case EventKind::Memset:
    case EventKind::CudaSync:
        if (t.stream[i] < 0)
            return false;
        key = {TimelineRowKind::GpuStream, t.stream[i], 0, 0};
        return true;
    case EventKind::GpuUserAnnotation:
        key = {TimelineRowKind::GpuAnnotation, t.stream[i], 0, 0};
        return true;
    case EventKind::Other:
        if (t.stream[i] >= 0) {  // GPU work of a kind Kineto has no name for
            key = {TimelineRowKind::GpuStream, t.stream[i], 0, 0};
            return true;
        }
        [[fallthrough]];
    default:  // CPU ops (with or without args.stream), annotations, Python, runtime and driver calls
        key = {TimelineRowKind::CpuThread, -1, t.thread[i], t.depth[i]};
        return true;
    }
}

// Running maximum of end at the last element of each block: monotone, so the first block that can
// hold an element ending after a time is found by binary search.
template <typename End>
std::vector<int64_t> blockMaxEnds(size_t count, End end)
{
    std::vector<int64_t> blocks;
    blocks.reserve(count / TimelineRow::kBlock + 1);
    int64_t running = INT64_MIN;
    for (size_t i = 0; i < count; ++i) {
        running = std::max(running, end(i));
        if (i % TimelineRow::kBlock == TimelineRow::kBlock - 1 || i + 1 == count)
            blocks.push_back(running);
    }
    return blocks;
}

size_t firstCandidate(const std::vector<int64_t>& blockMaxEnd, int64_t fromNs)
{
    const auto block = std::lower_bound(blockMaxEnd.begin(), blockMaxEnd.end(), fromNs);  // max end >= fromNs
    return static_cast<size_t>(block - blockMaxEnd.begin()) * TimelineRow::kBlock;
}

// Merges items narrower than gapNs across gaps narrower than gapNs; wider items stay as they are
// and are never merged into. `duration` gives an event's duration (for the longest).
template <typename Duration>
void mergeInto(std::vector<TimelineItem>& out, const TimelineItem& x, int64_t gapNs, Duration duration)
{
    const bool narrow = x.endNs - x.startNs < gapNs;
    if (narrow && !out.empty()) {
        TimelineItem& o = out.back();
        const bool absorbs = o.count > 1 || o.endNs - o.startNs < gapNs;
        if (absorbs && x.startNs - o.endNs < gapNs) {
            // The part of x beyond o's end adds to the time covered (exact for rows whose events do
            // not overlap, as a stream's or one call depth's do not).
            const int64_t overlap = std::max<int64_t>(0, std::min(o.endNs, x.endNs) - x.startNs);
            o.busyNs += std::max<int64_t>(0, x.busyNs - overlap);
            o.endNs = std::max(o.endNs, x.endNs);
            o.count += x.count;
            if (duration(x.longest) > duration(o.longest))
                o.longest = x.longest;
            return;
        }
    }
    out.push_back(x);
}

TimelineItem itemOf(const EventTable& t, EventIndex e)
{
    return {t.tsNs[e], t.endNs(e), t.durNs[e], e, 1};
}

void buildLevels(const EventTable& t, TimelineRow& row)
{
    const auto duration = [&t](EventIndex e) { return e == kNoEvent ? int64_t{-1} : t.durNs[e]; };
    const int64_t span = std::max<int64_t>(1, row.lastNs - row.firstNs);
    std::vector<TimelineItem> below;  // the finest level kept so far; empty: the events themselves
    size_t belowCount = row.events.size();
    if (belowCount < kMinEventsForLevels)
        return;
    for (int64_t gap = kFinestGapNs; belowCount > 1 && gap / kLevelFactor <= span; gap *= kLevelFactor) {
        std::vector<TimelineItem> merged;
        if (below.empty()) {
            for (EventIndex e : row.events)
                mergeInto(merged, itemOf(t, e), gap, duration);
        } else {
            for (const TimelineItem& item : below)
                mergeInto(merged, item, gap, duration);
        }
        if (merged.size() * kMinReduction > belowCount)
            continue;  // not worth its memory: the level below serves this zoom too
        merged.shrink_to_fit();
        below = merged;
        belowCount = merged.size();
        std::vector<int64_t> blocks = blockMaxEnds(merged.size(), [&merged](size_t i) { return merged[i].endNs; });
        row.levels.push_back({gap, std::move(merged), std::move(blocks)});
    }
    row.levels.shrink_to_fit();
}

} // namespace

bool drawnOnTimeline(const EventTable& events, size_t row)
{
    RowKey key{};
    return rowOf(events, row, key);
}

size_t TimelineIndex::residentBytes() const
{
    size_t bytes = rows.capacity() * sizeof(TimelineRow);
    for (const TimelineRow& row : rows) {
        bytes += row.events.capacity() * sizeof(EventIndex) + row.blockMaxEndNs.capacity() * sizeof(int64_t);
        bytes += row.levels.capacity() * sizeof(TimelineLevel);
        for (const TimelineLevel& level : row.levels)
            bytes += level.items.capacity() * sizeof(TimelineItem) + level.blockMaxEndNs.capacity() * sizeof(int64_t);
    }
    return bytes;
}

TimelineIndex buildTimelineIndex(const Run& run)
{
    TimelineIndex index;
    // First each rank's rows and the events they hold (in row order), then each row's order and
    // summaries, rows shared among the cores: they are independent.
    for (const RankTrace& rank : run.ranks) {
        const EventTable& t = rank.events;
        std::map<RowKey, std::vector<EventIndex>> rows;  // ordered: streams, lanes, threads by depth
        RowKey key{};
        for (size_t i = 0; i < t.size(); ++i)
            if (rowOf(t, i, key))
                rows[key].push_back(static_cast<EventIndex>(i));
        uint8_t depth = 0;  // a thread's call depths as rows 0, 1, ...: an ancestor drawn nowhere
                            // (the trace's own span) leaves no empty row
        for (auto& [k, events] : rows) {
            TimelineRow row;
            row.rank = run.indexOf(rank);
            row.kind = k.kind;
            row.stream = k.stream;
            row.thread = k.thread;
            const bool sameThread = !index.rows.empty() && index.rows.back().rank == row.rank
                                    && index.rows.back().kind == TimelineRowKind::CpuThread && index.rows.back().thread == k.thread;
            depth = k.kind == TimelineRowKind::CpuThread && sameThread ? uint8_t(depth + 1) : 0;
            row.depth = depth;
            row.events = std::move(events);
            index.rows.push_back(std::move(row));
        }
    }
    index.rows.shrink_to_fit();
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t r = next++; r < index.rows.size(); r = next++) {
            TimelineRow& row = index.rows[r];
            const EventTable& t = run.at(row.rank).events;
            // The table is by start already; ties by end so that a row reads left to right.
            std::stable_sort(row.events.begin(), row.events.end(), [&t](EventIndex a, EventIndex b) {
                return t.tsNs[a] != t.tsNs[b] ? t.tsNs[a] < t.tsNs[b] : t.durNs[a] < t.durNs[b];
            });
            row.events.shrink_to_fit();
            row.blockMaxEndNs = blockMaxEnds(row.events.size(), [&](size_t i) { return t.endNs(row.events[i]); });
            row.firstNs = t.tsNs[row.events.front()];
            row.lastNs = row.blockMaxEndNs.back();
            buildLevels(t, row);
        }
    };
    const size_t threads = std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), 8, index.rows.size()});
    std::vector<std::thread> helpers;
    for (size_t k = 1; k < threads; ++k)
        helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers)
        helper.join();
    index.beginNs = INT64_MAX;
    index.endNs = INT64_MIN;
    for (const TimelineRow& row : index.rows) {
        index.beginNs = std::min(index.beginNs, row.firstNs);
        index.endNs = std::max(index.endNs, row.lastNs);
        index.events += row.events.size();
    }
    if (index.rows.empty())
        index.beginNs = index.endNs = 0;
    return index;
}

std::vector<TimelineItem> timelineItems(const Run& run, const TimelineRow& row, int64_t fromNs, int64_t toNs,
                                        double nsPerPixel)
{
    std::vector<TimelineItem> out;
    if (!run.has(row.rank) || toNs <= fromNs || row.events.empty())
        return out;
    const EventTable& t = run.at(row.rank).events;
    const auto duration = [&t](EventIndex e) { return e == kNoEvent ? int64_t{-1} : t.durNs[e]; };
    const auto pixel = static_cast<int64_t>(std::max(1.0, nsPerPixel));
    // Inside the window: overlapping it, or a zero-length event within it.
    const auto inside = [fromNs, toNs](int64_t start, int64_t end) {
        return start < toNs && (end > fromNs || (end == start && start >= fromNs));
    };
    const TimelineLevel* level = nullptr;
    for (const TimelineLevel& l : row.levels)
        if (l.gapNs <= pixel)
            level = &l;
    if (!level) {
        for (size_t i = firstCandidate(row.blockMaxEndNs, fromNs); i < row.events.size(); ++i) {
            const EventIndex e = row.events[i];
            if (t.tsNs[e] >= toNs)
                break;
            if (inside(t.tsNs[e], t.endNs(e)))
                mergeInto(out, itemOf(t, e), pixel, duration);
        }
        return out;
    }
    const std::vector<TimelineItem>& items = level->items;
    for (size_t i = firstCandidate(level->blockMaxEndNs, fromNs); i < items.size() && items[i].startNs < toNs; ++i) {
        const TimelineItem& item = items[i];
        if (!inside(item.startNs, item.endNs))
            continue;
        if (item.isEvent() || (item.startNs >= fromNs && item.endNs <= toNs)) {
            mergeInto(out, item, pixel, duration);
            continue;
        }
        // A summary crossing an edge of the window: its events inside the window, from the events
        // themselves, so that what lies outside is neither drawn nor counted.
        for (size_t k = firstCandidate(row.blockMaxEndNs, std::max(fromNs, item.startNs)); k < row.events.size(); ++k) {
            const EventIndex e = row.events[k];
            if (t.tsNs[e] > item.endNs || t.tsNs[e] >= toNs)
                break;
            if (t.tsNs[e] >= item.startNs && inside(t.tsNs[e], t.endNs(e)))
                mergeInto(out, itemOf(t, e), pixel, duration);
        }
    }
    return out;
}

} // namespace kscope
