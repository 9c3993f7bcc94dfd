#include "analysis/core/tracehealth.h"

#include "analysis/collectives/clockskew.h"
#include "analysis/collectives/collectives.h"
#include "analysis/core/gpuactivity.h"
#include "analysis/core/kerneltype.h"

#include "model/trace.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string_view>

namespace kscope {

namespace {

std::string microsText(int64_t ns)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3f us", static_cast<double>(ns) / 1000.0);
    return text;
}

// "name at 1234.567 us" (since the run's first event): enough to find the event.
std::string eventText(const Run& run, const RankTrace& rank, EventIndex e)
{
    return std::string(run.str(rank.events.name[e])) + " at " + microsText(rank.events.tsNs[e] - run.minTsNs);
}

bool isLaunchName(std::string_view name)
{
    static constexpr std::string_view kNames[] = {
        "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx", "cudaLaunchCooperativeKernel",
        "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtLaunchKernel", "hipModuleLaunchKernel",
        "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
    };
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

class RankChecks {
public:
    RankChecks(const Run& run, const RankTrace& rank, std::vector<HealthProblem>& out)
        : m_run(run), m_rank(rank), m_events(rank.events), m_out(out), m_index(run.indexOf(rank))
    {
    }

    void add(HealthCheck check, int64_t count, std::string example)
    {
        if (count > 0)
            m_out.push_back({m_index, m_rank.rank, check, count, std::move(example)});
    }

    void badEvents()
    {
        for (const BadEventCounter& counter : m_rank.badEvents) {
            std::string example = toString(counter.kind);
            if (!counter.samples.empty())
                example += " at byte " + std::to_string(counter.samples.front().byteOffset) + ": "
                           + counter.samples.front().excerpt.substr(0, 80);
            add(HealthCheck::BadEvents, static_cast<int64_t>(counter.count), example);
        }
    }

    // Launches and GPU work that lost their partner, overlaps on a stream, zero durations.
    void gpuWork(KernelTypeCache& types)
    {
        int64_t noLaunch = 0, outsideWindow = 0, overlaps = 0, zero = 0, nccl = 0, short1us = 0;
        EventIndex noLaunchExample = kNoEvent, overlapExample = kNoEvent, zeroExample = kNoEvent,
                   shortExample = kNoEvent;
        struct StreamEnd {
            int stream;
            int64_t endNs;
        };
        std::vector<StreamEnd> ends;
        size_t last = 0;
        for (const EventIndex e : m_events.gpuRows) {
            if (!isGpuWorkRow(m_events, e))
                continue;
            ++m_gpuOps;
            if (m_events.kind[e] == EventKind::Kernel && types.typeOf(m_events.name[e]) == KernelType::Communication)
                ++nccl;
            if (m_events.link[e] == kNoEvent) {
                ++noLaunch;
                outsideWindow += m_events.correlation[e] >= 0;
                if (noLaunchExample == kNoEvent)
                    noLaunchExample = e;
            }
            if (m_events.durNs[e] == 0) {
                ++zero;
                if (zeroExample == kNoEvent)
                    zeroExample = e;
            }
            if (m_events.durNs[e] <= 1000) {
                ++short1us;
                if (shortExample == kNoEvent)
                    shortExample = e;
            }
            const int stream = m_events.stream[e];
            last = findStream(ends, stream, last);
            if (last == ends.size()) {
                ends.push_back({stream, m_events.endNs(e)});
                continue;
            }
            if (m_events.tsNs[e] < ends[last].endNs) {
                ++overlaps;
                if (overlapExample == kNoEvent)
                    overlapExample = e;
            }
            ends[last].endNs = std::max(ends[last].endNs, m_events.endNs(e));
        }
        m_ncclKernels = nccl;
        if (noLaunch > 0)
            add(HealthCheck::GpuOpWithoutLaunch, noLaunch,
                eventText(m_run, m_rank, noLaunchExample) + " (" + std::to_string(outsideWindow)
                    + " carry a correlation: launched before the trace window opened)");
        if (overlaps > 0)
            add(HealthCheck::OverlapOnStream, overlaps,
                eventText(m_run, m_rank, overlapExample) + " on stream " + std::to_string(m_events.stream[overlapExample]));
        if (zero > 0)
            add(HealthCheck::ZeroDurationGpuOp, zero, eventText(m_run, m_rank, zeroExample));
        // Whole-microsecond timestamps (older profilers) time an op of 1 us or less to +-1 us: its
        // duration, and the gaps around it, may be off by all it measures.
        if (!m_rank.metadata.fractionalTimestamps && short1us > 0)
            add(HealthCheck::MicrosecondTimestamps, short1us,
                std::to_string(short1us) + " of " + std::to_string(m_gpuOps) + " GPU ops last 1 us or less, e.g. "
                    + eventText(m_run, m_rank, shortExample));
    }

    // Launch calls whose GPU op is missing, and what the profiler did not record.
    void hostSide()
    {
        int64_t orphanLaunches = 0, cpuOps = 0, paramComms = 0, withoutSeq = 0;
        EventIndex orphanExample = kNoEvent;
        std::map<uint32_t, bool> launchName;  // by StringId
        const StringId recordParamComms = m_run.strings.find("record_param_comms");
        for (size_t i = 0; i < m_events.size(); ++i) {
            const auto e = static_cast<EventIndex>(i);
            const EventKind kind = m_events.kind[e];
            if (kind == EventKind::CpuOp) {
                ++cpuOps;
                paramComms += recordParamComms && m_events.name[e] == recordParamComms;
            }
            if ((kind != EventKind::Runtime && kind != EventKind::Driver) || m_events.phase[e] != Phase::Complete)
                continue;
            const auto [it, inserted] = launchName.try_emplace(m_events.name[e].value, false);
            if (inserted)
                it->second = isLaunchName(m_run.str(m_events.name[e]));
            if (it->second && m_events.correlation[e] >= 0 && m_events.link[e] == kNoEvent) {
                ++orphanLaunches;
                if (orphanExample == kNoEvent)
                    orphanExample = e;
            }
        }
        for (const CollectiveArgs& args : m_events.collectiveArgs)
            if (recordParamComms && m_events.name[args.event] == recordParamComms && args.seq < 0)
                ++withoutSeq;
        if (orphanLaunches > 0)
            add(HealthCheck::LaunchWithoutGpuOp, orphanLaunches, eventText(m_run, m_rank, orphanExample));
        if (m_gpuOps == 0)
            add(HealthCheck::NoGpuActivity, 1, "no kernel, memcpy or memset on any stream");
        if (m_gpuOps > 0 && cpuOps == 0)
            add(HealthCheck::NoCpuOps, 1, std::to_string(m_gpuOps) + " GPU ops, no cpu_op event");
        if (m_ncclKernels > 0 && paramComms == 0)
            add(HealthCheck::NoRecordParamComms, m_ncclKernels,
                std::to_string(m_ncclKernels) + " NCCL kernels, no record_param_comms op");
        if (withoutSeq > 0)
            add(HealthCheck::NoCollectiveSeq, withoutSeq, std::to_string(withoutSeq) + " of " + std::to_string(paramComms)
                                                              + " record_param_comms ops carry no Seq");
        if (m_rank.steps.empty() && m_events.size() > 0)
            add(HealthCheck::NoProfilerSteps, 1, "no ProfilerStep#N annotation");
    }

private:
    const Run& m_run;
    const RankTrace& m_rank;
    const EventTable& m_events;
    std::vector<HealthProblem>& m_out;
    RankIndex m_index;
    int64_t m_gpuOps = 0;
    int64_t m_ncclKernels = 0;
};

// The number of ProfilerSteps most ranks have (the smallest such number on a tie).
size_t usualStepCount(const Run& run)
{
    std::map<size_t, int> ranksWith;
    for (const RankTrace& rank : run.ranks)
        ++ranksWith[rank.steps.size()];
    size_t usual = 0;
    int most = 0;
    for (const auto& [steps, ranks] : ranksWith)
        if (ranks > most) {
            most = ranks;
            usual = steps;
        }
    return usual;
}

} // namespace

const char* toString(HealthSeverity severity)
{
    switch (severity) {
    case HealthSeverity::Error: return "error";
    case HealthSeverity::Warning: return "warning";
    case HealthSeverity::Info: break;
    }
    return "info";
}

const char* toString(HealthCheck check)
{
    switch (check) {
    case HealthCheck::FileFailed: return "file_failed";
    case HealthCheck::FilePartial: return "file_partial";
    case HealthCheck::BadEvents: return "bad_events";
    case HealthCheck::TimestampUnit: return "timestamp_unit";
    case HealthCheck::GpuOpWithoutLaunch: return "gpu_op_without_launch";
    case HealthCheck::LaunchWithoutGpuOp: return "launch_without_gpu_op";
    case HealthCheck::OverlapOnStream: return "overlap_on_stream";
    case HealthCheck::ZeroDurationGpuOp: return "zero_duration_gpu_op";
    case HealthCheck::StepCountDiffers: return "step_count_differs";
    case HealthCheck::ClockSkew: return "clock_skew";
    case HealthCheck::NoGpuActivity: return "no_gpu_activity";
    case HealthCheck::NoCpuOps: return "no_cpu_ops";
    case HealthCheck::NoRecordParamComms: return "no_record_param_comms";
    case HealthCheck::NoCollectiveSeq: return "no_collective_seq";
    case HealthCheck::NoProfilerSteps: return "no_profiler_steps";
    case HealthCheck::MicrosecondTimestamps: break;
    }
    return "microsecond_timestamps";
}

const std::vector<std::string_view>& affectedCommands(HealthCheck check)
{
    using Names = std::vector<std::string_view>;
    static const Names kEvery{"*"};
    static const Names kTimestampUnit{"collectives", "clock-skew", "critical-path", "diff", "timeline"};
    static const Names kWithoutLaunch{"idle", "idle-causes", "launch-stats", "queue-length", "ops", "critical-path"};
    static const Names kWithoutGpuOp{"launch-stats", "queue-length", "ops"};
    static const Names kOverlap{"idle", "idle-causes", "temporal", "kernels", "overlap"};
    static const Names kZero{"kernels", "kernel-dist"};
    static const Names kSteps{"steps", "stragglers", "diff"};
    static const Names kSkew{"collectives", "critical-path", "timeline"};
    static const Names kNoCpuOps{"ops", "memory", "idle-causes", "critical-path", "patterns"};
    static const Names kCollectives{"collectives", "clock-skew"};
    static const Names kCoarseTime{"kernels", "kernel-dist", "idle", "idle-causes", "queue-length", "overlap"};
    switch (check) {
    case HealthCheck::FileFailed:
    case HealthCheck::FilePartial:
    case HealthCheck::BadEvents:
    case HealthCheck::NoGpuActivity: return kEvery;
    case HealthCheck::TimestampUnit: return kTimestampUnit;
    case HealthCheck::GpuOpWithoutLaunch: return kWithoutLaunch;
    case HealthCheck::LaunchWithoutGpuOp: return kWithoutGpuOp;
    case HealthCheck::OverlapOnStream: return kOverlap;
    case HealthCheck::ZeroDurationGpuOp: return kZero;
    case HealthCheck::StepCountDiffers:
    case HealthCheck::NoProfilerSteps: return kSteps;
    case HealthCheck::ClockSkew: return kSkew;
    case HealthCheck::NoCpuOps: return kNoCpuOps;
    case HealthCheck::NoRecordParamComms:
    case HealthCheck::NoCollectiveSeq: return kCollectives;
    case HealthCheck::MicrosecondTimestamps: break;
    }
    return kCoarseTime;
}

bool affectsCommand(HealthCheck check, std::string_view command)
{
    const auto& names = affectedCommands(check);
    return std::find(names.begin(), names.end(), command) != names.end()
        || std::find(names.begin(), names.end(), "*") != names.end();
}

std::string affectedAnalyses(HealthCheck check)
{
    std::string text;
    for (std::string_view name : affectedCommands(check))
        text += (text.empty() ? "" : ", ") + std::string(name == "*" ? "every analysis" : name);
    return text;
}

HealthSeverity severityOf(HealthCheck check)
{
    switch (check) {
    case HealthCheck::FileFailed:
    case HealthCheck::FilePartial:
        return HealthSeverity::Error;
    case HealthCheck::NoCollectiveSeq:
    case HealthCheck::NoProfilerSteps:
    case HealthCheck::ZeroDurationGpuOp:
    case HealthCheck::MicrosecondTimestamps:
        return HealthSeverity::Info;
    default:
        break;
    }
    return HealthSeverity::Warning;
}

TraceHealth traceHealth(const Run& run)
{
    TraceHealth health;
    health.ranksChecked = static_cast<int>(run.ranks.size());
    // Files that gave no rank come first; a partial file is one of the ranks.
    for (const LoadError& error : run.errors) {
        if (error.kind == LoadErrorKind::Cancelled || error.partial)
            continue;
        health.problems.push_back({RankIndex{}, error.rank, HealthCheck::FileFailed, 1, describe(error)});
    }
    if (run.ranks.empty()) {
        health.error = run.errors.empty() ? "the run has no rank" : "no file of the run could be read";
        return health;
    }
    // Across ranks: the usual step count, the timestamp units, the clocks.
    const size_t usualSteps = usualStepCount(run);
    int nsRanks = 0;
    for (const RankTrace& rank : run.ranks)
        nsRanks += rank.metadata.fractionalTimestamps;
    const bool mixedUnits = nsRanks > 0 && nsRanks < static_cast<int>(run.ranks.size());
    const Collectives collectives = matchCollectives(run, {.htaCompat = run.htaCompat, .compareWithHta = false});
    const ClockSkew& skew = collectives.clockSkew;
    KernelTypeCache types(run.strings);

    for (const RankTrace& rank : run.ranks) {
        RankChecks checks(run, rank, health.problems);
        for (const LoadError& error : run.errors)
            if (error.partial && error.file == rank.file)
                checks.add(HealthCheck::FilePartial, 1, describe(error));
        checks.badEvents();
        if (mixedUnits && !rank.metadata.fractionalTimestamps)
            checks.add(HealthCheck::TimestampUnit, 1,
                       "whole-microsecond timestamps; " + std::to_string(nsRanks) + " of "
                           + std::to_string(run.ranks.size()) + " ranks write nanoseconds");
        checks.gpuWork(types);
        if (rank.steps.size() != usualSteps && !run.ranks.empty())
            checks.add(HealthCheck::StepCountDiffers, 1,
                       std::to_string(rank.steps.size()) + " ProfilerSteps; most ranks have " + std::to_string(usualSteps));
        for (const RankClockOffset& offset : skew.ranks)
            if (offset.rankIndex == run.indexOf(rank).value && offset.estimated && offset.reliable
                && offsetExceedsWaits(skew, offset.offsetNs))
                checks.add(HealthCheck::ClockSkew, 1,
                           "clock off by " + microsText(offset.offsetNs) + " from rank " + std::to_string(skew.referenceRank)
                               + "; median collective wait " + microsText(skew.medianWaitNs));
        checks.hostSide();
    }
    // Files without a rank first, then by rank in run order, each rank's problems in check order.
    std::stable_sort(health.problems.begin(), health.problems.end(), [](const HealthProblem& a, const HealthProblem& b) {
        const bool aFile = a.check == HealthCheck::FileFailed, bFile = b.check == HealthCheck::FileFailed;
        if (aFile != bFile)
            return aFile;
        if (!aFile && a.rankIndex != b.rankIndex)
            return a.rankIndex < b.rankIndex;
        return a.check < b.check;
    });
    // Count the ranks with errors or warnings.
    std::vector<bool> troubled(run.ranks.size(), false);
    for (const HealthProblem& problem : health.problems)
        if (problem.check != HealthCheck::FileFailed && run.has(problem.rankIndex)
            && severityOf(problem.check) != HealthSeverity::Info)
            troubled[problem.rankIndex.value] = true;
    health.ranksWithProblems = static_cast<int>(std::count(troubled.begin(), troubled.end(), true));
    if (health.problems.empty())
        health.notes.push_back("no problem found on " + std::to_string(run.ranks.size())
                               + (run.ranks.size() == 1 ? " rank" : " ranks"));
    return health;
}

} // namespace kscope
