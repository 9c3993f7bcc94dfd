#pragma once

// The synthetic training step as a small program: built once per run, interpreted for every
// step of every rank (synthsim.h). A program rather than straight-line code because ranks are
// simulated in lockstep up to each collective, so the interpreter must be able to pause.

#include "synthrun.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

// HTA's kernel type of a GPU activity, fixed by construction for every name we emit.
enum class SynthGpuType : uint8_t { Computation, Communication, Memory, Other };
const char* toString(SynthGpuType type);

// What the host was doing, by construction, in the idle gap the generator placed before a GPU op:
// what idle-causes must find there (analysis/core/idlecauses.h names them the same way).
enum class SynthPlacedCause : uint8_t { None, DataLoading, CpuOp, StreamWait, Synchronization, OptimizerStep, GpuQueued };
const char* toString(SynthPlacedCause cause);  // "data_loading", "cpu_op", ... ("" for None)

enum class SynthStream : uint8_t { Compute, Comm };
inline constexpr int kComputeStream = 7;
inline constexpr int kCommStream = 20;
inline int streamNumber(SynthStream stream) { return stream == SynthStream::Compute ? kComputeStream : kCommStream; }

// One kind of GPU activity: its name, category and the constant part of its args.
struct SynthGpuOp {
    std::string name;
    std::string category;     // kernel, gpu_memcpy, gpu_memset, cuda_sync
    SynthGpuType type = SynthGpuType::Computation;
    SynthStream stream = SynthStream::Compute;
    int64_t baseDurNs = 0;    // typical duration; instances jitter around it
    int64_t bytes = -1;       // memcpy / memset: bytes moved
    int64_t collectiveNelems = -1;  // NCCL kernels: elements all-reduced (dtype Float)
    std::string constArgs;    // preformatted ", \"key\": value" pairs after the per-event ones
};

enum class SynthInstrKind : uint8_t {
    StepOpen,       // ProfilerStep#N (user_annotation) on the main thread
    StepClose,
    Open,           // open a cpu_op / user_annotation scope
    Close,          // close the innermost scope of the thread
    Work,           // CPU time passes (python code between ops)
    HostStall,      // long CPU work: the GPU drains (host-wait phenomenon)
    Launch,         // runtime call that enqueues a GPU op on its stream
    RuntimeOnly,    // runtime call with no GPU activity (cudaEventRecord)
    WaitComm,       // cudaStreamWaitEvent: the next compute op waits for the comm stream
    Collective,     // runtime call that enqueues an NCCL kernel; its end is shared by all ranks
    StreamSync,     // cudaStreamSynchronize on the compute stream (+ a cuda_sync event)
    DeviceSync,     // cudaDeviceSynchronize: the CPU blocks until both streams have drained
    GpuAnnotationOpen,   // gpu_user_annotation over the compute ops enqueued until the close
    GpuAnnotationClose,
};

struct SynthInstr {
    SynthInstrKind kind = SynthInstrKind::Work;
    uint8_t thread = 0;      // 0: main thread, 1: autograd thread
    uint16_t name = 0;       // index into SynthProgram::names (op, annotation or runtime name)
    uint16_t category = 0;   // index into SynthProgram::categories
    uint16_t gpuOp = 0;      // index into SynthProgram::gpuOps (Launch, Collective)
    uint16_t args = 0;       // index into SynthProgram::cpuArgs; 0 = none
    int32_t minNs = 0;       // Work, stalls: CPU time range; Launch: how much later than it could
    int32_t maxNs = 0;       // the GPU starts the op (busy with work not in the trace), 0: none
    SynthPlacedCause placedCause = SynthPlacedCause::None;  // Launch: the gap placed before its op
};

struct SynthProgram {
    std::vector<std::string> names;
    std::vector<std::string> categories;
    std::vector<std::string> cpuArgs;     // preformatted ", \"Input Dims\": ..." tails; [0] = ""
    std::vector<SynthGpuOp> gpuOps;
    std::vector<SynthInstr> instrs;
    std::vector<int> collectiveInstrs;    // instruction index of each collective, in order
    int slowGpuOp = -1;                   // the GEMM that runs slower on the slow rank
    int streamSyncOp = -1;                // gpuOps index of "Stream Sync" (-1 on AMD)
    uint16_t catCpuOp = 0, catUserAnnotation = 0, catRuntime = 0, catGpuUserAnnotation = 0;
    uint16_t nameStreamWaitEvent = 0;
    uint16_t nameRecordParamComms = 0xffff;    // its args get the instance's "Seq" when it closes
    bool amd = false;

    int countEventsPerStep() const;  // traceEvents elements one step writes
};

SynthProgram buildSynthProgram(const SynthOptions& options);

} // namespace kscope
