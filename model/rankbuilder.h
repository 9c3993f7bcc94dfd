#pragma once

// Internal to the loader (and the tests' RunBuilder, which builds runs in code the same way):
// collects one file's events in file order, then finalize() sorts them and computes the
// cross-links (correlation, parent/depth, steps), the streams' file order and HTA's normalisation.

#include "loader.h"
#include "trace.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <unordered_map>

namespace kscope {

struct ThreadKeyHash {
    size_t operator()(const std::pair<int64_t, int64_t>& k) const noexcept
    {
        const uint64_t mixed = static_cast<uint64_t>(k.first) * 1000003u ^ static_cast<uint64_t>(k.second);
        return std::hash<uint64_t>{}(mixed);
    }
};

// One event as read, before finalize() sorts and links it.
struct EventFields {
    int64_t tsNs = 0;
    int64_t durNs = 0;
    StringId name;
    StringId category;
    ThreadIndex thread = 0;             // from RankBuilder::threadIndex()
    int32_t stream = -1;
    int64_t correlation = -1;
    int64_t externalId = -1;
    Phase phase = Phase::Complete;
    EventKind kind = EventKind::Other;  // from RankBuilder::kindOf(category)
};

class RankBuilder {
public:
    RankBuilder(StringPool& strings, RankTrace& rankTrace) : trace(rankTrace), m_strings(strings) {}

    RankTrace& trace;
    StringPool& strings() { return m_strings; }

    // Thread index for a pid/tid pair; string pids/tids are keyed by their interned id. Past
    // kMaxThreads pairs, new pairs share the last thread.
    ThreadIndex threadIndex(int64_t pid, StringId pidName, int64_t tid, StringId tidName)
    {
        // Events come in runs from one thread: the last pair answers most calls.
        if (pid == m_lastThread.pid && tid == m_lastThread.tid && pidName == m_lastThread.pidName
            && tidName == m_lastThread.tidName && m_lastThread.known)
            return m_lastThread.index;
        m_lastThread = {pid, tid, pidName, tidName, lookUpThread(pid, pidName, tid, tidName), true};
        return m_lastThread.index;
    }
    EventKind kindOf(StringId category)
    {
        if (category.value < m_kindOfString.size() && m_kindOfString[category.value] != kUnknownKind)
            return static_cast<EventKind>(m_kindOfString[category.value]);
        return classifyCategory(category);
    }
    // The index of this pair in the table's inputShapes, appended when first seen.
    uint32_t inputShapeIndex(InputShape shape);

    // Appends an event in file order; returns its row until finalize() sorts the rows.
    EventIndex appendEvent(const EventFields& event)
    {
        EventTable& t = trace.events;
        const auto row = static_cast<EventIndex>(t.tsNs.size());
        t.tsNs.push_back(event.tsNs);
        t.durNs.push_back(event.durNs);
        t.name.push_back(event.name);
        t.category.push_back(event.category);
        t.thread.push_back(event.thread);
        t.stream.push_back(event.stream);
        t.correlation.push_back(event.correlation);
        t.externalId.push_back(event.externalId >= INT32_MIN && event.externalId <= INT32_MAX
                                   ? static_cast<int32_t>(event.externalId)
                                   : -1);
        t.phase.push_back(event.phase);
        t.kind.push_back(event.kind);
        return row;
    }

    // Reserves columns for a file of about this many JSON bytes, so they do not grow by doubling.
    void reserveForJsonBytes(uint64_t bytes);

    void noteBadEvent(BadEventKind kind, uint64_t byteOffset, std::string_view excerpt);

    // Sorts by start (after HTA's rounding in compat mode) and links events: correlation,
    // parent/depth per thread, ProfilerStep per event, device type.
    void finalize(const LoadOptions& options);

    // process_name metadata: (pid, pid as text, name), applied to threads in finalize().
    std::vector<std::tuple<int64_t, StringId, StringId>> processNames;

private:
    void applyHtaRounding();
    void sortByStart(const std::vector<uint8_t>& keep);  // keep empty = every row
    void linkCorrelations();
    void linkParents();
    // stepsInFileOrder: overlapping steps resolve to the last in file order (HTA), else by start.
    void assignSteps(bool stepsInFileOrder);
    void detectDeviceType();

