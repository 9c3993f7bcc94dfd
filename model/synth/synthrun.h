#pragma once

// Synthetic Kineto runs whose right answers are known by construction.
//
// writeSynthRun() writes one trace per rank, `rank<r>.pt.trace.json[.gz]`, shaped like real
// PyTorch profiler output (top-level metadata, one event per line, cpu_op / user_annotation /
// cuda_runtime / kernel / gpu_memcpy / gpu_memset / gpu_user_annotation / cuda_sync events, ac2g
// flows, process and thread metadata, the "PyTorch Profiler (0)" span), and `truth/truth.json`
// with what the generator placed, computed from its own schedule and never by the analyses.
//
// Every rank runs the same training step `steps + 1` times: forward (linear/relu/layer_norm per
// layer), backward on the autograd thread with DDP all-reduces on the communication stream
// overlapping the remaining backward kernels, an optimizer step that waits for the last
// all-reduce, and `loss.item()` (Memcpy DtoH + cudaStreamSynchronize). The extra final step is a
// warm-down step: HTA drops GPU work launched in the last ProfilerStep by default, so the truth's
// "kept" scope covers exactly the first `steps` steps.
//
// Phenomena of known size:
// - host wait: the data loader at each step start and a logging stall in mid-forward let the
//   compute stream drain before the next launch arrives;
// - kernel wait: queued compute kernels start 1-6 us after their predecessor ends;
// - other: the first optimizer kernel is queued early but waits (cudaStreamWaitEvent) for the
//   all-reduce, which ends late because every rank waits for the slowest one;
// - straggler: `stragglerRank`'s backward kernels run kStragglerSlowdownPercent slower and each of
//   its NCCL kernels starts kStragglerArrivalDelayNs (150 us) later than it otherwise would, so
//   they start last (and are the shortest: all ranks' collectives end together);
// - collectives: DDP all-reduces in process group "0" (all ranks, dtype Float, sizes per bucket);
//   record_param_comms carries "Seq" (from kFirstCollectiveSeq, +1 per collective; none with
//   collectiveSeq = false), the kernel carries the other collective args. Each rank's arrival
//   (kernel start) is its own; every rank's kernel ends at the last arrival + the transfer time;
// - slow kernel: the first forward GEMM runs `kSlowKernelFactor` times longer on one rank.
//
// truth/truth.json (all times are integer nanoseconds; absolute times are epoch ns as written):
// {
//   "schema": "kinetoscope-synth-truth", "schemaVersion": 1, "timeUnit": "ns",
//   "generator": {"seed", "ranks", "layers", "device": "nvidia"|"amd", "nsTimestamps", "gzip",
//                 "legacyNcclNames", "idleCauseStalls"},
//   "consecutiveKernelDelayNs": 30000,          HTA's kernel-wait threshold (30 us)
//   "steps": {"numbers": [...], "kept": [...], "last": N, "warmDown": true},
//   "stragglerRank": r | -1,
//   "slowKernel": {"rank", "name", "factor"} | null,
//   "runFirstTsNs": HTA's min_ts: earliest ts of any X event except cat "Trace", all ranks,
//   "collectives": {"processGroup": "0", "groupSize", "dtype": "Float", "seq": bool (Seq written),
//     "stragglerArrivalDelayNs" (0 without a straggler),
//     "instances": [{                 every collective of every step, in order
//       "position" (0-based over the run), "seq": Seq as written | null, "step" (ProfilerStep
//       number), "kept" (launched before the last step: what loading with trimming keeps),
//       "name": "allreduce", "kernel", "bytes" (elements x 4), "earliestNs", "latestNs" (arrivals),
//       "endNs" (every rank's kernel end), "lastRank" (latest arrival, lowest rank on ties),
//       "skewNs" = latestNs - earliestNs, "transferNs" = endNs - latestNs,
//       "waitTotalNs" = sum of waitNs, "arrivalNs": [per rank], "waitNs": [per rank: latestNs - arrival]
//     }]},
//   "ranks": [{
//     "rank", "file" (name inside the run folder), "pid", "device", "clockOffsetNs" (what its
//     written timestamps add to the true clock: SynthOptions::clockSkewNs; the truth keeps true times),
//     "eventCounts": {"total", "phase": {"X", "s", "f", "M", "i"}, "category": {cat: count}},
//                   (every traceEvents element; "category" counts events that have a cat)
//     "steps": [{"number", "startNs", "endNs"}],  the ProfilerStep CPU spans on this rank
//     "collectiveLateNs": sum over kept collectives of (this rank's NCCL start - earliest start),
//     "all":  Scope over every GPU activity (HTA with include_last_profiler_step=True),
//     "kept": Scope over GPU activity launched before the last ProfilerStep (HTA's default),
//     "keptHtaRounded": "kept" after HTA's ns rounding (start up, end down to whole us);
//                       equal to "kept" for microsecond traces,
//     "placedGaps": [{"stream", "step", "startNs", "endNs", "cause", "kept"}]  the idle gaps the
//                   generator placed on the compute stream and the host cause it built into each
//                   (idle-causes' names): data_loading (the data loader), cpu_op (log_metrics),
//                   stream_wait (the optimizer waiting for the all-reduce); with idleCauseStalls
//                   also synchronization (instead of stream_wait), optimizer_step, gpu_queued,
//     "memory": (with memoryEvents only) {"events", "peakAllocated", "peakReserved",
//               "deviceMemory", "stepEndAllocated": [per kept step], "findings": [the memory rules
//               of `findings` that must fire: "memory_near_capacity" when peakReserved >= 90% of
//               deviceMemory, "memory_growth" when every kept step (3 or more) ends higher and by
//               >= 2% of peakAllocated in all]}, over the [memory] events before the last step
//   }]
// }
// Scope = {
//   "gpuEventCount": activities on a stream (kernels, memcpy, memset, cuda_sync),
//   "gpuStartNs", "gpuEndNs": first start / last end of that activity,
//   "spanNs" = gpuEndNs - gpuStartNs            (HTA's kernel_time)
//   "busyNs" = |union of all activity|, "idleNs" = spanNs - busyNs,
//   "computeNs" = |union of COMPUTATION kernels|, "nonComputeNs" = spanNs - computeNs - idleNs,
//   "communicationNs" = |union of NCCL kernels|, "memoryNs" = |union of Memcpy/Memset|,
//   "commComputeOverlapNs" = |union(COMMUNICATION) ∩ union(COMPUTATION)|,
//   "idleByStream": [{"stream", "hostWaitNs", "kernelWaitNs", "otherNs", "hostWaitCount",
//                     "kernelWaitCount", "otherCount"}]  HTA's rule (6) over kernel, gpu_memcpy
//                   and gpu_memset on each stream (cuda_sync excluded),
//   "kernels": [{"name", "category", "type": COMPUTATION|COMMUNICATION|MEMORY|OTHER, "stream",
//                "count", "totalNs", "minNs", "maxNs"}]  every activity name on a stream
// }

