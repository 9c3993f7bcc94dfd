#include "analysis/tables/collectivetables.h"

#include "analysis/collectives/collectives.h"
#include "analysis/tables/resulttables.h"

#include "model/trace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

namespace kscope {

namespace {


Cell bandwidthCell(double gbps)
{
    return gbps >= 0.0 ? Cell{gbps} : Cell{};
}

Cell textOrEmpty(const Run& run, StringId id)
{
    return id ? Cell{std::string(run.str(id))} : Cell{};
}

// Sorted ranks as runs: "0,2-127" (a 128-rank world missing from a 2-rank load stays short).
std::string ranksText(const std::vector<int>& ranks, int32_t unnamed = 0)
{
    std::string out;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
        if (j > i)
            out += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
        i = j + 1;
    }
    if (unnamed > 0)
        out += (out.empty() ? "" : ",") + std::string("+") + std::to_string(unnamed) + " unnamed";
    return out;
}

std::string bucketLabel(int64_t low)
{
    if (low < 0)
        return "unknown";
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    int64_t value = low;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    return std::to_string(value) + " " + kUnits[unit];
}

bool inList(const std::vector<int>& ranks, int rank)
{
    return std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
}

} // namespace

Table collectivesTable(const Run& run, const Collectives& result)
{
    Table table;
    table.columns = {"process_group", "seq",          "match",         "collective",    "bytes",
                     "ranks",         "missing_ranks", "first_rank",   "last_rank",     micros("skew (us)"),
                     micros("wait_total (us)"), micros("transfer (us)"), "algbw (GB/s)", "busbw (GB/s)", "above_link_bw",
                     "step",          micros("start (us)"),   "name"};
    for (const CollectiveInstance& in : result.instances) {
        const CollectiveGroup& g = result.groups[in.group];
        table.addRow({textOrEmpty(run, g.name), in.seq, std::string(toString(in.rule)), in.name,
                      in.bytes >= 0 ? Cell{in.bytes} : Cell{}, int64_t{in.arrivalCount},
                      ranksText(in.missingRanks, in.unnamedMissing), int64_t{in.firstRank}, int64_t{in.lastRank},
                      microsCell(in.skewNs), microsCell(in.waitTotalNs), microsCell(in.transferNs),
                      bandwidthCell(in.algbwGBps), bandwidthCell(in.busbwGBps), int64_t{in.aboveLinkBandwidth ? 1 : 0},
                      in.step >= 0 ? Cell{int64_t{in.step}} : Cell{}, microsCell(in.earliestNs - run.minTsNs),
                      textOrEmpty(run, in.kernelName)});
    }
    Table out = withNotes(std::move(table), result);
    out.notes.push_back("algbw and busbw are in GB/s of 10^9 bytes per second, as nccl-tests prints them "
                        "(TraceLens prints GiB/s under the name GB/s)");
    return out;
}

Table collectiveArrivalsTable(const Run& run, const Collectives& result)
{
    Table table;
    table.columns = {"instance", "process_group", "seq", "collective", "rank", "step", micros("arrival (us)"),
                     micros("wait (us)"), micros("lateness (us)"), "last", "kernels"};
    for (size_t i = 0; i < result.instances.size(); ++i) {
        const CollectiveInstance& in = result.instances[i];
        const CollectiveGroup& g = result.groups[in.group];
        for (const CollectiveArrival& a : std::span(result.arrivals).subspan(in.firstArrival, in.arrivalCount))
            table.addRow({int64_t(i), textOrEmpty(run, g.name), in.seq, in.name, int64_t{a.rank},
                          a.step >= 0 ? Cell{int64_t{a.step}} : Cell{}, microsCell(a.startNs - run.minTsNs),
                          microsCell(a.waitNs), microsCell(a.latenessNs),
                          int64_t{in.arrivalCount >= 2 && a.rank == in.lastRank ? 1 : 0}, int64_t{a.kernels}});
    }
    return withNotes(std::move(table), result);
}

