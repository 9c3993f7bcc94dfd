#include "analysis/findings/findings.h"

#include "analysis/findings/findingrules.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/rankchoice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace kscope {

namespace {

using namespace finding_rules;

// The per-rank rules fire on many ranks at once in a synchronous job (all of them wait in the
// same collectives): one finding per rule then, on the ranks it fired on, with the evidence of
// the rank with the most at stake (each number still that rank's, as its analysis gives it) and
// the highest severity among them. A finding about one rank keeps its id ("rule/rankN"); about
// several, the rule's name.
void groupRanks(std::vector<Finding>& findings, int ranksInRun)
{
    std::vector<Finding> out;
    std::map<std::string, size_t> grouped;  // rule -> its finding in out
    std::map<std::string, int> worstRank;   // rule -> the rank with the most at stake
    for (Finding& f : findings) {
        const bool rankScoped = !f.traceProblem && f.ranks.size() == 1 && f.id == rankId(f.rule, f.ranks.front());
        if (!rankScoped) {
            out.push_back(std::move(f));
            continue;
        }
        const auto [it, first] = grouped.try_emplace(f.rule, out.size());
        if (first) {
            worstRank[f.rule] = f.ranks.front();
            out.push_back(std::move(f));
            continue;
        }
        Finding& g = out[it->second];
        std::vector<int> ranks = g.ranks;
        ranks.push_back(f.ranks.front());
        std::vector<int> steps = g.steps;
        steps.insert(steps.end(), f.steps.begin(), f.steps.end());
        const FindingSeverity severity = std::max(g.severity, f.severity);
        if (f.timeAtStakeUs > g.timeAtStakeUs) {
            worstRank[f.rule] = f.ranks.front();
            g = std::move(f);
        }
        g.ranks = std::move(ranks);
        g.steps = std::move(steps);
        g.severity = severity;
    }
    for (Finding& f : out) {
        if (f.traceProblem || f.ranks.size() < 2 || grouped.find(f.rule) == grouped.end())
            continue;
        const int worst = worstRank[f.rule];
        for (FindingEvidence& e : f.evidence)
            e.rank = worst;
        std::sort(f.ranks.begin(), f.ranks.end());
        std::sort(f.steps.begin(), f.steps.end());
        f.steps.erase(std::unique(f.steps.begin(), f.steps.end()), f.steps.end());
        const std::string own = rankLabel(worst) + ": ";
        const std::string what = f.title.starts_with(own) ? f.title.substr(own.size()) : f.title;
        f.id = f.rule;
        f.title = "ranks " + numberRanges(f.ranks) + " (" + std::to_string(f.ranks.size()) + " of "
            + std::to_string(ranksInRun) + "; the most at stake on " + rankLabel(worst) + "): " + what;
        f.detail = rankLabel(worst) + ": " + f.detail;
        f.evidence.push_back({"ranks_affected", static_cast<double>(f.ranks.size()), "count", "findings", -1});
    }
    findings = std::move(out);
}

// The span of one step over the given ranks (every rank when none), host and GPU side together.
void placeOnTimeline(Finding& f, const ProfilerSteps& steps)
{
    const auto concerned = [&f](const StepSpan& span) {
        return f.ranks.empty() || std::find(f.ranks.begin(), f.ranks.end(), span.rank) != f.ranks.end();
    };
    int step = f.steps.empty() ? -1 : *std::min_element(f.steps.begin(), f.steps.end());
    if (step < 0)
        for (const StepSpan& span : steps.spans)
            if (concerned(span) && (step < 0 || span.step < step))
                step = span.step;
    bool any = false;
    for (const StepSpan& span : steps.spans) {
        if (span.step != step || !concerned(span))
            continue;
        const int64_t start = span.hasGpu() ? std::min(span.cpuStartNs, span.gpuStartNs) : span.cpuStartNs;
        const int64_t end = span.hasGpu() ? std::max(span.cpuEndNs, span.gpuEndNs) : span.cpuEndNs;
        f.windowStartNs = any ? std::min(f.windowStartNs, start) : start;
        f.windowEndNs = any ? std::max(f.windowEndNs, end) : end;
        any = true;
    }
}

} // namespace

