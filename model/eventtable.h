#pragma once

#include "column.h"
#include "ids.h"
#include "narrowcolumn.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

// Chrome-trace phase ("ph") of an event.
enum class Phase : uint8_t {
    Complete,    // X
    Instant,     // i / I
    Counter,     // C
    AsyncBegin,  // b
    AsyncEnd,    // e
    FlowStart,   // s
    FlowStep,    // t
    FlowEnd,     // f
    Other,
};

// What an event is, derived from its category once per string (see eventkind.h).
enum class EventKind : uint8_t {
    Other,
    CpuOp,              // cpu_op, Operator
    UserAnnotation,     // user_annotation
    PythonFunction,     // python_function
    Runtime,            // cuda_runtime, Runtime
    Driver,             // cuda_driver
    Kernel,             // kernel, Kernel
    Memcpy,             // gpu_memcpy, Memcpy
    Memset,             // gpu_memset, Memset
    GpuUserAnnotation,  // gpu_user_annotation
    CudaSync,           // cuda_sync
    TraceSpan,          // Trace ("PyTorch Profiler (0)")
    MtiaCcp,            // mtia_ccp_events
};

// What a host thread runs: the kinds that nest on a CPU thread's call stack. Decided by category,
// never by args.stream: Inductor's Triton launches are cpu_ops that record "stream": N, and they
// launch the kernels under them.
inline bool isHostKind(EventKind kind)
{
    return kind == EventKind::CpuOp || kind == EventKind::UserAnnotation || kind == EventKind::PythonFunction
        || kind == EventKind::Runtime || kind == EventKind::Driver;
}

// Arguments present on few events (memcpy/memset, collectives, shapes): kept apart so
// the common event pays nothing for them. Indexed by event row, sorted by row.
struct MemoryArgs {
    EventIndex event = kNoEvent;
    int64_t bytes = -1;
    double bandwidthGBps = 0.0;
};

struct CollectiveArgs {
    EventIndex event = kNoEvent;
    StringId collectiveName;
    StringId dtype;
    StringId processGroupName;
    StringId processGroupRanks;  // raw JSON text of the ranks list
    int64_t inMsgNelems = -1;
    int64_t outMsgNelems = -1;
    int32_t groupSize = -1;
    int64_t seq = -1;
};

// An op's input shapes. Training repeats the same few thousand shapes across half the events of
// a trace, so an op stores the index of its pair in EventTable::inputShapes (8 bytes, not 12).
struct InputShape {
    StringId inputDims;   // raw JSON text, e.g. [[2048, 1], []]
    StringId inputTypes;  // raw JSON text
    auto operator<=>(const InputShape&) const = default;
};

struct ShapeArgs {
    EventIndex event = kNoEvent;
    uint32_t shape = 0;  // into EventTable::inputShapes
};

struct KernelLaunchArgs {
    EventIndex event = kNoEvent;
    int32_t grid[3] = {0, 0, 0};
    int32_t block[3] = {0, 0, 0};
    int32_t registersPerThread = -1;
    int32_t sharedMemory = -1;
    float blocksPerSm = -1.0f;
    float warpsPerSm = -1.0f;
    float achievedOccupancyPct = -1.0f;
    int16_t device = -1;
    int16_t context = -1;
    int32_t queued = -1;
};

struct SyncArgs {
    EventIndex event = kNoEvent;
    int32_t waitOnStream = -1;
    int64_t waitOnEventRecordCorrelation = -1;
};

// The profiler's "[memory]" instant events (profile_memory=True): one allocation (bytes > 0) or
// free (bytes < 0) and the allocator's totals after it.
struct MemoryEventArgs {
    EventIndex event = kNoEvent;
    int8_t deviceType = -1;  // c10::DeviceType: 0 CPU, 1 CUDA, ...
    int8_t deviceId = -1;    // -1 on the CPU
    int64_t addr = 0;
    int64_t bytes = 0;
    int64_t totalAllocated = -1;
    int64_t totalReserved = -1;
};
static_assert(sizeof(MemoryEventArgs) == 40, "memory events pay 40 bytes each");

struct CallStackArgs {
    EventIndex event = kNoEvent;
    int64_t pythonId = -1;
    int64_t pythonParentId = -1;
    int64_t evIdx = -1;
    int64_t recordFunctionId = -1;
};

