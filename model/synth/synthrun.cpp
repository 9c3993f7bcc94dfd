#include "synthrun.h"

#include "synthprogram.h"
#include "synthrandom.h"
#include "synthsim.h"
#include "synthtruth.h"
#include "synthwriter.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <mutex>
#include <system_error>
#include <thread>

namespace kscope {

namespace {

// The trace clock at the profiler start: recent Kineto writes ts relative to baseTimeNanoseconds,
// which leaves values of about two weeks in microseconds.
constexpr int64_t kClockStartNs = 1'212'075'548'353'000;

int64_t countFixedEvents()
{
    // process name/labels/sort x2, thread name/sort for 2 streams and 2 CPU threads, the span,
    // its sort index and two instants.
    return 6 + 4 + 4 + 1 + 1 + 2;
}

struct RankJob {
    SynthRankTruth truth;
    uint64_t fileBytes = 0;
    uint64_t jsonBytes = 0;
    std::string error;
};

std::string traceFileName(int rank, bool gzip)
{
    return "rank" + std::to_string(rank) + ".pt.trace.json" + (gzip ? ".gz" : "");
}

// Writes one rank and computes its truth.
void writeRank(const SynthContext& context, const SynthCollectivePlan& plan, const std::filesystem::path& outDir,
               int rank, RankJob& job)
{
    const SynthOptions& options = *context.options;
    const std::string fileName = traceFileName(rank, options.gzip);
    SynthTraceWriter writer(outDir / fileName, options.gzip, options.gzipLevel, options.nsTimestamps);
    if (!writer.open()) {
        job.error = writer.error();
        return;
    }
    writer.setClockOffset(synthClockOffsetNs(options, rank));
    SynthRankIdentity identity;
    identity.rank = rank;
    identity.worldSize = options.ranks;
    identity.pid = synthPid(rank);
    identity.mainTid = synthPid(rank);
    identity.autogradTid = synthAutogradTid(rank);
    identity.device = synthDevice(rank);
    identity.amd = options.device == SynthOptions::Device::Amd;
    writer.writeHeader(identity, options.baseTimeNs, fileName);

    SynthRankOutput output;
    simulateRank(context, plan, rank, &writer, output);
    const int64_t spanEnd = std::max(output.lastEndNs, output.steps.empty() ? 0 : output.steps.back().endNs) +
                            context.quantumNs * 50;
    if (!writer.finish(context.clockStartNs, spanEnd)) {
        job.error = writer.error();
        return;
    }
    SynthRankTruth& truth = job.truth;
    truth.rank = rank;
    truth.file = fileName;
    truth.pid = identity.pid;
    truth.device = identity.device;
    truth.events = writer.events();
    truth.phaseCounts = writer.phaseCounts();
    truth.categoryCounts = writer.categoryCounts();
    truth.steps = std::move(output.steps);
    truth.placedGaps = std::move(output.placedGaps);
    truth.memory = std::move(output.memory);
    truth.deviceMemory = identity.amd ? kSynthAmdMemory : kSynthNvidiaMemory;
    truth.firstTsNs = output.firstTsNs;
    truth.collectiveLateNs = plan.lateNs[size_t(rank)];
    truth.all = computeScopeTruth(*context.program, output.gpu, SynthScope::All);
    truth.kept = computeScopeTruth(*context.program, output.gpu, SynthScope::Kept);
    truth.keptHtaRounded = computeScopeTruth(*context.program, output.gpu, SynthScope::KeptHtaRounded);
    job.fileBytes = writer.fileBytes();
    job.jsonBytes = writer.jsonBytes();
}

// JSON bytes of rank 0 with the given number of steps (nothing is written).
uint64_t measureJsonBytes(SynthContext context, int totalSteps)
{
    context.totalSteps = totalSteps;
    const SynthCollectivePlan plan = planCollectives(context);
    SynthTraceWriter writer({}, false, 1, context.options->nsTimestamps);
    writer.open();
    SynthRankIdentity identity;
    identity.worldSize = context.options->ranks;
    identity.pid = identity.mainTid = synthPid(0);
    identity.autogradTid = synthAutogradTid(0);
    identity.amd = context.options->device == SynthOptions::Device::Amd;
    writer.writeHeader(identity, context.options->baseTimeNs, traceFileName(0, false));
    SynthRankOutput output;
    simulateRank(context, plan, 0, &writer, output);
    writer.finish(context.clockStartNs, output.lastEndNs + 1000);
    return writer.jsonBytes();
}

std::string validate(const SynthOptions& options)
{
    if (options.ranks < 1 || options.ranks > 1'000'000)
        return "ranks must be between 1 and 1000000";
    if (options.steps < 1 && options.eventsPerRank <= 0 && options.sizePerRank == 0)
        return "steps must be at least 1";
    if (options.stragglerRank < -1 || options.stragglerRank >= options.ranks)
        return "straggler rank " + std::to_string(options.stragglerRank) + " is not a rank of this run";
    if (options.slowKernelRank < -2 || options.slowKernelRank >= options.ranks)
        return "slow-kernel rank " + std::to_string(options.slowKernelRank) + " is not a rank of this run";
    if (options.layers < 1 || options.layers > 1000)
        return "layers must be between 1 and 1000";
    return {};
}

} // namespace

int64_t synthClockOffsetNs(const SynthOptions& options, int rank)
{
    if (options.clockSkewNs <= 0 || rank == 0)
        return 0;
    const uint64_t span = 2 * uint64_t(options.clockSkewNs) + 1;
    return int64_t(synthKey(options.seed, 0xC10C, uint64_t(rank)) % span) - options.clockSkewNs;
}

bool parseByteSize(const std::string& text, uint64_t& bytes)
{
    if (text.empty())
        return false;
    size_t digits = 0;
    while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
        ++digits;
    if (digits == 0)
        return false;
    double value = 0.0;
    try {
        value = std::stod(text.substr(0, digits));
    } catch (...) {
        return false;
    }
    std::string unit = text.substr(digits);
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b'))
        unit.pop_back();
    if (unit.size() == 2 && (unit[1] == 'i' || unit[1] == 'I'))
        unit.pop_back();
    double scale = 1.0;
    if (unit.empty())
        scale = 1.0;
    else if (unit == "k" || unit == "K")
        scale = 1024.0;
    else if (unit == "m" || unit == "M")
        scale = 1024.0 * 1024.0;
    else if (unit == "g" || unit == "G")
        scale = 1024.0 * 1024.0 * 1024.0;
    else
        return false;
    bytes = uint64_t(value * scale);
    return true;
}

SynthResult writeSynthRun(const std::filesystem::path& outDir, const SynthOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    SynthResult result;
    result.error = validate(options);
    if (!result.error.empty())
        return result;

    std::error_code ec;
    std::filesystem::create_directories(outDir / "truth", ec);
    if (ec) {
        result.error = "cannot create " + (outDir / "truth").string() + ": " + ec.message();
        return result;
    }

    const SynthProgram program = buildSynthProgram(options);
    SynthContext context;
    context.options = &options;
    context.program = &program;
    context.quantumNs = options.nsTimestamps ? 1 : 1000;
    context.clockStartNs = kClockStartNs;
    context.stragglerRank = options.stragglerRank;
    context.slowKernelRank = options.slowKernelRank == -1 ? options.ranks - 1 : options.slowKernelRank;

    // Sizes decide the number of steps; the warm-down step is always added on top.
    int totalSteps = std::max(1, options.steps) + 1;
    if (options.eventsPerRank > 0) {
        const int64_t perStep = std::max(1, program.countEventsPerStep());
        const int64_t needed = std::max<int64_t>(0, options.eventsPerRank - countFixedEvents());
        totalSteps = int(std::max<int64_t>(2, (needed + perStep - 1) / perStep));
    } else if (options.sizePerRank > 0) {
        const uint64_t two = measureJsonBytes(context, 2);
        const uint64_t three = measureJsonBytes(context, 3);
        const uint64_t perStep = std::max<uint64_t>(1, three - two);
        const uint64_t fixed = two > 2 * perStep ? two - 2 * perStep : 0;
        const uint64_t needed = options.sizePerRank > fixed ? options.sizePerRank - fixed : 0;
        totalSteps = int(std::max<uint64_t>(2, (needed + perStep - 1) / perStep));
    }
    context.totalSteps = totalSteps;
    result.stepsPerRank = totalSteps;

    const SynthCollectivePlan plan = planCollectives(context);

    std::vector<RankJob> jobs(size_t(options.ranks));
    std::atomic<int> nextRank{0};
    auto worker = [&] {
        for (int rank = nextRank++; rank < options.ranks; rank = nextRank++) {
            writeRank(context, plan, outDir, rank, jobs[size_t(rank)]);
            // Stop handing out work after the first failure: the disk is probably full.
            if (!jobs[size_t(rank)].error.empty())
                nextRank = options.ranks;
        }
    };
    unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = std::min<unsigned>(threads, unsigned(options.ranks));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& thread : pool)
        thread.join();

    std::vector<SynthRankTruth> truths;
    truths.reserve(jobs.size());
    for (int rank = 0; rank < options.ranks; ++rank) {
        RankJob& job = jobs[size_t(rank)];
        if (!job.error.empty()) {
            result.error = job.error;
            return result;
        }
        result.files.push_back(outDir / job.truth.file);
        result.jsonBytes += job.jsonBytes;
        result.bytesWritten += job.fileBytes;
        result.events += job.truth.events;
        truths.push_back(std::move(job.truth));
    }

    result.truthFile = outDir / "truth" / "truth.json";
    uint64_t truthBytes = 0;
    result.error = writeSynthTruth(result.truthFile, context, plan, truths, truthBytes);
    if (!result.error.empty())
        return result;
    result.bytesWritten += truthBytes;
    result.ok = true;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace kscope
