#pragma once

// Comparing two runs (HTA's TraceDiff): which ops appeared, vanished, ran more or less often and
// took more or less time. The runs never share string ids: everything is joined on name text.

#include "analysis/core/overlap.h"
#include "analysis/core/temporalbreakdown.h"

#include "model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kscope {

// HTA's DeviceType. HTA's rule: CPU = no stream (args.stream == -1), GPU = any stream. The
// default mode asks the category instead: kernels, memcpy, memset, cuda_sync and GPU user
// annotations are GPU; a cpu_op or runtime call that carries a stream argument stays CPU.
enum class DiffDevice : uint8_t { All, Cpu, Gpu };
const char* toString(DiffDevice device);  // "ALL", "CPU", "GPU"

struct TraceDiffOptions {
    bool htaCompat = false;   // HTA's selection rules and its errors (see tracediff.cpp)
    bool shortNames = false;  // group by HTA's shorten_name (shortenKernelName) instead of the name
    DiffDevice device = DiffDevice::All;
    // Ranks and ProfilerStep numbers of each run; several are summed, as HTA does with lists.
    // Empty: the first rank and the first step of that run (HTA's defaults).
    std::vector<int> controlRanks;
    std::vector<int> testRanks;
    std::vector<int> controlSteps;
    std::vector<int> testSteps;
    // Beyond HTA: every rank present in both runs (instead of the rank lists) and every step
    // present in both runs (instead of the step lists); values then become averages per rank
    // and step, so one noisy step does not mislead.
    bool allRanks = false;
    bool allSteps = false;
};

// One name of the outer join. Sums over the selection; TraceComparison::perUnit() averages.
struct OpDiffRow {
    std::string name;  // the name, or the short name with TraceDiffOptions::shortNames
    int64_t controlCount = 0;
    int64_t controlDurNs = 0;
    int64_t testCount = 0;
    int64_t testDurNs = 0;
    // HTA's counts_change_categories on the (averaged) counts: '+' more often in test, '-' less
    // often, '=' as often. Exact: the averages are compared by cross-multiplication.
    char change = '=';
};

struct TraceComparison {
    // HTA's row order: control's names sorted (byte order, which is Python's code-point order for
    // UTF-8), then the names only test has, sorted.
    std::vector<OpDiffRow> rows;
    bool shortNames = false;
    bool htaCompat = false;
    // How many rank x step pairs each side's sums cover: 1 for HTA's comparison; with allRanks or
    // allSteps the values are divided by these (per rank and step averages).
    int64_t controlUnits = 1;
    int64_t testUnits = 1;
    // What was compared. Empty step lists: the whole traces (a run without ProfilerStep).
    std::vector<int> controlRanks;
    std::vector<int> testRanks;
    std::vector<int> controlSteps;
    std::vector<int> testSteps;
    std::string error;  // set when there is no result (rows empty)
    std::vector<std::string> notes;

    bool averaged() const { return controlUnits != 1 || testUnits != 1; }
    double controlCount(const OpDiffRow& row) const { return perUnit(row.controlCount, controlUnits); }
    double testCount(const OpDiffRow& row) const { return perUnit(row.testCount, testUnits); }
    double controlDurNs(const OpDiffRow& row) const { return perUnit(row.controlDurNs, controlUnits); }
    double testDurNs(const OpDiffRow& row) const { return perUnit(row.testDurNs, testUnits); }
    double diffCount(const OpDiffRow& row) const { return testCount(row) - controlCount(row); }
    double diffDurNs(const OpDiffRow& row) const { return testDurNs(row) - controlDurNs(row); }
    static double perUnit(int64_t sum, int64_t units)
    {
        return units == 1 ? static_cast<double>(sum) : static_cast<double>(sum) / static_cast<double>(units);
    }
};

