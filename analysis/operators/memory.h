#pragma once

#include "analysis/rankchoice.h"

// GPU (and CPU) memory over time from the profiler's "[memory]" instant events
// (profile_memory=True; EventTable::memoryEvents): per device the allocator's allocated and
// reserved bytes after every event, the peak (overall and per ProfilerStep), the operators that
// allocate the most (the innermost cpu_op around the allocation on its thread), and the
// allocations not freed inside the trace window. HTA has no such analysis (its MemoryAnalysis
// reads PyTorch's export_memory_timeline file instead: see model/memorytimeline.h).

#include "model/memorytimeline.h"
#include "model/trace.h"

#include <array>

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct MemoryOptions {
    RankChoice ranks;        // empty = every rank
    // The series: 0 = every event (exact); else at most this many points per device, keeping
    // each bucket's lowest and highest allocated value (so the peak survives).
    size_t maxPoints = 0;
    bool series = true;      // fill MemoryDevice::series
    bool perOp = true;       // attribute allocations to ops (a pass over the rank's events)
    size_t topUnfreed = 50;  // largest allocations not freed in the window kept, per device
};

struct MemoryDeviceId {
    int rank = -1;
    int8_t type = -1;  // c10::DeviceType: 0 CPU, 1 CUDA, ...
    int8_t index = -1;
    auto operator<=>(const MemoryDeviceId&) const = default;
};
std::string toString(const MemoryDeviceId& device);  // "cuda:0", "hip:0" (ROCm), "cpu", "type8:0"

struct MemoryPoint {
    int64_t tsNs = 0;
    int64_t allocated = 0;  // Total Allocated after the event
    int64_t reserved = 0;   // Total Reserved after the event (-1: not recorded)
    EventIndex event = kNoEvent;  // the [memory] event
    StringId op;                  // the cpu_op around it (with MemoryOptions::perOp), else empty
};

struct MemoryDevice {
    MemoryDeviceId device;
    std::vector<MemoryPoint> series;  // in time order
    int64_t events = 0;
    int64_t allocations = 0;
    int64_t frees = 0;
    int64_t bytesAllocated = 0;
    int64_t bytesFreed = 0;
    int64_t peakAllocated = 0;
    int64_t peakAllocatedNs = 0;
    EventIndex peakEvent = kNoEvent;
    int64_t peakReserved = 0;
    // The device's memory from the trace's deviceProperties (totalGlobalMem of the device with
    // this index), for CUDA and HIP devices; -1 when the trace does not say.
    int64_t capacityBytes = -1;
    int64_t firstAllocated = 0;  // after the first event
    int64_t lastAllocated = 0;   // after the last event
    int64_t notFreed = 0;        // allocations in the window with no free in it (-1: unknown)
    int64_t notFreedBytes = 0;   // -1: unknown
    int64_t freedFromBefore = 0;  // frees of blocks allocated before the window (-1: unknown)
    // What the events carried. Older PyTorch writes neither Addr nor the allocator's totals:
    // without Addr no free can be paired with its allocation (not freed: unknown); without Total
    // Allocated the allocated series is the net of the window's events from 0 at the first one;
    // without Total Reserved the reserved values are unknown (-1).
    bool addressesKnown = true;
    bool allocatedTotalsKnown = true;
    bool reservedKnown = true;
};

struct MemoryStepPeak {
    MemoryDeviceId device;
    int step = -1;
    int64_t startAllocated = 0;  // before the step's first event
    int64_t peakAllocated = 0;
    int64_t peakReserved = 0;
    int64_t endAllocated = 0;
    int64_t events = 0;
};

struct MemoryOpRow {
    MemoryDeviceId device;
    StringId op;  // empty: allocated outside every op
    int64_t allocations = 0;
    int64_t bytes = 0;
    int64_t notFreedBytes = 0;  // -1: unknown (no Addr)
};

struct MemoryAllocation {
    MemoryDeviceId device;
    int64_t addr = 0;
    int64_t bytes = 0;
    int64_t tsNs = 0;
    StringId op;
};

struct MemoryTimeline {
    std::vector<MemoryDevice> devices;       // by rank, device
    std::vector<MemoryStepPeak> stepPeaks;   // by device, step
    std::vector<MemoryOpRow> ops;            // by device, bytes descending
    std::vector<MemoryAllocation> unfreed;   // by device, bytes descending (topUnfreed each)
    std::string error;
    std::vector<std::string> notes;
};

MemoryTimeline memoryTimeline(const Run& run, const MemoryOptions& options = {});

// Up to maxPoints points of a series keeping each bucket's extremes (first and last point kept).
std::vector<MemoryPoint> downsampleMemory(const std::vector<MemoryPoint>& series, size_t maxPoints);

// PyTorch's export_memory_timeline by category (HTA's MemoryAnalysis._process_raw_events): one
// point per distinct time, each category's bytes summed up to it; rows before profiling (time
// < 0) are put at the earliest positive time. Times stay in the file's ns.
struct CategoryTimeline {
    std::vector<int64_t> timesNs;
    std::vector<std::array<int64_t, 8>> bytes;  // per point, per category (memoryCategoryName)
    std::array<int64_t, 8> peakBytes{};         // per category
    int64_t peakTotal = 0;
    int64_t peakTotalNs = 0;
    std::string error;
    std::vector<std::string> notes;
};
CategoryTimeline categoryTimeline(const std::vector<MemoryTimelineRow>& rows, size_t maxPoints = 0);
// "Parameter", "Optimizer state", "Input", "Temporary", "Activation", "Gradient", "Autograd", "Unknown"
const char* memoryCategoryName(int category);

} // namespace kscope
