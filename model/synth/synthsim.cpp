#include "synthsim.h"

#include "synthrandom.h"
#include "synthwriter.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <string>

namespace kscope {

int64_t synthPid(int rank)
{
    return 2'910'000 + int64_t(rank) * 1'009;
}

int64_t synthAutogradTid(int rank)
{
    return synthPid(rank) + 161;
}

namespace {

constexpr int64_t kUs = 1000;

// Key spaces of the counter-based draws.
constexpr uint64_t kRankDraw = 1;       // (rank, step, instruction)
constexpr uint64_t kStepDraw = 2;       // (step, instruction): the same on every rank
constexpr uint64_t kTransferDraw = 3;   // (step, collective)
constexpr uint64_t kStartDraw = 4;      // (rank): clock offset at start

class RankSim {
public:
    RankSim(const SynthContext& context, int rank, SynthTraceWriter* writer, SynthRankOutput* output)
        : m_ctx(context), m_program(*context.program), m_rank(rank), m_writer(writer), m_output(output)
    {
        m_quantum = context.quantumNs;
        m_tid[0] = synthPid(rank);
        m_tid[1] = synthAutogradTid(rank);
        SynthRng rng(synthKey(context.options->seed, kStartDraw, uint64_t(rank)));
        m_cpuNs = context.clockStartNs + q(40 * kUs + rng.range(0, 20 * kUs));
        m_streamEnd[0] = m_streamEnd[1] = m_cpuNs;
    }

    void beginStep(int step)
    {
        m_step = step;
        m_pc = 0;
    }
    // Runs until the step ends (false) or until the next collective's start is known (true).
    bool runUntilCollective();
    void finishCollective(int64_t endNs);
    int64_t pendingStart() const { return m_pending.start; }

private:
    struct Scope {
        const SynthInstr* instr = nullptr;
        int64_t startNs = 0;
        int64_t externalId = 0;
        int64_t evIdx = 0;
    };
    struct GpuAnnotation {
        uint16_t name = 0;
        int64_t firstNs = std::numeric_limits<int64_t>::max();
        int64_t lastNs = std::numeric_limits<int64_t>::min();
        int64_t externalId = 0;
    };
    struct PendingCollective {
        int64_t ts = 0, dur = 0, start = 0, correlation = 0, externalId = 0;
        const SynthInstr* instr = nullptr;
    };

    int64_t q(int64_t ns) const
    {
        if (m_quantum == 1)
            return ns;
        const int64_t v = ns / m_quantum * m_quantum;
        return v < m_quantum ? m_quantum : v;
    }
    SynthRng rankRng() const
    {
        return SynthRng(synthKey(m_ctx.options->seed, kRankDraw | (uint64_t(m_rank) << 8), uint64_t(m_step),
                                 uint64_t(m_pc)));
    }
    bool lastStep() const { return m_step == m_ctx.totalSteps - 1; }
    int64_t currentExternalId(int thread) const
    {
        return m_scopes[thread].empty() ? 0 : m_scopes[thread].back().externalId;
    }
    void execute(const SynthInstr& instr);
    void openScope(const SynthInstr& instr, SynthRng& rng);
    void closeScope(const SynthInstr& instr, SynthRng& rng);
    void launch(const SynthInstr& instr, SynthRng& rng);
    void runtimeOnly(const SynthInstr& instr, SynthRng& rng);
    void streamSync(const SynthInstr& instr, SynthRng& rng);
    void deviceSync(const SynthInstr& instr, SynthRng& rng);
    void emitGpu(uint16_t gpuOp, int64_t launchNs, int64_t startNs, int64_t endNs, int64_t externalId,
                 int64_t correlation, bool flows, int thread);
    int64_t gpuDuration(const SynthInstr& instr, SynthRng& rng) const;
    // A [memory] event (SynthOptions::memoryEvents): bytes > 0 allocates at addr, < 0 frees it.
    // It takes no time and draws nothing, so the schedule is the same with or without it.
    void memoryEvent(int thread, int64_t tsNs, int64_t addr, int64_t bytes);
    void allocateOutput(int thread, int64_t tsNs, int64_t bytes);

