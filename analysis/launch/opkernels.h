#pragma once

#include "analysis/rankchoice.h"

// Which GPU kernels each ATen operator launches, and its delays (HTA's
// get_aten_op_kernels_and_delay): for every kernel launch the innermost enclosing "aten::"
// operator; per operator occurrence its kernels in launch order, the delay from the operator's
// start to its first launch and from that launch to the kernel's start; averaged over the
// occurrences that launched the same sequence.
//
// Default mode: the enclosing operator is looked for on the launching thread only (HTA takes
// any thread's), every kernel launch counts (HTA: names like cuda*LaunchKernel, cuLaunchKernel,
// runFunction), each rank on its own, exact nanoseconds.
// HTA's mode: HTA's rules, its quirks included: operators of any thread, ties between equally
// late operators broken as pandas' quicksort does, and each rank's table built from its own
// launches plus those of the ranks before it (HTA never clears its list between ranks).

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct OpKernelsOptions {
    bool htaCompat = false;
    RankChoice ranks;  // empty = every rank (HTA: rank 0)
};

struct OpKernelRow {
    int rank = -1;
    StringId op;                   // the aten:: operator's name
    std::vector<StringId> kernels;  // its kernels in launch order
    int64_t count = 0;             // occurrences
    double avgOpLaunchDelayNs = 0.0;  // operator start -> first launch
    double avgRuntimeDelayNs = 0.0;   // first launch -> its kernel's start
};

struct OpKernels {
    std::vector<OpKernelRow> rows;  // by rank, then occurrences descending (HTA's order in its mode)
    bool htaCompat = false;
    std::string error;
    std::vector<std::string> notes;
};

OpKernels opKernelDelays(const Run& run, const OpKernelsOptions& options);

// HTA's kernel_sequence: the kernel names joined with " -> ".
std::string kernelSequenceText(const Run& run, const OpKernelRow& row);

} // namespace kscope
