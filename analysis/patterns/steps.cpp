#include "analysis/patterns/steps.h"

#include "analysis/operators/calltree.h"
#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace kscope {

namespace {

// HTA's re.match(r"ProfilerStep\s*#\s*(\d+)"), or -1.
int stepNumber(std::string_view name)
{
    constexpr std::string_view prefix = "ProfilerStep";
    if (!name.starts_with(prefix))
        return -1;
    size_t i = prefix.size();
    auto spaces = [&] {
        while (i < name.size() && std::isspace(static_cast<unsigned char>(name[i])))
            ++i;
    };
    spaces();
    if (i >= name.size() || name[i] != '#')
        return -1;
    ++i;
    spaces();
    int64_t number = 0;
    size_t digits = 0;
    for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i, ++digits)
        number = std::min<int64_t>(number * 10 + (name[i] - '0'), INT_MAX);
    return digits ? static_cast<int>(number) : -1;
}

bool inHtaFrame(const EventTable& t, size_t i)
{
    return t.phase[i] == Phase::Complete && t.category[i] && t.kind[i] != EventKind::TraceSpan;
}

std::string listText(const std::vector<int>& values)
{
    std::string text = "[";
    for (size_t k = 0; k < values.size(); ++k)
        text += (k ? ", " : "") + std::to_string(values[k]);
    return text + "]";
}

// pandas' groupby std (ddof 1): NaN for fewer than two values.
double sampleStd(const std::vector<double>& values)
{
    if (values.size() < 2)
        return std::numeric_limits<double>::quiet_NaN();
    double mean = 0.0, m2 = 0.0;
    for (size_t k = 0; k < values.size(); ++k) {
        const double delta = values[k] - mean;
        mean += delta / static_cast<double>(k + 1);
        m2 += delta * (values[k] - mean);
    }
    return std::sqrt(m2 / static_cast<double>(values.size() - 1));
}

} // namespace

ProfilerSteps profilerSteps(const Run& run, const RankChoice& ranks)
{
    ProfilerSteps result;
    std::set<int> numbers;
    std::vector<int> numberOf(run.strings.size(), INT_MIN);
    for (std::string& note : positionsNotInRun(run, ranks))
        result.notes.push_back(note + ": left out");
    for (const RankTrace* rank : ranksToRead(run, ranks)) {
        const int rankNumber = rank->rank;
        const EventTable& t = rank->events;
        std::map<int, StepSpan> spans;
        for (size_t i = 0; i < t.size(); ++i) {
            if (!inHtaFrame(t, i) || !t.name[i])
                continue;
            int& number = numberOf[t.name[i].value];
            if (number == INT_MIN)
                number = stepNumber(run.str(t.name[i]));
            if (number < 0)
                continue;
            numbers.insert(number);  // HTA lists every ProfilerStep name, GPU annotations too
            if (t.stream[i] >= 0 || t.kind[i] == EventKind::GpuUserAnnotation)
                continue;
            auto [it, fresh] = spans.try_emplace(number);
            StepSpan& s = it->second;
            if (fresh) {
                s = {rankNumber, number, static_cast<EventIndex>(i), t.tsNs[i], t.endNs(static_cast<EventIndex>(i))};
                s.rankIndex = run.indexOf(*rank);
            } else {
                s.cpuStartNs = std::min(s.cpuStartNs, t.tsNs[i]);
                s.cpuEndNs = std::max(s.cpuEndNs, t.endNs(static_cast<EventIndex>(i)));
            }
        }
        for (const EventIndex i : t.gpuRows) {
            if (t.step[i] < 0 || !isGpuWorkRow(t, i))
                continue;
            const auto it = spans.find(t.step[i]);
            if (it == spans.end())
                continue;
            StepSpan& s = it->second;
            const int64_t end = t.endNs(static_cast<EventIndex>(i));
            if (s.gpuEvents++ == 0) {
                s.gpuStartNs = t.tsNs[i];
                s.gpuEndNs = end;
            } else {
                s.gpuStartNs = std::min(s.gpuStartNs, t.tsNs[i]);
                s.gpuEndNs = std::max(s.gpuEndNs, end);
            }
        }
        for (auto& [number, span] : spans) {
            if (!span.hasGpu())
                span.gpuStartNs = span.gpuEndNs = span.cpuStartNs;
            result.spans.push_back(span);
        }
    }
    result.steps.assign(numbers.begin(), numbers.end());
    if (result.steps.empty())
        result.error = "no ProfilerStep in the run (after HTA's trimming of the last one)";
    return result;
}

