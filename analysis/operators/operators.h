#pragma once

#include "analysis/rankchoice.h"

// Time per PyTorch operator on host and device (the TensorBoard profiler's Operator view):
// per CPU op name (or name and input shapes, or call stack) its calls, host time with and
// without its child ops, and the GPU time of the kernels, memcpys and memsets it launched
// (anywhere inside it: device total; through its own runtime calls: device self). A GPU event
// belongs to the innermost op that encloses its launching call on the launching thread (the
// model's parent chain and launch link). Also which kernels use Tensor Cores, by name.
//
// HTA has no such analysis; its nearest is TraceDiff's LabeledTrace.get_ops_summary (count and
// summed duration per category and name of one rank and iteration): opsSummary() below.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

enum class OpGroupBy : uint8_t { Name, Shape, Stack };
const char* toString(OpGroupBy groupBy);  // "name", "shape", "stack"

struct OperatorOptions {
    OpGroupBy groupBy = OpGroupBy::Name;
    bool includeAnnotations = false;  // user annotations (record_function, ProfilerStep#N) count as ops
    RankChoice ranks;                 // empty = every rank
    size_t top = 0;                   // per rank, rows kept by device total time; the rest folded; 0 = all
};

struct OperatorRow {
    int rank = -1;
    StringId name;                 // empty on the folded row
    StringId inputDims;            // OpGroupBy::Shape: the op's "Input Dims" (empty when not recorded)
    std::vector<StringId> stack;   // OpGroupBy::Stack: the enclosing ops, outermost first
    int64_t calls = 0;
    int64_t hostTotalNs = 0;
    int64_t hostSelfNs = 0;        // minus the time of its child ops
    int64_t deviceTotalNs = 0;     // GPU work launched anywhere inside the op
    int64_t deviceSelfNs = 0;      // GPU work launched by its own runtime calls
    int64_t tensorCoreTotalNs = 0; // of deviceTotalNs: kernels that use Tensor Cores
    int64_t tensorCoreSelfNs = 0;
    int64_t gpuEvents = 0;         // GPU events in device total
    int64_t foldedRows = 0;        // > 0: the "others" row of --top, folding this many rows
};

// Per rank: the share of GPU kernel time (kernels only, no memcpy or memset) spent in kernels
// that use Tensor Cores.
struct TensorCoreShare {
    int rank = -1;
    int64_t kernels = 0;
    int64_t kernelNs = 0;
    int64_t tensorCoreKernels = 0;
    int64_t tensorCoreNs = 0;
    int64_t outsideOpsNs = 0;  // GPU work (kernels, memcpy, memset) launched outside every op
    int64_t withoutLaunch = 0;    // of it, GPU events whose launch is not in the trace
    int64_t withoutLaunchNs = 0;
};

struct Operators {
    std::vector<OperatorRow> rows;  // by rank, then device total descending, host total, name
    std::vector<TensorCoreShare> tensorCores;  // one per rank analysed
    OpGroupBy groupBy = OpGroupBy::Name;
    std::string error;
    std::vector<std::string> notes;
};

Operators operatorStats(const Run& run, const OperatorOptions& options = {});

// The ownership rule of operatorStats() and operatorKernels(): the innermost op enclosing the
// CPU event e on its thread, e itself when it is one (a complete cpu_op; with
// includeAnnotations also a user annotation); kNoEvent when none.
EventIndex innermostOp(const EventTable& t, EventIndex e, bool includeAnnotations);
// The op that launched the GPU event g: innermostOp() of its launching call, for a complete
// kernel, memcpy or memset on a stream (stream >= 0); kNoEvent for anything else or no launch.
EventIndex launchingOp(const EventTable& t, EventIndex g, bool includeAnnotations);

// The TensorBoard profiler's rule (its TC_Allowlist, after NVIDIA PyProf) extended to newer
// kernels: the name holds one of h884, s884, h1688, s1688, hmma, i8816, 16816, c1688,
// dgrad_1x1_stride_2x2, first_layer_wgrad_kernel, conv1x1, conv2d_c1_k1, direct_group,
// xmma (TensorBoard: xmma_gemm, xmma_implicit_gemm and a few more; cuDNN's sm80_xmma_fprop_...
// kernels too), or (beyond it) tensorop (CUTLASS), gmma (Hopper's wgmma/hgmma GEMMs), wmma,
// mfma (AMD), or a Tensile matrix-instruction tag "_MI<n>x" (AMD rocBLAS / hipBLASLt).
bool usesTensorCores(std::string_view kernelName);

// Per kernel name of each rank: launches, time, and whether it uses Tensor Cores.
struct KernelTensorCoreRow {
    int rank = -1;
    StringId name;
    int64_t count = 0;
    int64_t totalNs = 0;
    bool tensorCores = false;
};
std::vector<KernelTensorCoreRow> kernelTensorCores(const Run& run, const RankChoice& ranks = {});

// HTA's LabeledTrace.get_ops_summary(extract_ops(rank, iteration, device_type)): per (category,
// name) of one rank and one iteration the count and summed duration. HTA's ids (cat_id,
// name_id) come from a Python set's order, which changes with the interpreter's string hash
// seed; ours are the run's own string ids. Rows sorted by (category, name) text.
struct OpsSummaryOptions {
    int rank = -1;   // -1: the run's first rank (HTA's default)
    int step = -1;   // -1: the first ProfilerStep of the run (HTA's default); -2: every event
    int device = 0;  // 0 all, 1 CPU (no stream), 2 GPU (HTA: stream != -1)
};
struct OpsSummaryRow {
    StringId category;
    StringId name;
    int64_t count = 0;
    int64_t totalNs = 0;
};
struct OpsSummary {
    int rank = -1;
    int step = -1;
    std::vector<OpsSummaryRow> rows;
    std::string error;
    std::vector<std::string> notes;
};
OpsSummary opsSummary(const Run& run, const OpsSummaryOptions& options = {});

} // namespace kscope