// A counter ("ph":"C") sample, or a value from a cuda_profiler_range event.
struct CounterSample {
    int64_t tsNs = 0;
    StringId series;  // counter event name
    StringId field;   // key inside args
    double value = 0.0;
    ThreadIndex thread = 0;
};

// Flow events (ph s/t/f) are kept compactly: their id equals the launch correlation in Kineto.
struct FlowEvent {
    int64_t tsNs = 0;
    int64_t id = -1;
    Phase phase = Phase::FlowStart;
    ThreadIndex thread = 0;
};

// Columnar events of one rank, sorted by (tsNs, file order). Every column has size().
struct EventTable {
    // Narrow columns store what almost every value fits in and keep the rest apart (see
    // narrowcolumn.h): the widths below are the common case, every value reads back exactly.
    Column<int64_t> tsNs;
    NarrowColumn<int64_t, uint32_t> durNs;       // 0 for events without a duration; 4.29 s in 32 bits
    Column<StringId> name;
    DictionaryColumn category;                   // about fifteen distinct per rank: one byte each
    NarrowColumn<ThreadIndex, uint8_t> thread;   // index into RankTrace::threads
    NarrowColumn<int32_t, int16_t> stream;       // args.stream, -1 when absent or not numeric (CPU side)
    NarrowColumn<int64_t, int32_t> correlation;  // args.correlation, -1 when absent
    Column<int32_t> externalId;     // args["External id"] (a per-process sequence number), -1 when absent
    Column<EventIndex> link;        // correlated partner (launch <-> GPU activity), kNoEvent if none
    Column<EventIndex> parent;      // enclosing CPU event on the same thread, kNoEvent if top level
    NarrowColumn<int32_t, int16_t> step;  // ProfilerStep number, -1 when outside any step
    Column<Phase> phase;
    Column<EventKind> kind;
    Column<uint8_t> depth;          // nesting depth on its thread (0 = top level), saturates at 255
    // Position in the file. Kept after loading only in HTA's mode (LoadOptions::htaCompat), where
    // HTA's row order (its DataFrame keeps the file's) decides the order of ties; else empty.
    Column<uint32_t> fileIndex;

    // The rows of complete events on a GPU stream (stream != -1; not the profiler's own span),
    // ascending, so in start order: every GPU analysis walks these (about one event in eight)
    // instead of the whole table. Filled by indexGpuRows() whenever rows are sorted or selected.
    std::vector<EventIndex> gpuRows;

    std::vector<MemoryArgs> memoryArgs;
    std::vector<CollectiveArgs> collectiveArgs;
    std::vector<ShapeArgs> shapeArgs;
    std::vector<InputShape> inputShapes;  // each distinct pair once, in first-seen order
    std::vector<KernelLaunchArgs> kernelLaunchArgs;
    std::vector<SyncArgs> syncArgs;
    std::vector<CallStackArgs> callStackArgs;
    std::vector<MemoryEventArgs> memoryEvents;

    size_t size() const { return tsNs.size(); }
    int64_t endNs(EventIndex i) const { return tsNs[i] + durNs[i]; }
    // GPU activity in HTA's sense: on a stream (kernel, memcpy, memset, stream-bound sync).
    bool onGpuStream(EventIndex i) const { return stream[i] >= 0; }
    // A row of gpuRows: a complete event with args.stream (not the profiler's own span).
    bool visibleOnStream(size_t i) const
    {
        return stream[i] != -1 && phase[i] == Phase::Complete && kind[i] != EventKind::TraceSpan;
    }

    const InputShape& shapeOf(const ShapeArgs& args) const { return inputShapes[args.shape]; }

    size_t residentBytes() const;
    void shrinkToFit();
    void indexGpuRows();
};

template <typename Row>
const Row* findSparse(const std::vector<Row>& rows, EventIndex event);

} // namespace kscope

#include <algorithm>

template <typename Row>
const Row* kscope::findSparse(const std::vector<Row>& rows, EventIndex event)
{
    auto it = std::lower_bound(rows.begin(), rows.end(), event,
                               [](const Row& row, EventIndex e) { return row.event < e; });
    return (it != rows.end() && it->event == event) ? &*it : nullptr;
}