Stragglers potentialStragglers(const Run& run, const StragglerOptions& options)
{
    Stragglers result;
    result.htaCompat = options.htaCompat;
    const bool hta = options.htaCompat;
    const std::vector<int> available = profilerSteps(run).steps;
    std::vector<int> valid;
    if (options.steps.empty())
        valid = available;
    for (int s : options.steps)
        if (std::binary_search(available.begin(), available.end(), s))
            valid.push_back(s);
    if (valid.empty()) {
        result.error = "no step to look at: asked for " + (options.steps.empty() ? "all" : listText(options.steps))
            + ", the run has " + listText(available) + (hta ? "; HTA raises ValueError" : "");
        return result;
    }
    const std::set<int> selected(valid.begin(), valid.end());
    // HTA's frame of the selected steps over every rank: its first start, last end, the steps.
    int64_t tMin = std::numeric_limits<int64_t>::max(), tMax = std::numeric_limits<int64_t>::min();
    std::set<int> iterations;
    for (const RankTrace& rank : run.ranks) {
        const EventTable& t = rank.events;
        for (size_t i = 0; i < t.size(); ++i) {
            if (!inHtaFrame(t, i) || !selected.count(t.step[i]))
                continue;
            tMin = std::min(tMin, t.tsNs[i]);
            tMax = std::max(tMax, t.endNs(static_cast<EventIndex>(i)));
            iterations.insert(t.step[i]);
        }
    }
    if (iterations.empty()) {
        result.error = "no event in the steps asked for";
        return result;
    }
    const double meanIterUs = (static_cast<double>(tMax) / 1000.0 - static_cast<double>(tMin) / 1000.0)
        / static_cast<double>(iterations.size());
    result.meanStepNs = meanIterUs * 1000.0;
    const double minDurationUs = meanIterUs * 0.01;

    // The last long communication kernel of every (rank, stream, step, name), in frame order.
    using Key = std::tuple<int, int32_t, int, std::string_view>;
    std::map<Key, std::pair<const RankTrace*, EventIndex>> last;
    std::vector<int8_t> isComm(run.strings.size(), -1);
    for (const RankTrace& rank : run.ranks) {
        const EventTable& t = rank.events;
        std::vector<EventIndex> rows = htaFrameOrder(t);
        if (!hta)
            std::sort(rows.begin(), rows.end());
        for (EventIndex e : rows) {
            const size_t i = static_cast<size_t>(e);
            if (!inHtaFrame(t, i) || !selected.count(t.step[i]) || !t.name[i])
                continue;
            if (hta ? (t.stream[i] <= 0 || t.step[i] <= 0) : (t.stream[i] < 0 || t.kind[i] != EventKind::Kernel))
                continue;
            int8_t& comm = isComm[t.name[i].value];
            if (comm < 0)
                comm = run.str(t.name[i]).starts_with(hta ? "ncclKernel" : "nccl") ? 1 : 0;
            if (!comm || static_cast<double>(t.durNs[i]) / 1000.0 < minDurationUs)
                continue;
            last[{rank.rank, t.stream[i], t.step[i], run.str(t.name[i])}] = {&rank, e};
        }
    }
    if (last.empty()) {
        result.error = std::string("no ") + (hta ? "ncclKernel_*" : "NCCL") + " kernel of 1% of the mean step time or more"
            + (hta ? "; HTA raises ValueError (argmax of an empty sequence)" : "");
        return result;
    }
    // The (stream, name) whose duration varies most across ranks, averaged over the steps.
    std::map<std::tuple<int32_t, int, std::string_view>, std::vector<double>> durations;  // (stream, step, name)
    for (const auto& [key, where] : last) {
        const auto& [rank, stream, step, name] = key;
        durations[{stream, step, name}].push_back(static_cast<double>(where.first->events.durNs[where.second]) / 1000.0 / meanIterUs);
    }
    std::map<std::pair<int32_t, std::string_view>, std::pair<double, int>> spread;  // Σ std, count (NaN skipped)
    for (const auto& [key, values] : durations) {
        auto& s = spread[{std::get<0>(key), std::get<2>(key)}];
        const double sd = sampleStd(values);
        if (!std::isnan(sd)) {
            s.first += sd;
            ++s.second;
        }
    }
    const std::pair<int32_t, std::string_view>* witness = nullptr;
    double best = -1.0;
    for (const auto& [key, s] : spread)
        if (s.second > 0 && s.first / s.second > best) {
            best = s.first / s.second;
            witness = &key;
        }
    if (!witness) {
        result.error = hta ? "every collective runs on one rank only (no spread across ranks); HTA raises TypeError"
                           : "no collective runs on two ranks or more in the same step: no straggler to tell";
        return result;
    }
    result.stream = witness->first;
    for (const auto& [key, where] : last) {
        const auto& [rank, stream, step, name] = key;
        if (stream != witness->first || name != witness->second)
            continue;
        const EventTable& t = where.first->events;
        const EventIndex e = where.second;
        result.kernel = t.name[e];
        StragglerStep s;
        s.rank = rank;
        s.step = step;
        s.kernel = e;
        s.startNs = t.tsNs[e];
        s.durNs = t.durNs[e];
        s.normalizedStart = (static_cast<double>(t.tsNs[e]) / 1000.0 - static_cast<double>(tMin) / 1000.0) / meanIterUs;
        s.normalizedDuration = static_cast<double>(t.durNs[e]) / 1000.0 / meanIterUs;
        result.steps.push_back(s);
    }
    // Per step, the ranks at or past the k-th latest start are flagged.
    const size_t k = static_cast<size_t>(std::max(options.candidates, 1));
    std::map<int, std::vector<size_t>> byStep;
    for (size_t r = 0; r < result.steps.size(); ++r)
        byStep[result.steps[r].step].push_back(r);
    for (const auto& [step, rows] : byStep) {
        if (step < 0)
            continue;
        std::vector<double> starts;
        for (size_t r : rows)
            starts.push_back(result.steps[r].normalizedStart);
        std::sort(starts.begin(), starts.end(), std::greater<>());
        if (starts.size() < k) {
            if (hta) {
                result.error = "step " + std::to_string(step) + " has the collective on " + std::to_string(starts.size())
                    + " ranks, fewer than --candidates " + std::to_string(k) + "; HTA raises IndexError";
                result.steps.clear();
                return result;
            }
            result.notes.push_back("step " + std::to_string(step) + ": the collective ran on " + std::to_string(starts.size())
                                   + " ranks only, all flagged");
        }
        const double threshold = starts[std::min(k, starts.size()) - 1];
        for (size_t r : rows)
            result.steps[r].flagged = result.steps[r].normalizedStart >= threshold;
    }
    std::map<int, int> counts;
    for (const StragglerStep& s : result.steps)
        counts[s.rank] += s.flagged ? 1 : 0;
    std::vector<int64_t> values;
    for (const auto& [rank, count] : counts) {
        result.perRank.push_back({rank, count, false});
        values.push_back(count);
    }
    std::vector<uint32_t> order;
    if (hta) {
        order = hta::sortDescendingOrder(values);
    } else {
        order.resize(values.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return values[a] > values[b]; });
    }
    for (size_t i = 0; i < order.size() && i < k; ++i) {
        result.ranks.push_back(result.perRank[order[i]].rank);
        result.perRank[order[i]].straggler = true;
    }
    return result;
}

