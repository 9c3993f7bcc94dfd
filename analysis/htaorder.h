#pragma once

// HTA's row order for the launch, queue and bandwidth analyses. HTA's DataFrame keeps the events
// in the file's order (CPU and GPU events apart once it has trimmed the last step), and its
// unstable quicksort breaks ties by that order; the loader keeps each event's file position in
// HTA's mode (EventTable::fileIndex), so the rows can be put back in it.

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "model/correlationset.h"
#include "model/trace.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

namespace kscope {

// Rows in file order when the table has file positions (HTA's mode), else left in start order.
inline void sortToFileOrder(const EventTable& events, std::vector<EventIndex>& rows)
{
    if (events.fileIndex.size() != events.size())
        return;
    std::sort(rows.begin(), rows.end(),
              [&events](EventIndex a, EventIndex b) { return events.fileIndex[a] < events.fileIndex[b]; });
}

// The ids of those names that occur in the pool (a name never interned cannot match an event).
inline std::vector<StringId> idsOfNames(const StringPool& strings, const std::vector<std::string_view>& names)
{
    std::vector<StringId> ids;
    for (std::string_view name : names)
        if (const StringId id = strings.find(name))
            ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

inline bool containsId(const std::vector<StringId>& sortedIds, StringId id)
{
    return id && std::binary_search(sortedIds.begin(), sortedIds.end(), id);
}

// Rows keyed by correlation, sorted by (correlation, file position): pandas' groups by key with
// each group's rows in frame order.
struct KeyedRow {
    int64_t key = 0;
    uint32_t position = 0;  // file position in HTA's mode, else the row
    EventIndex row = kNoEvent;
};

inline std::vector<KeyedRow> keyedByCorrelation(const EventTable& t, const std::vector<EventIndex>& rows)
{
    const bool file = t.fileIndex.size() == t.size();
    std::vector<KeyedRow> keyed;
    keyed.reserve(rows.size());
    for (EventIndex e : rows)
        keyed.push_back({t.correlation[e], file ? t.fileIndex[e] : static_cast<uint32_t>(e), e});
    std::sort(keyed.begin(), keyed.end(), [](const KeyedRow& a, const KeyedRow& b) {
        return a.key != b.key ? a.key < b.key : a.position < b.position;
    });
    return keyed;
}

// The keys two keyed lists share: [aBegin, aEnd) of a and [bBegin, bEnd) of b, by key.
struct KeyMatch {
    uint32_t aBegin = 0, aEnd = 0, bBegin = 0, bEnd = 0;
};

inline std::vector<KeyMatch> matchKeys(const std::vector<KeyedRow>& a, const std::vector<KeyedRow>& b)
{
    std::vector<KeyMatch> matches;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].key < b[j].key) {
            ++i;
        } else if (b[j].key < a[i].key) {
            ++j;
        } else {
            KeyMatch m;
            m.aBegin = static_cast<uint32_t>(i);
            m.bBegin = static_cast<uint32_t>(j);
            const int64_t key = a[i].key;
            while (i < a.size() && a[i].key == key)
                ++i;
            while (j < b.size() && b[j].key == key)
                ++j;
            m.aEnd = static_cast<uint32_t>(i);
            m.bEnd = static_cast<uint32_t>(j);
            matches.push_back(m);
        }
    }
    return matches;
}

// pandas describe() of one column: count, mean, std (ddof 1), min, quartiles (linear), max; NaN
// where pandas gives NaN (no values; std of one).
struct Description {
    int64_t count = 0;
    double mean = 0, std = 0, min = 0, p25 = 0, p50 = 0, p75 = 0, max = 0;
};

inline Description describeValues(std::vector<double> values)
{
    Description d;
    d.count = static_cast<int64_t>(values.size());
    if (values.empty()) {
        d.mean = d.std = d.min = d.p25 = d.p50 = d.p75 = d.max = std::numeric_limits<double>::quiet_NaN();
        return d;
    }
    d.mean = hta::mean(values);
    d.std = hta::sampleStd(values);
    std::sort(values.begin(), values.end());
    d.min = values.front();
    d.max = values.back();
    d.p25 = hta::quantileLinear(values, 0.25);
    d.p50 = hta::quantileLinear(values, 0.5);
    d.p75 = hta::quantileLinear(values, 0.75);
    return d;
}

// describeValues of integers without sorting them: the same sums in the same order, the
// quartiles exact order statistics found by bucketing (queue lengths span a small range, so
// that is one counting pass).
inline Description describeIntegers(const std::vector<int32_t>& values)
{
    Description d;
    d.count = static_cast<int64_t>(values.size());
    if (values.empty()) {
        d.mean = d.std = d.min = d.p25 = d.p50 = d.p75 = d.max = std::numeric_limits<double>::quiet_NaN();
        return d;
    }
    const auto toDouble = [](int32_t v) { return static_cast<double>(v); };
    const std::span<const int32_t> all(values);
    d.mean = hta::meanOf(all, toDouble);
    d.std = hta::sampleStdAround(all, toDouble, d.mean);
    int32_t low = values.front(), high = values.front();
    for (const int32_t v : values) {
        low = std::min(low, v);
        high = std::max(high, v);
    }
    d.min = low;
    d.max = high;
    const std::array<double, 3> quartiles =
        hta::integerQuantilesLinear(all, low, high, std::array<double, 3>{0.25, 0.5, 0.75}, toDouble);
    d.p25 = quartiles[0];
    d.p50 = quartiles[1];
    d.p75 = quartiles[2];
    return d;
}

// The default mode's launch walk, shared by launch statistics and queue length: every GPU op
// (kernel, memcpy, memset; not a sync) with the runtime call the model links it to, when that call
// is one of launchNames (sorted ids); fn(launch, gpu). Returns the ops whose launch is not in the
// trace, counted, never guessed.
template <typename Fn>
int64_t forEachLinkedLaunch(const EventTable& t, const std::vector<StringId>& launchNames, Fn&& fn)
{
    int64_t withoutLaunch = 0;
    for (const EventIndex i : t.gpuRows) {
        if (!isGpuWorkRow(t, i))
            continue;
        const EventIndex launch = t.link[i];
        if (launch == kNoEvent)
            ++withoutLaunch;
        else if (containsId(launchNames, t.name[launch]))
            fn(launch, i);
    }
    return withoutLaunch;
}

} // namespace kscope
