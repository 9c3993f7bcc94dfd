// The rules about what a rank's resources do: its memory against the device's, its critical path,
// its kernels (fusion candidates, Tensor Core use). Each reads analysis results only, as the
// rules of findingrules.cpp do.

#include "analysis/findings/findingrules.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/core/kerneltype.h"
#include "analysis/findings/findingtext.h"
#include "analysis/rankchoice.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace kscope::finding_rules {

namespace {

double mib(int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

double evidenceValue(const Finding& f, const std::string& name)
{
    for (const FindingEvidence& e : f.evidence)
        if (e.name == name)
            return e.value;
    return 0.0;
}

} // namespace

void memoryNearCapacity(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    if (!in.memory)
        return;
    std::map<int, const MemoryDevice*> fullest;  // per rank, its fullest device
    auto share = [](const MemoryDevice& d) {
        const int64_t peak = d.peakReserved >= 0 ? d.peakReserved : d.peakAllocated;
        return 100.0 * static_cast<double>(peak) / static_cast<double>(d.capacityBytes);
    };
    for (const MemoryDevice& d : in.memory->devices)
        if (d.capacityBytes > 0 && share(d) >= th.memoryNearCapacityPctg) {
            const MemoryDevice*& best = fullest[d.device.rank];
            if (!best || share(d) > share(*best))
                best = &d;
        }
    for (const auto& [rank, device] : fullest) {
        const MemoryDevice& d = *device;
        const double pctg = share(d);
        const bool reserved = d.peakReserved >= 0;
        const int64_t peak = reserved ? d.peakReserved : d.peakAllocated;
        Finding f;
        f.rule = "memory_near_capacity";
        f.id = rankId(f.rule, rank);
        f.severity = pctg >= th.memoryCriticalPctg ? FindingSeverity::Critical : FindingSeverity::Warning;
        f.title = rankLabel(rank) + ": memory peaks at " + fixed(pctg, 1) + "% of the GPU's " + bytesText(double(d.capacityBytes));
        f.detail = "peak " + std::string(reserved ? "reserved" : "allocated") + " " + bytesText(double(peak)) + " on "
            + toString(d.device) + " (" + bytesText(double(d.capacityBytes)) + " in deviceProperties), peak allocated "
            + bytesText(double(d.peakAllocated)) + "; a slightly larger input, or fragmentation, ends in CUDA out of memory";
        f.suggestion = "Make headroom: recompute activations in the backward (torch.utils.checkpoint), use smaller "
                       "micro-batches with gradient accumulation, shard parameters, gradients and optimizer state "
                       "(FSDP, ZeRO), keep activations in bf16. When reserved is far above allocated the caching "
                       "allocator fragments: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.";
        f.evidence = {{reserved ? "peak_reserved" : "peak_allocated", mib(peak), "MiB", "memory"},
                      {"peak_allocated", mib(d.peakAllocated), "MiB", "memory"},
                      {"device_memory", mib(d.capacityBytes), "MiB", "memory"},
                      {"peak_share_of_device_pctg", pctg, "percent", "memory"}};
        f.ranks = {rank};
        for (const StepSpan& span : in.steps->spans)  // the step the peak is in
            if (span.rank == rank && span.cpuStartNs <= d.peakAllocatedNs && d.peakAllocatedNs <= span.cpuEndNs)
                f.steps = {span.step};
        f.view = "memory";
        f.command = "memory";
        out.push_back(std::move(f));
    }
}

// A step that ends with more allocated than the one before, step after step: memory kept across
// steps, which ends in out-of-memory however large the device. One step's rise is normal (the
// optimizer's state appears in the first), so the rule asks for several in a row.
void memoryGrowth(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    if (!in.memory)
        return;
    std::map<MemoryDeviceId, std::vector<const MemoryStepPeak*>> byDevice;
    for (const MemoryStepPeak& s : in.memory->stepPeaks)
        byDevice[s.device].push_back(&s);
    std::map<int, Finding> byRank;  // the fastest-growing device of each rank
    for (auto& [device, steps] : byDevice) {
        if (static_cast<int>(steps.size()) < std::max(2, th.memoryGrowthMinSteps))
            continue;
        std::sort(steps.begin(), steps.end(), [](const MemoryStepPeak* a, const MemoryStepPeak* b) { return a->step < b->step; });
        bool rising = true;
        int64_t peak = 0;
        for (size_t i = 0; i < steps.size(); ++i) {
            peak = std::max(peak, steps[i]->peakAllocated);
            rising &= i == 0 || steps[i]->endAllocated > steps[i - 1]->endAllocated;
        }
        const int64_t growth = steps.back()->endAllocated - steps.front()->endAllocated;
        const double growthPctg = peak > 0 ? 100.0 * static_cast<double>(growth) / static_cast<double>(peak) : 0.0;
        if (!rising || growthPctg < th.memoryGrowthPctgOfPeak)
            continue;
        const double perStep = static_cast<double>(growth) / static_cast<double>(steps.size() - 1);
        const MemoryDevice* d = nullptr;
        for (const MemoryDevice& candidate : in.memory->devices)
            if (candidate.device == device)
                d = &candidate;
        Finding f;
        f.rule = "memory_growth";
        f.id = rankId(f.rule, device.rank);
        f.severity = FindingSeverity::Warning;
        f.title = rankLabel(device.rank) + ": allocated memory grows by " + bytesText(perStep) + " every step ("
            + std::to_string(steps.size()) + " steps in a row on " + toString(device) + ")";
        f.detail = "steps " + std::to_string(steps.front()->step) + " to " + std::to_string(steps.back()->step) + " end with "
            + bytesText(double(steps.front()->endAllocated)) + " to " + bytesText(double(steps.back()->endAllocated))
            + " allocated (" + fixed(growthPctg, 1) + "% of the peak)";
        f.evidence = {{"growth", mib(growth), "MiB", "memory"},
                      {"growth_per_step", perStep / (1024.0 * 1024.0), "MiB", "memory"},
                      {"growth_pctg_of_peak", growthPctg, "percent", "memory"},
                      {"steps", static_cast<double>(steps.size()), "count", "memory"}};
        if (d && d->notFreedBytes >= 0) {
            f.detail += "; " + std::to_string(d->notFreed) + " allocations (" + bytesText(double(d->notFreedBytes))
                + ") made in the trace are never freed in it";
            f.evidence.push_back({"not_freed_bytes", mib(d->notFreedBytes), "MiB", "memory"});
        }
        if (d && d->capacityBytes > 0 && perStep > 0) {
            const double left = static_cast<double>(d->capacityBytes - std::max(d->peakReserved, d->peakAllocated));
            const double stepsLeft = std::max(0.0, left / perStep);
            f.detail += "; at this rate the device is full in about " + fixed(stepsLeft, 0) + " steps";
            f.evidence.push_back({"steps_until_full", stepsLeft, "count", "memory"});
        }
        f.suggestion = "Something keeps tensors alive from one step to the next: a running total of the loss "
                       "without .item() or .detach() (it keeps every step's autograd graph), outputs or metrics "
                       "appended to a list, a cache that grows, hooks holding references. The Memory view's "
                       "allocations not freed name the ops that allocated what stays.";
        f.ranks = {device.rank};
        for (const MemoryStepPeak* s : steps)
            f.steps.push_back(s->step);
        f.view = "memory";
        f.command = "memory";
        auto [it, first] = byRank.try_emplace(device.rank, f);
        if (!first && evidenceValue(f, "growth_pctg_of_peak") > evidenceValue(it->second, "growth_pctg_of_peak"))
            it->second = std::move(f);
    }
    for (auto& [rank, f] : byRank)
        out.push_back(std::move(f));
}

void hostBoundCriticalPath(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    if (!in.criticalPaths)
        return;
    for (const RankPathSummaries::Summary& path : in.criticalPaths->ranks) {
        if (!path.error.empty() || path.lengthNs <= 0)
            continue;
        double cpuPctg = 0.0, dataPctg = 0.0;
        int64_t hostNs = 0;
        for (const CpSummaryRow& row : path.rows) {
            if (row.bound == CpBound::CpuBound)
                cpuPctg += row.percent;
            else if (row.bound == CpBound::DataLoading)
                dataPctg += row.percent;
            else
                continue;
            hostNs += row.durationNs;
        }
        // HTA calls a runtime call that waits for the GPU cpu_bound; the host does no work in it.
        const double waitPctg = 100.0 * static_cast<double>(path.hostWaitNs) / static_cast<double>(path.lengthNs);
        const double workPctg = std::max(0.0, cpuPctg - waitPctg);
        hostNs -= path.hostWaitNs;
        const double pctg = workPctg + dataPctg;
        if (pctg < th.hostBoundPathPctg)
            continue;
        Finding f;
        f.rule = "host_bound_critical_path";
        f.id = rankId(f.rule, path.rank);
        f.severity = pctg >= 1.6 * th.hostBoundPathPctg ? FindingSeverity::Critical : FindingSeverity::Warning;
        const bool wholeTrace = in.steps->spans.empty();
        f.title = rankLabel(path.rank) + ": " + fixed(pctg, 1) + "% of the " + (wholeTrace ? "whole trace's" : "first step's")
            + " critical path is work on the CPU"
            + (dataPctg >= workPctg ? " (mostly data loading)" : "");
        f.detail = "of a " + duration(us(path.lengthNs)) + " path " + fixed(workPctg, 1) + "% is cpu_bound and "
            + fixed(dataPctg, 1) + "% data_loading";
        if (path.hostWaitNs > 0)
            f.detail += " (not counting " + duration(us(path.hostWaitNs)) + " in calls that wait for the GPU, which HTA's "
                "rule counts as cpu_bound too)";
        std::string longest;
        for (const auto& e : path.hostEvents)
            if (!e.waitsForGpu)
                longest += (longest.empty() ? "" : ", ") + e.name + " " + duration(us(e.durationNs));
        if (!longest.empty())
            f.detail += "; on it the longest: " + longest;
        f.suggestion = dataPctg >= workPctg
            ? "The GPU waits for the next batch: raise the DataLoader's num_workers, set pin_memory=True and "
              "persistent_workers=True, raise prefetch_factor, and move decoding and augmentation to the GPU (DALI, "
              "torchvision.transforms.v2 on CUDA tensors)."
            : "The host, not the GPU, sets the pace of the step: the ops on the path are Python and operator "
              "overhead. Capture the step in a CUDA graph or compile it (torch.compile), use fewer and larger ops, "
              "a larger batch per step, and keep the host free of work the GPU waits for.";
        f.evidence = {{"host_work_pctg", pctg, "percent", "critical-path"},
                      {"cpu_bound_pctg", cpuPctg, "percent", "critical-path"},
                      {"gpu_wait_in_cpu_bound", us(path.hostWaitNs), "us", "critical-path"},
                      {"data_loading_pctg", dataPctg, "percent", "critical-path"},
                      {"host_bound_time", us(hostNs), "us", "critical-path"},
                      {"critical_path_length", us(path.lengthNs), "us", "critical-path"}};
        f.ranks = {path.rank};
        f.view = "critical-path";
        f.command = "critical-path";
        f.timeAtStakeUs = us(hostNs);
        out.push_back(std::move(f));
    }
}

namespace {

std::string nameOf(const FindingsInputs& in, StringId id)
{
    return in.strings ? std::string(in.strings->view(id)) : std::string();
}

} // namespace

// A sequence of many short kernels repeated under one operator: each kernel reads and writes its
// tensors from memory and costs a launch; one fused kernel would do the chain at once. What it
// could save is estimated as all but one kernel's time per occurrence (a fused chain of
// memory-bound kernels takes about as long as one of them).
void fusionCandidates(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    if (!in.patterns || !in.strings)
        return;
    std::map<int, const KernelPattern*> best;  // per rank, the candidate with the most GPU time
    std::map<int, int64_t> spanNs;
    for (const TemporalBreakdownRow& row : in.temporal->rows)
        spanNs[row.rank] = row.spanNs;
    for (const KernelPattern& p : in.patterns->patterns) {
        const size_t kernels = p.kernelCount();
        if (!p.top || kernels < static_cast<size_t>(std::max(1, th.fusionMinKernels)) || p.count < th.fusionMinOccurrences)
            continue;
        const double meanUs = us(p.gpuNs) / static_cast<double>(p.count) / static_cast<double>(kernels);
        const auto span = spanNs.find(p.rank);
        if (meanUs > th.fusionMaxMeanKernelUs || span == spanNs.end() || span->second <= 0
            || 100.0 * static_cast<double>(p.gpuNs) / static_cast<double>(span->second) < th.fusionMinGpuSharePctg)
            continue;
        const KernelPattern*& b = best[p.rank];
        if (!b || p.gpuNs > b->gpuNs)
            b = &p;
    }
    for (const auto& [rank, pattern] : best) {
        const KernelPattern& p = *pattern;
        const size_t kernels = p.kernelCount();
        const double meanUs = us(p.gpuNs) / static_cast<double>(p.count) / static_cast<double>(kernels);
        const double sharePctg = 100.0 * static_cast<double>(p.gpuNs) / static_cast<double>(spanNs[rank]);
        const double savingUs = us(p.gpuNs) * static_cast<double>(kernels - 1) / static_cast<double>(kernels);
        const std::string op = nameOf(in, p.names.front());
        std::string chain;
        for (size_t k = 1; k < p.names.size() && k <= 3; ++k)
            chain += (k > 1 ? ", " : "") + shortenKernelName(nameOf(in, p.names[k]));
        if (kernels > 3)
            chain += ", ...";
        Finding f;
        f.rule = "fusion_candidate";
        f.id = rankId(f.rule, rank);
        f.severity = FindingSeverity::Info;
        f.title = rankLabel(rank) + ": " + op + " runs the same " + std::to_string(kernels) + " short kernels "
            + std::to_string(p.count) + " times (" + fixed(meanUs, 1) + " us each): a fusion candidate";
        f.detail = "the sequence (" + chain + ") takes " + duration(us(p.gpuNs)) + " of GPU time, " + fixed(sharePctg, 1)
            + "% of the GPU span; fused into one kernel it could take about " + duration(us(p.gpuNs) - savingUs);
        f.suggestion = "Fuse the chain: torch.compile generates one kernel for chains of elementwise and reduction "
                       "ops; or use a fused implementation (fused or foreach optimizers, "
                       "torch.nn.functional.scaled_dot_product_attention, fused LayerNorm/RMSNorm). Each kernel of "
                       "the chain reads and writes its tensors from GPU memory and costs a launch.";
        f.evidence = {{"occurrences", static_cast<double>(p.count), "count", "patterns"},
                      {"kernels_per_occurrence", static_cast<double>(kernels), "count", "patterns"},
                      {"mean_kernel_duration", meanUs, "us", "patterns"},
                      {"sequence_gpu_time", us(p.gpuNs), "us", "patterns"},
                      {"sequence_share_of_span_pctg", sharePctg, "percent", "patterns"}};
        f.ranks = {rank};
        f.view = "patterns";
        f.command = "patterns";
        f.timeAtStakeUs = savingUs;
        out.push_back(std::move(f));
    }
}

namespace {

bool isMatmulKernel(std::string_view name)
{
    std::string lower(name.substr(0, 200));
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const char* word : {"gemm", "conv", "matmul", "cutlass", "xmma", "fprop", "dgrad", "wgrad", "cijk_"})
        if (lower.find(word) != std::string::npos)
            return true;
    return false;
}

} // namespace

