#include "analysis/tables/resulttables.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/core/idletime.h"
#include "analysis/core/importissues.h"
#include "analysis/core/kernelnames.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/kerneldistribution.h"
#include "analysis/core/overlap.h"
#include "analysis/core/temporalbreakdown.h"

#include "model/trace.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace kscope {

Table temporalTable(const TemporalBreakdown& result)
{
    Table table;
    table.columns = {"rank",           micros("idle_time(us)"),  micros("compute_time(us)"),  micros("non_compute_time(us)"),
                     micros("kernel_time(us)"), percent("idle_time_pctg"), percent("compute_time_pctg"), percent("non_compute_time_pctg")};
    for (const TemporalBreakdownRow& row : result.rows)
        table.addRow({int64_t{row.rank}, microsCell(row.idleNs), microsCell(row.computeNs),
                      microsCell(row.nonComputeNs), microsCell(row.spanNs), numberCell(row.idlePctg),
                      numberCell(row.computePctg), numberCell(row.nonComputePctg)});
    for (const TemporalBreakdownRow& row : result.rows)
        table.rowRanks.push_back(row.rankIndex);
    return withNotes(std::move(table), result);
}

Table kernelTypesTable(const KernelBreakdown& result)
{
    Table table;
    table.columns = {"kernel_type", usColumn(result.htaCompat, "sum"), percent("percentage")};
    for (const KernelTypeShare& share : result.types)
        table.addRow({share.kernelType, microsCell(share.sumNs), numberCell(share.percentage)});
    return withNotes(std::move(table), result);
}

Table kernelsTable(const Run& run, const KernelBreakdown& result)
{
    Table table;
    table.columns = {"name",      micros("sum (us)"),    micros("max (us)"), micros("min (us)"), usColumn(result.htaCompat, "stddev"),
                     micros("mean (us)"), "kernel_type", "rank"};
    // HTA orders by type and full name; the default mode by type and the short name the table
    // and the GUI show, so rows read in the order of their names.
    std::vector<size_t> order(result.kernels.size());
    std::iota(order.begin(), order.end(), size_t{0});
    if (!result.htaCompat) {
        std::vector<std::string_view> full;
        for (const KernelStatsRow& row : result.kernels)
            full.push_back(rowName(run, row));
        const std::vector<std::string> shown = distinctShortNames(full);
        std::vector<size_t> typeAt(result.kernels.size());  // where the row's type first appears
        for (size_t k = 0; k < result.kernels.size(); ++k)
            typeAt[k] = k > 0 && result.kernels[k].type == result.kernels[k - 1].type ? typeAt[k - 1] : k;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return std::tie(typeAt[a], shown[a], result.kernels[a].rank) < std::tie(typeAt[b], shown[b], result.kernels[b].rank);
        });
    }
    for (size_t k : order) {
        const KernelStatsRow& row = result.kernels[k];
        table.addRow({std::string(rowName(run, row)), microsCell(row.sumNs), microsCell(row.maxNs),
                      microsCell(row.minNs), microsCell(row.stddevNs), microsCell(row.meanNs),
                      std::string(toString(row.type)), int64_t{row.rank}});
        table.rowRanks.push_back(row.rankIndex);
    }
    return withNotes(std::move(table), result);
}

Table kernelDistributionTable(const Run& run, const KernelDistributions& result)
{
    Table table;
    table.columns = {"name",         "kernel_type", "rank",      "count",         micros("sum (us)"),     micros("min (us)"),
                     micros("q1 (us)"),      micros("median (us)"), micros("q3 (us)"),   micros("max (us)"),      micros("mean (us)"),    micros("stddev (us)"),
                     micros("whisker_low (us)"), micros("whisker_high (us)"), "outlier_count", micros("outliers (us)"), "spread"};
    for (const KernelDistribution& kernel : result.kernels) {
        for (const KernelRankDistribution& d : kernel.ranks) {
            std::string outliers;
            for (int64_t ns : d.outliersNs)
                outliers += (outliers.empty() ? "" : " ") + formatCell(microsCell(ns));
            table.addRow({std::string(run.str(kernel.name)), std::string(toString(kernel.type)), int64_t{d.rank},
                          d.count, microsCell(d.totalNs), microsCell(d.minNs), microsCell(d.q1Ns),
                          microsCell(d.medianNs), microsCell(d.q3Ns), microsCell(d.maxNs), microsCell(d.meanNs),
                          microsCell(d.stddevNs), microsCell(d.whiskerLowNs), microsCell(d.whiskerHighNs),
                          d.outlierCount, outliers, numberCell(kernel.spread)});
        }
    }
    return withNotes(std::move(table), result);
}

