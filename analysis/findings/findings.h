#pragma once

// Findings: answers, not only tables. Each rule is a pure function of analysis results (never of
// the events themselves, so a finding's numbers are the numbers of the analysis it cites), with a
// threshold, a severity, the evidence, the ranks and steps concerned, the view that shows them
// and a suggestion a practitioner would give. The inputs are the analyses' results, shared: the
// CLI computes them (findingsInputs), the GUI hands in what its session already holds for the
// other views (computed with findingsInputOptions(), so the numbers are the ones they show).

#include "analysis/collectives/collectives.h"
#include "analysis/core/idlecauses.h"
#include "analysis/core/idletime.h"
#include "analysis/core/overlap.h"
#include "analysis/core/temporalbreakdown.h"
#include "analysis/core/tracehealth.h"
#include "analysis/criticalpath/criticalpath.h"
#include "analysis/launch/launchstats.h"
#include "analysis/launch/queuelength.h"
#include "analysis/operators/memory.h"
#include "analysis/operators/operators.h"
#include "analysis/operators/syncs.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/patterns/steps.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kscope {

enum class FindingSeverity : uint8_t { Info, Warning, Critical };
const char* toString(FindingSeverity severity);  // "info", "warning", "critical"
// "info", "warning", "critical" -> the severity; false for anything else.
bool parseFindingSeverity(std::string_view text, FindingSeverity& severity);

// One number behind a finding, named as the analysis it comes from names it.
struct FindingEvidence {
    std::string name;    // e.g. "gpu_idle_pctg"
    double value = 0.0;
    std::string unit;    // "percent", "us", "count", "ratio"
    std::string source;  // the command that computes it: "temporal", "idle", "queue", ...
    int rank = -1;       // in a finding about several ranks, the rank whose numbers these are; else -1
};

struct Finding {
    std::string rule;      // e.g. "launch_bound": stable, documented in the README
    // Rule and what it concerns, stable across runs: "launch_bound/rank3" about one rank,
    // "launch_bound" about several (one finding per rule, the most at stake's evidence), "slow_step/step12".
    std::string id;
    FindingSeverity severity = FindingSeverity::Info;
    std::string title;     // one line a user reads first
    std::string detail;    // the evidence in words
    std::string suggestion;
    std::vector<FindingEvidence> evidence;
    std::vector<int> ranks;  // rank numbers concerned (empty: the run)
    std::vector<int> steps;  // ProfilerStep numbers concerned (empty: every step)
    std::string view;        // the GUI view that shows the evidence (its registry id): "idle", "overlap", ...
    std::string command;     // the CLI command that does: "idle-causes", "overlap", ...
    double timeAtStakeUs = 0.0;  // what fixing it could save at most, per rank; orders the list
    bool traceProblem = false;   // about the trace, not the job: listed first
    // Where the timeline shows it (trace ns, the run's clock): the span of its step on its ranks
    // (its first step when it names several; else its ranks' first step). Equal: nowhere in
    // particular (a run without steps).
    int64_t windowStartNs = 0, windowEndNs = 0;
};

// The thresholds of every rule (README "Findings" says why each is what it is).
struct FindingsThresholds {
    double launchBoundIdlePctg = 20.0;         // GPU idle share of the rank's GPU span
    double launchBoundHostWaitShare = 0.5;     // host wait's share of the idle time
    double launchBoundQueueMean = 2.0;         // time-weighted mean queue length on the busiest stream
    double launchBoundMedianKernelUs = 50.0;   // median GPU op duration
    double exposedCommMinSharePctg = 10.0;     // communication's share of the GPU span
    double exposedCommMaxOverlapPctg = 50.0;   // overlap below this
    double exposedCommCriticalPctg = 25.0;     // exposed communication above this share: critical
    double slowRankPctg = 5.0;                 // a rank's median step time above the run's median
    double slowStepPctg = 10.0;                // a step's median time above the run's median
    double collectiveStragglerShare = 0.5;     // last to arrive in at least this share of instances
    double collectiveStragglerStepPctg = 2.0;  // and the others' wait per step at least this share of a step
    double syncIdleMinStepPctg = 2.0;          // GPU idle caused by host syncs, share of the rank's step time
    double memoryNearCapacityPctg = 90.0;      // peak reserved (else allocated) share of the device's memory
    double memoryCriticalPctg = 97.0;          // and above this: critical
    double memoryGrowthPctgOfPeak = 2.0;       // every step ends with more allocated, by this share of the peak over the steps
    int memoryGrowthMinSteps = 3;              // over at least this many steps
    double hostBoundPathPctg = 50.0;           // cpu_bound + data_loading share of a rank's critical path
    double fusionMaxMeanKernelUs = 20.0;       // a sequence's kernels this short on average
    int fusionMinKernels = 4;                  // at least this many kernels per occurrence
    int64_t fusionMinOccurrences = 10;
    double fusionMinGpuSharePctg = 2.0;        // the sequence's GPU time, share of the rank's GPU span
    double matmulMinSharePctg = 10.0;          // matmul/conv kernels' share of the rank's kernel time
    double tensorCoreMinSharePctg = 50.0;      // Tensor Core kernels' share of that matmul/conv time
};

