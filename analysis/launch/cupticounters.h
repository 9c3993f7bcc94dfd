#pragma once

#include "analysis/rankchoice.h"

// CUPTI range-profiler counters per kernel with the operators that launched it (HTA's
// get_cupti_counter_data_with_operators), plus FLOPs from the SASS instruction counters: the
// start of a roofline view.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct CuptiCounterOptions {
    bool htaCompat = false;
    RankChoice ranks;        // empty = every rank (HTA's default is rank 0 only)
};

// One kernel (a cuda_profiler_range event) with its counters and its launch's operator stack.
struct CuptiKernel {
    int rank = -1;
    EventIndex event = kNoEvent;   // the cuda_profiler_range event
    EventIndex launch = kNoEvent;  // the cudaLaunchKernel matched to it by order
    StringId name;
    int64_t tsNs = 0;
    int64_t durNs = 0;
    std::vector<double> values;    // by CuptiCounters::counterNames; NaN where the kernel lacks one
    std::vector<StringId> opStack; // cpu_op ancestors of the launch, outermost first
    double flops = 0;              // Σ SASS fadd/fmul/ffma, h..., d... thread instructions (fma = 2); NaN without them
    double flopsPerSecond = 0;     // flops / (gpu__time_duration.sum if counted, else dur); NaN without flops
    double dramBytes = 0;          // dram__bytes_read.sum + dram__bytes_write.sum; NaN without them
    double arithmeticIntensity = 0;  // flops / dramBytes (FLOP/byte); NaN without either
    double peakFp32FlopsPerCycle = 0;  // device: SMs x FP32 lanes x 2, from deviceProperties; NaN if unknown
};

struct CuptiCounters {
    std::vector<std::string> counterNames;  // CUPTI metric names, in the order first seen
    std::vector<CuptiKernel> kernels;       // by rank, then by start
    CuptiCounterOptions options;
    std::string error;
    std::vector<std::string> notes;
};

CuptiCounters cuptiCounters(const Run& run, const CuptiCounterOptions& options);

// HTA's CUDA_SASS_INSTRUCTION_COUNTER_FLOPS: the FLOPs one thread instruction of that counter
// stands for (2 for fma, 1 for add and mul), 0 for other counters.
double sassFlopsPerInstruction(std::string_view counter);

} // namespace kscope
