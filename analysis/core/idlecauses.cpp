#include "analysis/core/idlecauses.h"

#include "analysis/core/gpuactivity.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <unordered_map>

namespace kscope {

bool isSynchronizingCall(std::string_view name)
{
    static constexpr std::string_view kNames[] = {
        "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy",
        "hipStreamSynchronize",  "hipDeviceSynchronize",  "hipEventSynchronize",  "hipMemcpy",
        "cuStreamSynchronize",   "cuCtxSynchronize",      "cuEventSynchronize",   "cuMemcpyDtoH_v2",
    };
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

namespace {

constexpr int kCauses = kIdleCauseCount;

// What a host event means when the launching thread sits in it. Host classes are the first
// four causes; Ignored marks markers that span everything (ProfilerStep#N).
enum class HostClass : uint8_t { Sync, DataLoad, Optimizer, Cpu, Ignored };

IdleCause causeOf(HostClass c)
{
    switch (c) {
    case HostClass::Sync: return IdleCause::Synchronization;
    case HostClass::DataLoad: return IdleCause::DataLoading;
    case HostClass::Optimizer: return IdleCause::OptimizerStep;
    case HostClass::Cpu:
    case HostClass::Ignored: break;
    }
    return IdleCause::CpuOp;
}

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// Calls that block the host until the GPU has caught up: the runtime's own (isSynchronizingCall),
// and aten::item and _local_scalar_dense, which copy one value to the host and wait for it (what
// .item() and .cpu() of a scalar do).
bool isSyncName(std::string_view name)
{
    return isSynchronizingCall(name) || name == "aten::item" || name == "aten::_local_scalar_dense";
}

bool isStreamWaitName(std::string_view name) { return name.find("StreamWaitEvent") != std::string_view::npos; }

class HostClassifier {
public:
    HostClassifier(const Run& run, const std::vector<std::string>& dataLoadNames)
        : m_run(run), m_dataLoadNames(dataLoadNames)
    {
        m_dataLoadNames.push_back("DataLoader");
    }

    HostClass classOf(StringId name)
    {
        const auto [it, inserted] = m_cache.try_emplace(name.value, HostClass::Cpu);
        if (inserted)
            it->second = classify(m_run.str(name));
        return it->second;
    }

private:
    HostClass classify(std::string_view name) const
    {
        if (startsWith(name, "ProfilerStep#"))
            return HostClass::Ignored;
        if (isSyncName(name))
            return HostClass::Sync;
        for (const std::string& pattern : m_dataLoadNames)
            if (!pattern.empty() && name.find(pattern) != std::string_view::npos)
                return HostClass::DataLoad;
        if (startsWith(name, "Optimizer."))
            return HostClass::Optimizer;
        return HostClass::Cpu;
    }

    const Run& m_run;
    std::vector<std::string> m_dataLoadNames;
    std::unordered_map<uint32_t, HostClass> m_cache;
};

// One rank's host events per thread, in start order: what the launching thread was doing.
std::vector<std::vector<EventIndex>> hostEventsByThread(const RankTrace& rank)
{
    const EventTable& events = rank.events;
    std::vector<std::vector<EventIndex>> byThread(rank.threads.size());
    for (size_t i = 0; i < events.size(); ++i)
        if (events.phase[i] == Phase::Complete && isHostKind(events.kind[i]))
            byThread[events.thread[i]].push_back(static_cast<EventIndex>(i));
    return byThread;
}

// The time of a gap each cause held, and the event that best names each.
struct GapSplit {
    std::array<int64_t, kCauses> ns{};
    std::array<EventIndex, kCauses> event;
    GapSplit() { event.fill(kNoEvent); }
    void add(IdleCause cause, int64_t from, int64_t to, EventIndex named = kNoEvent)
    {
        addNs(cause, to - from, named);
    }
    void addNs(IdleCause cause, int64_t length, EventIndex named)
    {
        if (length <= 0)
            return;
        ns[static_cast<int>(cause)] += length;
        if (named != kNoEvent)
            event[static_cast<int>(cause)] = named;
    }
};

class RankCauses {
public:
    RankCauses(const Run& run, const RankTrace& rank, HostClassifier& classifier, double delayUs)
        : m_run(run), m_events(rank.events), m_classifier(classifier), m_delayNs(static_cast<int64_t>(delayUs * 1000.0)),
          m_threads(hostEventsByThread(rank))
    {
    }

    bool hasHostEvents() const
    {
        return std::any_of(m_threads.begin(), m_threads.end(), [](const auto& list) { return !list.empty(); });
    }

    IdleCauseGap explain(const IdleGap& gap)
    {
        IdleCauseGap out;
        out.stream = gap.stream;
        out.startNs = gap.startNs;
        out.endNs = gap.endNs;
        out.next = gap.next;
        out.step = m_events.step[gap.next];
        GapSplit split;
        const EventIndex launch = m_events.link[gap.next];
        out.launch = launch;
        if (launch == kNoEvent) {
            split.add(IdleCause::LaunchNotInTrace, gap.startNs, gap.endNs);
        } else {
            const int64_t launchStart = m_events.tsNs[launch];
            const int64_t launchEnd = m_events.endNs(launch);
            // The host's part: until the launch began, what its thread was doing.
            splitHostWindow(m_events.thread[launch], gap.startNs, std::min(launchStart, gap.endNs), split);
            // The launch call itself.
            const int64_t callFrom = std::max(gap.startNs, launchStart);
            const int64_t callTo = std::min(gap.endNs, launchEnd);
            split.add(IdleCause::LaunchOverhead, callFrom, callTo, launch);
            // The GPU's part: launched, not yet started.
            const int64_t queuedFrom = std::max(gap.startNs, launchEnd);
            if (queuedFrom < gap.endNs) {
                if (gap.endNs - queuedFrom <= m_delayNs) {
                    split.add(IdleCause::LaunchOverhead, queuedFrom, gap.endNs, launch);
                } else if (waitedOnAnotherStream(gap, launch)) {
                    split.add(IdleCause::StreamWait, queuedFrom, gap.endNs, awaitedOp(gap));
                } else {
                    split.add(IdleCause::GpuQueued, queuedFrom, gap.endNs, launch);
                }
            }
        }
        // The cause that held the most of the gap; ties go to the earlier cause.
        int best = 0;
        for (int c = 1; c < kCauses; ++c)
            if (split.ns[c] > split.ns[best])
                best = c;
        out.cause = static_cast<IdleCause>(best);
        out.causeNs = split.ns[best];
        out.causeEvent = split.event[best];
        return out;
    }

private:
    // Splits [from, to) by what the thread ran: at each instant the highest-priority class among
    // the host events open then, or no host activity where none is.
    void splitHostWindow(ThreadIndex thread, int64_t from, int64_t to, GapSplit& split)
    {
        if (to <= from)
            return;
        const std::vector<EventIndex>& list = m_threads[thread];
        m_open.clear();
        auto first = std::lower_bound(list.begin(), list.end(), from,
                                      [this](EventIndex e, int64_t t) { return m_events.tsNs[e] < t; });
        // Events open at `from`: the enclosing chain of the last one that started before it.
        if (first != list.begin()) {
            for (EventIndex e = *(first - 1); e != kNoEvent; e = m_events.parent[e])
                if (m_events.endNs(e) > from && isHostKind(m_events.kind[e]))
                    consider(e, from, to);
        }
        for (auto it = first; it != list.end() && m_events.tsNs[*it] < to; ++it)
            consider(*it, from, to);
        // Sweep the clipped intervals: +1 at a start, -1 at an end, per class.
        m_edges.clear();
        for (const Open& o : m_open) {
            m_edges.push_back({o.from, +1, o.cls});
            m_edges.push_back({o.to, -1, o.cls});
        }
        std::sort(m_edges.begin(), m_edges.end(),
                  [](const Edge& a, const Edge& b) { return a.t != b.t ? a.t < b.t : a.delta < b.delta; });
        std::array<int, 4> openCount{};
        std::array<int64_t, 4> classNs{};
        int64_t t = from;
        auto label = [&](int64_t until) {
            if (until <= t)
                return;
            int cls = 0;
            while (cls < 4 && openCount[cls] == 0)
                ++cls;
            if (cls == 4)
                split.add(IdleCause::NoHostActivity, t, until);
            else
                classNs[cls] += until - t;
            t = until;
        };
        for (const Edge& edge : m_edges) {
            label(edge.t);
            openCount[static_cast<int>(edge.cls)] += edge.delta;
        }
        label(to);
        for (int cls = 0; cls < 4; ++cls) {
            if (classNs[cls] == 0)
                continue;
            const auto hostClass = static_cast<HostClass>(cls);
            split.addNs(causeOf(hostClass), classNs[cls], namingEvent(hostClass, classNs[cls]));
        }
    }

    struct Open {
        EventIndex event;
        int64_t from, to;
        HostClass cls;
    };
    struct Edge {
        int64_t t;
        int delta;
        HostClass cls;
    };

    void consider(EventIndex e, int64_t from, int64_t to)
    {
        const HostClass cls = m_classifier.classOf(m_events.name[e]);
        if (cls == HostClass::Ignored)
            return;
        const int64_t a = std::max(from, m_events.tsNs[e]);
        const int64_t b = std::min(to, m_events.endNs(e));
        if (b > a)
            m_open.push_back({e, a, b, cls});
    }

    // The event of a class that names it: the innermost one covering at least half of the time the
    // class held (of two as deep, the one covering more), else the one covering the most.
    EventIndex namingEvent(HostClass cls, int64_t classNs) const
    {
        EventIndex best = kNoEvent, widest = kNoEvent;
        int64_t bestNs = -1, widestNs = -1;
        for (const Open& o : m_open) {
            if (o.cls != cls)
                continue;
            const int64_t ns = o.to - o.from;
            if (ns > widestNs) {
                widestNs = ns;
                widest = o.event;
            }
            if (2 * ns < classNs)
                continue;
            const int depth = m_events.depth[o.event];
            const int bestDepth = best == kNoEvent ? -1 : m_events.depth[best];
            if (depth > bestDepth || (depth == bestDepth && ns > bestNs)) {
                best = o.event;
                bestNs = ns;
            }
        }
        return best != kNoEvent ? best : widest;
    }

    // A wait recorded for the op: a stream-wait call on the launching thread after the previous op
    // on the stream was launched, or a cuda_sync event on the op's stream that waits on another
    // during the gap.
    bool waitedOnAnotherStream(const IdleGap& gap, EventIndex launch) const
    {
        const int64_t launchStart = m_events.tsNs[launch];
        int64_t since = gap.startNs;
        if (gap.previous != kNoEvent && m_events.link[gap.previous] != kNoEvent)
            since = std::min(since, m_events.tsNs[m_events.link[gap.previous]]);
        const std::vector<EventIndex>& list = m_threads[m_events.thread[launch]];
        auto it = std::lower_bound(list.begin(), list.end(), since,
                                   [this](EventIndex e, int64_t t) { return m_events.tsNs[e] < t; });
        for (; it != list.end() && m_events.tsNs[*it] <= launchStart; ++it)
            if (m_events.kind[*it] == EventKind::Runtime && isStreamWaitName(m_run.str(m_events.name[*it])))
                return true;
        for (const SyncArgs& sync : m_events.syncArgs) {
            const EventIndex e = sync.event;
            if (sync.waitOnStream >= 0 && sync.waitOnStream != gap.stream && m_events.stream[e] == gap.stream
                && m_events.tsNs[e] < gap.endNs && m_events.endNs(e) >= gap.startNs)
                return true;
        }
        return false;
    }

    // The GPU op on another stream whose end came closest to the op's start: what it waited for.
    EventIndex awaitedOp(const IdleGap& gap) const
    {
        // gpuRows ascend, so the op after the gap is found by bisection.
        const auto found = std::lower_bound(m_events.gpuRows.begin(), m_events.gpuRows.end(), gap.next);
        if (found == m_events.gpuRows.end() || *found != gap.next)
            return kNoEvent;
        EventIndex best = kNoEvent;
        int64_t bestDistance = 0;
        constexpr size_t kLookBack = 4096;  // GPU ops before the one after the gap
        const auto position = static_cast<size_t>(found - m_events.gpuRows.begin());
        for (size_t back = 1; back <= std::min(position, kLookBack); ++back) {
            const EventIndex e = m_events.gpuRows[position - back];
            if (!isGpuWorkRow(m_events, e) || m_events.stream[e] == gap.stream)
                continue;
            const int64_t end = m_events.endNs(e);
            if (end <= gap.startNs || end > gap.endNs)
                continue;
            const int64_t distance = gap.endNs - end;
            if (best == kNoEvent || distance < bestDistance) {
                best = e;
                bestDistance = distance;
            }
        }
        return best;
    }

    const Run& m_run;
    const EventTable& m_events;
    HostClassifier& m_classifier;
    int64_t m_delayNs;
    std::vector<std::vector<EventIndex>> m_threads;
    std::vector<Open> m_open;
    std::vector<Edge> m_edges;
};

} // namespace

const char* toString(IdleCause cause)
{
    switch (cause) {
    case IdleCause::Synchronization: return "synchronization";
    case IdleCause::DataLoading: return "data_loading";
    case IdleCause::OptimizerStep: return "optimizer_step";
    case IdleCause::CpuOp: return "cpu_op";
    case IdleCause::LaunchOverhead: return "launch_overhead";
    case IdleCause::StreamWait: return "stream_wait";
    case IdleCause::GpuQueued: return "gpu_queued";
    case IdleCause::NoHostActivity: return "no_host_activity";
    case IdleCause::LaunchNotInTrace: break;
    }
    return "launch_not_in_trace";
}

IdleCauses idleCauses(const Run& run, const IdleCausesOptions& options)
{
    IdleCauses result;
    const std::vector<const RankTrace*> ranks = ranksToRead(run, options.ranks);
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(note + ": left out");
    if (ranks.empty()) {
        result.error = run.ranks.empty() ? "the run has no rank" : "none of the ranks asked for is in the run";
        return result;
    }
    HostClassifier classifier(run, options.dataLoadNames);
    for (const RankTrace* rank : ranks) {
        const RankIndex rankIndex = run.indexOf(*rank);
        const std::vector<IdleGap> gaps = idleGaps(*rank, options.streams, options.consecutiveKernelDelayUs);
        if (gaps.empty()) {
            result.notes.push_back(rankLabel(rank->rank) + " has no idle gaps on the selected streams");
            continue;
        }
        RankCauses causes(run, *rank, classifier, options.consecutiveKernelDelayUs);
        std::array<IdleCauseRow, kCauses> rankRows{};
        std::map<int, std::array<IdleCauseRow, kCauses>> stepRows;
        int64_t rankIdleNs = 0;
        std::map<int, int64_t> stepIdleNs;
        std::map<int, std::array<IdleCauseRow, kCauses>> streamRows;
        std::map<int, int64_t> streamIdleNs;
        for (const IdleGap& gap : gaps) {
            IdleCauseGap explained = causes.explain(gap);
            explained.rankIndex = rankIndex;
            explained.rank = rank->rank;
            const int64_t length = gap.endNs - gap.startNs;
            const int c = static_cast<int>(explained.cause);
            ++rankRows[c].gaps;
            rankRows[c].idleNs += length;
            rankIdleNs += length;
            auto& steps = stepRows[explained.step];
            ++steps[c].gaps;
            steps[c].idleNs += length;
            stepIdleNs[explained.step] += length;
            auto& streams = streamRows[explained.stream];
            ++streams[c].gaps;
            streams[c].idleNs += length;
            streamIdleNs[explained.stream] += length;
            ++result.totalGaps;
            result.totalIdleNs += length;
            if (options.listGaps) {
                if (explained.causeEvent != kNoEvent)
                    explained.causeName = std::string(run.str(rank->events.name[explained.causeEvent]));
                result.gaps.push_back(std::move(explained));
            }
        }
        auto emit = [&](std::vector<IdleCauseRow>& out, std::array<IdleCauseRow, kCauses>& rows, int step, int stream,
                        int64_t total) {
            for (int c = 0; c < kCauses; ++c) {
                if (rows[c].gaps == 0)
                    continue;
                IdleCauseRow row = rows[c];
                row.rankIndex = rankIndex;
                row.rank = rank->rank;
                row.step = step;
                row.stream = stream;
                row.cause = static_cast<IdleCause>(c);
                row.ratio = total > 0 ? static_cast<double>(row.idleNs) / static_cast<double>(total) : 0.0;
                out.push_back(row);
            }
        };
        emit(result.byRank, rankRows, -1, -1, rankIdleNs);
        for (auto& [step, rows] : stepRows)
            emit(result.byStep, rows, step, -1, stepIdleNs[step]);
        for (auto& [stream, rows] : streamRows)
            emit(result.byStream, rows, -1, stream, streamIdleNs[stream]);
        if (!causes.hasHostEvents())
            result.notes.push_back(rankLabel(rank->rank)
                                   + " recorded no CPU op or runtime call: every gap is no_host_activity or launch_not_in_trace");
    }
    return result;
}

} // namespace kscope
