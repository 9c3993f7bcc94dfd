#include "analysis/core/idletime.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "analysis/rankparallel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace kscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// HTA lists streams in the order their first kernel appears in the trace file, which the rank
// builder records (RankTrace::streamsInFileOrder) for every stream with GPU work.
int64_t filePosition(const RankTrace& rank, int stream)
{
    const auto& order = rank.streamsInFileOrder;
    const auto it = std::find(order.begin(), order.end(), stream);
    return it == order.end() ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(it - order.begin());
}

struct StreamGaps {
    int stream = -1;
    int64_t filePosition = std::numeric_limits<int64_t>::max();
    int64_t prevEnd = 0;  // HTA: the previous kernel's end in start order; default: the latest end
    EventIndex prevEvent = kNoEvent;  // the GPU op that ends at prevEnd
    bool started = false;
    std::vector<int64_t> gaps[kIdleCategoryCount];  // ns, in start order
    int64_t sums[kIdleCategoryCount] = {0, 0, 0};    // of each category's gaps
    int64_t lowest[kIdleCategoryCount] = {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max(),
                                          std::numeric_limits<int64_t>::max()};
    int64_t highest[kIdleCategoryCount] = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::min(),
                                           std::numeric_limits<int64_t>::min()};
    int64_t overlaps = 0;   // default mode: kernels that started before the stream was free
    int64_t overlapNs = 0;
    int64_t launchNotInTrace = 0;  // gaps before GPU ops whose launch lies outside the trace window
    std::vector<IdleGap> longest;  // with keepLongest: at least the stream's longest gaps
};

bool longerGap(const IdleGap& a, const IdleGap& b)
{
    const int64_t la = a.endNs - a.startNs, lb = b.endNs - b.startNs;
    return la != lb ? la > lb : a.startNs < b.startNs;
}

// Keeps the `keep` longest of `gaps` (longest first).
void trimLongest(std::vector<IdleGap>& gaps, size_t keep)
{
    if (gaps.size() > keep) {
        std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(keep), gaps.end(), longerGap);
        gaps.resize(keep);
    }
    std::sort(gaps.begin(), gaps.end(), longerGap);
}

// HTA's row 0 (the first traceEvents element, when it was kept as an event): a GPU op whose
// launch is missing gets index_correlation 0 and so joins that row (HTA-RULES: correlation).
EventIndex htaRowZero(const RankTrace& rank)
{
    const EventTable& events = rank.events;
    if (!rank.firstElementKept || events.fileIndex.size() != events.size())
        return kNoEvent;
    for (size_t e = 0; e < events.size(); ++e)
        if (events.fileIndex[e] == 0)
            return static_cast<EventIndex>(e);
    return kNoEvent;
}

bool selected(const std::vector<int>& wanted, int value)
{
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), value) != wanted.end();
}

