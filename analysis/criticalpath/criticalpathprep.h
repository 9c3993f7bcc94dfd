#pragma once

// Internal to the critical-path analysis: a rank's events as HTA's frame sees them (its row
// order, index_correlation, the names and categories the graph asks about), and the per-rank
// tables HTA joins in (queue length, launch calls, the launch before each cudaEventRecord and
// after each cudaStreamWaitEvent).

#include "analysis/criticalpath/criticalpath.h"

#include "analysis/htanumerics.h"

#include <algorithm>
#include <climits>
#include <map>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace kscope::cpdetail {

constexpr int64_t kNoQueue = INT64_MIN;

enum NameFlag : uint16_t {
    kLock = 1,            // shares the CUDA runtime lock
    kBlocking = 2,        // waits for the GPU: its exit edge weighs 0
    kLaunch = 4,          // enqueues GPU work (HTA's launch events)
    kDataLoad = 8,
    kEventRecord = 16,
    kStreamWaitCall = 32,  // cudaStreamWaitEvent
    kStreamWaitEvent = 64, // "Stream Wait Event"
    kEventSync = 128,
    kContextSync = 256,
    kStreamSync = 512,
    kAutograd = 1024,
    kForward = 2048,
};
enum CatFlag : uint8_t { kNodeCat = 1, kSyncCat = 2, kFwdCat = 4 };

struct Prep {
    const RankTrace& rank;
    const EventTable& t;
    bool hta;
    std::vector<uint16_t> names;
    std::vector<uint8_t> cats;
    std::vector<EventIndex> frame;  // visible rows in HTA's frame order

    Prep(const Run& run, const RankTrace& r, const CriticalPathOptions& options);

    uint16_t nameFlags(EventIndex i) const { return names[t.name[i].value]; }
    uint8_t catFlags(EventIndex i) const { return cats[t.category[i].value]; }
    int64_t index(EventIndex i) const { return hta ? int64_t{t.fileIndex[i]} : int64_t{i}; }
    // HTA's index_correlation > 0: the partner, unless it sits at position 0 of traceEvents.
    EventIndex partner(EventIndex i) const
    {
        const EventIndex p = t.link[i];
        if (p == kNoEvent || (hta && t.fileIndex[p] == 0))
            return kNoEvent;
        return p;
    }
    // index_correlation >= 0
    bool correlated(EventIndex i) const { return t.link[i] != kNoEvent || t.correlation[i] >= 0; }
    const ThreadKey& thread(EventIndex i) const { return rank.threads[t.thread[i]]; }

    // Rows sorted by ts: numpy's quicksort over the given (frame) order in HTA's mode, stable otherwise.
    template <typename Key>
    std::vector<uint32_t> sortBy(size_t count, Key key) const
    {
        std::vector<int64_t> keys(count);
        for (size_t k = 0; k < count; ++k)
            keys[k] = key(k);
        if (hta)
            return hta::quicksortArgsort(keys);
        std::vector<uint32_t> order(count);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
        return order;
    }
};


// A launch call with its GPU op (HTA's _get_cuda_runtime_calls_df), in launch_id order.
struct LaunchCall {
    EventIndex event;
    int32_t stream;   // of the GPU op
    int64_t gpuPid;   // of the GPU op
};

// HTA's queue length time series (TraceCounters), as a value per launch call and per GPU op.
std::vector<int64_t> queueLengths(const Prep& p);
std::vector<LaunchCall> launchCalls(const Prep& p);
// For each cudaEventRecord's correlation: the last launch on the recorded stream before it.
std::map<int64_t, EventIndex> previousLaunches(const Prep& p, const std::vector<LaunchCall>& launches);
// For each cudaStreamWaitEvent call: the next launch from its thread on the waiting stream.
std::unordered_map<EventIndex, EventIndex> nextLaunches(const Prep& p, const std::vector<LaunchCall>& launches);

} // namespace kscope::cpdetail
