#include "analysis/criticalpath/criticalpathprep.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htaorder.h"

namespace kscope::cpdetail {

Prep::Prep(const Run& run, const RankTrace& r, const CriticalPathOptions& options)
    : rank(r), t(r.events), hta(options.htaCompat && r.events.fileIndex.size() == r.events.size())
{
    const size_t n = run.strings.size() + 1;
    names.assign(n, 0);
    cats.assign(n, 0);
    auto setName = [&](std::string_view s, uint16_t flag) {
        if (const StringId id = run.strings.find(s))
            names[id.value] |= flag;
    };
    for (auto s : {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync"})
        setName(s, kLock);
    for (auto s : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery", "cudaEventSynchronize",
                   "cudaMemcpy", "cudaMemcpyAsync"})
        setName(s, kBlocking);
    for (auto s : {"cudaMemsetAsync", "cudaMemcpyAsync", "cudaLaunchKernel", "cudaLaunchKernelExC",
                   "cuLaunchKernel", "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
                   "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
                   "cuLaunchKernelEx"})
        setName(s, kLaunch);
    setName("cudaEventRecord", kEventRecord);
    setName("cudaStreamWaitEvent", kStreamWaitCall);
    setName("Stream Wait Event", kStreamWaitEvent);
    setName("Event Sync", kEventSync);
    setName("Context Sync", kContextSync);
    setName("Stream Sync", kStreamSync);
    for (size_t id = 1; id < run.strings.size(); ++id) {
        const std::string_view s = run.strings.view(StringId{static_cast<uint32_t>(id)});
        if (s.find("autograd") != std::string_view::npos)
            names[id] |= kAutograd;
        if (s.find("forward") != std::string_view::npos)
            names[id] |= kForward;
        for (const std::string& p : options.dataLoadEvents)
            if (!p.empty() && s.find(p) != std::string_view::npos)
                names[id] |= kDataLoad;
        if (s == "cpu_op" || s == "cuda_runtime" || s == "cuda_driver")
            cats[id] |= kNodeCat;
        if (s == "cpu_op" || s == "user_annotation")
            cats[id] |= kFwdCat;
        if (s == "cuda_sync")
            cats[id] |= kSyncCat;
    }
    frame.reserve(t.size());
    for (size_t i = 0; i < t.size(); ++i)
        if (isHtaVisible(t, i))
            frame.push_back(static_cast<EventIndex>(i));
    sortToFileOrder(t, frame);
}

// HTA's queue length time series (TraceCounters), as a value per launch call and per GPU op.
std::vector<int64_t> queueLengths(const Prep& p)
{
    const EventTable& t = p.t;
    std::vector<EventIndex> runtime, gpu;
    for (EventIndex i : p.frame) {
        if (t.stream[i] != -1)
            gpu.push_back(i);
        if ((p.nameFlags(i) & kLaunch) && p.partner(i) != kNoEvent)
            runtime.push_back(i);
    }
    const std::vector<KeyedRow> runtimeByKey = keyedByCorrelation(t, runtime);
    const std::vector<KeyedRow> gpuByKey = keyedByCorrelation(t, gpu);
    std::vector<std::pair<uint32_t, uint32_t>> joined(runtimeByKey.size(), {0, 0});
    std::vector<uint8_t> launched(gpuByKey.size(), 0);
    for (const KeyMatch& m : matchKeys(runtimeByKey, gpuByKey)) {
        for (uint32_t r = m.aBegin; r < m.aEnd; ++r)
            joined[r] = {m.bBegin, m.bEnd};
        for (uint32_t g = m.bBegin; g < m.bEnd; ++g)
            launched[g] = 1;
    }
    struct Change {
        int64_t ts;
        int32_t delta;
        int32_t stream;
        EventIndex event;
    };
    std::vector<Change> changes;
    std::vector<uint32_t> order(runtimeByKey.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return runtimeByKey[a].position < runtimeByKey[b].position; });
    for (uint32_t k : order) {
        const EventIndex r = runtimeByKey[k].row;
        const auto [lo, hi] = joined[k];
        if (lo == hi)
            changes.push_back({t.tsNs[r], +1, INT32_MIN, r});
        for (uint32_t g = lo; g < hi; ++g)
            changes.push_back({t.tsNs[r], +1, t.stream[gpuByKey[g].row], r});
    }
    order.resize(gpuByKey.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return gpuByKey[a].position < gpuByKey[b].position; });
    for (uint32_t k : order)
        if (launched[k])
            changes.push_back({t.tsNs[gpuByKey[k].row], -1, t.stream[gpuByKey[k].row], gpuByKey[k].row});
    std::vector<int64_t> q(t.size(), kNoQueue);
    std::map<int32_t, int64_t> length;
    for (uint32_t k : p.sortBy(changes.size(), [&](size_t c) { return changes[c].ts; })) {
        const Change& c = changes[k];
        if (c.stream == INT32_MIN)
            continue;  // no GPU op of that correlation: NaN stream, left out by groupby
        q[c.event] = (length[c.stream] += c.delta);
    }
    return q;
}

