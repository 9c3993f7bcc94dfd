#include "analysis/tables/launchtables.h"

#include "analysis/launch/countertrace.h"
#include "analysis/launch/cupticounters.h"
#include "analysis/core/gpuactivity.h"
#include "analysis/launch/launchstats.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "analysis/tables/resulttables.h"

#include "model/trace.h"

#include <algorithm>
#include <cmath>

namespace kscope {

namespace {



// Times as HTA prints them: microseconds since the run's first event.
Cell sinceStart(const Run& run, int64_t ns)
{
    return microsCell(ns - run.minTsNs);
}

Cell pidCell(const Run& run, const RankTrace* rank, ThreadIndex thread)
{
    if (!rank || thread >= rank->threads.size())
        return {};
    const ThreadKey& key = rank->threads[thread];
    return key.pidName ? Cell{std::string(run.str(key.pidName))} : Cell{key.pid};
}

Cell tidCell(const Run& run, const RankTrace* rank, ThreadIndex thread)
{
    if (!rank || thread >= rank->threads.size())
        return {};
    const ThreadKey& key = rank->threads[thread];
    return key.tidName ? Cell{std::string(run.str(key.tidName))} : Cell{key.tid};
}

void addDescribe(std::vector<Cell>& row, int64_t count, std::initializer_list<double> values)
{
    row.emplace_back(count);
    for (double v : values)
        row.push_back(numberCell(v));
}

} // namespace

Table launchStatsTable(const Run& run, const LaunchStats& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"rank", "correlation", usColumn(hta, "cpu_duration"), usColumn(hta, "gpu_duration"), usColumn(hta, "launch_delay")};
    if (!hta)
        table.columns.insert(table.columns.end(), {"launch_api", "gpu_ops", "stream", "name"});
    for (const RankLaunchStats& r : result.ranks)
        for (const KernelLaunch& l : r.launches) {
            std::vector<Cell> row;
            row.reserve(table.columns.size());
            row.emplace_back(int64_t{r.rank});
            row.emplace_back(l.correlation);
            for (int64_t ns : {l.cpuDurationNs, l.gpuDurationNs, l.launchDelayNs})
                row.push_back(microsCell(ns));
            if (!hta) {
                row.emplace_back(std::string(run.str(l.launchName)));
                row.emplace_back(int64_t{l.gpuOps});
                row.emplace_back(int64_t{l.stream});
                row.emplace_back(std::string(run.str(l.kernelName)));
            }
            table.addRow(std::move(row));
        }
    return withNotes(std::move(table), result);
}

Table launchHistogramTable(const LaunchStats& result)
{
    Table table;
    table.columns = {"rank", "view", "value", micros("bin_start (us)"), micros("bin_end (us)"), "count"};
    for (const RankLaunchStats& r : result.ranks) {
        const std::pair<const char*, const LaunchHistogram*> views[] = {
            {"short_kernels", &r.shortKernels},
            {"runtime_outliers", &r.runtimeOutliers},
            {"launch_delay_outliers", &r.launchDelayOutliers},
        };
        for (const auto& [view, h] : views)
            for (size_t b = 0; b < h->counts.size(); ++b)
                table.addRow({int64_t{r.rank}, std::string(view),
                              std::string(h == &r.launchDelayOutliers ? "launch_delay" : "cpu_duration"),
                              h->edgesUs[b], h->edgesUs[b + 1], h->counts[b]});
    }
    Table out = withNotes(std::move(table), result);
    for (const RankLaunchStats& r : result.ranks)
        if (r.shortKernels.total + r.runtimeOutliers.total + r.launchDelayOutliers.total == 0)
            out.notes.push_back(rankLabel(r.rank) + ": no launch in any of the three views");
    return out;
}