// Walks the rank's kernels once, sorted by start, classifying the gap before each one.
std::vector<StreamGaps> collectGaps(const RankTrace& rank, const std::vector<int>& streams, double delayUs,
                                    bool htaCompat, size_t keepLongest = 0, std::vector<IdleGap>* allGaps = nullptr)
{
    const EventTable& events = rank.events;
    const double delayNs = delayUs * 1000.0;
    std::vector<StreamGaps> perStream;
    size_t last = 0;
    const EventIndex rowZero = htaCompat ? htaRowZero(rank) : kNoEvent;
    for (const EventIndex i : events.gpuRows) {
        if (!isGpuWorkRow(events, i))
            continue;
        const int stream = events.stream[i];
        last = findStream(perStream, stream, last);
        if (last == perStream.size()) {
            if (!selected(streams, stream))
                continue;
            perStream.push_back({});
            perStream.back().stream = stream;
            perStream.back().filePosition = filePosition(rank, stream);
        }
        StreamGaps& s = perStream[last];
        const int64_t start = events.tsNs[i];
        const int64_t end = start + events.durNs[i];
        if (!s.started) {
            s.started = true;  // the first kernel has no gap (HTA: NaN in "other")
            s.prevEnd = end;
            s.prevEvent = i;
            continue;
        }
        if (!htaCompat && start < s.prevEnd) {
            // Overlaps the work before it on the stream: no idle time before it. Counted apart
            // instead of as a negative gap (HTA's rule, below, sums those as kernel wait).
            ++s.overlaps;
            s.overlapNs += std::min(end, s.prevEnd) - start;
            if (end > s.prevEnd) {
                s.prevEnd = end;
                s.prevEvent = i;
            }
            continue;
        }
        // HTA: the previous kernel in start order, not the latest end, so overlapping kernels
        // give negative gaps, which it counts as kernel wait.
        const int64_t gap = start - s.prevEnd;
        EventIndex launch = events.link[i];
        if (launch == kNoEvent && events.correlation[i] >= 0) {
            // Launched before the trace window opened (the first kernels of a capture often are).
            if (htaCompat)
                launch = rowZero;  // HTA's quirk: joins the trace's first event, often a ProfilerStep
            else
                ++s.launchNotInTrace;
        }
        IdleCategory category = IdleCategory::Other;
        if (launch != kNoEvent && events.tsNs[launch] > s.prevEnd)
            category = IdleCategory::HostWait;
        else if (static_cast<double>(gap) < delayNs)
            category = IdleCategory::KernelWait;
        const int c = static_cast<int>(category);
        s.gaps[c].push_back(gap);
        s.sums[c] += gap;
        s.lowest[c] = std::min(s.lowest[c], gap);
        s.highest[c] = std::max(s.highest[c], gap);
        if (keepLongest > 0 && gap > 0) {
            s.longest.push_back({stream, category, s.prevEnd, start, i, s.prevEvent});
            if (s.longest.size() >= 4 * keepLongest)
                trimLongest(s.longest, keepLongest);
        }
        if (allGaps && gap > 0)
            allGaps->push_back({stream, category, s.prevEnd, start, i, s.prevEvent});
        if (htaCompat || end > s.prevEnd) {
            s.prevEnd = end;
            s.prevEvent = i;
        }
    }
    std::stable_sort(perStream.begin(), perStream.end(),
                     [](const StreamGaps& a, const StreamGaps& b) { return a.filePosition < b.filePosition; });
    if (!streams.empty()) {
        // Streams asked for by name come out in the order they were asked for, as in HTA.
        auto rankOf = [&streams](const StreamGaps& s) {
            return std::find(streams.begin(), streams.end(), s.stream) - streams.begin();
        };
        std::stable_sort(perStream.begin(), perStream.end(),
                         [&](const StreamGaps& a, const StreamGaps& b) { return rankOf(a) < rankOf(b); });
    }
    return perStream;
}

// pandas' describe() of one category's gaps in microseconds. Mean and deviation add the values
// in gap order, as pandas does; the quartiles are exact order statistics found by bucketing, not
// sorting (g / 1000 keeps the order of g, so the statistics of the nanoseconds are those of the
// microseconds).
IdleIntervalStats describe(const StreamGaps& s, int category, bool htaCompat)
{
    const std::span<const int64_t> gapsNs(s.gaps[category]);
    IdleIntervalStats stats;
    stats.count = static_cast<int64_t>(gapsNs.size());
    if (gapsNs.empty()) {
        stats.meanUs = stats.stdUs = stats.minUs = stats.p25Us = stats.p50Us = stats.p75Us = stats.maxUs = kNaN;
        return stats;
    }
    auto us = [](int64_t ns) { return static_cast<double>(ns) / 1000.0; };
    stats.meanUs = hta::meanOf(gapsNs, us);
    stats.stdUs = hta::sampleStdAround(gapsNs, us, stats.meanUs);
    stats.minUs = us(s.lowest[category]);
    stats.maxUs = us(s.highest[category]);
    const std::array<double, 3> quartiles = hta::integerQuantilesLinear(
        gapsNs, s.lowest[category], s.highest[category], std::array<double, 3>{0.25, 0.5, 0.75}, us);
    stats.p25Us = quartiles[0];
    stats.p50Us = quartiles[1];
    stats.p75Us = quartiles[2];
    if (htaCompat) {
        for (double* v : {&stats.meanUs, &stats.stdUs, &stats.minUs, &stats.p25Us, &stats.p50Us,
                          &stats.p75Us, &stats.maxUs})
            *v = hta::round(*v, 2);
    }
    return stats;
}

