#include "analysis/launch/cupticounters.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"
#include "analysis/htaorder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace kscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kProfilerRange = "cuda_profiler_range";

// Rows ordered by start: HTA sorts with numpy's quicksort over its frame order; the default mode
// keeps the table's (start, longest first) order.
std::vector<EventIndex> byStart(const EventTable& t, std::vector<EventIndex> rows, bool htaCompat)
{
    if (!htaCompat)
        return rows;
    sortToFileOrder(t, rows);
    std::vector<int64_t> ts(rows.size());
    for (size_t k = 0; k < rows.size(); ++k)
        ts[k] = t.tsNs[rows[k]];
    std::vector<EventIndex> out;
    out.reserve(rows.size());
    for (uint32_t k : hta::quicksortArgsort(ts))
        out.push_back(rows[k]);
    return out;
}

// FP32 lanes per SM by compute capability (CUDA's programming guide), 0 when unknown.
int fp32LanesPerSm(int major, int minor)
{
    if (major == 6)
        return minor == 0 ? 64 : 128;
    if (major == 7)
        return 64;
    if (major == 8)
        return minor == 0 ? 64 : 128;
    if (major == 9)
        return 128;
    if (major >= 10)
        return 128;
    return 0;
}

double peakFlopsPerCycle(const RankTrace& rank, ThreadIndex thread)
{
    const int64_t device = thread < rank.threads.size() ? rank.threads[thread].pid : -1;
    for (const DeviceProperties& d : rank.metadata.devices) {
        if (d.id != device)
            continue;
        const int lanes = fp32LanesPerSm(d.computeMajor, d.computeMinor);
        if (lanes == 0 || d.numSms <= 0)
            return kNaN;
        return static_cast<double>(d.numSms) * lanes * 2.0;
    }
    return kNaN;
}

// The counter values of one cuda_profiler_range event: samples with its start, name and thread.
// Two events alike in all three take their values in turn.
class CounterIndex {
public:
    explicit CounterIndex(const RankTrace& rank) : m_counters(rank.counters) {}

    template <typename Fn>
    void forEvent(const EventTable& t, EventIndex e, Fn&& fn)
    {
        const int64_t ts = t.tsNs[e];
        auto lo = std::lower_bound(m_counters.begin(), m_counters.end(), ts,
                                   [](const CounterSample& c, int64_t v) { return c.tsNs < v; });
        const uint64_t key = (static_cast<uint64_t>(t.name[e].value) << 16) | t.thread[e];
        const int turn = m_turns[std::make_pair(ts, key)]++;
        std::unordered_map<uint32_t, int> seen;
        for (auto it = lo; it != m_counters.end() && it->tsNs == ts; ++it) {
            if (it->series != t.name[e] || it->thread != t.thread[e])
                continue;
            if (seen[it->field.value]++ == turn)
                fn(it->field, it->value);
        }
    }

private:
    const std::vector<CounterSample>& m_counters;
    std::map<std::pair<int64_t, uint64_t>, int> m_turns;
};

double sumOf(const std::vector<std::string>& names, const std::vector<double>& values,
             std::initializer_list<std::string_view> wanted)
{
    double sum = 0.0;
    bool any = false;
    for (size_t k = 0; k < names.size(); ++k)
        for (std::string_view w : wanted)
            if (names[k] == w && !std::isnan(values[k])) {
                sum += values[k];
                any = true;
            }
    return any ? sum : kNaN;
}

} // namespace

double sassFlopsPerInstruction(std::string_view counter)
{
    constexpr std::string_view prefix = "smsp__sass_thread_inst_executed_op_";
    constexpr std::string_view suffix = "_pred_on.sum";
    if (counter.size() != prefix.size() + 4 + suffix.size() || !counter.starts_with(prefix) || !counter.ends_with(suffix))
        return 0.0;
    const std::string_view op = counter.substr(prefix.size(), 4);
    if (op != "ffma" && op != "fmul" && op != "fadd" && op != "hfma" && op != "hmul" && op != "hadd" && op != "dfma"
        && op != "dmul" && op != "dadd")
        return 0.0;
    return op.substr(1) == "fma" ? 2.0 : 1.0;
}

