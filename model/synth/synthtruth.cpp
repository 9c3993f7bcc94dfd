#include "synthtruth.h"

#include "synthrun.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>

namespace kscope {

namespace {

struct Interval {
    int64_t start = 0;
    int64_t end = 0;
};

// HTA's merge_kernel_intervals: sort by start, open a new group when a start lies beyond the
// running maximum of ends (touching intervals merge).
std::vector<Interval> unionOf(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<Interval> merged;
    for (const Interval& interval : intervals) {
        if (!merged.empty() && interval.start <= merged.back().end)
            merged.back().end = std::max(merged.back().end, interval.end);
        else
            merged.push_back(interval);
    }
    return merged;
}

int64_t lengthOf(const std::vector<Interval>& merged)
{
    int64_t total = 0;
    for (const Interval& interval : merged)
        total += interval.end - interval.start;
    return total;
}

int64_t intersectionOf(const std::vector<Interval>& a, const std::vector<Interval>& b)
{
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const int64_t lo = std::max(a[i].start, b[j].start);
        const int64_t hi = std::min(a[i].end, b[j].end);
        if (hi > lo)
            total += hi - lo;
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return total;
}

// HTA rounds fractional timestamps: start up and end down to whole microseconds.
int64_t ceilUs(int64_t ns)
{
    const int64_t r = ns % 1000;
    return r == 0 ? ns : ns + (1000 - r);
}
int64_t floorUs(int64_t ns)
{
    return ns - ns % 1000;
}

struct Activity {
    int64_t start = 0, end = 0, launch = 0;
    uint16_t gpuOp = 0;
};

} // namespace

SynthScopeTruth computeScopeTruth(const SynthProgram& program, const std::vector<SynthGpuRecord>& records,
                                  SynthScope scope)
{
    std::vector<Activity> activities;
    activities.reserve(records.size());
    for (const SynthGpuRecord& record : records) {
        if (scope != SynthScope::All && record.launchedInLastStep)
            continue;
        Activity activity{record.startNs, record.endNs, record.launchNs, record.gpuOp};
        if (scope == SynthScope::KeptHtaRounded) {
            activity.start = ceilUs(activity.start);
            activity.end = floorUs(record.endNs);
            activity.launch = ceilUs(activity.launch);
        }
        activities.push_back(activity);
    }

    SynthScopeTruth truth;
    truth.gpuEventCount = int64_t(activities.size());
    if (activities.empty())
        return truth;

    std::vector<Interval> all, compute, comm, memory;
    all.reserve(activities.size());
    compute.reserve(activities.size());
    for (const Activity& a : activities) {
        const Interval interval{a.start, a.end};
        all.push_back(interval);
        switch (program.gpuOps[a.gpuOp].type) {
        case SynthGpuType::Computation: compute.push_back(interval); break;
        case SynthGpuType::Communication: comm.push_back(interval); break;
        case SynthGpuType::Memory: memory.push_back(interval); break;
        case SynthGpuType::Other: break;
        }
    }
    const std::vector<Interval> allUnion = unionOf(std::move(all));
    const std::vector<Interval> computeUnion = unionOf(std::move(compute));
    const std::vector<Interval> commUnion = unionOf(std::move(comm));
    truth.gpuStartNs = allUnion.front().start;
    truth.gpuEndNs = allUnion.back().end;
    truth.spanNs = truth.gpuEndNs - truth.gpuStartNs;
    truth.busyNs = lengthOf(allUnion);
    truth.idleNs = truth.spanNs - truth.busyNs;
    truth.computeNs = lengthOf(computeUnion);
    truth.nonComputeNs = truth.spanNs - truth.computeNs - truth.idleNs;
    truth.communicationNs = lengthOf(commUnion);
    truth.memoryNs = lengthOf(unionOf(std::move(memory)));
    truth.commComputeOverlapNs = intersectionOf(commUnion, computeUnion);

    // Idle time per stream, HTA rule (6): kernels, memcpy and memset only; cuda_sync excluded.
    for (SynthStream stream : {SynthStream::Compute, SynthStream::Comm}) {
        std::vector<const Activity*> onStream;
        for (const Activity& a : activities) {
            const SynthGpuOp& op = program.gpuOps[a.gpuOp];
            if (op.stream == stream && op.category != "cuda_sync")
                onStream.push_back(&a);
        }
        if (onStream.empty())
            continue;
        std::stable_sort(onStream.begin(), onStream.end(),
                         [](const Activity* x, const Activity* y) { return x->start < y->start; });
        SynthIdleTruth idle;
        idle.stream = streamNumber(stream);
        for (size_t i = 1; i < onStream.size(); ++i) {
            const int64_t previousEnd = onStream[i - 1]->end;
            const int64_t gap = onStream[i]->start - previousEnd;
            if (onStream[i]->launch > previousEnd) {
                idle.hostWaitNs += gap;
                ++idle.hostWaitCount;
            } else if (gap < kConsecutiveKernelDelayNs) {
                idle.kernelWaitNs += gap;
                ++idle.kernelWaitCount;
            } else {
                idle.otherNs += gap;
                ++idle.otherCount;
            }
        }
        truth.idleByStream.push_back(idle);
    }

    std::map<std::string_view, SynthKernelTruth> byName;
    for (const Activity& a : activities) {
        SynthKernelTruth& k = byName[program.gpuOps[a.gpuOp].name];
        const int64_t dur = a.end - a.start;
        if (k.count == 0) {
            k.gpuOp = a.gpuOp;
            k.minNs = k.maxNs = dur;
        }
        ++k.count;
        k.totalNs += dur;
        k.minNs = std::min(k.minNs, dur);
        k.maxNs = std::max(k.maxNs, dur);
    }
    for (const auto& entry : byName)
        truth.kernels.push_back(entry.second);
    return truth;
}

namespace {

// A minimal pretty-printing JSON writer: objects one field a line, small rows inline.
class JsonOut {
public:
    void raw(std::string_view text) { m_text += text; }
    void key(std::string_view name)
    {
        separate();
        m_text += '"';
        m_text += name;
        m_text += "\": ";
        m_afterKey = true;
    }
    void value(int64_t v)
    {
        separate();
        m_text += std::to_string(v);
    }
    void value(std::string_view text)
    {
        separate();
        m_text += '"';
        for (char c : text) {
            if (c == '"' || c == '\\')
                m_text += '\\';
            m_text += c;
        }
        m_text += '"';
    }
    void valueNull()
    {
        separate();
        m_text += "null";
    }
    void valueBool(bool b)
    {
        separate();
        m_text += b ? "true" : "false";
    }
    void valueDouble(double d)
    {
        separate();
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6g", d);
        m_text += buffer;
    }
    void open(char bracket)
    {
        separate();
        m_text += bracket;
        ++m_depth;
        m_needComma = false;
    }
    void close(char bracket)
    {
        --m_depth;
        m_text += '\n';
        m_text.append(size_t(m_depth) * 2, ' ');
        m_text += bracket;
        m_needComma = true;
    }
    void inlineOpen(char bracket)
    {
        separate();
        m_text += bracket;
        ++m_inlineDepth;
        m_needComma = false;
    }
    void inlineClose(char bracket)
    {
        m_text += bracket;
        --m_inlineDepth;
        m_needComma = true;
    }
    template <typename T> void field(std::string_view name, T v)
    {
        key(name);
        value(v);
    }
    const std::string& text() const { return m_text; }

private:
    void separate()
    {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_text.empty()) {
            m_needComma = true;
            return;
        }
        if (m_needComma)
            m_text += ',';
        if (m_inlineDepth > 0) {
            if (m_needComma)
                m_text += ' ';
        } else {
            m_text += '\n';
            m_text.append(size_t(m_depth) * 2, ' ');
        }
        m_needComma = true;
    }