// "rank 0: 12 kernels started before the previous work on their stream had ended (stream 7: 10,
// 3.7 us overlapped; ...)": what the default mode leaves out of the gaps.
std::string overlapNote(int rank, const std::vector<StreamGaps>& perStream)
{
    int64_t count = 0;
    std::string streams;
    for (const StreamGaps& s : perStream) {
        if (s.overlaps == 0)
            continue;
        count += s.overlaps;
        char us[32];
        std::snprintf(us, sizeof us, "%.3f", static_cast<double>(s.overlapNs) / 1000.0);
        streams += (streams.empty() ? "" : "; ") + std::string("stream ") + std::to_string(s.stream) + ": "
            + std::to_string(s.overlaps) + ", " + us + " us overlapped";
    }
    if (count == 0)
        return {};
    return rankLabel(rank) + ": " + std::to_string(count) + (count == 1 ? " GPU op" : " GPU ops")
        + " started before the previous work on its stream had ended (" + streams
        + "); they have no gap and are counted apart, not as negative idle time";
}

std::string launchNotInTraceNote(int rank, const std::vector<StreamGaps>& perStream)
{
    int64_t count = 0;
    for (const StreamGaps& s : perStream)
        count += s.launchNotInTrace;
    if (count == 0)
        return {};
    return rankLabel(rank) + ": launch not in trace for " + std::to_string(count)
        + (count == 1 ? " GPU op" : " GPU ops")
        + " (launched before the trace window opened): their gaps are never host wait (--hta-compat joins them "
          "to the trace's first event, as HTA does)";
}

// One rank's part of the breakdown; error set (and nothing else) where --hta-compat gives none.
IdleTime idleTimeOfRank(const RankTrace& rank, const IdleTimeOptions& options)
{
    IdleTime result;
    const int rankNumber = rank.rank;
    std::vector<StreamGaps> perStream =
        collectGaps(rank, options.streams, options.consecutiveKernelDelayUs, options.htaCompat);
    if (perStream.empty()) {
        const std::string why = rankLabel(rankNumber) + " has no kernels on the selected streams";
        if (options.htaCompat)  // HTA raises (ValueError / "No objects to concatenate")
            result.error = why + "; HTA raises on this, no result";
        else
            result.notes.push_back(why + ": left out");
        return result;
    }
    for (const StreamGaps& s : perStream)
        if (s.overlaps > 0)
            result.overlaps.push_back({rankNumber, s.stream, s.overlaps, s.overlapNs});
    if (const std::string note = overlapNote(rankNumber, perStream); !note.empty())
        result.notes.push_back(note);
    for (const StreamGaps& s : perStream)
        result.launchNotInTrace += s.launchNotInTrace;
    if (const std::string note = launchNotInTraceNote(rankNumber, perStream); !note.empty())
        result.notes.push_back(note);
    for (const StreamGaps& s : perStream) {
        const int64_t* sums = s.sums;
        const int64_t streamTotal = sums[0] + sums[1] + sums[2];
        for (int c = 0; c < kIdleCategoryCount; ++c) {
            const auto category = static_cast<IdleCategory>(c);
            // HTA's groupby lists a category when a kernel fell in it; the first kernel of
            // every stream (no gap) sits in "other".
            if (s.gaps[c].empty() && category != IdleCategory::Other)
                continue;
            IdleTimeRow row;
            row.rank = rankNumber;
            row.stream = s.stream;
            row.category = category;
            row.idleNs = sums[c];
            row.ratio = static_cast<double>(sums[c]) / static_cast<double>(streamTotal);
            if (options.htaCompat)
                row.ratio = hta::round(row.ratio, 2);
            result.rows.push_back(row);
            if (options.intervalStats) {
                IdleIntervalStats stats = describe(s, c, options.htaCompat);
                stats.rank = rankNumber;
                stats.stream = s.stream;
                stats.category = category;
                result.stats.push_back(stats);
            }
        }
    }
    return result;
}

} // namespace

const char* toString(IdleCategory category)
{
    switch (category) {
    case IdleCategory::HostWait:
        return "host_wait";
    case IdleCategory::KernelWait:
        return "kernel_wait";
    case IdleCategory::Other:
        break;
    }
    return "other";
}