// Matrix multiplies and convolutions that do not use Tensor Cores run fp32 math at a fraction of
// the GPU's rate (A100: 19.5 TFLOP/s fp32 against 156 TF32 and 312 bf16). The time at stake
// assumes they would run twice as fast, the low end of what TF32 or bf16 gives.
void tensorCoreShare(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    if (!in.tensorCores || !in.strings)
        return;
    struct RankTotals {
        int64_t kernelNs = 0, matmulNs = 0, tensorCoreNs = 0;
        const KernelTensorCoreRow* slowest = nullptr;  // the longest matmul without Tensor Cores
    };
    std::map<int, RankTotals> ranks;
    for (const KernelTensorCoreRow& row : *in.tensorCores) {
        RankTotals& r = ranks[row.rank];
        r.kernelNs += row.totalNs;
        if (!isMatmulKernel(in.strings->view(row.name)))
            continue;
        r.matmulNs += row.totalNs;
        if (row.tensorCores)
            r.tensorCoreNs += row.totalNs;
        else if (!r.slowest || row.totalNs > r.slowest->totalNs)
            r.slowest = &row;
    }
    for (const auto& [rank, r] : ranks) {
        if (r.kernelNs <= 0 || r.matmulNs <= 0)
            continue;
        const double matmulPctg = 100.0 * static_cast<double>(r.matmulNs) / static_cast<double>(r.kernelNs);
        const double tcPctg = 100.0 * static_cast<double>(r.tensorCoreNs) / static_cast<double>(r.matmulNs);
        if (matmulPctg < th.matmulMinSharePctg || tcPctg >= th.tensorCoreMinSharePctg)
            continue;
        const int64_t withoutNs = r.matmulNs - r.tensorCoreNs;
        Finding f;
        f.rule = "low_tensor_core_use";
        f.id = rankId(f.rule, rank);
        f.severity = FindingSeverity::Warning;
        f.title = rankLabel(rank) + ": matrix multiplies and convolutions (" + fixed(matmulPctg, 1)
            + "% of kernel time) use Tensor Cores for only " + fixed(tcPctg, 1) + "% of their time";
        f.detail = duration(us(withoutNs)) + " of matmul/conv kernels run without Tensor Cores (by kernel name)";
        if (r.slowest)
            f.detail += ", most in " + shortenKernelName(in.strings->view(r.slowest->name)) + " ("
                + std::to_string(r.slowest->count) + " launches, " + duration(us(r.slowest->totalNs)) + ")";
        f.suggestion = "The matmuls run in fp32 on the CUDA cores. Allow TF32 "
                       "(torch.backends.cuda.matmul.allow_tf32 = True, torch.backends.cudnn.allow_tf32 = True, or "
                       "torch.set_float32_matmul_precision(\"high\")) or train in mixed precision "
                       "(torch.autocast(\"cuda\", dtype=torch.bfloat16)); keep matrix sizes multiples of 8.";
        f.evidence = {{"matmul_share_of_kernel_time_pctg", matmulPctg, "percent", "ops --kernels"},
                      {"tensor_core_share_of_matmul_pctg", tcPctg, "percent", "ops --kernels"},
                      {"matmul_without_tensor_cores", us(withoutNs), "us", "ops --kernels"}};
        f.ranks = {rank};
        f.view = "operators";
        f.command = "ops --kernels";
        f.timeAtStakeUs = us(withoutNs) / 2.0;
        out.push_back(std::move(f));
    }
}

} // namespace kscope::finding_rules
