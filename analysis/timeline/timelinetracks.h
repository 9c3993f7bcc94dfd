#pragma once

// What the timeline adds around its event rows, Qt-free so the CLI's benchmark and the tests see
// what the GUI draws:
// - counter tracks under a rank (launch queue length per stream, memcpy bandwidth, allocated
//   memory), built from the results the Queue and Memory views compute, and reduced per pixel
//   column to the range of values the step function takes there;
// - a row filter (which ranks and streams to show), parsed from what a user types;
// - "align ranks at step start": how far each rank is shifted so its steps start together.

#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "analysis/operators/memory.h"
#include "analysis/timeline/timelineindex.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kscope {

enum class CounterKind : uint8_t { QueueLength, MemcpyBandwidth, AllocatedMemory };

// A step function: value[i] from tsNs[i] until tsNs[i + 1] (the last holds to the end).
struct CounterTrack {
    RankIndex rank;
    CounterKind kind = CounterKind::QueueLength;
    std::string label;  // "queue, stream 7", "Memcpy HtoD GB/s", "cuda:0 allocated"
    std::vector<int64_t> tsNs;  // absolute, ascending
    std::vector<double> value;
    double maxValue = 0;  // over the whole track: the scale it is drawn at
};

// The tracks of every rank, by rank then kind (queue per stream, bandwidth per kind, memory per
// device). Any result may be missing (nullptr): its tracks are left out.
std::vector<CounterTrack> timelineCounterTracks(const Run& run, const QueueLength* queue, const MemoryBandwidth* bandwidth,
                                                const MemoryTimeline* memory);

// The values a track takes over each of `columns` equal columns of [fromNs, toNs): for column c,
// the lowest and highest value held at any time inside it (the value carried in from before
// counts). A column before the first point holds none (hasValue false).
struct CounterColumn {
    double low = 0;
    double high = 0;
    bool hasValue = false;
};
std::vector<CounterColumn> counterColumns(const CounterTrack& track, int64_t fromNs, int64_t toNs, int columns);

// Which rows to show: "0-3,7" keeps ranks 0 to 3 and 7 (the numbers the files claim); "s7" or
// "stream 7" keeps GPU stream (and annotation lane) 7; "t4037" or "thread 4037" keeps the CPU
// thread of that tid; any may be combined ("0,1 s7 s20 t4037"). Streams given alone leave every
// CPU thread; threads given alone leave every stream. Empty: everything.
struct TimelineRowFilter {
    std::vector<int> ranks;    // empty: every rank
    std::vector<int> streams;  // empty: every stream
    std::vector<int64_t> threads;  // tids; empty: every CPU thread
    bool keepsRank(const Run& run, RankIndex rank) const;
    bool keeps(const Run& run, const TimelineRow& row) const;
    bool empty() const { return ranks.empty() && streams.empty() && threads.empty(); }
};
struct ParsedRowFilter {
    TimelineRowFilter filter;
    std::string error;  // what could not be read, and where
};
ParsedRowFilter parseTimelineRowFilter(std::string_view text);

// Per rank (in run order), the time to subtract from its events so that one ProfilerStep starts
// at the same time on every rank: the lowest step number every rank with steps has (else each
// rank's earliest step), aligned on the earliest rank's start. A rank without steps stays put.
std::vector<int64_t> stepStartShifts(const Run& run);

} // namespace kscope
