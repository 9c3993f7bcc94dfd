#pragma once

#include "eventtable.h"
#include "importissue.h"
#include "rankset.h"
#include "stringpool.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace kscope {

enum class DeviceType : uint8_t { Unknown, Nvidia, Amd, Mtia };
const char* toString(DeviceType type);

struct DeviceProperties {
    int id = -1;
    std::string name;
    int64_t totalGlobalMem = -1;
    int numSms = -1;
    int computeMajor = -1;
    int computeMinor = -1;
};

struct DistributedInfo {
    std::string backend;
    int rank = -1;
    int worldSize = -1;
    std::string pgConfigJson;  // raw JSON of pg_config
};

struct TraceMetadata {
    int schemaVersion = -1;
    std::vector<DeviceProperties> devices;
    std::optional<DistributedInfo> distributed;
    std::string displayTimeUnit;
    int64_t baseTimeNanoseconds = -1;
    std::string traceId;
    std::string traceName;
    std::string cudaRuntimeVersion;
    std::string cudaDriverVersion;
    std::string cuptiVersion;
    std::string hipRuntimeVersion;
    std::string roctracerVersion;
    bool fractionalTimestamps = false;  // some ts token had a fraction (HTA then rounds)
};

// A (pid, tid) pair as written; strings such as "Spans" are kept as names.
struct ThreadKey {
    int64_t pid = 0;
    int64_t tid = 0;
    StringId pidName;  // set when pid was a string
    StringId tidName;  // set when tid was a string
    StringId threadName;   // from thread_name metadata
    StringId processName;  // from process_name metadata
};

struct ProfilerStep {
    int32_t number = -1;
    EventIndex event = kNoEvent;
    int64_t startNs = 0;
    int64_t endNs = 0;
};

// Everything a rank trace holds besides its events: a step slice copies this and only the rows
// of the step, never the whole table first.
struct RankTraceInfo {
    int rank = -1;  // the number the file claims (a label: see RankIndex)
    std::filesystem::path file;
    uint64_t compressedBytes = 0;
    uint64_t uncompressedBytes = 0;
    bool gzip = false;  // byte offsets of its bad events count bytes of the inflated stream
    // Offset in the inflated stream of the ']' that closes traceEvents (0 = not seen): where a
    // writer can append events to a copy of the file without parsing it again.
    uint64_t traceEventsEndOffset = 0;
    // The first element of traceEvents is an event of the table (fileIndex 0). HTA numbers events
    // by their position in traceEvents, and its index_correlation = 0 ("partner missing") cannot
    // tell a partner at position 0 from none: its queue length leaves that launch out.
    bool firstElementKept = false;
    // HTA's row index of an event is its position in traceEvents (flows, metadata and counters
    // between events leave gaps). Kept in HTA's mode only: runs of (first EventTable::fileIndex,
    // position - fileIndex), sorted; see htaRowIndex() in analysis/operators/eventquery.h.
    std::vector<std::pair<uint32_t, uint32_t>> elementOffsets;
    TraceMetadata metadata;
    DeviceType deviceType = DeviceType::Unknown;
    std::vector<ThreadKey> threads;
    std::vector<FlowEvent> flows;  // only with LoadOptions::keepFlows
    uint64_t flowEventsRead = 0;
    std::vector<CounterSample> counters;
    std::vector<ProfilerStep> steps;  // in file order
    // Streams of GPU work (kernels, memcpy, memset) by the file position of their first event:
    // HTA lists per-stream results in this order.
    std::vector<int32_t> streamsInFileOrder;
    std::vector<BadEventCounter> badEvents;
    uint64_t eventsRead = 0;     // traceEvents elements seen
    uint64_t eventsTrimmed = 0;  // dropped by last-step trimming
    uint64_t gpuEventsTrimmed = 0;     // of them kernels, memcpys and memsets
    uint64_t memoryEventsTrimmed = 0;  // of them [memory] events
    bool trimmedToCompleteSteps = false;
};

struct RankTrace : RankTraceInfo {
    EventTable events;
    // In a slice (a step of the run): the row of the whole run's table each event was copied
    // from, ascending. Empty in a whole run, where a row is its own. A selected event is named by
    // its row of the whole run, so it stays the same event when the step shown changes.
    std::vector<EventIndex> runRows;

    EventIndex runRow(EventIndex row) const { return runRows.empty() ? row : runRows[size_t(row)]; }
    // The row holding this event of the whole run; kNoEvent when it is not in this slice.
    EventIndex rowOfRunEvent(EventIndex runRow) const;
    size_t residentBytes() const;
};

// A loaded run: immutable once assembled, shared between threads without locks.
struct Run {
    std::filesystem::path folder;
    StringPool strings;  // run-wide: every rank's StringIds point here
    std::vector<RankTrace> ranks;  // sorted by rank
    std::vector<LoadError> errors;
    std::vector<LoadWarning> warnings;
    std::vector<SkippedFile> skippedFiles;  // not trace files, or JSON that is plainly no trace
    RankSet ranksNotLoaded;  // ranks of files left out by LoadOptions::onlyRanks (from head or name)
    bool htaCompat = false;
    int64_t minTsNs = 0;  // earliest timestamp over all ranks
    // A snapshot of a load in progress (ProgressiveLoad): files not read yet, whose ranks it
    // lacks. 0 in a whole run. Whatever is computed on a snapshot covers only its ranks.
    uint32_t filesStillLoading = 0;
    bool isPartial() const { return filesStillLoading > 0; }

    // The first rank trace claiming this number (the CLI's --rank and HTA's rank arguments name
    // ranks by number); null when none does.
    const RankTrace* findRank(int rank) const;
    const RankTrace& at(RankIndex index) const { return ranks[index.value]; }
    bool has(RankIndex index) const { return index.value < ranks.size(); }
    RankIndex indexOf(const RankTrace& rank) const { return RankIndex{static_cast<uint32_t>(&rank - ranks.data())}; }
    // Every rank trace claiming one of these numbers, in run order (empty numbers: none).
    std::vector<RankIndex> ranksNumbered(const std::vector<int>& numbers) const;
    // True when another file of the run claims the same rank number.
    bool numberShared(RankIndex index) const;
    // The rank as a reader tells it apart: "3", or "3 (rank3-copy)" (its file, less .pt.trace.json.gz)
    // when two files claim 3.
    std::string rankName(RankIndex index) const;
    std::string_view str(StringId id) const { return strings.view(id); }
    size_t residentBytes() const;
};

using RunPtr = std::shared_ptr<const Run>;

} // namespace kscope