    std::string m_text;
    int m_depth = 0;
    int m_inlineDepth = 0;
    bool m_needComma = false;
    bool m_afterKey = false;
};

void writeScope(JsonOut& out, const SynthProgram& program, const SynthScopeTruth& scope)
{
    out.open('{');
    out.field("gpuEventCount", scope.gpuEventCount);
    out.field("gpuStartNs", scope.gpuStartNs);
    out.field("gpuEndNs", scope.gpuEndNs);
    out.field("spanNs", scope.spanNs);
    out.field("busyNs", scope.busyNs);
    out.field("idleNs", scope.idleNs);
    out.field("computeNs", scope.computeNs);
    out.field("nonComputeNs", scope.nonComputeNs);
    out.field("communicationNs", scope.communicationNs);
    out.field("memoryNs", scope.memoryNs);
    out.field("commComputeOverlapNs", scope.commComputeOverlapNs);
    out.key("idleByStream");
    out.open('[');
    for (const SynthIdleTruth& idle : scope.idleByStream) {
        out.inlineOpen('{');
        out.field("stream", int64_t(idle.stream));
        out.field("hostWaitNs", idle.hostWaitNs);
        out.field("kernelWaitNs", idle.kernelWaitNs);
        out.field("otherNs", idle.otherNs);
        out.field("hostWaitCount", idle.hostWaitCount);
        out.field("kernelWaitCount", idle.kernelWaitCount);
        out.field("otherCount", idle.otherCount);
        out.inlineClose('}');
    }
    out.close(']');
    out.key("kernels");
    out.open('[');
    for (const SynthKernelTruth& k : scope.kernels) {
        const SynthGpuOp& op = program.gpuOps[k.gpuOp];
        out.inlineOpen('{');
        out.field("name", std::string_view(op.name));
        out.field("category", std::string_view(op.category));
        out.field("type", std::string_view(toString(op.type)));
        out.field("stream", int64_t(streamNumber(op.stream)));
        out.field("count", k.count);
        out.field("totalNs", k.totalNs);
        out.field("minNs", k.minNs);
        out.field("maxNs", k.maxNs);
        out.inlineClose('}');
    }
    out.close(']');
    out.close('}');
}

// "collectives": every NCCL instance the plan placed, with each rank's arrival and wait.
// The memory the rank's [memory] events show, and the memory rules of `findings` that must fire on
// it (their README thresholds, applied to what the generator planted).
void writeMemory(JsonOut& out, const SynthRankTruth& rank)
{
    const SynthMemoryTruth& m = rank.memory;
    out.key("memory");
    out.open('{');
    out.field("events", m.events);
    out.field("peakAllocated", m.peakAllocated);
    out.field("peakReserved", m.peakReserved);
    out.field("deviceMemory", rank.deviceMemory);
    out.key("stepEndAllocated");
    out.inlineOpen('[');
    bool rising = m.stepEndAllocated.size() >= 3;
    for (size_t i = 0; i < m.stepEndAllocated.size(); ++i) {
        out.value(m.stepEndAllocated[i]);
        rising &= i == 0 || m.stepEndAllocated[i] > m.stepEndAllocated[i - 1];
    }
    out.inlineClose(']');
    out.key("findings");
    out.inlineOpen('[');
    if (rank.deviceMemory > 0 && 100.0 * double(m.peakReserved) / double(rank.deviceMemory) >= 90.0)
        out.value(std::string_view("memory_near_capacity"));
    if (rising && 100.0 * double(m.stepEndAllocated.back() - m.stepEndAllocated.front()) / double(m.peakAllocated) >= 2.0)
        out.value(std::string_view("memory_growth"));
    out.inlineClose(']');
    out.close('}');
}

void writeCollectives(JsonOut& out, const SynthContext& context, const SynthCollectivePlan& plan)
{
    const SynthOptions& options = *context.options;
    const SynthProgram& program = *context.program;
    const int ranks = plan.ranks;
    out.key("collectives");
    out.open('{');
    out.field("processGroup", std::string_view("0"));
    out.field("groupSize", int64_t(ranks));
    out.field("dtype", std::string_view("Float"));
    out.key("seq");
    out.valueBool(options.collectiveSeq);
    out.field("stragglerArrivalDelayNs", context.stragglerRank >= 0 ? kStragglerArrivalDelayNs : int64_t(0));
    out.key("instances");
    out.open('[');
    for (int step = 0; step < context.totalSteps; ++step) {
        for (int k = 0; k < plan.collectivesPerStep; ++k) {
            const size_t index = size_t(step) * size_t(plan.collectivesPerStep) + size_t(k);
            const SynthGpuOp& op =
                program.gpuOps[program.instrs[size_t(program.collectiveInstrs[size_t(k)])].gpuOp];
            const int64_t* starts = plan.startNs.data() + index * size_t(ranks);
            int64_t earliest = starts[0], latest = starts[0];
            int last = 0;
            for (int r = 1; r < ranks; ++r) {
                earliest = std::min(earliest, starts[r]);
                if (starts[r] > latest) {
                    latest = starts[r];
                    last = r;
                }
            }
            const int64_t end = plan.endNs[index];
            int64_t waitTotal = 0;
            for (int r = 0; r < ranks; ++r)
                waitTotal += latest - starts[r];
            out.open('{');
            out.field("position", int64_t(index));
            out.key("seq");
            if (options.collectiveSeq)
                out.value(kFirstCollectiveSeq + int64_t(index));
            else
                out.valueNull();
            out.field("step", int64_t(kFirstStepNumber + step));
            out.key("kept");
            out.valueBool(step + 1 < context.totalSteps);
            out.field("name", std::string_view("allreduce"));
            out.field("kernel", std::string_view(op.name));
            out.field("bytes", op.collectiveNelems * 4);
            out.field("earliestNs", earliest);
            out.field("latestNs", latest);
            out.field("endNs", end);
            out.field("lastRank", int64_t(last));
            out.field("skewNs", latest - earliest);
            out.field("transferNs", end - latest);
            out.field("waitTotalNs", waitTotal);
            out.key("arrivalNs");
            out.inlineOpen('[');
            for (int r = 0; r < ranks; ++r)
                out.value(starts[r]);
            out.inlineClose(']');
            out.key("waitNs");
            out.inlineOpen('[');
            for (int r = 0; r < ranks; ++r)
                out.value(latest - starts[r]);
            out.inlineClose(']');
            out.close('}');
        }
    }
    out.close(']');
    out.close('}');
}

} // namespace

