#pragma once

// The GPU work one operator launched: per kernel (memcpy, memset) name, how often and how long,
// on one rank. What the Operators view lists when an op is picked, so that a kernel of it can be
// followed into the kernel views. The same ownership rule as operatorStats() (launchingOp() in
// operators.h): a GPU event belongs to every op that encloses its launching call on the launching
// thread (device total), counted once per such call of the op, as the operator table sums them.

#include "analysis/resulttable.h"

#include "analysis/rankchoice.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct OperatorKernelsOptions {
    std::optional<RankIndex> rank;  // unset: the run's first rank
    StringId op;            // the operator's name
    bool selfOnly = false;  // only what its own runtime calls launched (device self)
    bool includeAnnotations = false;  // as OperatorOptions: user annotations count as ops
};

struct OperatorKernelRow {
    StringId name;
    EventKind kind = EventKind::Kernel;
    int64_t count = 0;
    int64_t totalNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
    bool tensorCores = false;
};

struct OperatorKernels {
    int rank = -1;
    StringId op;
    int64_t opCalls = 0;
    std::vector<OperatorKernelRow> rows;  // by total time descending, then name
    std::string error;
};

OperatorKernels operatorKernels(const Run& run, const OperatorKernelsOptions& options);

// One row per kernel name: rank, operator, name, kind, tensor_cores, count, total/min/max (us).
Table operatorKernelsTable(const Run& run, const OperatorKernels& result);

} // namespace kscope
