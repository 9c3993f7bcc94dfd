#pragma once

// Tables of the operator analysis (ops), as the CLI prints them and the GUI exports them.

#include "analysis/resulttable.h"

#include <vector>

namespace kscope {

struct Run;
struct Operators;
struct OpsSummary;
struct KernelTensorCoreRow;

// One row per rank and operator group (the folded row: name "others (N)"): calls, host and device times (us), Tensor Core shares.
// The columns name the grouping: input_dims with OpGroupBy::Shape, stack with OpGroupBy::Stack.
Table operatorsTable(const Run& run, const Operators& result);
// Per rank: kernel time, the part in Tensor Core kernels and its share, GPU work outside ops.
Table tensorCoreShareTable(const Operators& result);
// Per rank and kernel name: launches, time, tensor_cores (1 or 0).
Table kernelTensorCoresTable(const Run& run, const std::vector<KernelTensorCoreRow>& rows);
// HTA's get_ops_summary: cat, name, short_name, counts, total_duration, cat_id, name_id.
Table opsSummaryTable(const Run& run, const OpsSummary& result);

} // namespace kscope