Table idleTable(const IdleTime& result)
{
    Table table;
    table.columns = {"rank", "stream", "idle_category", micros(result.htaCompat ? "idle_time" : "idle_time(us)"),
                     fraction("idle_time_ratio")};
    for (const IdleTimeRow& row : result.rows)
        table.addRow({int64_t{row.rank}, int64_t{row.stream}, std::string(toString(row.category)),
                      microsCell(row.idleNs), numberCell(row.ratio)});
    return withNotes(std::move(table), result);
}

Table idleHistogramTable(const IdleHistogram& result)
{
    Table table;
    table.columns = {"rank", "idle_category", micros("bin_start (us)"), micros("bin_end (us)"), "count"};
    if (result.error.empty())
        for (int c = 0; c < kIdleCategoryCount; ++c)
            for (size_t b = 0; b < result.counts[c].size(); ++b)
                table.addRow({int64_t{result.rank}, std::string(toString(static_cast<IdleCategory>(c))),
                              result.edgesUs[b], result.edgesUs[b + 1], result.counts[c][b]});
    return withNotes(std::move(table), result);
}

Table idleGapsTable(const Run& run, const IdleHistogram& result)
{
    Table table;
    table.columns = {"rank", "stream", "idle_category", micros("start (us)"), micros("duration (us)"), "next"};
    if (!result.error.empty() || !run.has(result.rankIndex))
        return table;
    const EventTable& events = run.at(result.rankIndex).events;
    for (const IdleGap& gap : result.longest) {
        table.addRow({int64_t{result.rank}, int64_t{gap.stream}, std::string(toString(gap.category)),
                      static_cast<double>(gap.startNs - run.minTsNs) / 1000.0, static_cast<double>(gap.endNs - gap.startNs) / 1000.0,
                      std::string(run.str(events.name[gap.next]))});
        table.rowRanks.push_back(result.rankIndex);
    }
    return table;
}

Table overlapTable(const Overlap& result)
{
    Table table;
    table.columns = {"rank", percent("comp_comm_overlap_pctg")};
    for (const OverlapRow& row : result.rows) {
        table.addRow({int64_t{row.rank}, numberCell(row.overlapPctg)});
        table.rowRanks.push_back(row.rankIndex);
    }
    return withNotes(std::move(table), result);
}

Table importIssuesTable(const Run& run)
{
    Table table;
    table.columns = {"severity", "file", "rank", "byte_offset", "offset_in", "kind", "message", "count"};
    auto orEmpty = [](int64_t value) { return value >= 0 ? Cell{value} : Cell{}; };
    for (const ImportIssueRow& row : importIssueRows(run)) {
        Cell offsetIn;
        if (row.byteOffset >= 0)
            offsetIn = std::string(row.inflatedOffset ? "inflated stream" : "file");
        table.addRow({std::string(toString(row.level)), row.file.string(), orEmpty(row.rank),
                      orEmpty(row.byteOffset), offsetIn, row.kind.empty() ? Cell{} : Cell{row.kind}, row.message,
                      orEmpty(row.count)});
    }
    return table;
}