namespace {

double medianOf(std::vector<double> values)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

double stepTimeNs(const StepSpan& span, StepClock clock)
{
    switch (clock) {
    case StepClock::Gpu: return span.hasGpu() ? static_cast<double>(span.gpuNs()) : std::numeric_limits<double>::quiet_NaN();
    case StepClock::Cpu: return static_cast<double>(span.cpuNs());
    case StepClock::GpuElseCpu: break;
    }
    return static_cast<double>(span.hasGpu() ? span.gpuNs() : span.cpuNs());
}

StepTimeStats stepTimeStats(const ProfilerSteps& steps, StepClock clock)
{
    StepTimeStats stats;
    std::vector<double> all;
    std::map<int, std::vector<double>> byStep, byRank;
    for (const StepSpan& span : steps.spans) {
        const double ns = stepTimeNs(span, clock);
        if (std::isnan(ns))
            continue;
        all.push_back(ns);
        byStep[span.step].push_back(ns);
        byRank[span.rank].push_back(ns);
    }
    stats.spans = all.size();
    if (all.empty())
        return stats;
    const auto [low, high] = std::minmax_element(all.begin(), all.end());
    stats.minNs = *low;
    stats.maxNs = *high;
    stats.medianNs = medianOf(all);
    for (auto& [step, times] : byStep)
        stats.medianOfStep[step] = medianOf(std::move(times));
    for (auto& [rank, times] : byRank)
        if (const double m = medianOf(std::move(times)); stats.slowestRank < 0 || m > stats.slowestMedianNs) {
            stats.slowestRank = rank;
            stats.slowestMedianNs = m;
        }
    return stats;
}

} // namespace kscope
