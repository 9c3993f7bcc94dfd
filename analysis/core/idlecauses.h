#pragma once

// Why each idle gap on a GPU stream happened, read from the host: what the thread that launched
// the GPU op after the gap was doing while the stream sat idle (beyond HTA, which splits idle
// time into host / kernel / other and stops there).

#include "analysis/core/idletime.h"
#include "analysis/rankchoice.h"

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

// In the order a cause wins over another at one instant on the launching thread: a sync call
// inside the optimizer step is a sync, a data-loader op inside Python code is data loading.
enum class IdleCause : uint8_t {
    Synchronization,   // cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize, aten::item, ...
    DataLoading,       // enumerate(DataLoader)... and the names asked for
    OptimizerStep,     // Optimizer.step / Optimizer.zero_grad
    CpuOp,             // any other CPU op, annotation or Python function: the innermost spanning most of the gap
    LaunchOverhead,    // the launch call itself ran into the gap, or a queued op started within the kernel-wait delay
    StreamWait,        // launched in time, held on the GPU by a wait on another stream (cudaStreamWaitEvent)
    GpuQueued,         // launched in time, started late on the GPU, and no recorded wait says why
    NoHostActivity,    // the launching thread recorded nothing during the gap
    LaunchNotInTrace,  // the op's launch lies outside the trace window or is missing
};
inline constexpr int kIdleCauseCount = 9;
// "synchronization", "data_loading", "optimizer_step", "cpu_op", "launch_overhead", "stream_wait",
// "gpu_queued", "no_host_activity", "launch_not_in_trace"
const char* toString(IdleCause cause);

struct IdleCausesOptions {
    RankChoice ranks;          // empty = every rank
    std::vector<int> streams;  // empty = every stream
    double consecutiveKernelDelayUs = 30.0;  // a queued op this close behind its predecessor: launch overhead
    // Substrings of op names that mean data loading, besides the DataLoader's own.
    std::vector<std::string> dataLoadNames;
    bool listGaps = false;      // fill IdleCauses::gaps (every gap, not only the totals)
};

// One gap and its cause: the cause that held the most of it.
struct IdleCauseGap {
    RankIndex rankIndex;
    int rank = -1;
    int stream = -1;
    int step = -1;               // ProfilerStep of the op after the gap; -1 outside steps
    int64_t startNs = 0;
    int64_t endNs = 0;
    IdleCause cause = IdleCause::NoHostActivity;
    int64_t causeNs = 0;         // of the gap, the time that cause held
    EventIndex next = kNoEvent;  // the GPU op after the gap
    EventIndex launch = kNoEvent;    // its launch, kNoEvent when not in the trace
    // The op that names the cause: the sync call, the data-loader or optimizer annotation, the
    // innermost CPU op spanning most of the gap, the launch call, or (stream wait) the GPU op on
    // another stream that the op waited for. kNoEvent where nothing does.
    EventIndex causeEvent = kNoEvent;
    std::string causeName;       // its name
};

// Σ of the gaps each cause won, per rank (IdleCauses::byRank), per rank and step (byStep) or per
// rank and stream (byStream).
struct IdleCauseRow {
    RankIndex rankIndex;
    int rank = -1;
    int step = -1;               // byStep: ProfilerStep of the op after the gap, -1 outside steps; else -1
    int stream = -1;             // byStream: the GPU stream of the gap; else -1
    IdleCause cause = IdleCause::NoHostActivity;
    int64_t gaps = 0;
    int64_t idleNs = 0;          // Σ length of the gaps this cause won
    double ratio = 0.0;          // of the rank's (byStep: the rank's in that step) idle time
};

struct IdleCauses {
    std::vector<IdleCauseRow> byRank;  // by rank in run order, causes in enum order; causes with gaps only
    std::vector<IdleCauseRow> byStep;  // by rank, step ascending (-1 first), cause
    std::vector<IdleCauseRow> byStream;  // by rank, stream ascending, cause; ratio of the stream's idle time
    std::vector<IdleCauseGap> gaps;  // with listGaps: by rank, then start of the op after the gap
    int64_t totalGaps = 0;
    int64_t totalIdleNs = 0;
    std::string error;
    std::vector<std::string> notes;
};

IdleCauses idleCauses(const Run& run, const IdleCausesOptions& options);

// The runtime and driver calls that block the host until the GPU has caught up (the stream, the
// device or an event), and the blocking cudaMemcpy: what idle causes call synchronization, with
// aten::item and aten::_local_scalar_dense, and what hostSyncs counts.
bool isSynchronizingCall(std::string_view name);

} // namespace kscope
