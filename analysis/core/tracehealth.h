#pragma once

// What makes a run's answers unreliable, per rank, with counts and an example of each problem,
// and which analyses each one degrades: files that failed or were cut short, events the loader
// refused, GPU work whose launch is missing and launches whose GPU work is missing, GPU ops that
// overlap on one stream, GPU work of zero duration, ProfilerStep counts that differ across ranks,
// timestamps too coarse for the GPU ops they time,
// clocks off by more than the collective waits, and what the profiler did not record (CPU ops,
// record_param_comms, Seq, steps, any GPU activity).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/ids.h"

namespace kscope {

struct Run;

enum class HealthSeverity : uint8_t { Error, Warning, Info };
const char* toString(HealthSeverity severity);  // "error", "warning", "info"

// The checks, in the order the table lists them.
enum class HealthCheck : uint8_t {
    FileFailed,           // the file could not be used at all (no rank)
    FilePartial,          // read only up to an error
    BadEvents,            // events refused at load (missing ts, negative dur, ...)
    TimestampUnit,        // the ranks mix whole-microsecond and nanosecond timestamps
    // Broken ac2g flows: Kineto's flow id is the launch's correlation, so these are the flows from
    // a launch to its GPU op that lost one end. (Counting ph "s" against ph "f" would not do: a
    // graph launch has one start and many ends.)
    GpuOpWithoutLaunch,   // kernels, memcpys, memsets whose launch is not in the trace
    LaunchWithoutGpuOp,   // launch calls whose GPU op is not in the trace
    OverlapOnStream,      // GPU ops that start before the previous one on their stream ended
    ZeroDurationGpuOp,    // GPU ops of zero duration
    StepCountDiffers,     // fewer or more ProfilerSteps than most ranks
    ClockSkew,            // the rank's clock is off by more than the median collective wait
    NoGpuActivity,        // no kernel, memcpy or memset at all
    NoCpuOps,             // GPU work but no CPU op (profiled without record_shapes / CPU activity)
    NoRecordParamComms,   // NCCL kernels but no record_param_comms op
    NoCollectiveSeq,      // record_param_comms without "Seq": collectives matched by order
    NoProfilerSteps,      // no ProfilerStep#N annotation
    MicrosecondTimestamps,  // whole-microsecond timestamps: GPU ops of 1 us or less are known to +-1 us
};
inline constexpr int kHealthCheckCount = 16;
// "file_failed", "file_partial", "bad_events", "timestamp_unit", "gpu_op_without_launch",
// "launch_without_gpu_op", "overlap_on_stream", "zero_duration_gpu_op", "step_count_differs",
// "clock_skew", "no_gpu_activity", "no_cpu_ops", "no_record_param_comms", "no_collective_seq",
// "no_profiler_steps", "microsecond_timestamps"
const char* toString(HealthCheck check);
// The analyses, by CLI command name, whose answers the problem degrades; {"*"}: every analysis.
const std::vector<std::string_view>& affectedCommands(HealthCheck check);
bool affectsCommand(HealthCheck check, std::string_view command);
// Those names joined ("idle, idle-causes, launch-stats"), or "every analysis".
std::string affectedAnalyses(HealthCheck check);
HealthSeverity severityOf(HealthCheck check);

struct HealthProblem {
    RankIndex rankIndex;   // meaningless when rank is -1 (a file that gave no rank)
    int rank = -1;
    HealthCheck check = HealthCheck::BadEvents;
    int64_t count = 0;     // events, ops or steps concerned (1 for a file or a whole-rank gap)
    std::string example;   // one instance, enough to find it: a name, a time, a reason
};

struct TraceHealth {
    std::vector<HealthProblem> problems;  // by rank (run order; files without a rank first), check
    int ranksChecked = 0;
    int ranksWithProblems = 0;            // errors or warnings; infos do not count
    std::string error;
    std::vector<std::string> notes;
};

TraceHealth traceHealth(const Run& run);

} // namespace kscope
