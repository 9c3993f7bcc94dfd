#include "analysis/core/kernelbreakdown.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "analysis/runningstats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace kscope {

namespace {

constexpr std::string_view kOthers = "others";

// Running statistics of one kernel name on one rank.
struct NameStats : RunningStats {
    StringId name;
    KernelType type = KernelType::Other;
};

KernelStatsRow realRow(const NameStats& s, int rank)
{
    KernelStatsRow row;
    row.name = s.name;
    row.type = s.type;
    row.rank = rank;
    row.count = s.count;
    row.sumNs = s.sum;
    row.maxNs = s.max;
    row.minNs = s.min;
    row.meanNs = static_cast<double>(s.sum) / static_cast<double>(s.count);
    row.stddevNs = s.stddev();
    return row;
}

// HTA's _aggr_gpu_kernel_time for one rank and type; names arrive sorted by name.
void aggregateType(const std::vector<const NameStats*>& names, int rank,
                   const KernelBreakdownOptions& options, std::vector<KernelStatsRow>& out)
{
    if (names.empty())
        return;
    if (static_cast<int64_t>(names.size()) <= options.numKernels) {
        for (const NameStats* s : names)
            out.push_back(realRow(*s, rank));
        return;
    }
    std::vector<int64_t> sums;
    sums.reserve(names.size());
    for (const NameStats* s : names)
        sums.push_back(s->sum);
    const std::vector<uint32_t> bySum = hta::sortDescendingOrder(sums);

    // In HTA mode the quantile is taken in microseconds, as HTA's own column holds them.
    const double unit = options.htaCompat ? 1000.0 : 1.0;
    std::vector<double> cumulative(names.size());
    int64_t running = 0;
    for (size_t k = 0; k < bySum.size(); ++k) {
        running += sums[bySum[k]];
        cumulative[k] = static_cast<double>(running) / unit;
    }
    std::vector<double> sorted = cumulative;
    std::sort(sorted.begin(), sorted.end());
    const double threshold = hta::quantileLinear(sorted, options.durationRatio);

    NameStats others;
    others.type = names.front()->type;
    // HTA mode: the "others" statistics are over the folded kernels' sums (Welford in frame order).
    NameStats othersOfSums = others;
    for (size_t k = 0; k < bySum.size(); ++k) {
        const NameStats& s = *names[bySum[k]];
        const bool folded = cumulative[k] > threshold || static_cast<int64_t>(k) >= options.numKernels;
        if (folded) {
            others.merge(s);
            othersOfSums.add(s.sum);
            continue;
        }
        KernelStatsRow row = realRow(s, rank);
        if (options.htaCompat) {
            row.maxNs = row.minNs = row.sumNs;
            row.meanNs = static_cast<double>(row.sumNs);
            row.stddevNs = 0.0;
        }
        out.push_back(row);
    }
    if (others.count == 0)
        return;
    KernelStatsRow row = realRow(others, rank);
    row.name = StringId{};
    if (options.htaCompat) {
        row.maxNs = othersOfSums.max;
        row.minNs = othersOfSums.min;
        row.meanNs = static_cast<double>(othersOfSums.sum) / static_cast<double>(othersOfSums.count);
        row.stddevNs = othersOfSums.stddev();
    }
    out.push_back(row);
}

// The label of a running sum of type bits, as HTA builds it (types joined in analysis order).
std::string sliceLabel(int64_t running, const std::vector<KernelType>& analysed)
{
    std::string label;
    for (size_t k = 0; k < analysed.size(); ++k) {
        if (!(running & (int64_t{1} << k)))
            continue;
        if (!label.empty())
            label += " overlapping ";
        label += toString(analysed[k]);
    }
    return label;
}

// HTA's _get_gpu_kernel_type_time, edge for edge: each type's union is appended as all starts
// then all ends and the whole table re-sorted with numpy's quicksort, so equal times land in
// numpy's order and zero-length slices show up exactly where HTA lists them.
void htaTypeSlices(const std::vector<const std::vector<Interval>*>& unions,
                   const std::vector<KernelType>& analysed, std::map<std::string, int64_t>& slices)
{
    std::vector<int64_t> times;
    std::vector<int64_t> status;
    for (size_t k = 0; k < unions.size(); ++k) {
        const int64_t weight = int64_t{1} << k;
        for (const Interval& g : *unions[k]) {
            times.push_back(g.start);
            status.push_back(weight);
        }
        for (const Interval& g : *unions[k]) {
            times.push_back(g.end);
            status.push_back(-weight);
        }
        const std::vector<uint32_t> order = hta::quicksortArgsort(times);
        std::vector<int64_t> sortedTimes(times.size()), sortedStatus(times.size());
        for (size_t i = 0; i < order.size(); ++i) {
            sortedTimes[i] = times[order[i]];
            sortedStatus[i] = status[order[i]];
        }
        times.swap(sortedTimes);
        status.swap(sortedStatus);
    }
    int64_t running = 0;
    for (size_t i = 0; i + 1 < times.size(); ++i) {
        running += status[i];
        if (running > 0)
            slices[sliceLabel(running, analysed)] += times[i + 1] - times[i];
    }
}

} // namespace

std::string_view rowName(const Run& run, const KernelStatsRow& row)
{
    return row.isOthers() ? kOthers : run.str(row.name);
}

