// kinetoscope-cli ops RUN: time per PyTorch operator on host and device (the TensorBoard
// profiler's Operator view), the Tensor Core share of kernel time, and HTA's get_ops_summary.

#include "command.h"

#include "analysis/operators/operators.h"
#include "analysis/tables/operatortables.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace kscope::cli {

namespace {

struct OpsArgs {
    std::string groupBy = "name";
    bool annotations = false;
    int64_t top = 0;
    bool kernels = false;
    bool tensorCores = false;
    std::string device = "all";
};

Action setupOps(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<OpsArgs>();
    app.add_option("--group-by", args->groupBy,
                   "name, shape (name and Input Dims, from record_shapes) or stack (name and its enclosing ops)")
        ->check(oneOf({"name", "shape", "stack"}))
        ->type_name("KEY")
        ->capture_default_str();
    app.add_flag("--annotations", args->annotations,
                 "user annotations (record_function ranges, ProfilerStep#N) count as operators too");
    app.add_option("--top", args->top, "per rank, keep the N rows with the most device time; fold the rest")
        ->check(wholeNumber(0, 1000000))
        ->type_name("N");
    CLI::Option* kernels = app.add_flag("--kernels", args->kernels,
                                        "per kernel name: launches, time and whether it uses Tensor Cores");
    CLI::Option* tc = app.add_flag("--tensor-cores", args->tensorCores,
                                   "per rank: the share of GPU kernel time in Tensor Core kernels");
    app.add_option("--device", args->device, "--hta-compat only: all, cpu (no stream) or gpu (HTA's device_type)")
        ->check(oneOf({"all", "cpu", "gpu"}))
        ->type_name("D")
        ->capture_default_str();
    kernels->excludes(tc);
    return [args, &invocation] {
        if (invocation.common.htaCompat) {
            // HTA's LabeledTrace neither aligns nor trims: its numbers need the last step.
            Invocation local = invocation;
            local.common.includeLastStep = true;
            OpsSummaryOptions options;
            options.device = args->device == "cpu" ? 1 : args->device == "gpu" ? 2 : 0;
            options.step = invocation.common.step >= 0 ? -2 : -1;  // --step: the run is already cut to it
            return runAnalysis(local, [&](const Run& run) { return opsSummaryTable(run, opsSummary(run, options)); },
                               TableStyle{.dropFirst = {"cat_id", "name_id", "short_name"}});
        }
        // Op names are no kernel names: the table format shows them whole, never shortened.
        Invocation local = invocation;
        local.common.fullNames = !args->kernels || invocation.common.fullNames;
        OperatorOptions options;
        options.groupBy = args->groupBy == "shape" ? OpGroupBy::Shape
            : args->groupBy == "stack"             ? OpGroupBy::Stack
                                                   : OpGroupBy::Name;
        options.includeAnnotations = args->annotations;
        options.top = static_cast<size_t>(args->top);
        const TableStyle style{.dropFirst = {"gpu_events", "tensor_core_self_pctg", "tensor_core_total_pctg"},
                               .keep = {"device_total (us)", "host_total (us)", "total (us)"}};
        return runAnalysis(
            local,
            [&](const Run& run) {
                if (args->kernels)
                    return kernelTensorCoresTable(run, kernelTensorCores(run));
                const Operators result = operatorStats(run, options);
                if (args->tensorCores)
                    return tensorCoreShareTable(result);
                return operatorsTable(run, result);
            },
            style);
    };
}

const CommandRegistrar kRegistrar{
    {"ops", "Time per PyTorch operator on host and device, Tensor Core share (TensorBoard's Operator view)",
     "One row per rank and CPU operator (cpu_op; --annotations adds user annotations): calls,\n"
     "host_total (its duration), host_self (minus its child ops), device_total (the GPU time of\n"
     "every kernel, memcpy and memset launched anywhere inside it), device_self (launched by its own\n"
     "runtime calls), and the share of that GPU time in Tensor Core kernels; us. A GPU event belongs\n"
     "to the innermost operator around its launch on the launching thread. Sorted by device_total.\n"
     "--group-by shape splits by Input Dims, --group-by stack by the chain of enclosing ops.\n"
     "--kernels lists kernels with their Tensor Core flag, --tensor-cores the share per rank.\n"
     "--hta-compat: HTA's TraceDiff get_ops_summary (count and total duration per cat and name of\n"
     "the first rank and first ProfilerStep, or --ranks R / --step N).",
     &setupOps}};

} // namespace

} // namespace kscope::cli