std::vector<LaunchCall> launchCalls(const Prep& p)
{
    std::vector<LaunchCall> rows;
    for (EventIndex i : p.frame) {
        if (!(p.nameFlags(i) & kLaunch))
            continue;
        const EventIndex g = p.partner(i);
        if (g == kNoEvent || p.t.stream[g] == -1 || p.partner(g) == kNoEvent)
            continue;
        rows.push_back({i, p.t.stream[g], p.thread(g).pid});
    }
    std::vector<LaunchCall> sorted;
    sorted.reserve(rows.size());
    for (uint32_t k : p.sortBy(rows.size(), [&](size_t r) { return p.t.tsNs[rows[r].event]; }))
        sorted.push_back(rows[k]);
    return sorted;
}

// For each cudaEventRecord's correlation: the last launch on the recorded stream before it
// (HTA's _get_cuda_event_record_df, index_previous_launch).
std::map<int64_t, EventIndex> previousLaunches(const Prep& p, const std::vector<LaunchCall>& launches)
{
    const EventTable& t = p.t;
    std::map<int64_t, std::pair<int32_t, int64_t>> streamOfRecord;  // correlation -> (stream, gpu pid)
    for (const SyncArgs& s : t.syncArgs)
        if (s.waitOnStream > -1 && isHtaVisible(t, s.event))
            streamOfRecord.try_emplace(s.waitOnEventRecordCorrelation, s.waitOnStream, p.thread(s.event).pid);
    std::vector<EventIndex> records;
    for (EventIndex i : p.frame)
        if (p.nameFlags(i) & kEventRecord)
            records.push_back(i);
    struct Row {
        int64_t ts;
        int64_t launchId;  // -1 for records
        int32_t stream;
        int64_t gpu;
        int64_t correlation;
    };
    std::vector<Row> combined;
    for (size_t l = 0; l < launches.size(); ++l)
        combined.push_back({t.tsNs[launches[l].event], static_cast<int64_t>(l), launches[l].stream,
                            launches[l].gpuPid, -1});
    for (uint32_t k : p.sortBy(records.size(), [&](size_t r) { return t.tsNs[records[r]]; })) {
        const auto it = streamOfRecord.find(t.correlation[records[k]]);
        if (it != streamOfRecord.end())
            combined.push_back({t.tsNs[records[k]], -1, it->second.first, it->second.second,
                                t.correlation[records[k]]});
    }
    std::map<int64_t, EventIndex> out;
    std::map<std::pair<int64_t, int32_t>, int64_t> lastLaunch;
    for (uint32_t k : p.sortBy(combined.size(), [&](size_t c) { return combined[c].ts; })) {
        const Row& r = combined[k];
        const auto key = std::make_pair(r.gpu, r.stream);
        if (r.launchId >= 0) {
            auto [it, inserted] = lastLaunch.try_emplace(key, r.launchId);
            if (!inserted)
                it->second = std::max(it->second, r.launchId);
            continue;
        }
        const auto it = lastLaunch.find(key);
        if (it != lastLaunch.end())
            out[r.correlation] = launches[static_cast<size_t>(it->second)].event;
    }
    return out;
}

// For each cudaStreamWaitEvent call: the next launch from the same thread on the waiting stream
// (HTA's _get_cuda_stream_wait_event_df, index_next_launch).
std::unordered_map<EventIndex, EventIndex> nextLaunches(const Prep& p, const std::vector<LaunchCall>& launches)
{
    const EventTable& t = p.t;
    std::vector<EventIndex> waits;
    for (EventIndex i : p.frame) {
        if (!(p.nameFlags(i) & kStreamWaitCall))
            continue;
        const EventIndex g = p.partner(i);
        if (g != kNoEvent && t.stream[g] != -1 && p.partner(g) != kNoEvent)
            waits.push_back(i);
    }
    struct Row {
        int64_t ts;
        int64_t launchId;  // -1 for waits
        int64_t pid, tid;
        int32_t stream;
        EventIndex event;
    };
    std::vector<Row> combined;
    for (size_t l = 0; l < launches.size(); ++l) {
        const EventIndex e = launches[l].event;
        combined.push_back({t.tsNs[e], static_cast<int64_t>(l), p.thread(e).pid, p.thread(e).tid, launches[l].stream, e});
    }
    for (uint32_t k : p.sortBy(waits.size(), [&](size_t w) { return t.tsNs[waits[w]]; })) {
        const EventIndex e = waits[k];
        combined.push_back({t.tsNs[e], -1, p.thread(e).pid, p.thread(e).tid, t.stream[p.partner(e)], e});
    }
    const std::vector<uint32_t> order = p.sortBy(combined.size(), [&](size_t c) { return combined[c].ts; });
    std::unordered_map<EventIndex, EventIndex> out;
    std::map<std::tuple<int64_t, int64_t, int32_t>, int64_t> nextLaunch;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const Row& r = combined[*it];
        const auto key = std::make_tuple(r.pid, r.tid, r.stream);
        if (r.launchId >= 0) {
            auto [at, inserted] = nextLaunch.try_emplace(key, r.launchId);
            if (!inserted)
                at->second = std::min(at->second, r.launchId);
            continue;
        }
        const auto at = nextLaunch.find(key);
        if (at != nextLaunch.end())
            out[r.event] = launches[static_cast<size_t>(at->second)].event;
    }
    return out;
}

} // namespace kscope::cpdetail