    ThreadIndex lookUpThread(int64_t pid, StringId pidName, int64_t tid, StringId tidName);
    EventKind classifyCategory(StringId category);

    StringPool& m_strings;
    std::unordered_map<std::pair<int64_t, int64_t>, ThreadIndex, ThreadKeyHash> m_threadIndex;
    struct LastThread {
        int64_t pid = 0, tid = 0;
        StringId pidName, tidName;
        ThreadIndex index = 0;
        bool known = false;
    } m_lastThread;
    static constexpr uint8_t kUnknownKind = 0xFF;
    std::vector<uint8_t> m_kindOfString;  // by category string id: its EventKind, or kUnknownKind
    std::unordered_map<uint64_t, uint32_t> m_shapeIndex;  // (dims, types) ids -> inputShapes index
};

// HTA's last-step trimming (Trace._filter_irrelevant_gpu_kernels) on one finalized rank: CPU
// events before the last ProfilerStep's start (or up to its end with includeLastStep) stay, and
// GPU events only when a kept CPU event shares their correlation. HTA also drops GPU events whose
// launch is not in the trace at all; the default mode (keepGpuWithoutLaunch) keeps those that
// start in the window. Sets the rank's counts of what was dropped; returns the rows dropped.
struct TrimRule {
    bool includeLastStep = false;
    bool keepGpuWithoutLaunch = false;
    // A rank with no ProfilerStep of its own has no last step to trim: keep it whole. HTA instead
    // keeps the CPU events before the rank's first one, that is none, and so drops the rank.
    bool keepRankWithoutSteps = false;
};
inline TrimRule trimRuleFor(const LoadOptions& options)
{
    return {.includeLastStep = options.includeLastStep,
            .keepGpuWithoutLaunch = !options.htaCompat,
            .keepRankWithoutSteps = !options.htaCompat};
}
uint64_t trimToCompleteSteps(RankTrace& trace, const StringPool& strings, const TrimRule& rule);
// The rows that trimming keeps, in any row order; empty when the rank has no CPU events.
std::vector<uint8_t> completeStepsMask(const EventTable& events, const StringPool& strings, const TrimRule& rule);
// RankTrace's counts of trimmed rows (events, GPU events, [memory] events) for a keep mask.
void countTrimmed(RankTrace& trace, const std::vector<uint8_t>& keep);
// Names like "ProfilerStep#12" in the pool: HTA trims only when there are two or more.
size_t distinctProfilerStepNames(const StringPool& strings);

// Fills RankTrace::streamsInFileOrder from the fileIndex column.
void recordStreamFileOrder(RankTrace& trace);

// Keeps the rows whose keep flag is set, remapping links, parents, steps and sparse args.
void keepRows(RankTrace& trace, const std::vector<uint8_t>& keep);
// The same into a new rank trace: only the kept rows are copied (never the whole table first).
RankTrace copyRows(const RankTrace& trace, const std::vector<uint8_t>& keep);

// Nanoseconds as HTA's float64 microseconds: HTA reads ts with Python's float (correctly
// rounded); n/1000 in 64-bit long double then to double gives the same value for ns-resolution
// tokens (3 decimals never sit on a tie).
double htaMicros(int64_t nanos);
// HTA's rounding of one event of a nanosecond trace, in float64 microseconds as HTA does it:
// end = floor(ts + dur), ts = ceil(ts), dur = end - ts. The loader (--hta-compat) and every writer
// that finds loaded events again in the raw file (the overlays) round with this one function.
void htaRoundSpan(int64_t& tsNs, int64_t& durNs);

// Classifies a category string (kernel, cuda_runtime, cpu_op, ...).
EventKind eventKindForCategory(std::string_view category);
// HTA's GPU side: on a stream with a correlation, or a device-wide sync.
bool isHtaGpuEvent(const EventTable& events, EventIndex i, StringId eventSync, StringId contextSync);

} // namespace kscope