IdleTime idleTimeBreakdown(const Run& run, const IdleTimeOptions& options)
{
    IdleTime result;
    result.htaCompat = options.htaCompat;
    const std::vector<const RankTrace*> ranks = ranksToRead(run, options.ranks);
    std::vector<std::string> notInRun = positionsNotInRun(run, options.ranks);
    if (ranks.empty() && notInRun.empty())
        result.error = "the run has no rank";
    if (!notInRun.empty() && options.htaCompat) {
        result.error = notInRun.front() + "; HTA raises on this, no result";
        return result;
    }
    for (std::string& note : notInRun)
        result.notes.push_back(note + ": left out");

    // Ranks on the cores, each into its own part; the parts joined in rank order, so the answer
    // is the one-thread answer.
    std::vector<IdleTime> parts = perRankInParallel<IdleTime>(ranks.size(), [&](size_t k) {
        return idleTimeOfRank(*ranks[k], options);
    });
    for (IdleTime& part : parts) {
        if (!part.error.empty()) {  // --hta-compat: HTA raises on this rank and returns nothing
            result.rows.clear();
            result.stats.clear();
            result.error = std::move(part.error);
            return result;
        }
        result.rows.insert(result.rows.end(), part.rows.begin(), part.rows.end());
        result.stats.insert(result.stats.end(), part.stats.begin(), part.stats.end());
        result.overlaps.insert(result.overlaps.end(), part.overlaps.begin(), part.overlaps.end());
        result.launchNotInTrace += part.launchNotInTrace;
        for (std::string& note : part.notes)
            result.notes.push_back(std::move(note));
    }
    return result;
}

std::vector<IdleGap> idleGaps(const RankTrace& rank, const std::vector<int>& streams, double consecutiveKernelDelayUs)
{
    std::vector<IdleGap> gaps;
    collectGaps(rank, streams, consecutiveKernelDelayUs, /*htaCompat=*/false, 0, &gaps);
    return gaps;
}

IdleHistogram idleHistogram(const Run& run, const IdleHistogramOptions& options)
{
    IdleHistogram result;
    const RankTrace* rank = oneRank(run, options.rank);
    if (!rank) {
        result.error = run.ranks.empty() ? "the run has no rank" : positionsNotInRun(run, {*options.rank}).front();
        return result;
    }
    result.rank = rank->rank;
    result.rankIndex = RankIndex{static_cast<uint32_t>(rank - run.ranks.data())};
    const int bins = std::max(1, options.bins);
    const std::vector<StreamGaps> perStream =
        collectGaps(*rank, options.streams, options.consecutiveKernelDelayUs, /*htaCompat=*/false, options.longestGaps);
    if (const std::string note = overlapNote(rank->rank, perStream); !note.empty())
        result.notes.push_back(note);
    for (const StreamGaps& s : perStream)
        result.longest.insert(result.longest.end(), s.longest.begin(), s.longest.end());
    trimLongest(result.longest, options.longestGaps);
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    for (const StreamGaps& s : perStream)
        for (const auto& gaps : s.gaps)
            for (int64_t g : gaps) {
                const double us = static_cast<double>(g) / 1000.0;
                if (options.logScale && g <= 0) {
                    ++result.nonPositiveGaps;
                    continue;
                }
                low = std::min(low, us);
                high = std::max(high, us);
            }
    for (auto& counts : result.counts)
        counts.assign(static_cast<size_t>(bins), 0);
    if (low > high) {
        result.notes.push_back(rankLabel(rank->rank) + " has no idle gaps to bin");
        result.edgesUs = {0.0, 1.0};
        for (auto& counts : result.counts)
            counts.assign(1, 0);
        return result;
    }
    if (high == low)
        high = options.logScale ? low * 2.0 : low + 1.0;
    result.edgesUs.resize(static_cast<size_t>(bins) + 1);
    for (int b = 0; b <= bins; ++b) {
        const double f = static_cast<double>(b) / bins;
        result.edgesUs[b] = options.logScale ? low * std::pow(high / low, f) : low + (high - low) * f;
    }
    result.edgesUs.back() = high;
    for (const StreamGaps& s : perStream)
        for (int c = 0; c < kIdleCategoryCount; ++c)
            for (int64_t g : s.gaps[c]) {
                if (options.logScale && g <= 0)
                    continue;
                const double us = static_cast<double>(g) / 1000.0;
                const double f = options.logScale ? std::log(us / low) / std::log(high / low) : (us - low) / (high - low);
                const int b = std::clamp(static_cast<int>(f * bins), 0, bins - 1);
                ++result.counts[c][b];
            }
    if (result.nonPositiveGaps > 0)
        result.notes.push_back(std::to_string(result.nonPositiveGaps)
                               + " gaps of zero length (back-to-back kernels) are not on a log axis");
    return result;
}

} // namespace kscope
