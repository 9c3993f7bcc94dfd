#include "analysis/operators/memory.h"

#include "analysis/core/gpuactivity.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace kscope {

namespace {

// Events with |Bytes| above this are left out as bad (no allocator hands out 4 EiB); sums of
// the rest saturate rather than overflow.
constexpr int64_t kMaxEventBytes = int64_t(1) << 62;

int64_t addSaturated(int64_t a, int64_t b)
{
    int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return sum;
}

// Per memory event (in memoryEvents order) the innermost cpu_op around it on its thread: one
// pass over the rank's rows with a stack of open ops per thread.
std::vector<StringId> enclosingOps(const RankTrace& rank)
{
    const EventTable& t = rank.events;
    std::vector<StringId> result(t.memoryEvents.size());
    std::vector<std::vector<EventIndex>> stacks(rank.threads.size());
    size_t next = 0;
    for (size_t i = 0; i < t.size() && next < t.memoryEvents.size(); ++i) {
        const auto e = static_cast<EventIndex>(i);
        const bool isMemory = t.memoryEvents[next].event == e;
        if (!isMemory && (t.phase[e] != Phase::Complete || t.kind[e] != EventKind::CpuOp))
            continue;
        auto& stack = stacks[t.thread[e]];
        while (!stack.empty() && t.endNs(stack.back()) <= t.tsNs[e])
            stack.pop_back();
        if (isMemory) {
            if (!stack.empty())
                result[next] = t.name[stack.back()];
            ++next;
        } else {
            stack.push_back(e);
        }
    }
    return result;
}

} // namespace

const char* memoryCategoryName(int category)
{
    static const char* const kNames[8] = {"Parameter", "Optimizer state", "Input",    "Temporary",
                                          "Activation", "Gradient",       "Autograd", "Unknown"};
    return category >= 0 && category < 8 ? kNames[category] : "Unknown";
}

CategoryTimeline categoryTimeline(const std::vector<MemoryTimelineRow>& rows, size_t maxPoints)
{
    CategoryTimeline result;
    if (rows.empty()) {
        result.error = "the memory timeline has no rows";
        return result;
    }
    int64_t tMin = -1;
    for (const MemoryTimelineRow& r : rows) {
        // HTA's rule verbatim (memory_analysis.py): the first row's time, else the least positive
        // one after it, so a first row at t <= 0 stays tMin.
        if (tMin == -1 || (r.time < tMin && r.time > 0))
            tMin = r.time;
        if (result.timesNs.empty() || r.time != result.timesNs.back()) {
            result.timesNs.push_back(r.time);
            result.bytes.push_back(result.bytes.empty() ? std::array<int64_t, 8>{} : result.bytes.back());
        }
        result.bytes.back()[static_cast<size_t>(std::clamp(r.category, 0, 7))] += r.bytes;
    }
    for (int64_t& t : result.timesNs)
        if (t < 0)
            t = tMin;
    for (size_t k = 0; k < result.timesNs.size(); ++k) {
        int64_t total = 0;
        for (size_t c = 0; c < 8; ++c) {
            result.peakBytes[c] = std::max(result.peakBytes[c], result.bytes[k][c]);
            total += result.bytes[k][c];
        }
        if (total > result.peakTotal) {
            result.peakTotal = total;
            result.peakTotalNs = result.timesNs[k];
        }
    }
    if (maxPoints > 0 && result.timesNs.size() > maxPoints) {
        // keep each bucket's highest total (and the first and last point)
        std::vector<int64_t> times;
        std::vector<std::array<int64_t, 8>> bytes;
        const size_t n = result.timesNs.size();
        auto total = [&](size_t k) {
            int64_t s = 0;
            for (int64_t b : result.bytes[k])
                s += b;
            return s;
        };
        const size_t buckets = std::max<size_t>(1, maxPoints - 2);
        times.push_back(result.timesNs.front());
        bytes.push_back(result.bytes.front());
        for (size_t b = 0; b < buckets; ++b) {
            const size_t from = 1 + (n - 2) * b / buckets, to = 1 + (n - 2) * (b + 1) / buckets;
            if (from >= to)
                continue;
            size_t best = from;
            for (size_t k = from; k < to; ++k)
                if (total(k) > total(best))
                    best = k;
            times.push_back(result.timesNs[best]);
            bytes.push_back(result.bytes[best]);
        }
        times.push_back(result.timesNs.back());
        bytes.push_back(result.bytes.back());
        result.timesNs = std::move(times);
        result.bytes = std::move(bytes);
    }
    return result;
}

std::string toString(const MemoryDeviceId& device)
{
    if (device.type == 0)
        return "cpu";
    // c10::DeviceType's numbers; ROCm builds of PyTorch record HIP (6).
    const char* name = device.type == 1    ? "cuda"
                       : device.type == 6  ? "hip"
                       : device.type == 12 ? "xpu"
                       : device.type == 13 ? "mps"
                       : device.type == 19 ? "mtia"
                                           : nullptr;
    if (name)
        return name + (":" + std::to_string(device.index));
    return "type" + std::to_string(device.type) + ":" + std::to_string(device.index);
}