// HTA's TraceDiff.compare_traces: count and total duration per name, outer-joined (missing = 0),
// diff = test - control. Events: complete events with a name, minus the profiler's own span.
// For HTA's numbers load both runs with LoadOptions{.htaCompat = true, .includeLastStep = true}
// (its LabeledTrace rounds timestamps but neither aligns nor trims the last step) and set
// options.htaCompat; a requested rank or step a run lacks is an error in both modes.
TraceComparison compareTraces(const Run& control, const Run& test, const TraceDiffOptions& options);

// HTA's TraceDiff.ops_diff, in the comparison's row order: added (control 0, test > 0), deleted
// (the reverse), and among names in both increased / decreased / unchanged by the count's change.
// HTA's ops_diff always uses full names: build the comparison without shortNames to match it.
struct OpsDiff {
    std::vector<std::string> added;
    std::vector<std::string> deleted;
    std::vector<std::string> increased;
    std::vector<std::string> decreased;
    std::vector<std::string> unchanged;
    std::string error;
    std::vector<std::string> notes;
};
OpsDiff opsDiff(const TraceComparison& comparison);

// Rank numbers and ProfilerStep numbers of a run, sorted, without duplicates.
std::vector<int> runRanks(const Run& run);
std::vector<int> runSteps(const Run& run);
// A note when the runs come from different GPU vendors (their kernel names cannot match), else "".
std::string deviceMismatchNote(const Run& control, const Run& test);

// ---- Beyond HTA: a two-run summary per rank ----

struct DiffSummaryOptions {
    bool htaCompat = false;  // passed to the temporal breakdown and overlap analyses
    // When the runs' step sets differ, compare only the steps both have (each run cut to them).
    bool commonStepsOnly = true;
    size_t topKernels = 20;  // per rank, by absolute change of total time
};

// One GPU kernel name (any GPU activity: kernels, memcpy, memset, stream syncs) on one rank.
struct KernelChange {
    std::string name;
    int64_t controlCount = 0;
    int64_t testCount = 0;
    int64_t controlTotalNs = 0;
    int64_t testTotalNs = 0;

    int64_t deltaNs() const { return testTotalNs - controlTotalNs; }
    double controlMeanNs() const;  // NaN without instances
    double testMeanNs() const;
    double deltaPctg() const;  // 100 * delta / control total; NaN when control has none
};

// One rank pair: the same rank number in both runs, or paired by position when the runs share no
// rank number. A side's breakdown is empty when that analysis had no row for the rank.
struct RankDiff {
    int controlRank = -1;
    int testRank = -1;
    std::optional<TemporalBreakdownRow> controlTemporal;
    std::optional<TemporalBreakdownRow> testTemporal;
    std::optional<OverlapRow> controlOverlap;
    std::optional<OverlapRow> testOverlap;
    std::vector<KernelChange> kernels;  // top by |deltaNs|, ties by name
};

struct DiffSummary {
    std::vector<RankDiff> ranks;
    std::vector<int> controlOnlyRanks;
    std::vector<int> testOnlyRanks;
    // The steps compared when the runs were cut to their common steps; empty: whole runs.
    std::vector<int> steps;
    std::vector<int> controlOnlySteps;
    std::vector<int> testOnlySteps;
    std::string error;
    std::vector<std::string> notes;
};

DiffSummary diffSummary(const Run& control, const Run& test, const DiffSummaryOptions& options = {});

// The comparison's headline: the temporal breakdowns of every rank pair that has both, summed
// (rank -1), and the pair whose GPU idle time changed most. What a reader wants first: did the
// GPU idle less, compute more, and where.
struct TemporalChange {
    int rankPairs = 0;  // pairs with both breakdowns; 0: no headline
    TemporalBreakdownRow control;
    TemporalBreakdownRow test;
    int largestIdleChangeControlRank = -1;
    int largestIdleChangeTestRank = -1;
    int64_t largestIdleChangeNs = 0;  // test - control on that pair
};
TemporalChange temporalChange(const DiffSummary& summary);

} // namespace kscope