CuptiCounters cuptiCounters(const Run& run, const CuptiCounterOptions& options)
{
    CuptiCounters result;
    result.options = options;
    const StringId rangeCategory = run.strings.find(kProfilerRange);
    if (!rangeCategory) {
        result.error = "no cuda_profiler_range events: the trace was not taken in CUPTI's range-profiler mode";
        return result;
    }
    std::unordered_map<uint32_t, size_t> column;  // field id -> index into counterNames
    std::vector<StringId> launchNames;            // HTA: cat ^cuda_runtime, name ^cudaLaunchKernel
    for (uint32_t id = 1; id < run.strings.size(); ++id)
        if (run.strings.view(StringId{id}).starts_with("cudaLaunchKernel"))
            launchNames.push_back(StringId{id});
    for (const RankTrace& rank : run.ranks) {
        if (!chosen(options.ranks, run.indexOf(rank)))
            continue;
        const EventTable& t = rank.events;
        std::vector<EventIndex> ranges, launches;
        for (size_t i = 0; i < t.size(); ++i) {
            if (!isHtaVisible(t, i))
                continue;
            if (t.category[i] == rangeCategory)
                ranges.push_back(static_cast<EventIndex>(i));
            else if (containsId(launchNames, t.name[i]) && run.str(t.category[i]).starts_with("cuda_runtime"))
                launches.push_back(static_cast<EventIndex>(i));
        }
        if (ranges.empty())
            continue;
        ranges = byStart(t, std::move(ranges), options.htaCompat);
        launches = byStart(t, std::move(launches), options.htaCompat);
        if (ranges.size() != launches.size()) {
            // Range-profiler kernels carry no correlation: only equal counts can be paired.
            result.notes.push_back(rankLabel(rank.rank) + " left out: " + std::to_string(ranges.size())
                                   + " profiled kernels but " + std::to_string(launches.size())
                                   + " cudaLaunchKernel calls, so they cannot be paired by order");
            continue;
        }
        CounterIndex counters(rank);
        const size_t first = result.kernels.size();
        for (size_t k = 0; k < ranges.size(); ++k) {
            CuptiKernel kernel;
            kernel.rank = rank.rank;
            kernel.event = ranges[k];
            kernel.launch = launches[k];
            kernel.name = t.name[ranges[k]];
            kernel.tsNs = t.tsNs[ranges[k]];
            kernel.durNs = t.durNs[ranges[k]];
            counters.forEvent(t, ranges[k], [&](StringId field, double value) {
                auto [it, inserted] = column.try_emplace(field.value, result.counterNames.size());
                if (inserted)
                    result.counterNames.emplace_back(run.str(field));
                if (kernel.values.size() <= it->second)
                    kernel.values.resize(it->second + 1, kNaN);
                kernel.values[it->second] = value;
            });
            for (EventIndex p = t.parent[launches[k]]; p != kNoEvent; p = t.parent[p])
                if (options.htaCompat ? run.str(t.category[p]) == "cpu_op" : t.kind[p] == EventKind::CpuOp)
                    kernel.opStack.push_back(t.name[p]);
            std::reverse(kernel.opStack.begin(), kernel.opStack.end());
            if (kernel.opStack.empty() && options.htaCompat) {
                // HTA takes ops[0] of an empty stack and fails the whole call.
                result.error = rankLabel(rank.rank) + ": a cudaLaunchKernel with no cpu_op around it (HTA fails here)";
                result.kernels.resize(first);
                return result;
            }
            kernel.peakFp32FlopsPerCycle = peakFlopsPerCycle(rank, t.thread[ranges[k]]);
            result.kernels.push_back(std::move(kernel));
        }
    }
    // Derived columns, once every counter column is known.
    for (CuptiKernel& kernel : result.kernels) {
        kernel.values.resize(result.counterNames.size(), kNaN);
        double flops = 0.0;
        bool anySass = false;
        for (size_t c = 0; c < result.counterNames.size(); ++c) {
            const double weight = sassFlopsPerInstruction(result.counterNames[c]);
            if (weight == 0.0 || std::isnan(kernel.values[c]))
                continue;
            flops += weight * kernel.values[c];
            anySass = true;
        }
        kernel.flops = anySass ? flops : kNaN;
        const double measuredNs = sumOf(result.counterNames, kernel.values, {"gpu__time_duration.sum"});
        const double seconds = (std::isnan(measuredNs) ? static_cast<double>(kernel.durNs) : measuredNs) / 1e9;
        kernel.flopsPerSecond = anySass && seconds > 0 ? flops / seconds : kNaN;
        kernel.dramBytes = sumOf(result.counterNames, kernel.values, {"dram__bytes_read.sum", "dram__bytes_write.sum"});
        kernel.arithmeticIntensity =
            anySass && kernel.dramBytes > 0 ? flops / kernel.dramBytes : kNaN;
    }
    if (result.kernels.empty() && result.error.empty())
        result.error = "no rank has profiled kernels that pair with its cudaLaunchKernel calls";
    return result;
}

} // namespace kscope