//
// The bundled sample run (resources/sample-run, checked by tst_synth) is written by
//   kinetoscope-cli synth resources/sample-run --ranks 8 --steps 4 --seed 42 --gzip --ns-timestamps --straggler 5
// and must be regenerated whenever the generator's output changes.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

struct SynthOptions {
    enum class Device { Nvidia, Amd };

    int ranks = 8;
    int steps = 4;              // kept steps; one warm-down step is written after them
    uint64_t seed = 1;
    int64_t eventsPerRank = 0;  // > 0: more steps until every rank has at least this many events
    uint64_t sizePerRank = 0;   // > 0: more steps until a rank's JSON reaches about this size
    bool gzip = false;
    int gzipLevel = 1;          // zlib level; 1 keeps writing above 200 MB/s
    bool nsTimestamps = false;  // "ts": 1712195495507783.055 instead of whole microseconds
    int stragglerRank = -1;     // -1: no straggler
    int slowKernelRank = -1;    // -1: the last rank; -2: no slow kernel
    Device device = Device::Nvidia;
    int layers = 6;             // layers of the synthetic model (events per step grow linearly)
    bool legacyNcclNames = false;  // ncclKernel_* (what HTA's straggler analysis looks for)
    bool collectiveSeq = true;  // "Seq" on record_param_comms; false: matching falls back to order
    unsigned threads = 1;       // ranks written in parallel; 0 = hardware concurrency
    int64_t baseTimeNs = 1712195495000000000;  // profiler start, epoch ns
    // > 0: every rank but rank 0 writes its timestamps on a clock off by a fixed offset in
    // [-clockSkewNs, clockSkewNs] (synthClockOffsetNs); the truth's times stay on the true clock.
    int64_t clockSkewNs = 0;
    // Idle gaps of the causes the default step does not place: a cudaDeviceSynchronize before the
    // optimizer (synchronization, in place of the stream wait), Python between the optimizer's
    // parameter groups (optimizer_step), a forward op the GPU starts 100-200 us late (gpu_queued).
    bool idleCauseStalls = false;
    // [memory] events (profile_memory=True) on the rank's GPU: each computation kernel's launch
    // allocates its output, freed at the next one's (and at the step's end); memoryBaselineBytes
    // are allocated before the trace (parameters, optimizer state); each step allocates
    // memoryLeakPerStep more at its start and never frees it (what memory_growth finds).
    bool memoryEvents = false;
    uint64_t memoryBaselineBytes = 2ull << 30;
    uint64_t memoryLeakPerStep = 0;
};

// What the synthetic caching allocator reserves: allocated rounded up to these segments, never
// shrinking. An A100-80GB's totalGlobalMem, and an MI250X's, as the header writes them.
inline constexpr int64_t kSynthReserveSegment = 256ll << 20;
inline constexpr int64_t kSynthNvidiaMemory = 85031714816;
inline constexpr int64_t kSynthAmdMemory = 68702699520;

inline constexpr double kSlowKernelFactor = 1.6;
inline constexpr int kFirstStepNumber = 100;

struct SynthResult {
    bool ok = false;
    std::string error;                      // set when !ok: what failed and where
    std::vector<std::filesystem::path> files;  // rank traces, by rank
    std::filesystem::path truthFile;
    uint64_t jsonBytes = 0;    // uncompressed JSON of all rank files
    uint64_t bytesWritten = 0; // bytes on disk, traces and truth
    uint64_t events = 0;       // traceEvents elements over all ranks
    int stepsPerRank = 0;      // ProfilerSteps per rank, warm-down step included
    double seconds = 0.0;
};

// What rank `rank`'s clock adds to the true time under options.clockSkewNs: 0 for rank 0 and when
// no skew is asked for, else a value in [-clockSkewNs, clockSkewNs] fixed by the seed.
int64_t synthClockOffsetNs(const SynthOptions& options, int rank);

// Writes the run into outDir (created if missing). Never throws for I/O errors.
SynthResult writeSynthRun(const std::filesystem::path& outDir, const SynthOptions& options);

// "100M", "2G", "512k", "1000" -> bytes (powers of 1024). False on syntax error.
bool parseByteSize(const std::string& text, uint64_t& bytes);

} // namespace kscope
