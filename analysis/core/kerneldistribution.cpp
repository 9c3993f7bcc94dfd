#include "analysis/core/kerneldistribution.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kscope {

namespace {

KernelRankDistribution distributionOf(std::vector<int64_t>& durations, int rank, RankIndex rankIndex, size_t maxOutliers)
{
    KernelRankDistribution d;
    d.rank = rank;
    d.rankIndex = rankIndex;
    d.count = static_cast<int64_t>(durations.size());
    std::sort(durations.begin(), durations.end());
    std::vector<double> values(durations.begin(), durations.end());
    for (int64_t v : durations)
        d.totalNs += v;
    d.minNs = values.front();
    d.maxNs = values.back();
    d.q1Ns = hta::quantileLinear(values, 0.25);
    d.medianNs = hta::quantileLinear(values, 0.5);
    d.q3Ns = hta::quantileLinear(values, 0.75);
    d.meanNs = static_cast<double>(d.totalNs) / static_cast<double>(d.count);
    const double stddev = hta::sampleStd(values);
    d.stddevNs = std::isnan(stddev) ? 0.0 : stddev;
    const double reach = 1.5 * (d.q3Ns - d.q1Ns);
    const double lowFence = d.q1Ns - reach;
    const double highFence = d.q3Ns + reach;
    const auto firstInside = std::lower_bound(values.begin(), values.end(), lowFence);
    const auto pastInside = std::upper_bound(values.begin(), values.end(), highFence);
    d.whiskerLowNs = firstInside != values.end() ? *firstInside : d.minNs;
    d.whiskerHighNs = pastInside != values.begin() ? *(pastInside - 1) : d.maxNs;
    const size_t below = static_cast<size_t>(firstInside - values.begin());
    const size_t above = static_cast<size_t>(values.end() - pastInside);
    d.outlierCount = static_cast<int64_t>(below + above);
    // The most extreme outliers first, alternating from both ends.
    size_t lo = 0, hi = durations.size();
    while (d.outliersNs.size() < maxOutliers && (lo < below || hi > durations.size() - above)) {
        if (hi > durations.size() - above)
            d.outliersNs.push_back(durations[--hi]);
        if (lo < below && d.outliersNs.size() < maxOutliers)
            d.outliersNs.push_back(durations[lo++]);
    }
    return d;
}

} // namespace

KernelDistributions kernelDistributions(const Run& run, const KernelDistributionOptions& options)
{
    KernelDistributions result;
    if (run.ranks.empty()) {
        result.error = "the run has no rank";
        return result;
    }
    // Pass 1: total time per kernel name over all ranks.
    std::vector<int64_t> totalByName(run.strings.size(), 0);
    std::vector<uint8_t> seen(run.strings.size(), 0);
    std::vector<StringId> names;
    for (const RankTrace& rank : run.ranks) {
        const EventTable& events = rank.events;
        for (const EventIndex i : events.gpuRows) {
            if (!isGpuWorkRow(events, i))
                continue;
            const uint32_t id = events.name[i].value;
            totalByName[id] += events.durNs[i];
            if (!seen[id]) {
                seen[id] = 1;
                names.push_back(events.name[i]);
            }
        }
    }
    if (options.kernel) {
        // A kernel picked by id (a click in the GUI): exactly that one, never a name match.
        std::erase_if(names, [&](StringId id) { return id != options.kernel; });
        if (names.empty())
            result.error = "the kernel did not run in this run or step";
    } else if (!options.nameContains.empty()) {
        std::erase_if(names, [&](StringId id) {
            return run.str(id).find(options.nameContains) == std::string_view::npos;
        });
        if (names.empty())
            result.error = "no kernel name contains \"" + options.nameContains + "\"";
    } else if (names.empty()) {
        result.notes.push_back("the run has no GPU kernels");
    }
    std::sort(names.begin(), names.end(), [&](StringId a, StringId b) {
        if (totalByName[a.value] != totalByName[b.value])
            return totalByName[a.value] > totalByName[b.value];
        return run.str(a) < run.str(b);
    });
    if (options.top > 0 && names.size() > static_cast<size_t>(options.top))
        names.resize(static_cast<size_t>(options.top));

    // Pass 2: the selected kernels' durations, rank by rank.
    std::vector<int32_t> slotOfName(run.strings.size(), -1);
    for (size_t k = 0; k < names.size(); ++k)
        slotOfName[names[k].value] = static_cast<int32_t>(k);
    KernelTypeCache types(run.strings);
    result.kernels.resize(names.size());
    for (size_t k = 0; k < names.size(); ++k) {
        result.kernels[k].name = names[k];
        result.kernels[k].type = types.typeOf(names[k]);
        result.kernels[k].totalNs = totalByName[names[k].value];
    }
    std::vector<std::vector<int64_t>> durations(names.size());
    for (const RankTrace& rank : run.ranks) {
        const EventTable& events = rank.events;
        for (const EventIndex i : events.gpuRows) {
            if (!isGpuWorkRow(events, i))
                continue;
            const int32_t slot = slotOfName[events.name[i].value];
            if (slot >= 0)
                durations[slot].push_back(events.durNs[i]);
        }
        for (size_t k = 0; k < names.size(); ++k) {
            if (durations[k].empty())
                continue;
            result.kernels[k].ranks.push_back(distributionOf(durations[k], rank.rank, run.indexOf(rank), options.maxOutliers));
            durations[k].clear();
        }
    }
    for (KernelDistribution& kernel : result.kernels) {
        double lowest = std::numeric_limits<double>::infinity(), highest = 0.0;
        for (const KernelRankDistribution& d : kernel.ranks) {
            lowest = std::min(lowest, d.medianNs);
            highest = std::max(highest, d.medianNs);
        }
        kernel.spread = lowest > 0.0 ? highest / lowest : (highest > 0.0 ? std::numeric_limits<double>::infinity() : 1.0);
    }
    std::stable_sort(result.kernels.begin(), result.kernels.end(),
                     [](const KernelDistribution& a, const KernelDistribution& b) {
                         if (a.spread != b.spread)
                             return a.spread > b.spread;
                         return a.totalNs > b.totalNs;
                     });
    return result;
}

} // namespace kscope
