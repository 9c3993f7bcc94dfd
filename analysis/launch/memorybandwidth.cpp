#include "analysis/launch/memorybandwidth.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "analysis/htaorder.h"
#include "analysis/core/kerneltype.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace kscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kZeroLengthNs = 1000;  // HTA counts a zero-length copy as 1 us (its issue #20)

struct Change {
    int64_t tsNs = 0;
    double gbps = 0.0;  // + at the start, - at the end
    int32_t active = 0;  // +1 / -1
    uint32_t kind = 0;   // index into the rank's kinds
    ThreadIndex thread = 0;
};

double bandwidthOf(const EventTable& t, EventIndex i)
{
    const MemoryArgs* args = findSparse(t.memoryArgs, i);
    return args ? args->bandwidthGBps : 0.0;  // HTA's default for a missing "memory bandwidth (GB/s)"
}

} // namespace

std::string memoryKind(std::string_view name)
{
    if (name.substr(0, 6) == "Memset")
        return "Memset";
    if (name.substr(0, 6) != "Memcpy")
        return "Memcpy Unknown";
    return std::string(name.substr(0, 11));
}

MemoryBandwidth memoryBandwidth(const Run& run, const MemoryBandwidthOptions& options)
{
    MemoryBandwidth result;
    result.options = options;
    KernelTypeCache types(run.strings);
    bool anyRank = false;
    for (const RankTrace& rank : run.ranks) {
        if (!chosen(options.ranks, run.indexOf(rank)))
            continue;
        anyRank = true;
        const EventTable& t = rank.events;
        // HTA: GPU events (stream != -1) its name rules call MEMORY; the default mode goes by
        // category (gpu_memcpy, gpu_memset), so hipMemcpy... copies count too.
        std::vector<EventIndex> copies;
        for (const EventIndex i : t.gpuRows) {
            const bool memory = options.htaCompat ? types.typeOf(t.name[i]) == KernelType::Memory
                                                  : t.kind[i] == EventKind::Memcpy || t.kind[i] == EventKind::Memset;
            if (memory)
                copies.push_back(i);
        }
        sortToFileOrder(t, copies);
        std::map<std::string, uint32_t> kindIndex;
        std::vector<std::string> kinds;
        std::vector<Change> changes(copies.size() * 2);
        for (size_t k = 0; k < copies.size(); ++k) {
            const EventIndex e = copies[k];
            std::string kind = memoryKind(run.str(t.name[e]));
            if (!options.htaCompat && t.kind[e] == EventKind::Memset)
                kind = "Memset";
            auto [it, inserted] = kindIndex.try_emplace(kind, static_cast<uint32_t>(kinds.size()));
            if (inserted)
                kinds.push_back(kind);
            const int64_t dur = t.durNs[e] == 0 ? kZeroLengthNs : t.durNs[e];
            const double gbps = bandwidthOf(t, e);
            // HTA concatenates all starts, then all ends, before it sorts.
            changes[k] = {t.tsNs[e], gbps, +1, it->second, t.thread[e]};
            changes[copies.size() + k] = {t.tsNs[e] + dur, -gbps, -1, it->second, t.thread[e]};
        }
        std::vector<Change> sorted;
        sorted.reserve(changes.size());
        if (options.htaCompat) {
            std::vector<int64_t> ts(changes.size());
            for (size_t k = 0; k < changes.size(); ++k)
                ts[k] = changes[k].tsNs;
            for (uint32_t k : hta::quicksortArgsort(ts))
                sorted.push_back(changes[k]);
        } else {
            sorted = std::move(changes);
            std::stable_sort(sorted.begin(), sorted.end(),
                             [](const Change& a, const Change& b) { return a.tsNs < b.tsNs; });
        }
        // groupby("name") (kinds ascending), cumsum in the sorted order.
        std::vector<MemoryBwSeries> series(kinds.size());
        std::vector<int32_t> active(kinds.size(), 0);
        for (const Change& c : sorted) {
            MemoryBwSeries& s = series[c.kind];
            if (s.tsNs.empty()) {
                s.rank = rank.rank;
                s.rankIndex = run.indexOf(rank);
                s.kind = kinds[c.kind];
                s.thread = c.thread;
            }
            active[c.kind] += c.active;
            double value = (s.gbps.empty() ? 0.0 : s.gbps.back()) + c.gbps;
            if (!options.htaCompat && active[c.kind] == 0)
                value = 0.0;  // no copy runs: no float residue of the sum
            if (!options.htaCompat && !s.tsNs.empty() && s.tsNs.back() == c.tsNs) {
                s.gbps.back() = value;
                continue;
            }
            s.tsNs.push_back(c.tsNs);
            s.gbps.push_back(value);
        }
        std::vector<uint32_t> byName(kinds.size());
        for (uint32_t k = 0; k < byName.size(); ++k)
            byName[k] = k;
        std::sort(byName.begin(), byName.end(), [&kinds](uint32_t a, uint32_t b) { return kinds[a] < kinds[b]; });
        for (uint32_t k : byName) {
            MemoryBwSeries& s = series[k];
            // HTA's summary leaves out the points at zero (and below: float residues can be).
            std::vector<double> positive;
            for (double v : s.gbps)
                if (v > 0)
                    positive.push_back(v);
            if (!positive.empty()) {
                const Description d = describeValues(std::move(positive));
                MemoryBwStats st{s.rank, s.kind, d.count, d.mean, d.std, d.min, d.p25, d.p50, d.p75, d.max, kNaN, 0};
                if (!options.htaCompat) {
                    double weighted = 0.0;
                    for (size_t i = 0; i + 1 < s.tsNs.size(); ++i) {
                        if (s.gbps[i] <= 0)
                            continue;
                        const int64_t span = s.tsNs[i + 1] - s.tsNs[i];
                        weighted += s.gbps[i] * static_cast<double>(span);
                        st.busyNs += span;
                    }
                    st.timeWeightedMean = st.busyNs > 0 ? weighted / static_cast<double>(st.busyNs) : kNaN;
                }
                result.stats.push_back(std::move(st));
            }
            result.series.push_back(std::move(s));
        }
        if (kinds.empty())
            result.notes.push_back(rankLabel(rank.rank) + " has no memcpy or memset on a GPU stream");
    }
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(std::move(note));
    if (!anyRank)
        result.error = "no rank to analyse";
    else if (result.series.empty())
        result.error = "no memcpy or memset in any rank";
    return result;
}

} // namespace kscope
