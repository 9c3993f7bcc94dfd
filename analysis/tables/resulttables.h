#pragma once

// Each analysis result as a table with HTA's column names and units (microseconds): one
// definition for kinetoscope-cli's output and the GUI's "Export as CSV".

#include "analysis/resulttable.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct Run;
struct TemporalBreakdown;
struct KernelBreakdown;
struct KernelDistributions;
struct IdleTime;
struct IdleHistogram;
struct Overlap;

// Whole microseconds stay integers (HTA's sums); anything finer becomes a decimal.
inline Cell microsCell(int64_t ns)
{
    if (ns % 1000 == 0)
        return Cell{ns / 1000};
    return Cell{static_cast<double>(ns) / 1000.0};
}

inline Cell microsCell(double ns)
{
    return std::isfinite(ns) ? Cell{ns / 1000.0} : Cell{};
}

// NaN becomes an empty cell, as pandas writes it.
inline Cell numberCell(double value)
{
    return std::isfinite(value) ? Cell{value} : Cell{};
}

// Every builder also carries the analysis' notes, and "no result: <why>" when it had none.
Table temporalTable(const TemporalBreakdown& result);
Table kernelTypesTable(const KernelBreakdown& result);
Table kernelsTable(const Run& run, const KernelBreakdown& result);
Table kernelDistributionTable(const Run& run, const KernelDistributions& result);
Table idleTable(const IdleTime& result);
Table idleStatsTable(const IdleTime& result);
Table idleHistogramTable(const IdleHistogram& result);
// The longest gaps (IdleHistogram::longest): where each starts (since the run's first event), how
// long it lasts, its cause and the GPU op that ended it.
Table idleGapsTable(const Run& run, const IdleHistogram& result);
Table overlapTable(const Overlap& result);
Table importIssuesTable(const Run& run);

// What the load left out or cut short, as notes: each partial rank (file, reason, byte offset,
// "of the inflated stream" for gzip files), each file that gave no rank, each *.json skipped as
// plainly no trace.
std::vector<std::string> loadOutcomeNotes(const Run& run);
// Any table computed from `run`, marked with that outcome: a "partial" column (1 on the rows of
// a rank read only up to an error, else 0) on tables with a "rank" column, always in the
// default mode and in HTA's mode only when a rank is partial (HTA's columns stay exact
// otherwise), and loadOutcomeNotes() before the analysis' own notes.
Table withLoadOutcome(Table table, const Run& run);

} // namespace kscope