Table idleStatsTable(const IdleTime& result)
{
    Table table;
    if (result.htaCompat)
        table.columns = {"rank", "stream", "idle_category", "count", micros("mean"), micros("std"), micros("min"),
                         micros("25%"), micros("50%"), micros("75%"), micros("max")};
    else
        table.columns = {"rank",     "stream",   "idle_category", "count",    micros("mean (us)"), micros("std (us)"),
                         micros("min (us)"), micros("25% (us)"), micros("50% (us)"),      micros("75% (us)"), micros("max (us)")};
    for (const IdleIntervalStats& s : result.stats)
        table.addRow({int64_t{s.rank}, int64_t{s.stream}, std::string(toString(s.category)), s.count,
                      numberCell(s.meanUs), numberCell(s.stdUs), numberCell(s.minUs), numberCell(s.p25Us),
                      numberCell(s.p50Us), numberCell(s.p75Us), numberCell(s.maxUs)});
    return withNotes(std::move(table), result);
}

std::vector<std::string> loadOutcomeNotes(const Run& run)
{
    std::vector<std::string> notes;
    for (const LoadError& e : run.errors) {
        if (e.kind == LoadErrorKind::Cancelled)
            continue;
        if (e.partial)
            notes.push_back(rankLabel(e.rank) + " is partial (read only up to an error, marked in the \"partial\" "
                            "column): " + describe(e));
        else
            notes.push_back("not loaded: " + describe(e));
    }
    for (size_t r = 0; r < run.ranks.size(); ++r) {
        const RankIndex index{static_cast<uint32_t>(r)};
        if (!run.numberShared(index) || run.ranksNumbered({run.at(index).rank}).front() != index)
            continue;  // once per shared number
        std::string files;
        for (RankIndex same : run.ranksNumbered({run.at(index).rank}))
            files += (files.empty() ? "" : ", ") + run.at(same).file.filename().string();
        notes.push_back(rankLabel(run.at(index).rank) + " is claimed by several files (" + files
                        + "): each is a rank of its own, in that order; per-rank tables name its file in a \"file\" column");
    }
    for (const SkippedFile& skipped : run.skippedFiles) {
        const std::string name = skipped.file.filename().string();
        if (name.ends_with(".json") || name.ends_with(".json.gz"))
            notes.push_back("skipped " + skipped.file.string() + ": " + skipped.reason);
    }
    return notes;
}

Table withLoadOutcome(Table table, const Run& run)
{
    RankSet partial;
    for (const LoadError& e : run.errors)
        if (e.partial && e.rank >= 0)
            partial.insert(e.rank);
    const auto rankColumn = std::find(table.columns.begin(), table.columns.end(), "rank");
    if (rankColumn != table.columns.end() && (!run.htaCompat || !partial.empty())) {
        const size_t at = static_cast<size_t>(rankColumn - table.columns.begin());
        table.columns.push_back("partial");
        for (std::vector<Cell>& row : table.rows) {
            const auto* rank = at < row.size() ? std::get_if<int64_t>(&row[at]) : nullptr;
            const int64_t isPartial = rank && partial.contains(static_cast<int>(*rank));
            while (row.size() + 1 < table.columns.size())
                row.emplace_back();
            row.emplace_back(isPartial);
        }
    }
    bool numberShared = false;
    for (size_t r = 0; r < run.ranks.size(); ++r)
        numberShared |= run.numberShared(RankIndex{static_cast<uint32_t>(r)});
    if (numberShared && !table.rowRanks.empty() && table.rowRanks.size() == table.rows.size()) {
        table.columns.push_back("file");
        for (size_t r = 0; r < table.rows.size(); ++r) {
            std::vector<Cell>& row = table.rows[r];
            while (row.size() + 1 < table.columns.size())
                row.emplace_back();
            row.emplace_back(run.has(table.rowRanks[r]) ? run.at(table.rowRanks[r]).file.filename().string() : std::string());
        }
    }
    std::vector<std::string> notes = loadOutcomeNotes(run);
    notes.insert(notes.end(), table.notes.begin(), table.notes.end());
    table.notes = std::move(notes);
    return table;
}

} // namespace kscope