Table launchOutliersTable(const Run& run, const LaunchStats& result)
{
    Table table;
    table.columns = {"rank",       "outlier", "correlation", micros("cpu_duration (us)"), micros("gpu_duration (us)"),
                     micros("launch_delay (us)"), "launch_api", "gpu_ops", "stream",      "name"};
    for (const RankLaunchStats& r : result.ranks) {
        const std::pair<const char*, const std::vector<uint32_t>*> kinds[] = {
            {"runtime", &r.runtimeOutlierRows},
            {"launch_delay", &r.launchDelayOutlierRows},
        };
        for (const auto& [kind, rows] : kinds)
            for (uint32_t k : *rows) {
                const KernelLaunch& l = r.launches[k];
                table.addRow({int64_t{r.rank}, std::string(kind), l.correlation, microsCell(l.cpuDurationNs),
                              microsCell(l.gpuDurationNs), microsCell(l.launchDelayNs),
                              std::string(run.str(l.launchName)), int64_t{l.gpuOps}, int64_t{l.stream},
                              std::string(run.str(l.kernelName))});
            }
    }
    return withNotes(std::move(table), result);
}

Table launchApisTable(const Run& run, const LaunchStats& result)
{
    Table table;
    table.columns = {"rank", "launch_api", "counted_by_hta", "calls", "gpu_ops", micros("mean_cpu_duration (us)"),
                     micros("mean_launch_delay (us)")};
    for (const RankLaunchStats& r : result.ranks)
        for (const LaunchApiCount& api : r.apis) {
            if (!api.name) {
                table.addRow({int64_t{r.rank}, std::string("(launch not in the trace)"), int64_t{0}, Cell{},
                              api.gpuOps, Cell{}, Cell{}});
                continue;
            }
            table.addRow({int64_t{r.rank}, std::string(run.str(api.name)), int64_t{api.countedByHta ? 1 : 0},
                          api.calls, api.gpuOps,
                          microsCell(static_cast<double>(api.cpuDurationNs) / static_cast<double>(api.calls)),
                          microsCell(static_cast<double>(api.launchDelayNs) / static_cast<double>(api.calls))});
        }
    Table out = withNotes(std::move(table), result);
    if (result.options.htaCompat)
        out.notes.push_back("launches per API are counted in the default mode only");
    return out;
}

Table queueSummaryTable(const QueueLength& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"rank", "stream", "count", "mean", "std", "min", "25%", "50%", "75%", "max"};
    if (!hta)
        table.columns.push_back("time_weighted_mean");
    for (const QueueStats& s : result.stats) {
        std::vector<Cell> row = {int64_t{s.rank}, int64_t{s.stream}};
        addDescribe(row, s.count, {s.mean, s.std, s.min, s.p25, s.p50, s.p75, s.max});
        if (!hta)
            row.push_back(numberCell(s.timeWeightedMean));
        table.addRow(std::move(row));
    }
    return withNotes(std::move(table), result);
}

Table queueSeriesTable(const Run& run, const QueueLength& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"rank", usColumn(hta, "ts"), "pid", "tid", "stream", "queue_length"};
    for (const QueueSeries& s : result.series) {
        const RankTrace* rank = run.findRank(s.rank);
        const Cell pid = pidCell(run, rank, s.thread);
        const Cell tid = tidCell(run, rank, s.thread);
        for (size_t i = 0; i < s.tsNs.size(); ++i)
            table.addRow({int64_t{s.rank}, sinceStart(run, s.tsNs[i]), pid, tid, int64_t{s.stream},
                          int64_t{s.length[i]}});
    }
    return withNotes(std::move(table), result);
}

Table queueBlockedTable(const QueueLength& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"rank", "stream", usColumn(hta, "duration_at_max_queue_length"), "relative_duration_at_max_queue_length"};
    for (const QueueBlocked& b : result.blocked)
        table.addRow({int64_t{b.rank}, int64_t{b.stream}, microsCell(b.durationNs), numberCell(b.relative)});
    Table out = withNotes(std::move(table), result);
    out.notes.push_back("max queue length " + std::to_string(result.options.maxQueueLength) + "; the largest seen "
                        + std::to_string(result.maxObserved)
                        + (hta ? " (HTA's mode: only the last full stream of each rank, as HTA)" : ""));
    return out;
}