std::string writeSynthTruth(const std::filesystem::path& file, const SynthContext& context,
                            const SynthCollectivePlan& plan, const std::vector<SynthRankTruth>& ranks,
                            uint64_t& bytesWritten)
{
    const SynthOptions& options = *context.options;
    const SynthProgram& program = *context.program;
    JsonOut out;
    out.open('{');
    out.field("schema", std::string_view("kinetoscope-synth-truth"));
    out.field("schemaVersion", int64_t(1));
    out.field("timeUnit", std::string_view("ns"));
    out.field("timeBase", std::string_view("trace clock: ts as written x 1000; add baseTimeNanoseconds for epoch"));
    out.key("generator");
    out.inlineOpen('{');
    out.field("seed", int64_t(options.seed));
    out.field("ranks", int64_t(options.ranks));
    out.field("layers", int64_t(options.layers));
    out.field("device", std::string_view(options.device == SynthOptions::Device::Amd ? "amd" : "nvidia"));
    out.key("nsTimestamps");
    out.valueBool(options.nsTimestamps);
    out.key("gzip");
    out.valueBool(options.gzip);
    out.key("legacyNcclNames");
    out.valueBool(options.legacyNcclNames);
    out.key("idleCauseStalls");
    out.valueBool(options.idleCauseStalls);
    out.inlineClose('}');
    out.field("consecutiveKernelDelayNs", kConsecutiveKernelDelayNs);
    out.key("steps");
    out.inlineOpen('{');
    out.key("numbers");
    out.inlineOpen('[');
    for (int s = 0; s < context.totalSteps; ++s)
        out.value(int64_t(kFirstStepNumber + s));
    out.inlineClose(']');
    out.key("kept");
    out.inlineOpen('[');
    for (int s = 0; s + 1 < context.totalSteps; ++s)
        out.value(int64_t(kFirstStepNumber + s));
    out.inlineClose(']');
    out.field("last", int64_t(kFirstStepNumber + context.totalSteps - 1));
    out.key("warmDown");
    out.valueBool(true);
    out.inlineClose('}');
    out.field("stragglerRank", int64_t(context.stragglerRank));
    out.key("slowKernel");
    if (context.slowKernelRank >= 0 && program.slowGpuOp >= 0) {
        out.inlineOpen('{');
        out.field("rank", int64_t(context.slowKernelRank));
        out.field("name", std::string_view(program.gpuOps[size_t(program.slowGpuOp)].name));
        out.key("factor");
        out.valueDouble(kSlowKernelFactor);
        out.inlineClose('}');
    } else {
        out.valueNull();
    }
    int64_t runFirst = ranks.empty() ? 0 : ranks.front().firstTsNs;
    for (const SynthRankTruth& rank : ranks)
        runFirst = std::min(runFirst, rank.firstTsNs);
    out.field("runFirstTsNs", runFirst);
    writeCollectives(out, context, plan);
    out.key("ranks");
    out.open('[');
    for (const SynthRankTruth& rank : ranks) {
        out.open('{');
        out.field("rank", int64_t(rank.rank));
        out.field("file", std::string_view(rank.file));
        out.field("pid", rank.pid);
        out.field("device", int64_t(rank.device));
        out.field("clockOffsetNs", synthClockOffsetNs(*context.options, rank.rank));
        out.key("eventCounts");
        out.inlineOpen('{');
        out.field("total", int64_t(rank.events));
        out.key("phase");
        out.inlineOpen('{');
        for (size_t p = 0; p < rank.phaseCounts.size(); ++p)
            out.field(toString(SynthPhase(p)), int64_t(rank.phaseCounts[p]));
        out.inlineClose('}');
        out.key("category");
        out.inlineOpen('{');
        for (size_t c = 0; c < rank.categoryCounts.size(); ++c)
            if (rank.categoryCounts[c])
                out.field(toString(SynthCategory(c)), int64_t(rank.categoryCounts[c]));
        out.inlineClose('}');
        out.inlineClose('}');
        out.key("steps");
        out.open('[');
        for (const SynthStepSpan& step : rank.steps) {
            out.inlineOpen('{');
            out.field("number", int64_t(step.number));
            out.field("startNs", step.startNs);
            out.field("endNs", step.endNs);
            out.inlineClose('}');
        }
        out.close(']');
        out.field("collectiveLateNs", rank.collectiveLateNs);
        out.key("all");
        writeScope(out, program, rank.all);
        out.key("kept");
        writeScope(out, program, rank.kept);
        out.key("keptHtaRounded");
        writeScope(out, program, rank.keptHtaRounded);
        out.key("placedGaps");
        out.open('[');
        for (const SynthPlacedGap& gap : rank.placedGaps) {
            out.inlineOpen('{');
            out.field("stream", int64_t(gap.stream));
            out.field("step", int64_t(gap.step));
            out.field("startNs", gap.startNs);
            out.field("endNs", gap.endNs);
            out.field("cause", std::string_view(toString(gap.cause)));
            out.key("kept");
            out.valueBool(gap.kept);
            out.inlineClose('}');
        }
        out.close(']');
        if (context.options->memoryEvents)
            writeMemory(out, rank);
        out.close('}');
    }
    out.close(']');
    out.close('}');
    out.raw("\n");

    std::FILE* f = std::fopen(file.c_str(), "wb");
    if (!f)
        return "cannot create " + file.string() + ": " + std::strerror(errno);
    const std::string& text = out.text();
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed)
        return "write failed for " + file.string() + ": " + std::strerror(errno);
    bytesWritten = text.size();
    return {};
}

} // namespace kscope