std::vector<MemoryPoint> downsampleMemory(const std::vector<MemoryPoint>& series, size_t maxPoints)
{
    if (maxPoints == 0 || series.size() <= maxPoints)
        return series;
    if (maxPoints < 4) {
        // The peak first, then the last point (where the curve ends), then the first.
        size_t peak = 0;
        for (size_t k = 1; k < series.size(); ++k)
            if (series[k].allocated > series[peak].allocated)
                peak = k;
        std::vector<size_t> keep{peak};
        for (size_t k : {series.size() - 1, size_t{0}})
            if (keep.size() < maxPoints && std::find(keep.begin(), keep.end(), k) == keep.end())
                keep.push_back(k);
        std::sort(keep.begin(), keep.end());
        std::vector<MemoryPoint> out;
        for (size_t k : keep)
            out.push_back(series[k]);
        return out;
    }
    std::vector<MemoryPoint> out;
    out.reserve(maxPoints);
    out.push_back(series.front());
    const size_t inner = series.size() - 2;
    const size_t buckets = (maxPoints - 2) / 2;
    for (size_t b = 0; b < buckets; ++b) {
        const size_t from = 1 + inner * b / buckets;
        const size_t to = 1 + inner * (b + 1) / buckets;
        if (from >= to)
            continue;
        size_t lo = from, hi = from;
        for (size_t k = from; k < to; ++k) {
            if (series[k].allocated < series[lo].allocated)
                lo = k;
            if (series[k].allocated > series[hi].allocated)
                hi = k;
        }
        out.push_back(series[std::min(lo, hi)]);
        if (lo != hi)
            out.push_back(series[std::max(lo, hi)]);
    }
    out.push_back(series.back());
    return out;
}

namespace {

// What the values rest on: the allocator's totals where the events carry them, else what is
// unknown or only relative, device by device.
void addProvenanceNotes(MemoryTimeline& result)
{
    bool allTotals = true;
    for (const MemoryDevice& d : result.devices) {
        const std::string who = "rank " + std::to_string(d.device.rank) + " " + toString(d.device) + ": ";
        if (!d.addressesKnown)
            result.notes.push_back(who + "its [memory] events carry no Addr, so no free can be paired with its "
                                         "allocation: not_freed, not_freed_bytes and freed_from_before are unknown");
        if (!d.allocatedTotalsKnown)
            result.notes.push_back(who + "its [memory] events carry no Total Allocated: allocated is the net of the "
                                         "window's allocations and frees from 0 at the first event, not the "
                                         "allocator's total");
        if (!d.reservedKnown)
            result.notes.push_back(who + "its [memory] events carry no Total Reserved: reserved is unknown");
        allTotals &= d.allocatedTotalsKnown && d.reservedKnown;
    }
    if (allTotals)
        result.notes.push_back("allocated and reserved are the caching allocator's totals after each event; blocks "
                               "alive when the trace starts are in them but not in not_freed");
}

// c10::DeviceType 1 is CUDA, 6 HIP: deviceProperties lists the rank's GPUs by id.
int64_t deviceCapacity(const RankTrace& rank, const MemoryDeviceId& id)
{
    if (id.type != 1 && id.type != 6)
        return -1;
    for (const DeviceProperties& p : rank.metadata.devices)
        if (p.id == id.index && p.totalGlobalMem > 0)
            return p.totalGlobalMem;
    return -1;
}

} // namespace

