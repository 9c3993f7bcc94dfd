#include "analysis/core/overlap.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"

#include <limits>

namespace kscope {

Overlap commCompOverlap(const Run& run, const OverlapOptions& options)
{
    Overlap result;
    KernelTypeCache types(run.strings);
    std::vector<int> silentRanks;
    for (const RankTrace& rank : run.ranks) {
        const RankGpuUnions unions = gpuUnions(rank, types, options.htaCompat);
        OverlapRow row;
        row.rank = rank.rank;
        row.rankIndex = run.indexOf(rank);
        row.communicationNs = totalLength(unions.communication);
        row.overlapNs = intersectionLength(unions.communication, unions.computation);
        row.hasCommunication = !unions.communication.empty();
        if (row.hasCommunication) {
            // Same quotient as HTA's µs one: both sides are exact multiples, division is exact-rounded.
            const double value = 100.0
                * (static_cast<double>(row.overlapNs) / static_cast<double>(row.communicationNs));
            row.overlapPctg = options.htaCompat ? hta::round(value, 2) : value;
        } else {
            row.overlapPctg = std::numeric_limits<double>::quiet_NaN();
            silentRanks.push_back(rank.rank);
        }
        result.rows.push_back(row);
    }
    if (!silentRanks.empty()) {
        std::string list;
        for (int r : silentRanks)
            list += (list.empty() ? "" : ", ") + std::to_string(r);
        result.notes.push_back("no communication kernels on rank(s) " + list + ": overlap left empty");
    }
    if (run.ranks.empty())
        result.error = "the run has no rank";
    return result;
}

} // namespace kscope
