#include "analysis/launch/launchstats.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htaorder.h"
#include "analysis/rankparallel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kscope {

namespace {

constexpr std::string_view kMtiaLaunch = "runFunction - job_prep_and_submit_for_execution";

KernelLaunch makeLaunch(const EventTable& t, EventIndex launch, EventIndex gpu)
{
    KernelLaunch k;
    k.correlation = t.correlation[gpu];
    k.launch = launch;
    k.gpu = gpu;
    k.launchName = t.name[launch];
    k.kernelName = t.name[gpu];
    k.stream = t.stream[gpu];
    k.launchTsNs = t.tsNs[launch];
    k.cpuDurationNs = t.durNs[launch];
    k.gpuDurationNs = t.durNs[gpu];
    k.launchDelayNs = std::max<int64_t>(0, t.tsNs[gpu] - t.endNs(launch));  // HTA clips at 0
    return k;
}

// HTA: the correlations of every event named like a launch, then the CPU events (stream -1) and
// the GPU events (stream != -1) that carry one, inner-joined on correlation. pandas orders the
// join by each key's first appearance among the CPU rows, CPU row by CPU row, each with its GPU
// rows in frame order.
std::vector<KernelLaunch> htaLaunches(const RankTrace& rank, const std::vector<StringId>& launchNames)
{
    const EventTable& t = rank.events;
    std::vector<int64_t> ids;
    for (size_t i = 0; i < t.size(); ++i)
        if (t.correlation[i] != -1 && containsId(launchNames, t.name[i]))
            ids.push_back(t.correlation[i]);
    const CorrelationSet correlations(ids);
    auto wanted = [&](size_t i) { return t.correlation[i] != -1 && correlations.contains(t.correlation[i]); };
    std::vector<EventIndex> cpu, gpu;
    for (size_t i = 0; i < t.size(); ++i) {
        if (!isHtaVisible(t, i) || !wanted(i))
            continue;
        (t.stream[i] == -1 ? cpu : gpu).push_back(static_cast<EventIndex>(i));
    }
    const std::vector<KeyedRow> cpuByKey = keyedByCorrelation(t, cpu);
    const std::vector<KeyedRow> gpuByKey = keyedByCorrelation(t, gpu);
    std::vector<KeyMatch> matches = matchKeys(cpuByKey, gpuByKey);
    // Keys in the order of their first CPU row in the frame.
    std::sort(matches.begin(), matches.end(), [&](const KeyMatch& a, const KeyMatch& b) {
        return cpuByKey[a.aBegin].position < cpuByKey[b.aBegin].position;
    });
    std::vector<KernelLaunch> out;
    out.reserve(gpu.size());
    for (const KeyMatch& m : matches)
        for (uint32_t ci = m.aBegin; ci < m.aEnd; ++ci)
            for (uint32_t gi = m.bBegin; gi < m.bEnd; ++gi)
                out.push_back(makeLaunch(t, cpuByKey[ci].row, gpuByKey[gi].row));
    return out;
}

// Default mode: each launch call with the GPU ops the model links to it, when that call is a
// launch. A graph launch runs many ops but is one launch: one row, from its first op (HTA counts
// one row per op, so one slow graph launch reads as hundreds of outliers). Ops with no launch in
// the trace are counted.
std::vector<KernelLaunch> linkedLaunches(const RankTrace& rank, const std::vector<StringId>& launchNames,
                                         int64_t& withoutLaunch)
{
    const EventTable& t = rank.events;
    // (launch, GPU op) by launch, then op: the op's row is its start order, ties by file order.
    // The walk goes by op; on one stream the launches then come in order too (a stream runs
    // what was launched on it in launch order), so the pairs are gathered per stream, each list
    // sorted (checked), and the lists merged.
    using Link = std::pair<EventIndex, EventIndex>;
    struct StreamLinks {
        int32_t stream = -1;
        std::vector<Link> links;
    };
    std::vector<StreamLinks> perStream;
    size_t last = 0;
    size_t count = 0;
    withoutLaunch = forEachLinkedLaunch(t, launchNames, [&](EventIndex launch, EventIndex gpu) {
        const int32_t stream = t.stream[gpu];
        last = findStream(perStream, stream, last);
        if (last == perStream.size())
            perStream.push_back({stream, {}});
        perStream[last].links.emplace_back(launch, gpu);
        ++count;
    });
    // The lists merged by (launch, op) straight into rows: a graph launch's ops, on any streams,
    // come together, its first op first. Each stream's head is one 64-bit key (launch, op; both
    // non-negative), and the least of a few keys is a short scan (a rank has a handful of streams).
    std::vector<KernelLaunch> out;
    out.reserve(count);
    constexpr uint64_t kDone = std::numeric_limits<uint64_t>::max();
    const auto keyOf = [](const Link& link) {
        return (static_cast<uint64_t>(static_cast<uint32_t>(link.first)) << 32) | static_cast<uint32_t>(link.second);
    };
    std::vector<uint64_t> heads;
    std::vector<size_t> at(perStream.size(), 0);
    for (StreamLinks& ofStream : perStream) {
        std::vector<Link>& v = ofStream.links;
        if (!std::is_sorted(v.begin(), v.end()))
            std::sort(v.begin(), v.end());
        heads.push_back(keyOf(v.front()));
    }
    const auto least = [&heads] { return static_cast<size_t>(std::min_element(heads.begin(), heads.end()) - heads.begin()); };
    // Takes stream s's head.
    const auto take = [&](size_t s) -> Link {
        const std::vector<Link>& v = perStream[s].links;
        const Link link = v[at[s]];
        heads[s] = ++at[s] < v.size() ? keyOf(v[at[s]]) : kDone;
        return link;
    };
    size_t s = heads.empty() ? 0 : least();
    while (!heads.empty() && heads[s] != kDone) {
        const auto [launch, first] = take(s);
        KernelLaunch l = makeLaunch(t, launch, first);
        int64_t lastEnd = t.endNs(first);
        // The same launch's other ops (a graph's), if any, are the least heads now.
        for (s = least(); heads[s] != kDone && static_cast<EventIndex>(heads[s] >> 32) == launch; s = least()) {
            lastEnd = std::max(lastEnd, t.endNs(take(s).second));
            ++l.gpuOps;
        }
        l.gpuDurationNs = lastEnd - t.tsNs[first];
        out.push_back(l);
    }
    return out;
}

LaunchHistogram histogramOf(const std::vector<double>& values, int bins)
{
    LaunchHistogram h;
    h.total = static_cast<int64_t>(values.size());
    if (values.empty())
        return h;
    bins = std::max(1, bins);
    const auto [lowIt, highIt] = std::minmax_element(values.begin(), values.end());
    const double low = *lowIt;
    double high = *highIt;
    if (high == low)
        high = low + 1.0;
    h.edgesUs.resize(static_cast<size_t>(bins) + 1);
    for (int b = 0; b <= bins; ++b)
        h.edgesUs[b] = low + (high - low) * static_cast<double>(b) / bins;
    h.edgesUs.back() = high;
    h.counts.assign(static_cast<size_t>(bins), 0);
    for (double v : values) {
        const int b = std::clamp(static_cast<int>((v - low) / (high - low) * bins), 0, bins - 1);
        ++h.counts[b];
    }
    return h;
}

void classify(RankLaunchStats& r, const LaunchStatsOptions& options)
{
    std::vector<double> shortCpu, outlierCpu, outlierDelay;
    for (size_t k = 0; k < r.launches.size(); ++k) {
        KernelLaunch& l = r.launches[k];
        const double cpuUs = static_cast<double>(l.cpuDurationNs) / 1000.0;
        const double gpuUs = static_cast<double>(l.gpuDurationNs) / 1000.0;
        const double delayUs = static_cast<double>(l.launchDelayNs) / 1000.0;
        if (cpuUs <= options.runtimeCutoffUs && gpuUs < cpuUs) {
            l.flags |= kShortKernel;
            shortCpu.push_back(cpuUs);
        }
        if (cpuUs > options.runtimeCutoffUs) {
            l.flags |= kRuntimeOutlier;
            outlierCpu.push_back(cpuUs);
            r.runtimeOutlierRows.push_back(static_cast<uint32_t>(k));
        }
        if (delayUs > options.launchDelayCutoffUs) {
            l.flags |= kLaunchDelayOutlier;
            outlierDelay.push_back(delayUs);
            r.launchDelayOutlierRows.push_back(static_cast<uint32_t>(k));
        }
    }
    r.shortKernels = histogramOf(shortCpu, options.bins);
    r.runtimeOutliers = histogramOf(outlierCpu, options.bins);
    r.launchDelayOutliers = histogramOf(outlierDelay, options.bins);
}

void countApis(RankLaunchStats& r, const std::vector<StringId>& htaNames)
{
    // A rank calls a handful of launch APIs, nearly always the one it called last.
    size_t last = 0;
    for (const KernelLaunch& l : r.launches) {
        if (last >= r.apis.size() || r.apis[last].name != l.launchName) {
            last = 0;
            while (last < r.apis.size() && r.apis[last].name != l.launchName)
                ++last;
            if (last == r.apis.size()) {
                r.apis.push_back({});
                r.apis.back().name = l.launchName;
                r.apis.back().countedByHta = containsId(htaNames, l.launchName);
            }
        }
        LaunchApiCount& api = r.apis[last];
        ++api.calls;
        api.cpuDurationNs += l.cpuDurationNs;
        api.gpuOps += l.gpuOps;
        api.launchDelayNs += l.launchDelayNs;
    }
    std::stable_sort(r.apis.begin(), r.apis.end(),
                     [](const LaunchApiCount& a, const LaunchApiCount& b) { return a.calls > b.calls; });
    if (r.opsWithoutLaunch > 0) {
        LaunchApiCount none;
        none.gpuOps = r.opsWithoutLaunch;
        r.apis.push_back(none);
    }
}

std::string beyondHtaNote(const Run& run, const RankLaunchStats& r)
{
    std::string text;
    for (const LaunchApiCount& api : r.apis) {
        if (api.countedByHta || !api.name)
            continue;
        text += (text.empty() ? "" : ", ") + std::string(run.str(api.name)) + " " + std::to_string(api.calls)
            + (api.calls == 1 ? " call" : " calls");
        if (api.gpuOps != api.calls)
            text += " (" + std::to_string(api.gpuOps) + " GPU ops)";
    }
    return text.empty() ? text : rankLabel(r.rank) + ": launches HTA does not count (included): " + text;
}

} // namespace

