#pragma once

// The GUI's "Export as CSV": the same tables, columns and number format as kinetoscope-cli
// (app/cli/table.h is Qt-free and compiled into kscope_ui for this).

#include "cli/table.h"

#include <QString>

namespace kscope {

struct Run;
struct TemporalBreakdown;
struct KernelBreakdown;
struct KernelDistributions;
struct IdleTime;
struct IdleHistogram;
struct Overlap;

namespace csv {

cli::Table temporal(const TemporalBreakdown& result);
cli::Table kernelTypes(const KernelBreakdown& result);
cli::Table kernels(const Run& run, const KernelBreakdown& result);
cli::Table kernelDistribution(const Run& run, const KernelDistributions& result);
cli::Table idle(const IdleTime& result);
cli::Table idleHistogram(const IdleHistogram& result);
cli::Table overlap(const Overlap& result);
cli::Table importIssues(const Run& run);

bool write(const cli::Table& table, const QString& path);

} // namespace csv
} // namespace kscope
