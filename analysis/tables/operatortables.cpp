#include "analysis/tables/operatortables.h"

#include "analysis/core/kerneltype.h"
#include "analysis/operators/operators.h"
#include "analysis/tables/resulttables.h"

#include "model/trace.h"

#include <cmath>
#include <cstdio>

namespace kscope {

namespace {


Cell pctg(int64_t part, int64_t whole)
{
    if (whole <= 0)
        return Cell{};
    return Cell{100.0 * static_cast<double>(part) / static_cast<double>(whole)};
}

std::string stackText(const Run& run, const std::vector<StringId>& stack)
{
    std::string text;
    for (StringId id : stack) {
        if (!text.empty())
            text += " > ";
        text += run.str(id);
    }
    return text;
}

} // namespace

Table operatorsTable(const Run& run, const Operators& result)
{
    Table table;
    table.columns = {"rank", "name"};
    for (const char* c : {"calls", "host_total (us)", "host_self (us)", "device_total (us)", "device_self (us)",
                          "tensor_core_total_pctg", "tensor_core_self_pctg", "gpu_events"})
        table.columns.emplace_back(c);
    // the grouping's text last: the table format leaves it out first when rows are too wide
    if (result.groupBy == OpGroupBy::Shape)
        table.columns.push_back("input_dims");
    else if (result.groupBy == OpGroupBy::Stack)
        table.columns.push_back("stack");
    for (const OperatorRow& r : result.rows) {
        std::vector<Cell> row;
        row.emplace_back(int64_t(r.rank));
        row.emplace_back(r.foldedRows > 0 ? "others (" + std::to_string(r.foldedRows) + ")"
                                          : std::string(run.str(r.name)));
        row.emplace_back(r.calls);
        row.push_back(microsCell(r.hostTotalNs));
        row.push_back(microsCell(r.hostSelfNs));
        row.push_back(microsCell(r.deviceTotalNs));
        row.push_back(microsCell(r.deviceSelfNs));
        row.push_back(pctg(r.tensorCoreTotalNs, r.deviceTotalNs));
        row.push_back(pctg(r.tensorCoreSelfNs, r.deviceSelfNs));
        row.emplace_back(r.gpuEvents);
        if (result.groupBy == OpGroupBy::Shape)
            row.emplace_back(std::string(run.str(r.inputDims)));
        else if (result.groupBy == OpGroupBy::Stack)
            row.emplace_back(stackText(run, r.stack));
        table.addRow(std::move(row));
    }
    for (const TensorCoreShare& s : result.tensorCores)
        if (s.kernelNs > 0) {
            char text[160];
            std::snprintf(text, sizeof text, "rank %d: %.1f%% of GPU kernel time uses Tensor Cores (%lld of %lld kernels)",
                          s.rank, 100.0 * double(s.tensorCoreNs) / double(s.kernelNs),
                          static_cast<long long>(s.tensorCoreKernels), static_cast<long long>(s.kernels));
            table.notes.emplace_back(text);
        }
    return withNotes(std::move(table), result);
}

Table tensorCoreShareTable(const Operators& result)
{
    Table table;
    table.columns = {"rank", "kernels", micros("kernel_time (us)"), "tensor_core_kernels", micros("tensor_core_time (us)"),
                     percent("tensor_core_pctg"), micros("outside_ops_gpu_time (us)")};
    for (const TensorCoreShare& s : result.tensorCores)
        table.addRow({int64_t(s.rank), s.kernels, microsCell(s.kernelNs), s.tensorCoreKernels,
                      microsCell(s.tensorCoreNs), pctg(s.tensorCoreNs, s.kernelNs), microsCell(s.outsideOpsNs)});
    return withNotes(std::move(table), result);
}

Table kernelTensorCoresTable(const Run& run, const std::vector<KernelTensorCoreRow>& rows)
{
    Table table;
    table.columns = {"rank", "name", "tensor_cores", "count", micros("total (us)")};
    for (const KernelTensorCoreRow& r : rows)
        table.addRow({int64_t(r.rank), std::string(run.str(r.name)), int64_t(r.tensorCores ? 1 : 0), r.count,
                      microsCell(r.totalNs)});
    return table;
}

Table opsSummaryTable(const Run& run, const OpsSummary& result)
{
    Table table;
    table.columns = {"cat", "name", "short_name", "counts", micros("total_duration"), "cat_id", "name_id"};
    for (const OpsSummaryRow& r : result.rows) {
        const std::string_view name = run.str(r.name);
        table.addRow({std::string(run.str(r.category)), std::string(name), shortenKernelName(name), r.count,
                      Cell{static_cast<double>(r.totalNs) / 1000.0}, int64_t(r.category.value),
                      int64_t(r.name.value)});
    }
    return withNotes(std::move(table), result);
}

} // namespace kscope
