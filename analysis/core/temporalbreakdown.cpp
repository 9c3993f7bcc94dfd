#include "analysis/core/temporalbreakdown.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"

namespace kscope {

namespace {

double percentage(int64_t part, int64_t whole, bool htaCompat)
{
    // HTA: round(100 * (part / whole), 2); a zero span gives NaN there too.
    const double value = 100.0 * (static_cast<double>(part) / static_cast<double>(whole));
    return htaCompat ? hta::round(value, 2) : value;
}

} // namespace

TemporalBreakdown temporalBreakdown(const Run& run, const TemporalOptions& options)
{
    TemporalBreakdown result;
    KernelTypeCache types(run.strings);
    for (const RankTrace& rank : run.ranks) {
        const RankGpuUnions unions = gpuUnions(rank, types, options.htaCompat);
        if (unions.all.empty()) {
            if (options.htaCompat) {
                // HTA indexes the first merged kernel of every rank and raises IndexError.
                result.rows.clear();
                result.error = rankLabel(rank.rank)
                    + " has no GPU activity; HTA raises IndexError on such a run, no result";
                return result;
            }
            result.notes.push_back(rankLabel(rank.rank) + " has no GPU activity: left out");
            continue;
        }
        TemporalBreakdownRow row;
        row.rank = rank.rank;
        row.rankIndex = run.indexOf(rank);
        row.spanNs = unions.all.back().end - unions.all.front().start;
        row.idleNs = row.spanNs - totalLength(unions.all);
        row.computeNs = totalLength(unions.computation);
        row.nonComputeNs = row.spanNs - row.computeNs - row.idleNs;
        if (options.htaCompat
            && (row.idleNs > row.spanNs || row.computeNs > row.spanNs || row.nonComputeNs < 0)) {
            result.rows.clear();
            result.error = rankLabel(rank.rank)
                + ": negative non-compute time (rounded sub-microsecond kernels); HTA's assertion fails, no result";
            return result;
        }
        row.idlePctg = percentage(row.idleNs, row.spanNs, options.htaCompat);
        row.computePctg = percentage(row.computeNs, row.spanNs, options.htaCompat);
        row.nonComputePctg = percentage(row.nonComputeNs, row.spanNs, options.htaCompat);
        result.rows.push_back(row);
    }
    if (run.ranks.empty())
        result.error = "the run has no rank";
    return result;
}

} // namespace kscope