KernelBreakdown kernelBreakdown(const Run& run, const KernelBreakdownOptions& options)
{
    KernelBreakdown result;
    result.htaCompat = options.htaCompat;
    std::vector<KernelType> analysed = {KernelType::Computation, KernelType::Communication};
    if (options.includeMemoryKernels)
        analysed.push_back(KernelType::Memory);
    auto isAnalysed = [&analysed](KernelType t) {
        return std::find(analysed.begin(), analysed.end(), t) != analysed.end();
    };

    KernelTypeCache types(run.strings);
    std::vector<int32_t> slotOfName(run.strings.size(), -1);
    std::vector<NameStats> slots;
    std::map<std::string, int64_t> slices;  // a handful of labels

    for (const RankTrace& rank : run.ranks) {
        const EventTable& events = rank.events;
        slots.clear();
        for (const EventIndex i : events.gpuRows) {
            if (!isGpuActivityRow(events, i, options.htaCompat))
                continue;
            const StringId name = events.name[i];
            int32_t& slot = slotOfName[name.value];
            if (slot < 0) {
                const KernelType type = types.typeOf(name);
                if (!isAnalysed(type))
                    continue;
                slot = static_cast<int32_t>(slots.size());
                slots.push_back({{}, name, type});
            }
            slots[slot].add(events.durNs[i]);
        }
        for (const NameStats& s : slots)
            slotOfName[s.name.value] = -1;

        // groupby("name") orders by name; the fold then reorders by sum.
        std::vector<const NameStats*> byName;
        byName.reserve(slots.size());
        for (const NameStats& s : slots)
            byName.push_back(&s);
        std::sort(byName.begin(), byName.end(), [&run](const NameStats* a, const NameStats* b) {
            return run.str(a->name) < run.str(b->name);
        });
        const size_t firstRow = result.kernels.size();
        for (KernelType type : analysed) {
            std::vector<const NameStats*> ofType;
            for (const NameStats* s : byName)
                if (s->type == type)
                    ofType.push_back(s);
            aggregateType(ofType, rank.rank, options, result.kernels);
        }
        for (size_t k = firstRow; k < result.kernels.size(); ++k)
            result.kernels[k].rankIndex = run.indexOf(rank);

        const RankGpuUnions unions = gpuUnions(rank, types, options.htaCompat);
        std::vector<const std::vector<Interval>*> typeUnions = {&unions.computation, &unions.communication};
        if (options.includeMemoryKernels)
            typeUnions.push_back(&unions.memory);
        std::vector<std::span<const Interval>> sets;
        for (const std::vector<Interval>* u : typeUnions)
            sets.emplace_back(*u);
        // Time per running sum (a bit mask of the types under way: each union is disjoint),
        // labelled once at the end instead of once per stretch.
        std::vector<int64_t> byRunning(size_t{1} << analysed.size(), 0);
        std::map<std::string, int64_t> rankSlices;
        const size_t crowdedInstants = sweepUnions(sets, [&](int64_t running, int64_t from, int64_t to) {
            if (running <= 0)
                return;
            if (static_cast<uint64_t>(running) < byRunning.size())
                byRunning[static_cast<size_t>(running)] += to - from;
            else
                rankSlices[sliceLabel(running, analysed)] += to - from;
        });
        for (size_t running = 1; running < byRunning.size(); ++running)
            if (byRunning[running] > 0)
                rankSlices[sliceLabel(static_cast<int64_t>(running), analysed)] += byRunning[running];
        // Durations never depend on the order of edges at one instant; HTA's unstable sort only
        // adds zero-length slices. Replay it edge for edge only when that could add a label.
        const size_t possibleLabels = (size_t{1} << analysed.size()) - 1;
        if (options.htaCompat && crowdedInstants > 0 && rankSlices.size() < possibleLabels) {
            rankSlices.clear();
            htaTypeSlices(typeUnions, analysed, rankSlices);
        }
        for (const auto& [label, sum] : rankSlices)
            slices[label] += sum;
    }

    // Labels in name order (HTA's groupby), then by sum descending with HTA's sort.
    std::vector<int64_t> sums;
    for (const auto& [label, sum] : slices) {
        result.types.push_back({label, sum, 0.0});
        sums.push_back(sum);
    }
    int64_t total = 0;
    for (int64_t s : sums)
        total += s;
    std::vector<KernelTypeShare> ordered;
    for (uint32_t index : hta::sortDescendingOrder(sums)) {
        KernelTypeShare share = result.types[index];
        const double value = (static_cast<double>(share.sumNs) / static_cast<double>(total)) * 100.0;
        share.percentage = options.htaCompat ? hta::round(value, 1) : value;
        ordered.push_back(share);
    }
    result.types = std::move(ordered);

    std::stable_sort(result.kernels.begin(), result.kernels.end(),
                     [&run](const KernelStatsRow& a, const KernelStatsRow& b) {
                         const std::string_view ta = toString(a.type), tb = toString(b.type);
                         if (ta != tb)
                             return ta < tb;
                         const std::string_view na = rowName(run, a), nb = rowName(run, b);
                         if (na != nb)
                             return na < nb;
                         return a.rank < b.rank;
                     });
    if (run.ranks.empty())
        result.error = "the run has no rank";
    return result;
}

} // namespace kscope