    const SynthContext& m_ctx;
    const SynthProgram& m_program;
    int m_rank;
    SynthTraceWriter* m_writer;
    SynthRankOutput* m_output;
    int64_t m_quantum = 1;
    int64_t m_tid[2] = {0, 0};
    int64_t m_cpuNs = 0;
    int64_t m_streamEnd[2] = {0, 0};  // end of the last op enqueued on compute / comm stream
    bool m_computeWaitsForComm = false;
    int64_t m_computeOps = 0;  // ops enqueued on the compute stream so far
    int64_t m_correlation = 0;
    int64_t m_externalId = 0;
    int64_t m_evIdx = 0;
    std::vector<Scope> m_scopes[2];
    std::vector<GpuAnnotation> m_annotations;
    PendingCollective m_pending;
    int64_t m_collectivesDone = 0;  // over all steps: the next collective's Seq - kFirstCollectiveSeq
    int m_step = 0;
    int m_pc = 0;
    int64_t m_allocated = -1;  // the allocator's total; -1 until the first [memory] event
    int64_t m_reserved = 0;
    int64_t m_nextAddr = 0;
    int64_t m_outputAddr = 0;  // the live output of the last computation kernel (0: none)
    int64_t m_outputBytes = 0;
};

void RankSim::memoryEvent(int thread, int64_t tsNs, int64_t addr, int64_t bytes)
{
    if (!m_ctx.options->memoryEvents || (!m_writer && !m_output))
        return;
    if (m_allocated < 0)
        m_allocated = int64_t(m_ctx.options->memoryBaselineBytes);
    m_allocated += bytes;
    m_reserved = std::max(m_reserved, (m_allocated + kSynthReserveSegment - 1) / kSynthReserveSegment * kSynthReserveSegment);
    if (m_writer)
        m_writer->memoryEvent(m_tid[thread], tsNs, addr, bytes, m_allocated, m_reserved, synthDevice(m_rank));
    if (m_output && !lastStep()) {
        SynthMemoryTruth& truth = m_output->memory;
        ++truth.events;
        truth.peakAllocated = std::max(truth.peakAllocated, m_allocated);
        truth.peakReserved = std::max(truth.peakReserved, m_reserved);
        if (truth.stepEndAllocated.size() <= size_t(m_step))
            truth.stepEndAllocated.resize(size_t(m_step) + 1, 0);
        truth.stepEndAllocated[size_t(m_step)] = m_allocated;
    }
}

// The previous output freed, then this one allocated: one output alive at a time.
void RankSim::allocateOutput(int thread, int64_t tsNs, int64_t bytes)
{
    if (m_outputAddr != 0)
        memoryEvent(thread, tsNs, m_outputAddr, -m_outputBytes);
    m_outputAddr = m_outputBytes = 0;
    if (bytes <= 0)
        return;
    m_outputAddr = 0x7f0000000000 + (m_nextAddr += 2 << 20);
    m_outputBytes = bytes;
    memoryEvent(thread, tsNs + m_quantum, m_outputAddr, bytes);  // after the free, in time order too
}

bool RankSim::runUntilCollective()
{
    const int count = int(m_program.instrs.size());
    while (m_pc < count) {
        const SynthInstr& instr = m_program.instrs[size_t(m_pc)];
        if (instr.kind == SynthInstrKind::Collective) {
            // Start of the NCCL kernel: after the launch, after the previous collective and once the
            // gradients of this bucket (everything enqueued on the compute stream) are ready.
            SynthRng rng = rankRng();
            m_cpuNs += q(rng.range(300, 1000));
            m_pending.instr = &instr;
            m_pending.ts = m_cpuNs;
            m_pending.dur = q(rng.range(6 * kUs, 14 * kUs));
            m_pending.correlation = ++m_correlation;
            m_pending.externalId = currentExternalId(instr.thread);
            m_pending.start = std::max({m_pending.ts + q(rng.range(4 * kUs, 9 * kUs)),
                                        m_streamEnd[1] + q(rng.range(2 * kUs, 5 * kUs)),
                                        m_streamEnd[0] + q(rng.range(1 * kUs, 3 * kUs))}) +
                              q(rng.range(0, 30 * kUs));
            if (m_rank == m_ctx.stragglerRank)
                m_pending.start += q(kStragglerArrivalDelayNs);
            return true;
        }
        execute(instr);
        ++m_pc;
    }
    return false;
}

void RankSim::finishCollective(int64_t endNs)
{
    const PendingCollective& p = m_pending;
    assert(endNs > p.start);
    if (m_writer) {
        m_writer->runtimeEvent(m_program.names[p.instr->name], m_tid[p.instr->thread], p.ts, p.dur, p.externalId,
                               p.correlation, m_program.cpuArgs[p.instr->args]);
    }
    emitGpu(p.instr->gpuOp, p.ts, p.start, endNs, p.externalId, p.correlation, true, p.instr->thread);
    m_streamEnd[1] = endNs;
    m_cpuNs = p.ts + p.dur;
    ++m_collectivesDone;
    ++m_pc;
}

void RankSim::execute(const SynthInstr& instr)
{
    SynthRng rng = rankRng();
    switch (instr.kind) {
    case SynthInstrKind::StepOpen:
    case SynthInstrKind::Open:
        openScope(instr, rng);
        break;
    case SynthInstrKind::StepClose:
    case SynthInstrKind::Close:
        closeScope(instr, rng);
        break;
    case SynthInstrKind::Work:
        m_cpuNs += q(rng.range(instr.minNs, instr.maxNs));
        break;
    case SynthInstrKind::HostStall: {
        // The same length on every rank: data loading and logging do not make a straggler.
        SynthRng stepRng(synthKey(m_ctx.options->seed, kStepDraw, uint64_t(m_step), uint64_t(m_pc)));
        m_cpuNs += q(stepRng.range(instr.minNs, instr.maxNs));
        break;
    }
    case SynthInstrKind::Launch:
        launch(instr, rng);
        break;
    case SynthInstrKind::RuntimeOnly:
        runtimeOnly(instr, rng);
        break;
    case SynthInstrKind::WaitComm:
        runtimeOnly(instr, rng);
        m_computeWaitsForComm = true;
        break;
    case SynthInstrKind::StreamSync:
        streamSync(instr, rng);
        break;
    case SynthInstrKind::DeviceSync:
        deviceSync(instr, rng);
        break;
    case SynthInstrKind::GpuAnnotationOpen: {
        GpuAnnotation annotation;
        annotation.name = instr.name;
        annotation.externalId = currentExternalId(instr.thread);
        m_annotations.push_back(annotation);
        break;
    }
    case SynthInstrKind::GpuAnnotationClose: {
        assert(!m_annotations.empty());
        const GpuAnnotation annotation = m_annotations.back();
        m_annotations.pop_back();
        if (m_writer && annotation.firstNs <= annotation.lastNs)
            m_writer->gpuAnnotation(m_program.names[annotation.name], annotation.firstNs,
                                    annotation.lastNs - annotation.firstNs, annotation.externalId);
        break;
    }
    case SynthInstrKind::Collective:
        assert(false && "collectives run through runUntilCollective");
        break;
    }
}

void RankSim::openScope(const SynthInstr& instr, SynthRng& rng)
{
    m_cpuNs += q(rng.range(500, 2500));
    Scope scope;
    scope.instr = &instr;
    scope.startNs = m_cpuNs;
    scope.externalId = ++m_externalId;
    scope.evIdx = m_evIdx++;
    m_scopes[instr.thread].push_back(scope);
    m_cpuNs += q(rng.range(300, 1200));
    if (instr.kind == SynthInstrKind::StepOpen && m_output) {
        SynthStepSpan span;
        span.number = kFirstStepNumber + m_step;
        span.startNs = scope.startNs;
        m_output->steps.push_back(span);
        if (m_step == 0)
            m_output->firstTsNs = scope.startNs;
    }
    if (instr.kind == SynthInstrKind::StepOpen && m_ctx.options->memoryLeakPerStep > 0)  // kept to the end
        memoryEvent(instr.thread, m_cpuNs, 0x7e0000000000 + (m_nextAddr += 2 << 20),
                    int64_t(m_ctx.options->memoryLeakPerStep));
}

void RankSim::closeScope(const SynthInstr& instr, SynthRng& rng)
{
    std::vector<Scope>& stack = m_scopes[instr.thread];
    assert(!stack.empty());
    if (instr.kind == SynthInstrKind::StepClose)
        allocateOutput(instr.thread, m_cpuNs, 0);  // the step's last output freed inside it
    m_cpuNs += q(rng.range(300, 1500));
    const Scope scope = stack.back();
    stack.pop_back();
    const int64_t dur = m_cpuNs - scope.startNs;
    m_cpuNs += q(rng.range(100, 600));  // the next scope starts strictly after this one ends
    if (instr.kind == SynthInstrKind::StepClose) {
        if (m_output)
            m_output->steps.back().endNs = scope.startNs + dur;
        if (m_writer)
            m_writer->stepEvent(kFirstStepNumber + m_step, m_tid[0], scope.startNs, dur, scope.externalId,
                                scope.evIdx);
        return;
    }
    if (m_writer) {
        const SynthInstr& open = *scope.instr;
        const SynthCategory category = open.category == m_program.catUserAnnotation ? SynthCategory::UserAnnotation
                                                                                     : SynthCategory::CpuOp;
        if (open.name == m_program.nameRecordParamComms && m_ctx.options->collectiveSeq) {
            // The scope closes after its collective: that collective's Seq.
            const std::string args = m_program.cpuArgs[open.args] + ", \"Seq\": " +
                                     std::to_string(kFirstCollectiveSeq + m_collectivesDone - 1);
            m_writer->cpuEvent(category, m_program.names[open.name], m_tid[instr.thread], scope.startNs, dur,
                               scope.externalId, scope.evIdx, args);
        } else {
            m_writer->cpuEvent(category, m_program.names[open.name], m_tid[instr.thread], scope.startNs, dur,
                               scope.externalId, scope.evIdx, m_program.cpuArgs[open.args]);
        }
    }
}

int64_t RankSim::gpuDuration(const SynthInstr& instr, SynthRng& rng) const
{
    const SynthGpuOp& op = m_program.gpuOps[instr.gpuOp];
    int64_t dur = op.baseDurNs + op.baseDurNs * rng.range(-30, 30) / 1000;  // +-3 %
    if (m_rank == m_ctx.slowKernelRank && int(instr.gpuOp) == m_program.slowGpuOp)
        dur = int64_t(double(dur) * kSlowKernelFactor);
    // A throttled GPU: the straggler's backward kernels run slower, so its buckets are ready last.
    if (m_rank == m_ctx.stragglerRank && instr.thread == 1 && op.type == SynthGpuType::Computation)
        dur = dur * kStragglerSlowdownPercent / 100;
    return q(std::max<int64_t>(dur, 2 * kUs));
}

void RankSim::launch(const SynthInstr& instr, SynthRng& rng)
{
    m_cpuNs += q(rng.range(300, 1000));
    const int64_t ts = m_cpuNs;
    const int64_t runtimeDur = q(rng.range(4 * kUs, 10 * kUs));
    const int64_t correlation = ++m_correlation;
    const int64_t externalId = currentExternalId(instr.thread);
    const int64_t ready = ts + q(rng.range(3 * kUs, 8 * kUs));
    // Queued behind the previous op with a small gap: HTA's kernel-wait idle time.
    int64_t start = std::max(ready, m_streamEnd[0] + q(rng.range(1 * kUs, 6 * kUs)));
    if (m_computeWaitsForComm) {
        start = std::max(start, m_streamEnd[1] + q(rng.range(2 * kUs, 5 * kUs)));
        m_computeWaitsForComm = false;
    }
    if (instr.maxNs > 0)
        start += q(rng.range(instr.minNs, instr.maxNs));  // the GPU is busy with work not in the trace
    if (instr.placedCause != SynthPlacedCause::None && m_computeOps > 0 && start > m_streamEnd[0] && m_output)
        m_output->placedGaps.push_back(
            {kComputeStream, kFirstStepNumber + m_step, m_streamEnd[0], start, instr.placedCause, !lastStep()});
    ++m_computeOps;
    const int64_t end = start + gpuDuration(instr, rng);
    if (m_writer)
        m_writer->runtimeEvent(m_program.names[instr.name], m_tid[instr.thread], ts, runtimeDur, externalId,
                               correlation, m_program.cpuArgs[instr.args]);
    if (m_program.gpuOps[instr.gpuOp].type == SynthGpuType::Computation)
        allocateOutput(instr.thread, ts, (1 + instr.gpuOp % 4) * (8ll << 20));
    emitGpu(instr.gpuOp, ts, start, end, externalId, correlation, true, instr.thread);
    m_streamEnd[0] = end;
    m_cpuNs = ts + runtimeDur;
}

void RankSim::runtimeOnly(const SynthInstr& instr, SynthRng& rng)
{
    m_cpuNs += q(rng.range(300, 1000));
    const int64_t ts = m_cpuNs;
    const int64_t dur = q(rng.range(2 * kUs, 5 * kUs));
    const int64_t correlation = ++m_correlation;
    if (m_writer)
        m_writer->runtimeEvent(m_program.names[instr.name], m_tid[instr.thread], ts, dur,
                               currentExternalId(instr.thread), correlation, m_program.cpuArgs[instr.args]);
    m_cpuNs = ts + dur;
}

void RankSim::streamSync(const SynthInstr& instr, SynthRng& rng)
{
    m_cpuNs += q(rng.range(300, 1000));
    const int64_t ts = m_cpuNs;
    const int64_t correlation = ++m_correlation;
    const int64_t externalId = currentExternalId(instr.thread);
    // The CPU blocks until the compute stream has drained.
    const int64_t end = std::max(ts + q(rng.range(5 * kUs, 8 * kUs)), m_streamEnd[0] + q(rng.range(2 * kUs, 5 * kUs)));
    if (m_writer)
        m_writer->runtimeEvent(m_program.names[instr.name], m_tid[instr.thread], ts, end - ts, externalId,
                               correlation, m_program.cpuArgs[instr.args]);
    if (m_program.streamSyncOp >= 0) {
        const int64_t syncStart = ts + q(rng.range(1000, 1500));
        const int64_t syncEnd = end - q(rng.range(500, 1000));
        emitGpu(uint16_t(m_program.streamSyncOp), ts, syncStart, syncEnd, externalId, correlation, true,
                instr.thread);
    }
    m_cpuNs = end;
}

void RankSim::deviceSync(const SynthInstr& instr, SynthRng& rng)
{
    m_cpuNs += q(rng.range(300, 1000));
    const int64_t ts = m_cpuNs;
    // The CPU blocks until every stream has drained.
    const int64_t end = std::max({ts + q(rng.range(5 * kUs, 8 * kUs)), m_streamEnd[0] + q(rng.range(2 * kUs, 5 * kUs)),
                                  m_streamEnd[1] + q(rng.range(2 * kUs, 5 * kUs))});
    if (m_writer)
        m_writer->runtimeEvent(m_program.names[instr.name], m_tid[instr.thread], ts, end - ts,
                               currentExternalId(instr.thread), ++m_correlation, m_program.cpuArgs[instr.args]);
    m_cpuNs = end;
}

void RankSim::emitGpu(uint16_t gpuOp, int64_t launchNs, int64_t startNs, int64_t endNs, int64_t externalId,
                      int64_t correlation, bool flows, int thread)
{
    const SynthGpuOp& op = m_program.gpuOps[gpuOp];
    if (op.stream == SynthStream::Compute && op.type != SynthGpuType::Other) {
        for (GpuAnnotation& annotation : m_annotations) {
            annotation.firstNs = std::min(annotation.firstNs, startNs);
            annotation.lastNs = std::max(annotation.lastNs, endNs);
        }
    }
    if (m_output) {
        SynthGpuRecord record;
        record.startNs = startNs;
        record.endNs = endNs;
        record.launchNs = launchNs;
        record.gpuOp = gpuOp;
        record.launchedInLastStep = lastStep();
        m_output->gpu.push_back(record);
        m_output->lastEndNs = std::max(m_output->lastEndNs, endNs);
    }
    if (!m_writer)
        return;
    if (flows)
        m_writer->flowStart(m_tid[thread], launchNs, correlation);
    m_writer->gpuEvent(op, startNs, endNs - startNs, externalId, correlation);
    if (flows)
        m_writer->flowEnd(streamNumber(op.stream), startNs, correlation);
}

} // namespace

SynthCollectivePlan planCollectives(const SynthContext& context)
{
    const SynthProgram& program = *context.program;
    const int ranks = context.options->ranks;
    SynthCollectivePlan plan;
    plan.collectivesPerStep = int(program.collectiveInstrs.size());
    plan.endNs.resize(size_t(context.totalSteps) * size_t(plan.collectivesPerStep));
    plan.lateNs.assign(size_t(ranks), 0);
    plan.ranks = ranks;
    plan.startNs.resize(plan.endNs.size() * size_t(ranks));

    std::vector<RankSim> sims;
    sims.reserve(size_t(ranks));
    for (int rank = 0; rank < ranks; ++rank)
        sims.emplace_back(context, rank, nullptr, nullptr);
    std::vector<int64_t> starts(static_cast<size_t>(ranks));
    for (int step = 0; step < context.totalSteps; ++step) {
        for (RankSim& sim : sims)
            sim.beginStep(step);
        for (int k = 0; k < plan.collectivesPerStep; ++k) {
            int64_t latest = std::numeric_limits<int64_t>::min();
            int64_t earliest = std::numeric_limits<int64_t>::max();
            for (int rank = 0; rank < ranks; ++rank) {
                [[maybe_unused]] const bool atCollective = sims[size_t(rank)].runUntilCollective();
                assert(atCollective);
                starts[size_t(rank)] = sims[size_t(rank)].pendingStart();
                plan.startNs[(size_t(step) * size_t(plan.collectivesPerStep) + size_t(k)) * size_t(ranks) + size_t(rank)] =
                    starts[size_t(rank)];
                latest = std::max(latest, starts[size_t(rank)]);
                earliest = std::min(earliest, starts[size_t(rank)]);
            }
            // Every rank's NCCL kernel ends when the last rank has joined and the data has moved.
            const int collectiveInstr = program.collectiveInstrs[size_t(k)];
            const SynthGpuOp& op = program.gpuOps[program.instrs[size_t(collectiveInstr)].gpuOp];
            SynthRng rng(synthKey(context.options->seed, kTransferDraw, uint64_t(step), uint64_t(k)));
            int64_t transfer = op.baseDurNs + op.baseDurNs * rng.range(-100, 100) / 1000;
            if (context.quantumNs > 1)
                transfer = std::max(context.quantumNs, transfer / context.quantumNs * context.quantumNs);
            const int64_t end = latest + transfer;
            plan.endNs[size_t(step) * size_t(plan.collectivesPerStep) + size_t(k)] = end;
            for (int rank = 0; rank < ranks; ++rank) {
                sims[size_t(rank)].finishCollective(end);
                if (step < context.totalSteps - 1)
                    plan.lateNs[size_t(rank)] += starts[size_t(rank)] - earliest;
            }
        }
        for (RankSim& sim : sims) {
            [[maybe_unused]] const bool atCollective = sim.runUntilCollective();
            assert(!atCollective);
        }
    }
    return plan;
}

void simulateRank(const SynthContext& context, const SynthCollectivePlan& plan, int rank, SynthTraceWriter* writer,
                  SynthRankOutput& output)
{
    RankSim sim(context, rank, writer, &output);
    for (int step = 0; step < context.totalSteps; ++step) {
        sim.beginStep(step);
        int k = 0;
        while (sim.runUntilCollective()) {
            sim.finishCollective(plan.endNs[size_t(step) * size_t(plan.collectivesPerStep) + size_t(k)]);
            ++k;
        }
    }
}

} // namespace kscope