std::string numberRanges(const std::vector<int>& values)
{
    std::string text;
    for (size_t i = 0; i < values.size();) {
        size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1)
            ++j;
        text += (text.empty() ? "" : ", ") + std::to_string(values[i]);
        if (j > i)
            text += (j == i + 1 ? ", " : "-") + std::to_string(values[j]);
        i = j + 1;
    }
    return text;
}

const char* toString(FindingSeverity severity)
{
    switch (severity) {
    case FindingSeverity::Critical:
        return "critical";
    case FindingSeverity::Warning:
        return "warning";
    case FindingSeverity::Info:
        break;
    }
    return "info";
}

bool parseFindingSeverity(std::string_view text, FindingSeverity& severity)
{
    for (const FindingSeverity s : {FindingSeverity::Info, FindingSeverity::Warning, FindingSeverity::Critical})
        if (text == toString(s)) {
            severity = s;
            return true;
        }
    return false;
}

FindingsInputOptions findingsInputOptions(bool htaCompat, bool hasProfilerSteps)
{
    FindingsInputOptions o;
    o.memory.perOp = false;
    o.memory.topUnfreed = 0;
    o.criticalPath.htaCompat = htaCompat;
    if (!hasProfilerSteps)
        o.criticalPath.annotation = std::string();  // no step to bound the window: the whole trace
    o.patterns.htaCompat = htaCompat;
    o.temporal.htaCompat = htaCompat;
    o.idle.htaCompat = htaCompat;
    o.overlap.htaCompat = htaCompat;
    o.queue.htaCompat = htaCompat;
    o.launch.htaCompat = htaCompat;
    o.collectives.htaCompat = htaCompat;
    return o;
}

FindingsInputs findingsInputs(const Run& run)
{
    const bool hasSteps = std::any_of(run.ranks.begin(), run.ranks.end(), [](const RankTrace& r) { return !r.steps.empty(); });
    const FindingsInputOptions o = findingsInputOptions(run.htaCompat, hasSteps);
    FindingsInputs in;
    in.health = std::make_shared<const TraceHealth>(traceHealth(run));
    in.temporal = std::make_shared<const TemporalBreakdown>(temporalBreakdown(run, o.temporal));
    in.idle = std::make_shared<const IdleTime>(idleTimeBreakdown(run, o.idle));
    in.idleCauses = std::make_shared<const IdleCauses>(idleCauses(run, o.idleCauses));
    in.overlap = std::make_shared<const Overlap>(commCompOverlap(run, o.overlap));
    in.queue = std::make_shared<const QueueLength>(queueLength(run, o.queue));
    in.launch = std::make_shared<const LaunchStats>(kernelLaunchStats(run, o.launch));
    in.steps = std::make_shared<const ProfilerSteps>(profilerSteps(run));
    in.collectives = std::make_shared<const Collectives>(matchCollectives(run, o.collectives));
    in.syncs = std::make_shared<const HostSyncs>(hostSyncs(run));
    in.memory = std::make_shared<const MemoryTimeline>(memoryTimeline(run, o.memory));
    in.criticalPaths = std::make_shared<const RankPathSummaries>(criticalPathOfEachRank(run, o.criticalPath));
    in.patterns = std::make_shared<const KernelPatterns>(frequentKernelSequences(run, o.patterns));
    in.tensorCores = std::make_shared<const std::vector<KernelTensorCoreRow>>(kernelTensorCores(run));
    in.strings = &run.strings;
    return in;
}

