#pragma once

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct OverlapOptions {
    bool htaCompat = false;
};

// How much of a rank's communication time runs while computation runs (HTA's
// get_comm_comp_overlap): |U(comm) ∩ U(comp)| / |U(comm)|. Memory kernels are ignored.
struct OverlapRow {
    int rank = -1;
    RankIndex rankIndex;
    int64_t communicationNs = 0;  // union of COMMUNICATION kernels
    int64_t overlapNs = 0;        // part of it covered by COMPUTATION kernels
    bool hasCommunication = false;
    double overlapPctg = 0.0;     // NaN without communication
};

struct Overlap {
    std::vector<OverlapRow> rows;  // by rank
    std::string error;
    std::vector<std::string> notes;
};

Overlap commCompOverlap(const Run& run, const OverlapOptions& options);

} // namespace kscope
