#include "analysis/findings/findingrules.h"

#include "analysis/findings/findingtext.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/core/kerneltype.h"
#include "analysis/rankchoice.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace kscope::finding_rules {

std::string rankId(const std::string& rule, int rank) { return rule + "/rank" + std::to_string(rank); }

namespace {

// What to do about each trace problem, in the words of someone who records traces.
std::string traceProblemSuggestion(HealthCheck check)
{
    switch (check) {
    case HealthCheck::FileFailed:
    case HealthCheck::FilePartial:
        return "Re-copy or re-record the file: a trace cut short (a job killed while writing, a full disk) leaves "
               "that rank out of every cross-rank answer.";
    case HealthCheck::BadEvents:
        return "The profiler wrote events the loader refused; the counts by reason are in `health`. Upgrade PyTorch "
               "if they come from a known Kineto bug.";
    case HealthCheck::GpuOpWithoutLaunch:
    case HealthCheck::LaunchWithoutGpuOp:
        return "Start the profiler's active window a step earlier (schedule warmup) so every kernel's launch and "
               "every launch's kernel fall inside it.";
    case HealthCheck::ClockSkew:
        return "The ranks' clocks disagree by more than the collective waits: read cross-rank times with the "
               "offsets of `kinetoscope-cli clock-skew` (the timeline's Align rank clocks), or synchronise the "
               "hosts' clocks (chrony, PTP).";
    case HealthCheck::StepCountDiffers:
        return "Profile the same steps on every rank (one torch.profiler.schedule for all ranks).";
    default:
        return "See `kinetoscope-cli health` for the example and the analyses it degrades.";
    }
}

} // namespace