std::vector<std::string_view> launchApiNames(bool htaCompat, bool includeMemoryEvents)
{
    std::vector<std::string_view> names = {"cudaLaunchKernel", "cudaLaunchKernelExC", kMtiaLaunch};
    if (!htaCompat)
        names.insert(names.end(), {"cudaLaunchCooperativeKernel", "cuLaunchKernel", "cuLaunchKernelEx",
                                   "cuLaunchCooperativeKernel", "cudaGraphLaunch", "cudaGraphLaunch_v10000",
                                   "cuGraphLaunch", "hipLaunchKernel", "hipExtLaunchKernel", "hipModuleLaunchKernel",
                                   "hipExtModuleLaunchKernel", "hipGraphLaunch"});
    if (includeMemoryEvents) {
        names.insert(names.end(), {"cudaMemcpyAsync", "cudaMemsetAsync"});
        if (!htaCompat)
            names.insert(names.end(), {"hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream"});
    }
    return names;
}

LaunchStats kernelLaunchStats(const Run& run, const LaunchStatsOptions& options)
{
    LaunchStats result;
    result.options = options;
    const std::vector<StringId> launchNames = idsOfNames(run.strings, launchApiNames(options.htaCompat, options.includeMemoryEvents));
    const std::vector<StringId> htaNames = idsOfNames(run.strings, launchApiNames(true, options.includeMemoryEvents));
    std::vector<const RankTrace*> ranks;
    for (const RankTrace& rank : run.ranks)
        if (chosen(options.ranks, run.indexOf(rank)))
            ranks.push_back(&rank);
    struct Part {
        RankLaunchStats stats;
        std::vector<std::string> notes;
    };
    // Ranks on the cores; the parts joined in rank order, so the answer is the one-thread one.
    std::vector<Part> parts = perRankInParallel<Part>(ranks.size(), [&](size_t k) {
        const RankTrace& rank = *ranks[k];
        Part part;
        RankLaunchStats& r = part.stats;
        r.rank = rank.rank;
        if (options.htaCompat) {
            r.launches = htaLaunches(rank, launchNames);
        } else {
            r.launches = linkedLaunches(rank, launchNames, r.opsWithoutLaunch);
            countApis(r, htaNames);
            if (const std::string note = beyondHtaNote(run, r); !note.empty())
                part.notes.push_back(note);
            if (r.opsWithoutLaunch > 0)
                part.notes.push_back(rankLabel(r.rank) + ": " + std::to_string(r.opsWithoutLaunch)
                                     + " GPU ops whose launch is not in the trace (the capture began after it) "
                                       "are left out");
        }
        classify(r, options);
        return part;
    });
    for (Part& part : parts) {
        result.ranks.push_back(std::move(part.stats));
        for (std::string& note : part.notes)
            result.notes.push_back(std::move(note));
    }
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(std::move(note));
    if (result.ranks.empty()) {
        result.error = "no rank to analyse";
    } else if (std::all_of(result.ranks.begin(), result.ranks.end(),
                           [](const RankLaunchStats& r) { return r.launches.empty(); })) {
        result.error = options.htaCompat ? "no GPU op joins a cudaLaunchKernel, cudaLaunchKernelExC or (with memory "
                                           "events) cudaMemcpyAsync/cudaMemsetAsync call on correlation"
                                         : "no GPU op with its launch call in any rank";
    }
    return result;
}

} // namespace kscope
