#include "analysis/tables/patterntables.h"

#include "analysis/patterns/annotations.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/core/kerneltype.h"
#include "analysis/launch/opkernels.h"
#include "analysis/tables/resulttables.h"
#include "analysis/patterns/steps.h"

#include "model/trace.h"

#include <map>

namespace kscope {

namespace {



Cell sinceStart(const Run& run, int64_t ns)
{
    return microsCell(ns - run.minTsNs);
}

Cell rankCell(int rank)
{
    return Cell{int64_t{rank}};
}

std::string joinedRanks(const std::vector<int>& ranks)
{
    std::string text;
    for (size_t k = 0; k < ranks.size(); ++k)
        text += (k ? ", " : "") + std::to_string(ranks[k]);
    return text;
}

} // namespace

Table patternsTable(const Run& run, const KernelPatterns& result)
{
    Table table;
    // HTA's frame (one rank per call) has no rank column.
    table.columns = {"pattern", "count", micros("GPU kernel duration (us)"), micros("CPU op duration (us)")};
    if (!result.htaCompat)
        table.columns.insert(table.columns.begin(), "rank");
    std::map<int, size_t> hidden;
    for (const KernelPattern& p : result.patterns) {
        if (!result.htaCompat && !p.top) {
            ++hidden[p.rank];
            continue;
        }
        std::vector<Cell> row{patternText(run, p), Cell{p.count}, microsCell(p.gpuNs), microsCell(p.cpuNs)};
        if (!result.htaCompat)
            row.insert(row.begin(), rankCell(p.rank));
        table.addRow(std::move(row));
    }
    for (const auto& [rank, count] : hidden)
        table.notes.push_back("rank " + std::to_string(rank) + ": " + std::to_string(count)
                              + (count == 1 ? " less frequent pattern" : " less frequent patterns")
                              + " not listed (--top-k 0 lists every one)");
    return withNotes(std::move(table), result);
}

Table opKernelsTable(const Run& run, const OpKernels& result)
{
    const bool hta = result.htaCompat;
    Table table;
    table.columns = {"rank", "aten_op_name", "kernel_sequence", "occurrence_count", usColumn(hta, "avg_aten_op_launch_delay"),
                     usColumn(hta, "avg_runtime_delay")};
    for (const OpKernelRow& r : result.rows)
        table.addRow({rankCell(r.rank), std::string(run.str(r.op)), kernelSequenceText(run, r), Cell{r.count},
                      microsCell(r.avgOpLaunchDelayNs), microsCell(r.avgRuntimeDelayNs)});
    return withNotes(std::move(table), result);
}

Table annotationsTable(const Run& run, const AnnotationBreakdown& result)
{
    const bool hta = result.htaCompat;
    Table table;
    table.columns = {"name", micros("sum (us)"), micros("max (us)"), micros("min (us)"), usColumn(hta, "stddev"), micros("mean (us)"), "rank"};
    if (!hta)
        table.columns.push_back("count");
    for (const AnnotationRow& r : result.rows) {
        std::vector<Cell> row = {std::string(annotationName(run, r)), microsCell(r.sumNs), microsCell(r.maxNs),
                                 microsCell(r.minNs), microsCell(r.stddevNs), microsCell(r.meanNs), rankCell(r.rank)};
        if (!hta)
            row.emplace_back(r.count);
        table.addRow(std::move(row));
    }
    return withNotes(std::move(table), result);
}

Table annotatedKernelsTable(const Run& run, const AnnotatedKernels& result)
{
    const bool hta = result.htaCompat;
    Table table;
    // HTA's frame has every trace column; these are the ones that say which kernel and where.
    table.columns = {"rank", usColumn(hta, "ts"), usColumn(hta, "dur"), "stream", "correlation", hta ? "s_name" : "name",
                     hta ? "s_user_annotation" : "user_annotation"};
    const RankTrace* rank = nullptr;
    for (const AnnotatedKernel& k : result.kernels) {
        if (!rank || rank->rank != k.rank)
            rank = run.findRank(k.rank);
        const EventTable& t = rank->events;
        std::string name(run.str(t.name[k.kernel]));
        std::string annotation = k.annotation == kNoEvent ? std::string() : std::string(run.str(t.name[k.annotation]));
        if (hta) {  // HTA's shorten_names=True applies to every decoded name
            name = shortenKernelName(name);
            annotation = shortenKernelName(annotation);
        }
        table.addRow({rankCell(k.rank), sinceStart(run, t.tsNs[k.kernel]), microsCell(t.durNs[k.kernel]),
                      Cell{int64_t{t.stream[k.kernel]}}, Cell{t.correlation[k.kernel]}, std::move(name),
                      std::move(annotation)});
    }
    return withNotes(std::move(table), result);
}

Table stepListTable(const ProfilerSteps& result)
{
    Table table;
    table.columns = {"step"};
    for (int s : result.steps)
        table.addRow({Cell{int64_t{s}}});
    return withNotes(std::move(table), result);
}

Table stepSpansTable(const Run& run, const ProfilerSteps& result)
{
    Table table;
    table.columns = {"rank", "step", micros("cpu_start (us)"), micros("cpu_duration (us)"), micros("gpu_start (us)"), micros("gpu_duration (us)"),
                     "gpu_events"};
    for (const StepSpan& s : result.spans)
        table.addRow({rankCell(s.rank), Cell{int64_t{s.step}}, sinceStart(run, s.cpuStartNs), microsCell(s.cpuNs()),
                      s.hasGpu() ? sinceStart(run, s.gpuStartNs) : Cell{}, s.hasGpu() ? microsCell(s.gpuNs()) : Cell{},
                      Cell{s.gpuEvents}});
    return withNotes(std::move(table), result);
}

Table stragglersTable(const Run& run, const Stragglers& result)
{
    Table table;
    table.columns = {"rank",     "step", "kernel", "stream", micros("start (us)"), micros("duration (us)"), "normalized_start_time",
                     "normalized_duration", "flagged", "straggler"};
    std::map<int, bool> straggler;
    for (const StragglerRank& r : result.perRank)
        straggler[r.rank] = r.straggler;
    for (const StragglerStep& s : result.steps)
        table.addRow({rankCell(s.rank), Cell{int64_t{s.step}}, std::string(run.str(result.kernel)),
                      Cell{int64_t{result.stream}}, sinceStart(run, s.startNs), microsCell(s.durNs),
                      numberCell(s.normalizedStart), numberCell(s.normalizedDuration), Cell{int64_t{s.flagged}},
                      Cell{int64_t{straggler[s.rank]}}});
    if (!result.ranks.empty())
        table.notes.push_back("potential stragglers: " + std::string(result.ranks.size() == 1 ? "rank " : "ranks ")
                              + joinedRanks(result.ranks) + " (the latest to start " + std::string(run.str(result.kernel))
                              + " on stream " + std::to_string(result.stream) + ")");
    return withNotes(std::move(table), result);
}

Table stragglerRanksTable(const Stragglers& result)
{
    Table table;
    table.columns = {"rank", "flagged_steps", "straggler"};
    for (const StragglerRank& r : result.perRank)
        table.addRow({rankCell(r.rank), Cell{int64_t{r.flaggedSteps}}, Cell{int64_t{r.straggler}}});
    return withNotes(std::move(table), result);
}

} // namespace kscope
