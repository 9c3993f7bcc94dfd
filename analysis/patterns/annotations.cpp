#include "analysis/patterns/annotations.h"

#include "analysis/operators/calltree.h"
#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "analysis/runningstats.h"
#include "model/rankbuilder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace kscope {

namespace {

constexpr std::string_view kOthers = "others";

// Running statistics of one name.
struct Stats : RunningStats {
    StringId name;

    AnnotationRow row(int rank) const
    {
        return {rank,
                name,
                count,
                sum,
                max,
                min,
                static_cast<double>(sum) / static_cast<double>(count),
                stddev()};
    }
};

// HTA's _aggr_gpu_kernel_time for one rank; `names` sorted by name.
void fold(const Run& run, std::vector<Stats>& names, int rank, const AnnotationOptions& options,
          std::vector<AnnotationRow>& out)
{
    if (static_cast<int64_t>(names.size()) <= options.numKernels) {
        for (const Stats& s : names)
            out.push_back(s.row(rank));
        return;
    }
    std::vector<int64_t> sums;
    for (const Stats& s : names)
        sums.push_back(s.sum);
    const std::vector<uint32_t> bySum = hta::sortDescendingOrder(sums);
    const double unit = options.htaCompat ? 1000.0 : 1.0;  // HTA's column holds microseconds
    std::vector<double> cumulative(names.size());
    int64_t running = 0;
    for (size_t k = 0; k < bySum.size(); ++k) {
        running += sums[bySum[k]];
        cumulative[k] = static_cast<double>(running) / unit;
    }
    std::vector<double> sorted = cumulative;
    std::sort(sorted.begin(), sorted.end());
    const double threshold = hta::quantileLinear(sorted, options.durationRatio);
    auto allowed = [&](StringId name) {
        const std::string_view text = run.str(name);
        return std::any_of(options.allow.begin(), options.allow.end(),
                           [&](const std::string& p) { return text.find(p) != std::string_view::npos; });
    };
    Stats others;  // real statistics of every folded annotation
    Stats othersOfSums;  // HTA's: statistics of the folded names' sums
    std::vector<AnnotationRow> kept;
    for (size_t k = 0; k < bySum.size(); ++k) {
        const Stats& s = names[bySum[k]];
        const bool folded = !allowed(s.name)
            && (cumulative[k] > threshold || static_cast<int64_t>(k) >= options.numKernels);
        if (folded) {
            others.merge(s);
            othersOfSums.add(s.sum);
            continue;
        }
        AnnotationRow row = s.row(rank);
        if (options.htaCompat) {  // re-aggregated over the sum column
            row.maxNs = row.minNs = row.sumNs;
            row.meanNs = static_cast<double>(row.sumNs);
            row.stddevNs = 0.0;
        }
        kept.push_back(row);
    }
    if (others.count > 0) {
        AnnotationRow row = options.htaCompat ? othersOfSums.row(rank) : others.row(rank);
        row.name = StringId{};
        row.count = others.count;
        kept.push_back(row);
    }
    std::sort(kept.begin(), kept.end(), [&run](const AnnotationRow& a, const AnnotationRow& b) {
        return annotationName(run, a) < annotationName(run, b);
    });
    out.insert(out.end(), kept.begin(), kept.end());
}

} // namespace

std::string_view annotationName(const Run& run, const AnnotationRow& row)
{
    return row.isOthers() ? kOthers : run.str(row.name);
}

AnnotationBreakdown userAnnotationBreakdown(const Run& run, const AnnotationOptions& options)
{
    AnnotationBreakdown result;
    result.htaCompat = options.htaCompat;
    result.cpu = options.cpu;
    const char* category = options.cpu ? "user_annotation" : "gpu_user_annotation";
    const StringId categoryId = run.strings.find(category);
    if (!categoryId) {
        result.error = std::string("the run has no ") + category + " events";
        return result;
    }
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(note + ": left out");
    for (const RankTrace* rank : ranksToRead(run, options.ranks)) {
        const int number = rank->rank;
        const EventTable& t = rank->events;
        std::map<StringId, Stats> byName;
        for (size_t i = 0; i < t.size(); ++i) {
            if (t.category[i] != categoryId || t.phase[i] != Phase::Complete)
                continue;
            Stats& s = byName[t.name[i]];
            s.name = t.name[i];
            s.add(t.durNs[i]);
        }
        if (byName.empty()) {
            result.notes.push_back(rankLabel(number) + " has no " + category + " events");
            continue;
        }
        std::vector<Stats> names;
        for (auto& [id, s] : byName)
            names.push_back(s);
        std::sort(names.begin(), names.end(),
                  [&run](const Stats& a, const Stats& b) { return run.str(a.name) < run.str(b.name); });
        fold(run, names, number, options, result.rows);
    }
    if (result.rows.empty() && result.error.empty())
        result.error = std::string("no ") + category + " events on the ranks asked for";
    return result;
}

