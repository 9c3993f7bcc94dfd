#include "analysis/launch/queuelength.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "analysis/htaorder.h"
#include "analysis/rankparallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace kscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Change {
    int64_t tsNs = 0;
    int32_t delta = 0;
    int32_t stream = -1;
    ThreadIndex thread = 0;
    bool valid = true;  // false: HTA's join found no GPU op (NaN stream, dropped by its groupby)
};

// HTA: runtime launches with a correlated partner (index_correlation > 0), each joined to the
// GPU events (stream != -1) of its correlation (taking their stream, pid and tid), then the GPU
// events whose correlation a launch has; concatenated and put in order by numpy's quicksort on
// ts, whose order of equal times the frame order decides.
std::vector<Change> htaChanges(const RankTrace& rank, const std::vector<StringId>& names, std::string& error)
{
    const EventTable& t = rank.events;
    std::vector<EventIndex> runtime, gpu;
    for (size_t i = 0; i < t.size(); ++i) {
        if (!isHtaVisible(t, i))
            continue;
        if (t.stream[i] != -1)
            gpu.push_back(static_cast<EventIndex>(i));
        // HTA's index_correlation > 0: a partner at position 0 of traceEvents reads as none.
        const EventIndex partner = t.link[i];
        if (partner != kNoEvent && containsId(names, t.name[i])
            && !(rank.firstElementKept && t.fileIndex.size() == t.size() && t.fileIndex[partner] == 0))
            runtime.push_back(static_cast<EventIndex>(i));
    }
    // pandas' left join of each launch (in frame order) with the GPU events of its correlation
    // (in frame order), then the GPU events whose correlation a launch has.
    const std::vector<KeyedRow> runtimeByKey = keyedByCorrelation(t, runtime);
    const std::vector<KeyedRow> gpuByKey = keyedByCorrelation(t, gpu);
    const std::vector<KeyMatch> matches = matchKeys(runtimeByKey, gpuByKey);
    std::vector<std::pair<uint32_t, uint32_t>> joined(runtimeByKey.size(), {0, 0});  // gpuByKey range per launch
    std::vector<uint8_t> gpuLaunched(gpuByKey.size(), 0);
    for (const KeyMatch& m : matches) {
        for (uint32_t r = m.aBegin; r < m.aEnd; ++r)
            joined[r] = {m.bBegin, m.bEnd};
        for (uint32_t g = m.bBegin; g < m.bEnd; ++g)
            gpuLaunched[g] = 1;
    }
    auto inFrameOrder = [](std::vector<uint32_t>& order, const std::vector<KeyedRow>& keyed) {
        order.resize(keyed.size());
        for (uint32_t k = 0; k < order.size(); ++k)
            order[k] = k;
        std::sort(order.begin(), order.end(),
                  [&keyed](uint32_t a, uint32_t b) { return keyed[a].position < keyed[b].position; });
    };
    std::vector<uint32_t> order;
    std::vector<Change> changes;
    changes.reserve(runtime.size() * 2);
    inFrameOrder(order, runtimeByKey);
    for (uint32_t k : order) {
        const EventIndex r = runtimeByKey[k].row;
        const auto [lo, hi] = joined[k];
        if (lo == hi)
            changes.push_back({t.tsNs[r], +1, -1, 0, false});
        for (uint32_t g = lo; g < hi; ++g)
            changes.push_back({t.tsNs[r], +1, t.stream[gpuByKey[g].row], t.thread[gpuByKey[g].row], true});
    }
    const size_t launches = changes.size();
    inFrameOrder(order, gpuByKey);
    for (uint32_t k : order)
        if (gpuLaunched[k]) {
            const EventIndex g = gpuByKey[k].row;
            changes.push_back({t.tsNs[g], -1, t.stream[g], t.thread[g], true});
        }
    if (changes.size() - launches != launches) {
        error = rankLabel(rank.rank) + ": HTA's check fails (" + std::to_string(launches) + " launch rows, "
            + std::to_string(changes.size() - launches) + " GPU ops)";
        return {};
    }
    std::vector<int64_t> ts(changes.size());
    for (size_t k = 0; k < changes.size(); ++k)
        ts[k] = changes[k].tsNs;
    std::vector<Change> sorted;
    sorted.reserve(changes.size());
    for (uint32_t k : hta::quicksortArgsort(ts))
        sorted.push_back(changes[k]);
    return sorted;
}