Findings evaluateFindings(const FindingsInputs& in, const FindingsOptions& options)
{
    Findings result;
    result.ranks = in.health->ranksChecked;
    const FindingsThresholds& th = options.thresholds;
    traceProblems(in, result.findings);
    launchBound(in, th, result.findings);
    exposedCommunication(in, th, result.findings);
    slowRanksAndSteps(in, th, result.findings);
    collectiveStraggler(in, th, result.findings);
    syncsInStep(in, th, result.findings);
    memoryNearCapacity(in, th, result.findings);
    memoryGrowth(in, th, result.findings);
    hostBoundCriticalPath(in, th, result.findings);
    fusionCandidates(in, th, result.findings);
    tensorCoreShare(in, th, result.findings);
    groupRanks(result.findings, result.ranks);
    // Ranks waiting for a straggler inside their collectives show it as exposed communication:
    // say so, so that the straggler is looked at first.
    const auto straggler = std::find_if(result.findings.begin(), result.findings.end(),
                                        [](const Finding& f) { return f.rule == "collective_straggler"; });
    if (straggler != result.findings.end())
        for (Finding& f : result.findings)
            if (f.rule == "exposed_communication")
                f.detail += "; part of it is the wait for " + rankLabel(straggler->ranks.front()) + " in the collectives (see "
                    + straggler->id + ")";
    for (Finding& f : result.findings)
        placeOnTimeline(f, *in.steps);
    std::stable_sort(result.findings.begin(), result.findings.end(), [](const Finding& a, const Finding& b) {
        if (a.traceProblem != b.traceProblem)
            return a.traceProblem;
        if (a.timeAtStakeUs != b.timeAtStakeUs)
            return a.timeAtStakeUs > b.timeAtStakeUs;
        return a.id < b.id;
    });
    // Rules that could not look: say so rather than report nothing.
    const std::pair<const char*, const std::string*> inputs[] = {
        {"temporal", &in.temporal->error}, {"idle", &in.idle->error},   {"overlap", &in.overlap->error},
        {"queue", &in.queue->error},       {"launch-stats", &in.launch->error}, {"steps", &in.steps->error},
        {"idle-causes", &in.idleCauses->error}, {"collectives", &in.collectives->error},
    };
    for (const auto& [source, error] : inputs)
        if (!error->empty() && (result.ranks > 1 || error != &in.collectives->error))
            result.notes.push_back(std::string("rules reading ") + source + " were not evaluated: " + *error);
    if (in.memory && !in.memory->error.empty())
        result.notes.push_back("rules reading memory were not evaluated: " + in.memory->error);
    if (in.patterns && !in.patterns->error.empty())
        result.notes.push_back("rules reading patterns were not evaluated: " + in.patterns->error);
    if (in.criticalPaths) {
        const auto& paths = in.criticalPaths->ranks;
        const auto failed = std::count_if(paths.begin(), paths.end(), [](const auto& p) { return !p.error.empty(); });
        const auto first = std::find_if(paths.begin(), paths.end(), [](const auto& p) { return !p.error.empty(); });
        if (failed > 0)
            result.notes.push_back("rules reading critical-path were not evaluated on " + std::to_string(failed) + " of "
                                   + std::to_string(paths.size()) + " ranks (" + rankLabel(first->rank) + ": " + first->error + ")");
    }
    if (in.temporal->rows.empty() && in.health->problems.empty())
        result.error = in.temporal->error.empty() ? "the run has no GPU activity to judge" : in.temporal->error;
    return result;
}

const char* toString(FindingChange change)
{
    switch (change) {
    case FindingChange::Appeared:
        return "appeared";
    case FindingChange::Disappeared:
        return "disappeared";
    case FindingChange::SeverityChanged:
        return "severity_changed";
    case FindingChange::Unchanged:
        break;
    }
    return "unchanged";
}

namespace {

std::string subjectOf(const Finding& f)
{
    return f.traceProblem || f.rule == "slow_step" ? f.id : f.rule;
}

} // namespace

std::vector<FindingDiffRow> diffFindings(const Findings& control, const Findings& test)
{
    std::map<std::string, FindingDiffRow> bySubject;
    for (const Finding& f : control.findings)
        bySubject[subjectOf(f)].control = &f;
    for (const Finding& f : test.findings)
        bySubject[subjectOf(f)].test = &f;
    std::vector<FindingDiffRow> rows;
    for (auto& [subject, row] : bySubject) {
        row.subject = subject;
        row.change = !row.control                                 ? FindingChange::Appeared
                     : !row.test                                  ? FindingChange::Disappeared
                     : row.control->severity != row.test->severity ? FindingChange::SeverityChanged
                                                                  : FindingChange::Unchanged;
        rows.push_back(row);
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const FindingDiffRow& a, const FindingDiffRow& b) { return a.change < b.change; });
    return rows;
}

bool anyAtLeast(const Findings& result, FindingSeverity severity)
{
    return std::any_of(result.findings.begin(), result.findings.end(),
                       [severity](const Finding& f) { return f.severity >= severity; });
}

} // namespace kscope
