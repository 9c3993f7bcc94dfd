#include "analysis/tables/difftables.h"

#include "analysis/diff/tracediff.h"
#include "model/jsonwrite.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace kscope {

namespace {

// Whole microseconds stay integers (HTA's sums of integer µs), anything finer a decimal.
Cell microsOfNs(int64_t ns)
{
    if (ns % 1000 == 0)
        return Cell{ns / 1000};
    return Cell{static_cast<double>(ns) / 1000.0};
}

Cell microsOfNs(double ns)
{
    if (!std::isfinite(ns))
        return Cell{};
    if (ns == std::floor(ns) && std::fabs(ns) < 9e15)
        return microsOfNs(static_cast<int64_t>(ns));
    return Cell{ns / 1000.0};
}

Cell number(double value)
{
    if (!std::isfinite(value))
        return Cell{};
    if (value == std::floor(value) && std::fabs(value) < 9e15)
        return Cell{static_cast<int64_t>(value)};
    return Cell{value};
}

Cell real(double value)
{
    return std::isfinite(value) ? Cell{value} : Cell{};
}

template <typename Result>
void addOutcome(Table& table, const Result& result)
{
    for (const std::string& note : result.notes)
        table.notes.push_back(note);
    if (!result.error.empty())
        table.notes.push_back("no result: " + result.error);
}

// HTA: a test label equal to the control label becomes "<label>_control_test".
std::string distinctTestLabel(const std::string& controlLabel, const std::string& testLabel, Table& table)
{
    if (controlLabel != testLabel)
        return testLabel;
    const std::string renamed = testLabel + "_control_test";
    table.notes.push_back("both runs are labelled '" + testLabel + "': the test label became '" + renamed
                          + "' (as HTA renames it)");
    return renamed;
}

// Control, test and diff cells of one quantity; a missing side gives empty cells.
template <typename Value, typename ToCell>
void addTriple(std::vector<Cell>& row, const std::optional<Value>& c, const std::optional<Value>& t, ToCell cell)
{
    row.push_back(c ? cell(*c) : Cell{});
    row.push_back(t ? cell(*t) : Cell{});
    row.push_back(c && t ? cell(*t - *c) : Cell{});
}

template <typename Row, typename Field>
std::optional<Field> field(const std::optional<Row>& row, Field Row::*member)
{
    if (!row)
        return std::nullopt;
    return (*row).*member;
}

// A quantity's control, test and diff columns, with its unit.
void addTripleColumns(Table& table, const std::string& controlLabel, const std::string& testLabel, const TableColumn& q)
{
    table.columns.push_back({controlLabel + "_" + q.name, q.unit});
    table.columns.push_back({testLabel + "_" + q.name, q.unit});
    table.columns.push_back({"diff_" + q.name, q.unit});
}

} // namespace

Table compareTracesTable(const TraceComparison& result, const std::string& controlLabel, const std::string& testLabel)
{
    Table table;
    const std::string test = distinctTestLabel(controlLabel, testLabel, table);
    const std::string us = result.htaCompat ? "" : " (us)";  // HTA's names carry no unit
    table.columns = {result.shortNames ? "short_name" : "name",
                     controlLabel + "_counts",
                     micros(controlLabel + "_total_duration" + us),
                     test + "_counts",
                     micros(test + "_total_duration" + us),
                     "diff_counts",
                     micros("diff_duration" + us),
                     "counts_change_categories"};
    for (const OpDiffRow& row : result.rows) {
        if (!result.averaged()) {
            table.addRow({row.name, row.controlCount, microsOfNs(row.controlDurNs), row.testCount,
                          microsOfNs(row.testDurNs), row.testCount - row.controlCount,
                          microsOfNs(row.testDurNs - row.controlDurNs), std::string(1, row.change)});
            continue;
        }
        table.addRow({row.name, number(result.controlCount(row)), microsOfNs(result.controlDurNs(row)),
                      number(result.testCount(row)), microsOfNs(result.testDurNs(row)), number(result.diffCount(row)),
                      microsOfNs(result.diffDurNs(row)), std::string(1, row.change)});
    }
    addOutcome(table, result);
    return table;
}

std::string opsDiffJson(const OpsDiff& diff)
{
    const std::pair<const char*, const std::vector<std::string>*> lists[] = {
        {"added", &diff.added},         {"deleted", &diff.deleted},     {"increased", &diff.increased},
        {"decreased", &diff.decreased}, {"unchanged", &diff.unchanged},
    };
    std::string out = "{\n";
    bool firstList = true;
    for (const auto& [key, names] : lists) {
        out += firstList ? " " : ",\n ";
        firstList = false;
        appendPythonJsonString(out, key);
        out += ": [";
        if (names->empty()) {
            out += "]";
            continue;
        }
        for (size_t i = 0; i < names->size(); ++i) {
            out += i ? ",\n  " : "\n  ";
            appendPythonJsonString(out, (*names)[i]);
        }
        out += "\n ]";
    }
    out += "\n}";
    return out;
}

