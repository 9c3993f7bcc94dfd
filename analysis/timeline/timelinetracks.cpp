#include "analysis/timeline/timelinetracks.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace kscope {

namespace {

void finish(CounterTrack& track)
{
    track.maxValue = 0;
    for (double v : track.value)
        track.maxValue = std::max(track.maxValue, v);
}

} // namespace

std::vector<CounterTrack> timelineCounterTracks(const Run& run, const QueueLength* queue, const MemoryBandwidth* bandwidth,
                                                const MemoryTimeline* memory)
{
    std::vector<CounterTrack> tracks;
    if (queue)
        for (const QueueSeries& s : queue->series) {
            CounterTrack t{s.rankIndex, CounterKind::QueueLength, "queue, stream " + std::to_string(s.stream), s.tsNs, {}, 0};
            t.value.assign(s.length.begin(), s.length.end());
            finish(t);
            tracks.push_back(std::move(t));
        }
    if (bandwidth)
        for (const MemoryBwSeries& s : bandwidth->series) {
            CounterTrack t{s.rankIndex, CounterKind::MemcpyBandwidth, s.kind + " GB/s", s.tsNs, s.gbps, 0};
            finish(t);
            tracks.push_back(std::move(t));
        }
    if (memory)
        for (const MemoryDevice& d : memory->devices) {
            // Memory names its device by rank number: every file claiming it gets the track.
            for (size_t r = 0; r < run.ranks.size(); ++r) {
                if (run.ranks[r].rank != d.device.rank)
                    continue;
                CounterTrack t{RankIndex{uint32_t(r)}, CounterKind::AllocatedMemory, toString(d.device) + " allocated", {}, {}, 0};
                t.tsNs.reserve(d.series.size());
                t.value.reserve(d.series.size());
                for (const MemoryPoint& p : d.series) {
                    t.tsNs.push_back(p.tsNs);
                    t.value.push_back(double(p.allocated));
                }
                finish(t);
                tracks.push_back(std::move(t));
            }
        }
    std::stable_sort(tracks.begin(), tracks.end(), [](const CounterTrack& a, const CounterTrack& b) { return a.rank < b.rank; });
    return tracks;
}

std::vector<CounterColumn> counterColumns(const CounterTrack& track, int64_t fromNs, int64_t toNs, int columns)
{
    std::vector<CounterColumn> out(size_t(std::max(columns, 0)));
    if (columns <= 0 || toNs <= fromNs || track.tsNs.empty())
        return out;
    const double width = double(toNs - fromNs) / columns;
    // The point holding at fromNs (the last at or before it), then every point inside.
    size_t i = size_t(std::upper_bound(track.tsNs.begin(), track.tsNs.end(), fromNs) - track.tsNs.begin());
    std::optional<double> holding;
    if (i > 0)
        holding = track.value[i - 1];
    for (int c = 0; c < columns; ++c) {
        const auto columnStart = fromNs + int64_t(std::llround(width * c));
        const auto columnEnd = c + 1 == columns ? toNs : fromNs + int64_t(std::llround(width * (c + 1)));
        CounterColumn& column = out[size_t(c)];
        // A change at the column's first instant replaces what was held before.
        for (; i < track.tsNs.size() && track.tsNs[i] <= columnStart; ++i)
            holding = track.value[i];
        if (holding) {
            column = {*holding, *holding, true};
        }
        for (; i < track.tsNs.size() && track.tsNs[i] < columnEnd; ++i) {
            const double v = track.value[i];
            column.low = column.hasValue ? std::min(column.low, v) : v;
            column.high = column.hasValue ? std::max(column.high, v) : v;
            column.hasValue = true;
            holding = v;
        }
    }
    return out;
}

bool TimelineRowFilter::keepsRank(const Run& run, RankIndex rank) const
{
    return ranks.empty() || (run.has(rank) && std::find(ranks.begin(), ranks.end(), run.at(rank).rank) != ranks.end());
}

bool TimelineRowFilter::keeps(const Run& run, const TimelineRow& row) const
{
    if (!keepsRank(run, row.rank))
        return false;
    if (row.kind == TimelineRowKind::CpuThread)
        return threads.empty()
               || std::find(threads.begin(), threads.end(), run.at(row.rank).threads[row.thread].tid) != threads.end();
    return streams.empty() || std::find(streams.begin(), streams.end(), row.stream) != streams.end();
}

