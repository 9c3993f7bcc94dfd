#pragma once

#include "analysis/core/kerneltype.h"
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct KernelBreakdownOptions {
    // HTA's numbers exactly: folded kernels collapse to their sum, zero-length overlap slices
    // are listed, percentages are rounded. The default keeps the kernels' real statistics.
    bool htaCompat = false;
    double durationRatio = 0.8;   // kernels past this quantile of the running total fold into "others"
    int numKernels = 10;          // at most this many kernels per rank and type
    bool includeMemoryKernels = true;
};

// One slice of the union of GPU time: a type alone, or types overlapping
// ("COMPUTATION overlapping COMMUNICATION"), summed over ranks.
struct KernelTypeShare {
    std::string kernelType;
    int64_t sumNs = 0;
    double percentage = 0.0;  // of all slices
};

struct KernelStatsRow {
    StringId name;  // null for the "others" row
    KernelType type = KernelType::Other;
    int rank = -1;
    RankIndex rankIndex;  // two files may claim one rank number
    int64_t count = 0;  // kernel launches behind the row
    int64_t sumNs = 0;
    int64_t maxNs = 0;
    int64_t minNs = 0;
    double meanNs = 0.0;
    double stddevNs = 0.0;
    bool isOthers() const { return !name; }
};

struct KernelBreakdown {
    std::vector<KernelTypeShare> types;   // by sum, descending
    std::vector<KernelStatsRow> kernels;  // by type, name ("others" among them), rank
    bool htaCompat = false;               // HTA's column names in the tables
    std::string error;
    std::vector<std::string> notes;
};

KernelBreakdown kernelBreakdown(const Run& run, const KernelBreakdownOptions& options);

// The name a row is listed under: the kernel's name, or "others".
std::string_view rowName(const Run& run, const KernelStatsRow& row);

} // namespace kscope