AnnotatedKernels kernelsWithAnnotations(const Run& run, const AnnotatedKernelsOptions& options)
{
    AnnotatedKernels result;
    result.htaCompat = options.htaCompat;
    const StringId categoryId = run.strings.find("gpu_user_annotation");
    if (!categoryId) {
        result.error = "the run has no gpu_user_annotation events";
        return result;
    }
    const StringId eventSync = run.strings.find("Event Sync");
    const StringId contextSync = run.strings.find("Context Sync");
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(note + ": left out");
    for (const RankTrace* rank : ranksToRead(run, options.ranks)) {
        const int number = rank->rank;
        const EventTable& t = rank->events;
        const size_t n = t.size();
        std::vector<EventIndex> rows = htaFrameOrder(t);  // HTA's frame keeps the file's order
        if (!options.htaCompat)
            std::sort(rows.begin(), rows.end());
        std::vector<EventIndex> annotations, kernels;
        for (EventIndex e : rows) {
            if (t.phase[e] != Phase::Complete)
                continue;
            if (t.category[e] == categoryId)
                annotations.push_back(e);
            else if (options.htaCompat ? isHtaGpuEvent(t, e, eventSync, contextSync) : isGpuWork(t, static_cast<size_t>(e)))
                kernels.push_back(e);
        }
        // Longest first, so the innermost annotation is written last (pandas' quicksort order).
        std::vector<int64_t> durations;
        for (EventIndex a : annotations)
            durations.push_back(t.durNs[a]);
        std::vector<uint32_t> byDuration;
        if (options.htaCompat) {
            byDuration = hta::sortDescendingOrder(durations);
        } else {
            byDuration.resize(annotations.size());
            std::iota(byDuration.begin(), byDuration.end(), 0u);
            std::stable_sort(byDuration.begin(), byDuration.end(),
                             [&](uint32_t a, uint32_t b) { return durations[a] > durations[b]; });
        }
        // Kernels per (pid, tid) by start, with the running maximum of their ends.
        std::map<ThreadIndex, std::vector<EventIndex>> byThread;
        for (EventIndex k : kernels)
            byThread[t.thread[k]].push_back(k);
        std::map<ThreadIndex, std::vector<int64_t>> maxEnd;
        for (auto& [thread, list] : byThread) {
            std::stable_sort(list.begin(), list.end(), [&t](EventIndex a, EventIndex b) { return t.tsNs[a] < t.tsNs[b]; });
            std::vector<int64_t>& ends = maxEnd[thread];
            int64_t running = std::numeric_limits<int64_t>::min();
            for (EventIndex k : list)
                ends.push_back(running = std::max(running, t.endNs(k)));
        }
        std::vector<EventIndex> annotationOf(n, kNoEvent);
        for (uint32_t k : byDuration) {
            const EventIndex a = annotations[k];
            const auto it = byThread.find(t.thread[a]);
            if (it == byThread.end())
                continue;
            const std::vector<EventIndex>& list = it->second;
            const std::vector<int64_t>& ends = maxEnd[t.thread[a]];
            // Overlap of [ts, end) intervals: kernel.ts < a.end and a.ts < kernel.end.
            const size_t from = static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), t.tsNs[a]) - ends.begin());
            for (size_t j = from; j < list.size() && t.tsNs[list[j]] < t.endNs(a); ++j)
                if (t.endNs(list[j]) > t.tsNs[a])
                    annotationOf[static_cast<size_t>(list[j])] = a;
        }
        for (EventIndex k : kernels)
            result.kernels.push_back({number, k, annotationOf[static_cast<size_t>(k)]});
    }
    if (result.kernels.empty() && result.error.empty())
        result.error = "no GPU kernels on the ranks asked for";
    return result;
}

} // namespace kscope