Table memoryBwSummaryTable(const MemoryBandwidth& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"rank", "name", "count", "mean", "std", "min", "25%", "50%", "75%", "max"};
    if (!hta) {  // HTA's names carry no unit; ours say GB/s
        for (size_t c = 3; c < table.columns.size(); ++c)
            table.columns[c].name += " (GB/s)";
        table.columns.insert(table.columns.end(), {"time_weighted_mean (GB/s)", micros("busy_time (us)")});
    }
    for (const MemoryBwStats& s : result.stats) {
        std::vector<Cell> row = {int64_t{s.rank}, s.kind};
        addDescribe(row, s.count, {s.mean, s.std, s.min, s.p25, s.p50, s.p75, s.max});
        if (!hta) {
            row.push_back(numberCell(s.timeWeightedMean));
            row.push_back(microsCell(s.busyNs));
        }
        table.addRow(std::move(row));
    }
    Table out = withNotes(std::move(table), result);
    out.notes.push_back("GB/s (10^9 bytes per second, as Kineto records it) of the points above zero, per copy kind");
    return out;
}

Table memoryBwSeriesTable(const Run& run, const MemoryBandwidth& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"rank", usColumn(hta, "ts"), "pid", "name", hta ? "memory_bw_gbps" : "memory_bw (GB/s)"};
    for (const MemoryBwSeries& s : result.series) {
        const Cell pid = pidCell(run, run.findRank(s.rank), s.thread);
        for (size_t i = 0; i < s.tsNs.size(); ++i)
            table.addRow({int64_t{s.rank}, sinceStart(run, s.tsNs[i]), pid, s.kind, s.gbps[i]});
    }
    return withNotes(std::move(table), result);
}

Table counterTracesTable(const CounterTraces& result)
{
    Table table;
    table.columns = {"rank", "input", "output", "counter_events", "bytes_read", "bytes_written", "error"};
    for (const CounterTraceFile& f : result.files)
        table.addRow({int64_t{f.rank}, f.input.string(), f.error.empty() ? Cell{f.output.string()} : Cell{},
                      f.counterEvents, static_cast<int64_t>(f.bytesRead), static_cast<int64_t>(f.bytesWritten),
                      f.error.empty() ? Cell{} : Cell{f.error}});
    return withNotes(std::move(table), result);
}

Table cuptiCountersTable(const Run& run, const CuptiCounters& result)
{
    const bool hta = result.options.htaCompat;
    Table table;
    table.columns = {"name", usColumn(hta, "ts"), usColumn(hta, "dur")};
    table.columns.insert(table.columns.end(), result.counterNames.begin(), result.counterNames.end());
    table.columns.insert(table.columns.end(), {"op_stack", "top_level_op", "bottom_level_op", "rank", "flops",
                                               "flops_per_s", "dram_bytes", "arithmetic_intensity",
                                               "peak_fp32_flops_per_cycle"});
    bool rangeDuration = false;
    for (const CuptiKernel& k : result.kernels) {
        std::vector<Cell> row = {std::string(run.str(k.name)), sinceStart(run, k.tsNs), microsCell(k.durNs)};
        for (double v : k.values)
            row.push_back(numberCell(v));
        std::string stack;
        for (StringId op : k.opStack)
            stack += (stack.empty() ? "" : ";") + std::string(run.str(op));
        row.push_back(stack);
        row.push_back(k.opStack.empty() ? std::string() : std::string(run.str(k.opStack.front())));
        row.push_back(k.opStack.empty() ? std::string() : std::string(run.str(k.opStack.back())));
        row.emplace_back(int64_t{k.rank});
        for (double v : {k.flops, k.flopsPerSecond, k.dramBytes, k.arithmeticIntensity, k.peakFp32FlopsPerCycle})
            row.push_back(numberCell(v));
        table.addRow(std::move(row));
        rangeDuration |= !std::isnan(k.flopsPerSecond);
    }
    Table out = withNotes(std::move(table), result);
    const bool measured = std::find(result.counterNames.begin(), result.counterNames.end(), "gpu__time_duration.sum")
        != result.counterNames.end();
    if (rangeDuration && !measured)
        out.notes.push_back("flops_per_s divides by each profiled range's dur: add gpu__time_duration.sum to the "
                            "CUPTI metrics for the kernels' own time");
    return out;
}

} // namespace kscope