Table diffTemporalTable(const DiffSummary& summary, const std::string& controlLabel, const std::string& testLabel)
{
    Table table;
    const std::string test = distinctTestLabel(controlLabel, testLabel, table);
    table.columns = {"rank", "test_rank"};
    for (const TableColumn& q : {micros("idle_time(us)"), micros("compute_time(us)"), micros("non_compute_time(us)"),
                                 micros("kernel_time(us)"), percent("idle_time_pctg"), percent("compute_time_pctg"),
                                 percent("non_compute_time_pctg")})
        addTripleColumns(table, controlLabel, test, q);
    auto us = [](int64_t ns) { return microsOfNs(ns); };
    for (const RankDiff& r : summary.ranks) {
        std::vector<Cell> row = {int64_t{r.controlRank}, int64_t{r.testRank}};
        const auto& c = r.controlTemporal;
        const auto& t = r.testTemporal;
        addTriple(row, field(c, &TemporalBreakdownRow::idleNs), field(t, &TemporalBreakdownRow::idleNs), us);
        addTriple(row, field(c, &TemporalBreakdownRow::computeNs), field(t, &TemporalBreakdownRow::computeNs), us);
        addTriple(row, field(c, &TemporalBreakdownRow::nonComputeNs), field(t, &TemporalBreakdownRow::nonComputeNs), us);
        addTriple(row, field(c, &TemporalBreakdownRow::spanNs), field(t, &TemporalBreakdownRow::spanNs), us);
        addTriple(row, field(c, &TemporalBreakdownRow::idlePctg), field(t, &TemporalBreakdownRow::idlePctg), real);
        addTriple(row, field(c, &TemporalBreakdownRow::computePctg), field(t, &TemporalBreakdownRow::computePctg), real);
        addTriple(row, field(c, &TemporalBreakdownRow::nonComputePctg), field(t, &TemporalBreakdownRow::nonComputePctg),
                  real);
        table.addRow(std::move(row));
    }
    addOutcome(table, summary);
    return table;
}

Table diffOverlapTable(const DiffSummary& summary, const std::string& controlLabel, const std::string& testLabel)
{
    Table table;
    const std::string test = distinctTestLabel(controlLabel, testLabel, table);
    table.columns = {"rank", "test_rank"};
    for (const TableColumn& q : {micros("comm_time(us)"), percent("comp_comm_overlap_pctg")})
        addTripleColumns(table, controlLabel, test, q);
    for (const RankDiff& r : summary.ranks) {
        std::vector<Cell> row = {int64_t{r.controlRank}, int64_t{r.testRank}};
        addTriple(row, field(r.controlOverlap, &OverlapRow::communicationNs),
                  field(r.testOverlap, &OverlapRow::communicationNs), [](int64_t ns) { return microsOfNs(ns); });
        addTriple(row, field(r.controlOverlap, &OverlapRow::overlapPctg), field(r.testOverlap, &OverlapRow::overlapPctg),
                  real);
        table.addRow(std::move(row));
    }
    addOutcome(table, summary);
    return table;
}

Table diffKernelsTable(const DiffSummary& summary, const std::string& controlLabel, const std::string& testLabel)
{
    Table table;
    const std::string test = distinctTestLabel(controlLabel, testLabel, table);
    table.columns = {"rank", "test_rank", "name", "change"};
    for (const TableColumn& q : {TableColumn("count"), micros("total_time(us)"), micros("mean_time(us)")})
        addTripleColumns(table, controlLabel, test, q);
    table.columns.push_back(percent("diff_total_time_pctg"));
    for (const RankDiff& r : summary.ranks) {
        for (const KernelChange& k : r.kernels) {
            const char* change = k.controlCount == 0 ? "added"
                : k.testCount == 0                   ? "deleted"
                : k.deltaNs() > 0                    ? "slower"
                : k.deltaNs() < 0                    ? "faster"
                                                     : "same";
            table.addRow({int64_t{r.controlRank}, int64_t{r.testRank}, k.name, std::string(change), k.controlCount,
                          k.testCount, k.testCount - k.controlCount, microsOfNs(k.controlTotalNs),
                          microsOfNs(k.testTotalNs), microsOfNs(k.deltaNs()), microsOfNs(k.controlMeanNs()),
                          microsOfNs(k.testMeanNs()), microsOfNs(k.testMeanNs() - k.controlMeanNs()),
                          real(k.deltaPctg())});
        }
    }
    addOutcome(table, summary);
    return table;
}

} // namespace kscope