MemoryTimeline memoryTimeline(const Run& run, const MemoryOptions& options)
{
    MemoryTimeline result;
    bool anyRank = false;
    int64_t badEvents = 0;
    for (const RankTrace& rank : run.ranks) {
        if (!chosen(options.ranks, run.indexOf(rank)))
            continue;
        anyRank = true;
        const EventTable& t = rank.events;
        if (t.memoryEvents.empty())
            continue;
        const std::vector<StringId> ops = options.perOp ? enclosingOps(rank) : std::vector<StringId>();

        struct Live {
            int64_t bytes;
            int64_t tsNs;
            StringId op;
        };
        struct DeviceState {
            MemoryDevice device;
            std::unordered_map<int64_t, Live> live;
            std::map<int, MemoryStepPeak> steps;
            std::unordered_map<uint32_t, MemoryOpRow> ops;
        };
        std::map<MemoryDeviceId, DeviceState> devices;
        for (size_t k = 0; k < t.memoryEvents.size(); ++k) {
            const MemoryEventArgs& m = t.memoryEvents[k];
            if (m.bytes > kMaxEventBytes || m.bytes < -kMaxEventBytes) {
                ++badEvents;
                continue;
            }
            const MemoryDeviceId id{rank.rank, m.deviceType, m.deviceId};
            DeviceState& state = devices[id];
            MemoryDevice& d = state.device;
            d.device = id;
            const int64_t ts = t.tsNs[m.event];
            d.addressesKnown &= m.addr != 0;
            d.allocatedTotalsKnown &= m.totalAllocated >= 0;
            d.reservedKnown &= m.totalReserved >= 0;
            const int64_t allocated = m.totalAllocated >= 0 ? m.totalAllocated : addSaturated(d.lastAllocated, m.bytes);
            const int64_t reserved = m.totalReserved >= 0 ? m.totalReserved : -1;
            const int64_t before = d.events ? d.lastAllocated : addSaturated(allocated, -m.bytes);
            if (d.events == 0)
                d.firstAllocated = allocated;
            ++d.events;
            if (options.series)
                d.series.push_back({ts, allocated, reserved, m.event, options.perOp ? ops[k] : StringId{}});
            if (allocated > d.peakAllocated || d.peakEvent == kNoEvent) {
                d.peakAllocated = allocated;
                d.peakAllocatedNs = ts;
                d.peakEvent = m.event;
            }
            d.peakReserved = std::max(d.peakReserved, reserved);
            d.lastAllocated = allocated;
            const StringId op = options.perOp ? ops[k] : StringId{};
            if (m.bytes > 0) {
                ++d.allocations;
                d.bytesAllocated = addSaturated(d.bytesAllocated, m.bytes);
                state.live[m.addr] = {m.bytes, ts, op};
                if (options.perOp) {
                    MemoryOpRow& row = state.ops[op.value];
                    row.device = id;
                    row.op = op;
                    ++row.allocations;
                    row.bytes = addSaturated(row.bytes, m.bytes);
                }
            } else if (m.bytes < 0) {
                ++d.frees;
                d.bytesFreed = addSaturated(d.bytesFreed, -m.bytes);
                if (state.live.erase(m.addr) == 0)
                    ++d.freedFromBefore;
            }
            const int step = t.step[m.event];
            if (step >= 0) {
                auto [it, added] = state.steps.try_emplace(step);
                MemoryStepPeak& s = it->second;
                if (added) {
                    s.device = id;
                    s.step = step;
                    s.startAllocated = before;
                }
                s.peakAllocated = std::max(s.peakAllocated, allocated);
                s.peakReserved = std::max(s.peakReserved, reserved);
                s.endAllocated = allocated;
                ++s.events;
            }
        }
        for (auto& [id, state] : devices) {
            MemoryDevice& d = state.device;
            d.capacityBytes = deviceCapacity(rank, id);
            if (!d.reservedKnown) {
                d.peakReserved = -1;
                for (auto& [step, peak] : state.steps)
                    peak.peakReserved = -1;
                for (MemoryPoint& p : d.series)
                    p.reserved = -1;
            }
            if (!d.addressesKnown) {
                // Frees cannot be paired with allocations: what was not freed is unknown.
                d.notFreed = d.notFreedBytes = d.freedFromBefore = -1;
                state.live.clear();
                for (auto& [key, row] : state.ops)
                    row.notFreedBytes = -1;
            }
            std::vector<MemoryAllocation> unfreed;
            unfreed.reserve(state.live.size());
            for (const auto& [addr, live] : state.live) {
                ++d.notFreed;
                d.notFreedBytes = addSaturated(d.notFreedBytes, live.bytes);
                unfreed.push_back({id, addr, live.bytes, live.tsNs, live.op});
                if (options.perOp) {
                    auto it = state.ops.find(live.op.value);
                    if (it != state.ops.end())
                        it->second.notFreedBytes = addSaturated(it->second.notFreedBytes, live.bytes);
                }
            }
            std::sort(unfreed.begin(), unfreed.end(), [](const MemoryAllocation& a, const MemoryAllocation& b) {
                return a.bytes != b.bytes ? a.bytes > b.bytes : a.tsNs < b.tsNs;
            });
            if (unfreed.size() > options.topUnfreed)
                unfreed.resize(options.topUnfreed);
            result.unfreed.insert(result.unfreed.end(), unfreed.begin(), unfreed.end());
            for (auto& [step, peak] : state.steps)
                result.stepPeaks.push_back(peak);
            std::vector<MemoryOpRow> rows;
            rows.reserve(state.ops.size());
            for (auto& [key, row] : state.ops)
                rows.push_back(row);
            std::sort(rows.begin(), rows.end(), [&run](const MemoryOpRow& a, const MemoryOpRow& b) {
                if (a.bytes != b.bytes)
                    return a.bytes > b.bytes;
                return run.str(a.op) < run.str(b.op);
            });
            result.ops.insert(result.ops.end(), rows.begin(), rows.end());
            if (options.maxPoints > 0)
                d.series = downsampleMemory(d.series, options.maxPoints);
            result.devices.push_back(std::move(d));
        }
    }
    if (!anyRank)
        result.error = options.ranks.empty() ? "the run has no rank" : "none of the ranks asked for is in the run";
    else if (result.devices.empty())
        result.error = "the trace has no [memory] events (record it with profile_memory=True)";
    else
        addProvenanceNotes(result);
    if (badEvents > 0)
        result.notes.push_back(std::to_string(badEvents) + " [memory] event" + (badEvents == 1 ? "" : "s")
                               + " with |Bytes| over 2^62 left out as bad");
    return result;
}

} // namespace kscope