void traceProblems(const FindingsInputs& in, std::vector<Finding>& out)
{
    std::map<HealthCheck, Finding> byCheck;
    for (const HealthProblem& p : in.health->problems) {
        const HealthSeverity severity = severityOf(p.check);
        if (severity == HealthSeverity::Info)
            continue;
        auto [it, inserted] = byCheck.try_emplace(p.check);
        Finding& f = it->second;
        if (inserted) {
            f.rule = "trace_problem";
            f.id = "trace_problem/" + std::string(toString(p.check));
            f.severity = severity == HealthSeverity::Error ? FindingSeverity::Critical : FindingSeverity::Warning;
            f.view = "health";
            f.command = "health";
            f.traceProblem = true;
            f.suggestion = traceProblemSuggestion(p.check);
            f.evidence.push_back({"count", 0.0, "count", "health"});
            f.detail = "e.g. " + p.example + "; degrades " + affectedAnalyses(p.check);
        }
        f.evidence[0].value += static_cast<double>(p.count);
        if (p.rank >= 0 && std::find(f.ranks.begin(), f.ranks.end(), p.rank) == f.ranks.end())
            f.ranks.push_back(p.rank);
    }
    for (auto& [check, f] : byCheck) {
        const size_t ranks = f.ranks.size();
        f.title = std::string("Trace problem: ") + toString(check) + " ("
            + (ranks == 0 ? std::string("files without a rank")
                          : std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks"))
            + ")";
        out.push_back(std::move(f));
    }
}

void launchBound(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    for (const TemporalBreakdownRow& row : in.temporal->rows) {
        int64_t idle = 0, hostWait = 0;
        for (const IdleTimeRow& r : in.idle->rows)
            if (r.rank == row.rank) {
                idle += r.idleNs;
                hostWait += r.category == IdleCategory::HostWait ? r.idleNs : 0;
            }
        const QueueStats* busiest = nullptr;
        for (const QueueStats& q : in.queue->stats)
            if (q.rank == row.rank && (!busiest || q.count > busiest->count))
                busiest = &q;
        std::vector<double> durations;
        for (const RankLaunchStats& r : in.launch->ranks)
            if (r.rank == row.rank)
                for (const KernelLaunch& l : r.launches)
                    durations.push_back(us(l.gpuDurationNs));
        if (idle <= 0 || !busiest || durations.empty())
            continue;
        const double hostShare = static_cast<double>(hostWait) / static_cast<double>(idle);
        const double medianUs = median(durations);
        const double queueMean = std::isnan(busiest->timeWeightedMean) ? busiest->mean : busiest->timeWeightedMean;
        if (row.idlePctg < th.launchBoundIdlePctg || hostShare < th.launchBoundHostWaitShare
            || queueMean > th.launchBoundQueueMean || medianUs > th.launchBoundMedianKernelUs)
            continue;
        Finding f;
        f.rule = "launch_bound";
        f.id = rankId(f.rule, row.rank);
        f.severity = row.idlePctg >= 2 * th.launchBoundIdlePctg ? FindingSeverity::Critical : FindingSeverity::Warning;
        f.title = rankLabel(row.rank) + ": launch-bound, the GPU idles " + fixed(row.idlePctg, 1)
            + "% of the time, mostly waiting for the host";
        f.detail = fixed(hostShare * 100.0, 0) + "% of the idle time is host wait, the queue on stream "
            + std::to_string(busiest->stream) + " holds " + fixed(queueMean, 2) + " ops on average, and the median GPU op runs "
            + duration(medianUs);
        f.suggestion = "The GPU waits for the CPU to launch work. Capture the step in a CUDA graph (torch.cuda.graphs, "
                       "or torch.compile(mode=\"reduce-overhead\")), fuse small kernels with torch.compile, raise the "
                       "batch size per launch, and take host syncs (.item(), .cpu(), print of tensors) out of the step.";
        f.evidence = {{"gpu_idle_pctg", row.idlePctg, "percent", "temporal"},
                      {"host_wait_share", hostShare, "ratio", "idle"},
                      {"queue_length_time_weighted_mean", queueMean, "count", "queue"},
                      {"median_gpu_op_duration", medianUs, "us", "launch-stats"}};
        f.ranks = {row.rank};
        f.view = "idle";
        f.command = "idle";
        f.timeAtStakeUs = us(hostWait);
        out.push_back(std::move(f));
    }
}

void exposedCommunication(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    for (const OverlapRow& row : in.overlap->rows) {
        if (!row.hasCommunication)
            continue;
        const auto temporal = std::find_if(in.temporal->rows.begin(), in.temporal->rows.end(),
                                           [&](const TemporalBreakdownRow& t) { return t.rank == row.rank; });
        if (temporal == in.temporal->rows.end() || temporal->spanNs <= 0)
            continue;
        const double span = static_cast<double>(temporal->spanNs);
        const double commShare = 100.0 * static_cast<double>(row.communicationNs) / span;
        const int64_t exposedNs = row.communicationNs - row.overlapNs;
        const double exposedShare = 100.0 * static_cast<double>(exposedNs) / span;
        if (commShare < th.exposedCommMinSharePctg || row.overlapPctg >= th.exposedCommMaxOverlapPctg)
            continue;
        Finding f;
        f.rule = "exposed_communication";
        f.id = rankId(f.rule, row.rank);
        f.severity = exposedShare >= th.exposedCommCriticalPctg ? FindingSeverity::Critical : FindingSeverity::Warning;
        f.title = rankLabel(row.rank) + ": communication is " + fixed(commShare, 1) + "% of GPU time and only "
            + fixed(row.overlapPctg, 1) + "% of it overlaps computation";
        f.detail = duration(us(exposedNs)) + " of communication (" + fixed(exposedShare, 1)
            + "% of the GPU span) runs while no computation does";
        f.suggestion = "Overlap communication with computation: for DDP, tune bucket_cap_mb and set "
                       "gradient_as_bucket_view=True; for FSDP, enable backward_prefetch=BACKWARD_PRE and "
                       "forward_prefetch=True; check on the timeline that the communication stream is not waiting "
                       "for the compute stream, and that collectives do not wait for a late rank (collectives view).";
        f.evidence = {{"communication_share_pctg", commShare, "percent", "overlap"},
                      {"comp_comm_overlap_pctg", row.overlapPctg, "percent", "overlap"},
                      {"exposed_communication", us(exposedNs), "us", "overlap"}};
        f.ranks = {row.rank};
        f.view = "overlap";
        f.command = "overlap";
        f.timeAtStakeUs = us(exposedNs);
        out.push_back(std::move(f));
    }
}

void slowRanksAndSteps(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    constexpr StepClock kClock = StepClock::GpuElseCpu;
    std::map<int, std::vector<double>> byRank, byStep;
    for (const StepSpan& span : in.steps->spans)
        if (const double ns = stepTimeNs(span, kClock); !std::isnan(ns)) {
            byRank[span.rank].push_back(ns);
            byStep[span.step].push_back(ns);
        }
    if (byRank.size() >= 2) {
        std::vector<double> rankMedians;
        for (const auto& [rank, times] : byRank)
            rankMedians.push_back(median(times));
        const double typical = median(rankMedians);
        for (const auto& [rank, times] : byRank) {
            const double own = median(times);
            const double excessPctg = 100.0 * (own - typical) / typical;
            if (!(typical > 0) || excessPctg <= th.slowRankPctg)
                continue;
            Finding f;
            f.rule = "slow_rank";
            f.id = rankId(f.rule, rank);
            f.severity = excessPctg >= 4 * th.slowRankPctg ? FindingSeverity::Critical : FindingSeverity::Warning;
            f.title = rankLabel(rank) + ": its steps take " + fixed(excessPctg, 1) + "% longer than the median rank's";
            f.detail = "median step " + duration(own / 1000.0) + " against " + duration(typical / 1000.0) + " over "
                + std::to_string(times.size()) + " steps; in synchronous training every rank waits for it";
            f.suggestion = "Compare this rank's kernels with a typical rank's (Kernels view, or kinetoscope-cli "
                           "kernels --ranks), then look at what only it does: data loading, a host busy with "
                           "other processes, a GPU at lower clocks (thermal or power limits), an unbalanced shard.";
            f.evidence = {{"median_step_time", own / 1000.0, "us", "steps"},
                          {"median_rank_step_time", typical / 1000.0, "us", "steps"},
                          {"excess_pctg", excessPctg, "percent", "steps"}};
            f.ranks = {rank};
            f.view = "steps";
            f.command = "steps";
            f.timeAtStakeUs = (own - typical) / 1000.0 * static_cast<double>(times.size());
            out.push_back(std::move(f));
        }
    }
    if (byStep.size() >= 2) {
        std::vector<double> all;
        for (const auto& [step, times] : byStep)
            all.insert(all.end(), times.begin(), times.end());
        const double typical = median(all);
        for (const auto& [step, times] : byStep) {
            const double own = median(times);
            const double excessPctg = 100.0 * (own - typical) / typical;
            if (!(typical > 0) || excessPctg <= th.slowStepPctg)
                continue;
            Finding f;
            f.rule = "slow_step";
            f.id = f.rule + "/step" + std::to_string(step);
            f.severity = FindingSeverity::Info;
            f.title = "Step " + std::to_string(step) + " takes " + fixed(excessPctg, 1) + "% longer than the median step";
            f.detail = "median over its ranks " + duration(own / 1000.0) + " against " + duration(typical / 1000.0);
            f.suggestion = "Look for what happens only in this step: a checkpoint, an evaluation, garbage "
                           "collection, a data-loader refill, a recompilation (torch.compile guards).";
            f.evidence = {{"median_step_time", own / 1000.0, "us", "steps"},
                          {"median_step_time_all", typical / 1000.0, "us", "steps"},
                          {"excess_pctg", excessPctg, "percent", "steps"}};
            f.steps = {step};
            f.view = "steps";
            f.command = "steps";
            f.timeAtStakeUs = (own - typical) / 1000.0;
            out.push_back(std::move(f));
        }
    }
}

namespace {

// The median step time over every rank and step (GPU clock where the step has GPU work), or
// when the run has no steps the median rank's GPU span: what "per step" costs are measured by.
double typicalStepNs(const FindingsInputs& in)
{
    std::vector<double> times;
    for (const StepSpan& span : in.steps->spans)
        if (const double ns = stepTimeNs(span, StepClock::GpuElseCpu); !std::isnan(ns) && ns > 0)
            times.push_back(ns);
    if (times.empty())
        for (const TemporalBreakdownRow& row : in.temporal->rows)
            if (row.spanNs > 0)
                times.push_back(static_cast<double>(row.spanNs));
    return median(std::move(times));
}

struct KernelExcess {
    StringId name;
    double ownNs = 0.0;
    double typicalNs = 0.0;  // the median over the other ranks (0 where a rank does not run it)
};

// What a rank runs differently: its time per kernel name against the median of the other ranks',
// most excess first (only excesses). Communication kernels are left out: their time is the wait.
std::vector<KernelExcess> kernelExcess(const FindingsInputs& in, int rank)
{
    std::vector<KernelExcess> result;
    if (!in.tensorCores || !in.strings)
        return result;
    std::map<uint32_t, std::map<int, double>> byName;  // name -> rank -> time
    std::vector<int> ranks;
    for (const KernelTensorCoreRow& row : *in.tensorCores) {
        if (std::find(ranks.begin(), ranks.end(), row.rank) == ranks.end())
            ranks.push_back(row.rank);
        if (classifyKernelName(in.strings->view(row.name)) != KernelType::Communication)
            byName[row.name.value][row.rank] += static_cast<double>(row.totalNs);
    }
    if (ranks.size() < 2)
        return result;
    for (const auto& [name, times] : byName) {
        const auto own = times.find(rank);
        if (own == times.end())
            continue;
        std::vector<double> others;
        for (int r : ranks)
            if (r != rank) {
                const auto t = times.find(r);
                others.push_back(t == times.end() ? 0.0 : t->second);
            }
        const double typical = median(others);
        if (own->second > typical)
            result.push_back({StringId{name}, own->second, typical});
    }
    std::sort(result.begin(), result.end(), [](const KernelExcess& a, const KernelExcess& b) {
        return a.ownNs - a.typicalNs > b.ownNs - b.typicalNs;
    });
    return result;
}

} // namespace

void collectiveStraggler(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    const CollectiveStraggler& s = in.collectives->straggler;
    if (s.rank < 0 || s.instances <= 0 || s.delayCausedNs <= 0)
        return;
    const double share = static_cast<double>(s.lastCount) / static_cast<double>(s.instances);
    // Someone is always last: only a wait that costs a noticeable part of the step is a finding.
    const double stepNs = typicalStepNs(in);
    const double stepPctg = 100.0 * s.delayPerStepNs / stepNs;
    if (share < th.collectiveStragglerShare || !(stepNs > 0) || stepPctg < th.collectiveStragglerStepPctg)
        return;
    Finding f;
    f.rule = "collective_straggler";
    f.id = rankId(f.rule, s.rank);
    f.severity = stepPctg >= 5 * th.collectiveStragglerStepPctg ? FindingSeverity::Critical : FindingSeverity::Warning;
    f.title = rankLabel(s.rank) + " arrives last in " + fixed(share * 100.0, 0) + "% of the collectives; the others wait "
        + fixed(stepPctg, 1) + "% of a step for it";
    f.detail = "last in " + std::to_string(s.lastCount) + " of " + std::to_string(s.instances)
        + " matched collectives; the others waited " + duration(s.delayPerStepNs / 1000.0)
        + " per step for it (latest minus second-latest arrival), against a median step of " + duration(stepNs / 1000.0);
    const std::vector<KernelExcess> excess = kernelExcess(in, s.rank);
    if (!excess.empty()) {
        f.detail += "; what it runs differently: ";
        for (size_t i = 0; i < excess.size() && i < 2; ++i)
            f.detail += (i ? ", " : "") + shortenKernelName(in.strings->view(excess[i].name)) + " takes "
                + duration((excess[i].ownNs - excess[i].typicalNs) / 1000.0) + " more than on the median rank ("
                + duration(excess[i].ownNs / 1000.0) + " against " + duration(excess[i].typicalNs / 1000.0) + ")";
    }
    f.suggestion = "The other ranks idle in every collective until this one arrives. See what it runs before "
                   "each collective that the others do not (kinetoscope-cli diff-summary of this rank against a "
                   "typical one, the Kernels view) and whether its input pipeline or host is slower.";
    f.evidence = {{"last_arrivals", static_cast<double>(s.lastCount), "count", "collectives"},
                  {"instances", static_cast<double>(s.instances), "count", "collectives"},
                  {"delay_caused", us(s.delayCausedNs), "us", "collectives"},
                  {"delay_caused_per_step", s.delayPerStepNs / 1000.0, "us", "collectives"},
                  {"median_step_time", stepNs / 1000.0, "us", "steps"}};
    if (!excess.empty())
        f.evidence.push_back({"top_kernel_excess", (excess[0].ownNs - excess[0].typicalNs) / 1000.0, "us", "ops --kernels"});
    f.ranks = {s.rank};
    f.view = "collectives";
    f.command = "collectives";
    f.timeAtStakeUs = us(s.delayCausedNs);
    out.push_back(std::move(f));
}

// A synchronising call costs only what the GPU idles for it: loss.item() while the GPU is still
// busy blocks the host but not the GPU. So the rule reads idle causes' synchronization share
// inside steps, and names the calls (and the ops that made them) from hostSyncs.
void syncsInStep(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out)
{
    std::map<int, int64_t> stepNs, syncIdleNs;
    std::map<int, std::vector<int>> stepsWithSyncIdle;
    for (const StepSpan& span : in.steps->spans)
        if (const double ns = stepTimeNs(span, StepClock::GpuElseCpu); !std::isnan(ns))
            stepNs[span.rank] += static_cast<int64_t>(ns);
    for (const IdleCauseRow& row : in.idleCauses->byStep)
        if (row.cause == IdleCause::Synchronization && row.step >= 0 && row.idleNs > 0) {
            syncIdleNs[row.rank] += row.idleNs;
            stepsWithSyncIdle[row.rank].push_back(row.step);
        }
    for (const auto& [rank, idleNs] : syncIdleNs) {
        const auto step = stepNs.find(rank);
        if (step == stepNs.end() || step->second <= 0)
            continue;
        const double sharePctg = 100.0 * static_cast<double>(idleNs) / static_cast<double>(step->second);
        if (sharePctg < th.syncIdleMinStepPctg)
            continue;
        int64_t calls = 0, callNs = 0;
        const HostSyncGroup* top = nullptr;  // a rank's groups come longest total first
        for (const HostSyncGroup& g : in.syncs->groups)
            if (g.rank == rank) {
                calls += g.calls;
                callNs += g.totalNs;
                top = top ? top : &g;
            }
        const auto copies = std::find_if(in.syncs->copies.begin(), in.syncs->copies.end(),
                                         [rank](const DeviceToHostCopies& c) { return c.rank == rank; });
        Finding f;
        f.rule = "sync_in_step";
        f.id = rankId(f.rule, rank);
        f.severity = sharePctg >= 5 * th.syncIdleMinStepPctg ? FindingSeverity::Critical : FindingSeverity::Warning;
        f.title = rankLabel(rank) + ": the GPU idles " + fixed(sharePctg, 1)
            + "% of the step time while the host waits in synchronising calls";
        f.detail = duration(us(idleNs)) + " of GPU idle inside steps is caused by synchronization (idle causes)";
        if (top)
            f.detail += "; " + std::to_string(calls) + " synchronising calls in the steps, most time in " + top->callName
                + (top->callerName.empty() ? std::string() : " called from " + top->callerName) + " ("
                + std::to_string(top->calls) + " calls, " + duration(us(top->totalNs)) + ")";
        if (copies != in.syncs->copies.end())
            f.detail += "; " + std::to_string(copies->copies) + " device-to-host copies in the steps ("
                + duration(us(copies->totalNs)) + ")";
        f.suggestion = "Each synchronising call stops the host from queueing work until the GPU drains, and the GPU "
                       "then idles until the host launches again. Take .item(), .cpu(), .tolist() and printing of "
                       "tensors out of the step (log every N steps, keep metrics on the GPU), replace "
                       "torch.cuda.synchronize() with CUDA events, and copy with non_blocking=True from pinned memory.";
        f.evidence = {{"sync_idle", us(idleNs), "us", "idle-causes"},
                      {"sync_idle_share_of_step_pctg", sharePctg, "percent", "idle-causes"},
                      {"sync_calls", static_cast<double>(calls), "count", "syncs"},
                      {"sync_call_time", us(callNs), "us", "syncs"}};
        if (copies != in.syncs->copies.end())
            f.evidence.push_back({"dtoh_copies", static_cast<double>(copies->copies), "count", "syncs"});
        f.ranks = {rank};
        std::vector<int>& steps = stepsWithSyncIdle[rank];
        std::sort(steps.begin(), steps.end());
        steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
        f.steps = steps;
        f.view = "idle";
        f.command = "idle-causes";
        f.timeAtStakeUs = us(idleNs);
        out.push_back(std::move(f));
    }
}

} // namespace kscope::finding_rules
