#pragma once

#include "analysis/core/kerneltype.h"
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct KernelDistributionOptions {
    std::string nameContains;  // only kernels whose name contains this text; empty = all
    StringId kernel;           // only this kernel (a run-wide id); null = by nameContains
    int top = 20;              // the kernels with the most total time across ranks
    size_t maxOutliers = 50;   // outliers listed per kernel and rank (all are counted)
};

// Box-plot statistics of one kernel's durations on one rank (Tukey's 1.5 IQR whiskers).
struct KernelRankDistribution {
    int rank = -1;
    RankIndex rankIndex;
    int64_t count = 0;
    int64_t totalNs = 0;
    double minNs = 0.0, q1Ns = 0.0, medianNs = 0.0, q3Ns = 0.0, maxNs = 0.0;
    double meanNs = 0.0, stddevNs = 0.0;
    double whiskerLowNs = 0.0, whiskerHighNs = 0.0;  // furthest durations within 1.5 IQR
    int64_t outlierCount = 0;
    std::vector<int64_t> outliersNs;  // the most extreme first, at most maxOutliers
};

struct KernelDistribution {
    StringId name;
    KernelType type = KernelType::Other;
    int64_t totalNs = 0;  // over all ranks
    double spread = 1.0;  // largest / smallest median across ranks: 1 is perfectly balanced
    std::vector<KernelRankDistribution> ranks;  // ranks that ran the kernel, by rank
};

struct KernelDistributions {
    std::vector<KernelDistribution> kernels;  // most imbalanced (spread) first
    std::string error;
    std::vector<std::string> notes;
};

// Beyond HTA: per-rank duration distributions of the heaviest kernels, for box plots and for
// finding kernels that run slower on some ranks.
KernelDistributions kernelDistributions(const Run& run, const KernelDistributionOptions& options);

} // namespace kscope