ParsedRowFilter parseTimelineRowFilter(std::string_view text)
{
    ParsedRowFilter parsed;
    size_t at = 0;
    const auto skipSeparators = [&] {
        while (at < text.size() && (text[at] == ' ' || text[at] == ',' || text[at] == '\t'))
            ++at;
    };
    const auto number = [&](int& value) {
        const auto [end, ec] = std::from_chars(text.data() + at, text.data() + text.size(), value);
        if (ec != std::errc() || value < 0)
            return false;
        at = size_t(end - text.data());
        return true;
    };
    const auto fail = [&](const std::string& what) {
        parsed.filter = {};
        parsed.error = what + " at character " + std::to_string(at + 1);
        return parsed;
    };
    for (skipSeparators(); at < text.size(); skipSeparators()) {
        const size_t start = at;
        enum class What { Rank, Stream, Thread } what = What::Rank;
        for (const auto& [word, kind] : {std::pair{std::string_view("stream"), What::Stream}, std::pair{std::string_view("thread"), What::Thread},
                                         std::pair{std::string_view("s"), What::Stream}, std::pair{std::string_view("t"), What::Thread}})
            if (text.substr(at, word.size()) == word) {
                at += word.size();
                what = kind;
                break;
            }
        while (what != What::Rank && at < text.size() && text[at] == ' ')
            ++at;
        int first = 0;
        if (!number(first)) {
            at = start;
            return fail(what == What::Stream   ? "a stream number is expected"
                        : what == What::Thread ? "a thread id is expected"
                                               : "a rank number, a range (0-3), s<stream> or t<tid> is expected");
        }
        int last = first;
        if (what == What::Rank && at < text.size() && text[at] == '-') {
            ++at;
            if (!number(last) || last < first)
                return fail("a range ends with a number no smaller than its start");
            if (last - first > 1000000)
                return fail("a range of more than a million ranks");
        }
        if (what == What::Thread)
            parsed.filter.threads.push_back(first);
        else
            for (int v = first; v <= last; ++v)
                (what == What::Stream ? parsed.filter.streams : parsed.filter.ranks).push_back(v);
        if (at < text.size() && text[at] != ' ' && text[at] != ',' && text[at] != '\t')
            return fail("unexpected '" + std::string(1, text[at]) + "'");
    }
    for (std::vector<int>* list : {&parsed.filter.ranks, &parsed.filter.streams}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    std::sort(parsed.filter.threads.begin(), parsed.filter.threads.end());
    parsed.filter.threads.erase(std::unique(parsed.filter.threads.begin(), parsed.filter.threads.end()), parsed.filter.threads.end());
    return parsed;
}

std::vector<int64_t> stepStartShifts(const Run& run)
{
    // The step to align on: the lowest number every rank with steps has (ranks that profiled
    // different steps: each rank's earliest).
    std::optional<int32_t> common;
    for (const RankTrace& rank : run.ranks)
        for (const ProfilerStep& step : rank.steps) {
            if (common && step.number >= *common)
                continue;
            const bool everywhere = std::all_of(run.ranks.begin(), run.ranks.end(), [&](const RankTrace& other) {
                return other.steps.empty() || std::any_of(other.steps.begin(), other.steps.end(),
                                                          [&](const ProfilerStep& s) { return s.number == step.number; });
            });
            if (everywhere)
                common = step.number;
        }
    std::vector<std::optional<int64_t>> starts(run.ranks.size());
    for (size_t r = 0; r < run.ranks.size(); ++r)
        for (const ProfilerStep& step : run.ranks[r].steps)
            if ((!common || step.number == *common) && (!starts[r] || step.startNs < *starts[r]))
                starts[r] = step.startNs;
    int64_t earliest = std::numeric_limits<int64_t>::max();
    for (const std::optional<int64_t>& start : starts)
        if (start)
            earliest = std::min(earliest, *start);
    std::vector<int64_t> shifts(run.ranks.size(), 0);
    for (size_t r = 0; r < run.ranks.size(); ++r)
        if (starts[r])
            shifts[r] = *starts[r] - earliest;
    return shifts;
}

} // namespace kscope