Table collectiveRanksTable(const Collectives& result, bool perStep)
{
    Table table;
    table.columns = {"rank"};
    if (perStep)
        table.columns.push_back("step");
    table.columns.insert(table.columns.end(),
                         {"instances", micros("comm (us)"), micros("wait (us)"), micros("transfer (us)"), percent("wait_pctg"), "last_count",
                          micros("mean_lateness (us)"), micros("delay_caused (us)"), "straggler", "hta_straggler"});
    const CollectiveStraggler& st = result.straggler;
    for (const CollectiveRankStats& s : perStep ? result.perRankStep : result.perRank) {
        std::vector<Cell> row{int64_t{s.rank}};
        if (perStep)
            row.push_back(s.step >= 0 ? Cell{int64_t{s.step}} : Cell{});
        row.insert(row.end(),
                   {s.instances, microsCell(s.commNs), microsCell(s.waitNs), microsCell(s.transferNs),
                    s.commNs > 0 ? Cell{100.0 * double(s.waitNs) / double(s.commNs)} : Cell{}, s.lastCount,
                    microsCell(s.meanLatenessNs()), microsCell(s.delayCausedNs), int64_t{s.rank == st.rank ? 1 : 0},
                    int64_t{inList(st.htaRanks, s.rank) ? 1 : 0}});
        table.addRow(std::move(row));
    }
    return withNotes(std::move(table), result);
}

Table collectiveSummaryTable(const Run& run, const Collectives& result)
{
    Table table;
    table.columns = {"collective",         "size_bucket",        "bucket_low_bytes",  "count",
                     micros("transfer_median (us)"), micros("transfer_p95 (us)"), "busbw_median (GB/s)", "busbw_p95 (GB/s)",
                     micros("skew_median (us)"),   micros("skew_p95 (us)")};
    for (const CollectiveSummaryRow& r : collectiveSummary(run, result))
        table.addRow({r.name, bucketLabel(r.bucketLowBytes), r.bucketLowBytes >= 0 ? Cell{r.bucketLowBytes} : Cell{},
                      r.count, microsCell(r.transferMedianNs), microsCell(r.transferP95Ns),
                      bandwidthCell(r.busbwMedianGBps), bandwidthCell(r.busbwP95GBps), microsCell(r.skewMedianNs),
                      microsCell(r.skewP95Ns)});
    return withNotes(std::move(table), result);
}

Table clockSkewTable(const Run& run, const Collectives& collectives, bool perGroup)
{
    const ClockSkew& skew = collectives.clockSkew;
    Table table;
    if (perGroup)
        table.columns = {"process_group", "group_ranks"};
    table.columns.insert(table.columns.end(), {"rank", micros("offset (us)"), micros("spread (us)"), "instances",
                                               "compared_with", "reliable", "exceeds_median_wait"});
    // Cells pushed one by one: GCC 12 warns (maybe-uninitialized) on an initializer list of
    // variants that mixes empty cells and strings.
    const auto addRank = [&](std::vector<Cell> row, const RankClockOffset& o) {
        row.push_back(int64_t{o.rank});
        if (o.estimated) {
            row.push_back(microsCell(o.offsetNs));
            row.push_back(microsCell(o.spreadNs));
            row.push_back(o.instances);
            row.push_back(int64_t{o.viaRank});
            row.push_back(int64_t{o.reliable ? 1 : 0});
            row.push_back(int64_t{offsetExceedsWaits(skew, o.offsetNs) ? 1 : 0});
        } else {
            row.resize(row.size() + 2);
            row.push_back(int64_t{0});
            row.emplace_back();
            row.push_back(int64_t{0});
            row.emplace_back();
        }
        table.addRow(std::move(row));
    };
    if (perGroup) {
        for (const GroupClockSkew& g : skew.groups) {
            const CollectiveGroup& group = collectives.groups[g.group];
            for (const RankClockOffset& o : g.ranks) {
                std::vector<Cell> row;
                row.push_back(textOrEmpty(run, group.name));
                row.push_back(ranksText(group.members, group.unnamedMembers));
                addRank(std::move(row), o);
            }
        }
    } else {
        for (const RankClockOffset& o : skew.ranks)
            addRank({}, o);
    }
    Table out = withNotes(std::move(table), skew);
    if (skew.referenceRank >= 0) {
        char wait[32];
        std::snprintf(wait, sizeof wait, "%.3f", double(skew.medianWaitNs) / 1000.0);
        out.notes.insert(out.notes.begin(), "offsets from rank " + std::to_string(skew.referenceRank)
                                                + "'s clock, read from the ends of " + std::to_string(skew.instances)
                                                + " collective instances (median collective wait " + wait + " us)");
    }
    return out;
}

} // namespace kscope