// Default mode: each GPU op with its launch as the model links them (a graph launch enqueues all
// its ops at once); ops whose launch is not in the trace are counted, not guessed. Per stream,
// +1 at each launch and -1 at each op's start, in time order (equal times: launch before its op,
// then op order), one point per time: the length after all that happened then. The ops' starts
// come in time order already and their launches nearly so (a stream runs in launch order), so
// the two lists are merged, not sorted.
std::vector<QueueSeries> linkedSeries(const RankTrace& rank, const std::vector<StringId>& names, int64_t& withoutLaunch)
{
    const EventTable& t = rank.events;
    struct TimedOp {
        int64_t tsNs;
        EventIndex op;  // the GPU op: walk order, and its thread
    };
    struct StreamChanges {
        int32_t stream = -1;
        std::vector<TimedOp> launches, starts;
    };
    std::vector<StreamChanges> streams;
    size_t last = 0;
    withoutLaunch = forEachLinkedLaunch(t, names, [&](EventIndex launch, EventIndex gpu) {
        const int32_t stream = t.stream[gpu];
        last = findStream(streams, stream, last);
        if (last == streams.size())
            streams.push_back({stream, {}, {}});
        streams[last].launches.push_back({t.tsNs[launch], gpu});
        streams[last].starts.push_back({t.tsNs[gpu], gpu});
    });
    std::sort(streams.begin(), streams.end(),
              [](const StreamChanges& a, const StreamChanges& b) { return a.stream < b.stream; });
    const auto byTime = [](const TimedOp& a, const TimedOp& b) { return a.tsNs < b.tsNs; };
    const auto inTimeOrder = [&byTime](std::vector<TimedOp>& v) {
        if (!std::is_sorted(v.begin(), v.end(), byTime))
            std::stable_sort(v.begin(), v.end(), byTime);  // equal times stay in op order
    };
    std::vector<QueueSeries> out;
    out.reserve(streams.size());
    for (StreamChanges& sc : streams) {
        inTimeOrder(sc.launches);
        inTimeOrder(sc.starts);
        QueueSeries& s = out.emplace_back();
        s.rank = rank.rank;
        s.stream = sc.stream;
        s.tsNs.reserve(sc.launches.size() + sc.starts.size());
        s.length.reserve(sc.launches.size() + sc.starts.size());
        int32_t value = 0;
        size_t l = 0, g = 0;
        while (l < sc.launches.size() || g < sc.starts.size()) {
            const bool launchFirst = g == sc.starts.size()
                || (l < sc.launches.size()
                    && (sc.launches[l].tsNs < sc.starts[g].tsNs
                        || (sc.launches[l].tsNs == sc.starts[g].tsNs && sc.launches[l].op <= sc.starts[g].op)));
            const TimedOp& c = launchFirst ? sc.launches[l++] : sc.starts[g++];
            value += launchFirst ? 1 : -1;
            if (s.tsNs.empty())
                s.thread = t.thread[c.op];
            if (!s.tsNs.empty() && s.tsNs.back() == c.tsNs) {
                s.length.back() = value;
                continue;
            }
            s.tsNs.push_back(c.tsNs);
            s.length.push_back(value);
        }
    }
    return out;
}

// HTA's groupby("stream") then cumsum: streams ascending, each in the sorted order.
std::vector<QueueSeries> htaSeriesOf(int rank, const std::vector<Change>& changes)
{
    std::map<int32_t, QueueSeries> byStream;
    for (const Change& c : changes) {
        if (!c.valid)
            continue;
        auto [it, inserted] = byStream.try_emplace(c.stream);
        QueueSeries& s = it->second;
        if (inserted) {
            s.rank = rank;
            s.stream = c.stream;
            s.thread = c.thread;
        }
        const int32_t value = (s.length.empty() ? 0 : s.length.back()) + c.delta;
        s.tsNs.push_back(c.tsNs);
        s.length.push_back(value);
    }
    std::vector<QueueSeries> out;
    out.reserve(byStream.size());
    for (auto& [stream, s] : byStream)
        out.push_back(std::move(s));
    return out;
}

QueueStats statsOf(const QueueSeries& s, bool htaCompat)
{
    const Description d = describeIntegers(s.length);
    QueueStats q{s.rank, s.stream, d.count, d.mean, d.std, d.min, d.p25, d.p50, d.p75, d.max, kNaN};
    if (!htaCompat && s.tsNs.size() >= 2 && s.tsNs.back() > s.tsNs.front()) {
        double weighted = 0.0;
        for (size_t i = 0; i + 1 < s.tsNs.size(); ++i)
            weighted += static_cast<double>(s.length[i]) * static_cast<double>(s.tsNs[i + 1] - s.tsNs[i]);
        q.timeWeightedMean = weighted / static_cast<double>(s.tsNs.back() - s.tsNs.front());
    }
    return q;
}

// Time at or above the limit: each point lasts until the next one (the last has no duration). A
// stream whose points never reach the limit gives no row.
bool blockedOf(const QueueSeries& s, int64_t limit, int64_t& durationNs)
{
    bool reached = false;
    durationNs = 0;
    for (size_t i = 0; i < s.length.size(); ++i) {
        if (s.length[i] < limit)
            continue;
        reached = true;
        if (i + 1 < s.tsNs.size())
            durationNs += s.tsNs[i + 1] - s.tsNs[i];
    }
    return reached;
}