struct FindingsOptions {
    FindingsThresholds thresholds;
};

// The options each input is computed with: the mode's, every rank, the analyses' defaults.
struct FindingsInputOptions {
    TemporalOptions temporal;
    IdleTimeOptions idle;
    IdleCausesOptions idleCauses;
    OverlapOptions overlap;
    QueueLengthOptions queue;
    LaunchStatsOptions launch;
    CollectiveOptions collectives;
    MemoryOptions memory;              // no per-op attribution: the devices and step peaks
    CriticalPathOptions criticalPath;  // every rank's path in the first step (the whole trace without steps)
    KernelPatternOptions patterns;     // the suggested operator's sequences on every rank
};
// `hasProfilerSteps`: some rank has a ProfilerStep (else the critical path's window is the whole trace).
FindingsInputOptions findingsInputOptions(bool htaCompat, bool hasProfilerSteps);

// The analysis results the rules read, each as its analysis returned it (never null once built).
struct FindingsInputs {
    std::shared_ptr<const TraceHealth> health;
    std::shared_ptr<const TemporalBreakdown> temporal;
    std::shared_ptr<const IdleTime> idle;
    std::shared_ptr<const IdleCauses> idleCauses;
    std::shared_ptr<const Overlap> overlap;
    std::shared_ptr<const QueueLength> queue;
    std::shared_ptr<const LaunchStats> launch;
    std::shared_ptr<const ProfilerSteps> steps;
    std::shared_ptr<const Collectives> collectives;
    std::shared_ptr<const HostSyncs> syncs;
    std::shared_ptr<const MemoryTimeline> memory;
    std::shared_ptr<const RankPathSummaries> criticalPaths;
    std::shared_ptr<const KernelPatterns> patterns;
    std::shared_ptr<const std::vector<KernelTensorCoreRow>> tensorCores;
    // The string table the results' StringIds (kernel and operator names) point into: the run's
    // they were computed on, which must outlive evaluateFindings. Null: findings name no kernel.
    const StringPool* strings = nullptr;
};
// Every input of `run`, computed with findingsInputOptions(run.htaCompat).
FindingsInputs findingsInputs(const Run& run);

struct Findings {
    std::vector<Finding> findings;  // trace problems first, then by time at stake, then id
    int ranks = 0;                  // ranks the inputs cover
    std::string error;
    std::vector<std::string> notes;
};

Findings evaluateFindings(const FindingsInputs& inputs, const FindingsOptions& options = {});
inline Findings findings(const Run& run, const FindingsOptions& options = {})
{
    return evaluateFindings(findingsInputs(run), options);
}

// What changed between the findings of two runs (diff-summary). Findings are matched by what they
// are about: the rule for the per-rank rules (one rank's "rule/rankN" and several ranks' "rule" are
// one subject), the id for trace problems (the check) and slow steps (the step).
enum class FindingChange : uint8_t { Appeared, Disappeared, SeverityChanged, Unchanged };
const char* toString(FindingChange change);  // "appeared", "disappeared", "severity_changed", "unchanged"

struct FindingDiffRow {
    FindingChange change = FindingChange::Unchanged;
    std::string subject;           // the key findings are matched by
    const Finding* control = nullptr;  // into the control findings; null when it appeared
    const Finding* test = nullptr;     // into the test findings; null when it disappeared
};
// Appeared first, then disappeared, severity changed and unchanged; each by subject. The rows
// point into the two results, which must outlive them.
std::vector<FindingDiffRow> diffFindings(const Findings& control, const Findings& test);

// "0-7, 9, 12, 13": rank or step numbers (ascending) for a reader.
std::string numberRanges(const std::vector<int>& values);

// Whether any finding is at least as severe as `severity` (what --fail-on gates on).
bool anyAtLeast(const Findings& result, FindingSeverity severity);

} // namespace kscope