// HTA divides by ts.max - ts.min of the rank's events (starts only); the default mode by the span
// from the first start to the last end.
int64_t traceDurationNs(const RankTrace& rank, bool htaCompat)
{
    const EventTable& t = rank.events;
    if (t.size() == 0)
        return 0;
    if (htaCompat)
        return t.tsNs.back() - t.tsNs.front();
    int64_t end = t.tsNs.front();
    for (size_t i = 0; i < t.size(); ++i)
        end = std::max(end, t.endNs(static_cast<EventIndex>(i)));
    return end - t.tsNs.front();
}

} // namespace

std::vector<std::string_view> queueLaunchNames(bool htaCompat)
{
    std::vector<std::string_view> names = {
        "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx", "cudaMemcpyAsync",
        "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
        "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream"};
    if (!htaCompat)
        names.insert(names.end(), {"cudaLaunchCooperativeKernel", "cuLaunchCooperativeKernel", "cudaGraphLaunch",
                                   "cudaGraphLaunch_v10000", "cuGraphLaunch", "hipGraphLaunch", "hipModuleLaunchKernel",
                                   "hipExtLaunchKernel"});
    return names;
}

QueueLength queueLength(const Run& run, const QueueLengthOptions& options)
{
    QueueLength result;
    result.options = options;
    const std::vector<StringId> names = idsOfNames(run.strings, queueLaunchNames(options.htaCompat));
    std::vector<const RankTrace*> ranks;
    for (const RankTrace& rank : run.ranks)
        if (chosen(options.ranks, run.indexOf(rank)))
            ranks.push_back(&rank);
    const bool anyRank = !ranks.empty();
    struct Part {
        std::vector<QueueSeries> series;
        std::vector<QueueStats> stats;
        std::vector<QueueBlocked> blocked;
        std::vector<std::string> notes;
        int64_t maxObserved = 0;
    };
    // Ranks on the cores; the parts joined in rank order, so the answer is the one-thread one.
    std::vector<Part> parts = perRankInParallel<Part>(ranks.size(), [&](size_t k) {
        const RankTrace& rank = *ranks[k];
        Part part;
        std::vector<QueueSeries>& series = part.series;
        if (options.htaCompat) {
            std::string error;
            const std::vector<Change> changes = htaChanges(rank, names, error);
            if (!error.empty()) {
                part.notes.push_back(error);
                return part;
            }
            series = htaSeriesOf(rank.rank, changes);
        } else {
            int64_t withoutLaunch = 0;
            series = linkedSeries(rank, names, withoutLaunch);
            if (withoutLaunch > 0)
                part.notes.push_back(rankLabel(rank.rank) + ": " + std::to_string(withoutLaunch)
                                     + " GPU ops whose launch is not in the trace are not in the queue");
        }
        for (QueueSeries& s : series)
            s.rankIndex = run.indexOf(rank);
        std::optional<int64_t> duration;  // read only when a stream is blocked: it walks every event
        for (const QueueSeries& s : series) {
            const QueueStats stats = statsOf(s, options.htaCompat);
            part.stats.push_back(stats);
            if (stats.count > 0)
                part.maxObserved = std::max<int64_t>(part.maxObserved, static_cast<int64_t>(stats.max));
            int64_t durationNs = 0;
            if (blockedOf(s, options.maxQueueLength, durationNs)) {
                if (!duration)
                    duration = traceDurationNs(rank, options.htaCompat);
                part.blocked.push_back({rank.rank, s.stream, durationNs,
                                        *duration > 0 ? static_cast<double>(durationNs) / static_cast<double>(*duration) : kNaN});
            }
        }
        if (options.htaCompat && part.blocked.size() > 1)
            part.blocked.erase(part.blocked.begin(), part.blocked.end() - 1);  // HTA's dict keeps one stream per rank: the last
        if (series.empty())
            part.notes.push_back(rankLabel(rank.rank) + " has no launches on a GPU stream");
        return part;
    });
    for (Part& part : parts) {
        result.stats.insert(result.stats.end(), part.stats.begin(), part.stats.end());
        result.maxObserved = std::max(result.maxObserved, part.maxObserved);
        result.blocked.insert(result.blocked.end(), part.blocked.begin(), part.blocked.end());
        for (std::string& note : part.notes)
            result.notes.push_back(std::move(note));
        for (QueueSeries& s : part.series)
            result.series.push_back(std::move(s));
    }
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(std::move(note));
    if (!anyRank)
        result.error = "no rank to analyse";
    else if (result.series.empty())
        result.error = "no launch on a GPU stream in any rank";
    return result;
}

} // namespace kscope
