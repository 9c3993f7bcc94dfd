// Trace health (analysis/core/tracehealth.h): every check fires on a run built to have its
// problem, and only there; files that fail, are cut short or hold refused events are named; the
// synthetic run is healthy; a run whose clocks are off by milliseconds says so; and
// kinetoscope-cli health prints it.

#include "analysis/collectives/collectives.h"
#include "analysis/core/tracehealth.h"
#include "model/loader.h"
#include "model/synth/synthrun.h"
#include "support/htarulestrace.h"
#include "support/runbuilder.h"
#include "testsupport.h"

#include <QtTest>

#include <map>
#include <set>
#include <string>

using namespace kscope;
using namespace kscope::test;

namespace {

// The checks found per rank number: {rank: {check: count}}.
std::map<int, std::map<std::string, int64_t>> checksByRank(const TraceHealth& health)
{
    std::map<int, std::map<std::string, int64_t>> out;
    for (const HealthProblem& problem : health.problems)
        out[problem.rank][toString(problem.check)] += problem.count;
    return out;
}

// Rank 0: GPU work without CPU ops, with one problem of each GPU-side kind; rank 1: clean steps
// (ops, launches matched); rank 2: the same with one step fewer (two where the others have three). Every rank has ProfilerSteps: the
// last-step trimming keeps the first step's work (a rank without steps would lose everything).
std::shared_ptr<Run> problemRun()
{
    RunBuilder b;
    b.rank(0);
    b.onThread(1, 1).cpu("ProfilerStep#1", 0, 100, -1, "user_annotation");
    b.onThread(1, 1).cpu("ProfilerStep#2", 100, 100, -1, "user_annotation");
    b.onThread(1, 1).cpu("ProfilerStep#3", 200, 100, -1, "user_annotation");
    b.onThread(1, 1).launched("k_ok", 7, 1, 5, 10);           // [5, 15]
    b.onThread(0, 7).gpu("k_overlapping", 7, 12, 10, -1);     // starts before k_ok ended
    b.onThread(0, 7).gpu("k_zero", 7, 40, 0, -1);
    b.onThread(0, 7).gpu("k_orphan", 7, 50, 5, 777);          // its launch is not in the trace
    b.onThread(1, 1).cpu("cudaLaunchKernel", 60, 2, 888);     // its kernel is not in the trace
    b.onThread(0, 20).gpu("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 20, 70, 20, -1);
    for (int rank : {1, 2}) {
        b.rank(rank);
        for (int step = 0; step < 4 - rank; ++step) {
            const double t = step * 100.0;
            b.onThread(1, 1).cpu("ProfilerStep#" + std::to_string(step + 1), t, 90, -1, "user_annotation");
            b.onThread(1, 1).cpu("aten::relu", t + 1, 20, -1, "cpu_op");
            b.onThread(1, 1).launched("relu_kernel", 7, t + 2, t + 10, 5);
        }
    }
    return b.build();
}

} // namespace

class TraceHealthTest : public QObject {
    Q_OBJECT

private slots:
    void everyCheckFiresWhereItsProblemIs()
    {
        const auto run = problemRun();
        const TraceHealth health = traceHealth(*run);
        QVERIFY2(health.error.empty(), health.error.c_str());
        auto checks = checksByRank(health);
        const std::map<std::string, int64_t> want{
            {"gpu_op_without_launch", 4},  // k_overlapping, k_zero, k_orphan and the NCCL kernel
            {"launch_without_gpu_op", 1}, {"overlap_on_stream", 1}, {"zero_duration_gpu_op", 1},
            {"no_cpu_ops", 1},            {"no_record_param_comms", 1},
            {"microsecond_timestamps", 1},  // k_zero: whole-us times say nothing of a sub-us op
        };
        QCOMPARE(checks[0], want);
        // Rank 2 has two steps where the others have three.
        QCOMPARE(checks[2], (std::map<std::string, int64_t>{{"step_count_differs", 1}}));
        QVERIFY(checks[1].empty());
        QCOMPARE(health.ranksWithProblems, 2);
        QCOMPARE(health.ranksChecked, 3);
        // Each problem names an instance and what it degrades.
        for (const HealthProblem& problem : health.problems) {
            QVERIFY(!problem.example.empty());
            QVERIFY(!affectedAnalyses(problem.check).empty());
        }
        for (const HealthProblem& problem : health.problems) {
            if (problem.check == HealthCheck::OverlapOnStream)
                QVERIFY2(problem.example.starts_with("k_overlapping at 12.000 us on stream 7"), problem.example.c_str());
            if (problem.check == HealthCheck::LaunchWithoutGpuOp)
                QVERIFY2(problem.example.starts_with("cudaLaunchKernel at 60.000 us"), problem.example.c_str());
        }
    }

    // A run without ProfilerSteps loses nothing to trimming, and says it has none.
    // The same 0 us kernel timed in nanoseconds is known to the nanosecond: no coarse-time info,
    // and the example names the op and how many of the rank's GPU ops are that short.
    void coarseTimestampsAreNotedOnlyWhereTheyAre()
    {
        const auto run = problemRun();
        const TraceHealth coarse = traceHealth(*run);
        const auto it = std::find_if(coarse.problems.begin(), coarse.problems.end(), [](const HealthProblem& p) {
            return p.check == HealthCheck::MicrosecondTimestamps;
        });
        QVERIFY(it != coarse.problems.end());
        QCOMPARE(it->rank, 0);
        QVERIFY2(it->example.find("1 of 5 GPU ops last 1 us or less, e.g. k_zero") == 0, it->example.c_str());
        QCOMPARE(severityOf(HealthCheck::MicrosecondTimestamps), HealthSeverity::Info);
        for (RankTrace& rank : run->ranks)
            rank.metadata.fractionalTimestamps = true;
        QCOMPARE(checksByRank(traceHealth(*run))[0].count("microsecond_timestamps"), size_t(0));
    }

    void missingStepsAreNoted()
    {
        RunBuilder b;
        b.rank(0);
        b.onThread(1, 1).cpu("aten::relu", 0, 20, -1, "cpu_op");
        b.onThread(1, 1).launched("relu_kernel", 7, 2, 10, 5);
        const TraceHealth health = traceHealth(*b.build());
        QCOMPARE(checksByRank(health)[0], (std::map<std::string, int64_t>{{"no_profiler_steps", 1}}));
        QCOMPARE(health.ranksWithProblems, 0);  // an info, not a warning
    }

    // A file that is no JSON, one cut short, one with a refused event: each named with its reason.
    void filesAndRefusedEventsAreNamed()
    {
        const auto dir = scratchDir("health-files");
        using namespace kscope::test::hta;
        const std::string good = traceText({x("cpu_op", "aten::mm", "10", "5"), R"({"ph": "X", "name": "no_ts", "dur": 1})"},
                                           rankHead(0));
        writeFile(dir / "rank0.json", good);
        const std::string cut = traceText({x("cpu_op", "aten::mm", "10", "5"), x("cpu_op", "aten::mm", "20", "5")}, rankHead(1));
        writeFile(dir / "rank1.json", cut.substr(0, cut.size() - 60));
        writeFile(dir / "rank2.json", "this is not json");
        const auto run = loadRun(dir, LoadOptions{});
        const TraceHealth health = traceHealth(*run);
        std::set<std::string> found;
        for (const HealthProblem& problem : health.problems)
            found.insert(std::to_string(problem.rank) + ":" + toString(problem.check));
        QVERIFY2(found.count("0:bad_events"), "the refused event");
        QVERIFY2(found.count("1:file_partial"), "the file cut short");
        QVERIFY(found.count("-1:file_failed") || found.count("2:file_failed"));
        QCOMPARE(health.problems.front().check, HealthCheck::FileFailed);  // files without a rank first
        for (const HealthProblem& problem : health.problems)
            if (problem.check == HealthCheck::FileFailed)
                QVERIFY2(problem.example.find("rank2.json") != std::string::npos, problem.example.c_str());
    }

    void synthRunIsHealthy()
    {
        const auto dir = scratchDir("health-synth");
        SynthOptions options;
        options.ranks = 4;
        options.steps = 2;
        QVERIFY(writeSynthRun(dir, options).ok);
        const TraceHealth health = traceHealth(*loadRun(dir, LoadOptions{}));
        QVERIFY2(health.problems.empty(), health.problems.empty() ? "" : toString(health.problems.front().check));
        QCOMPARE(health.notes.back(), std::string("no problem found on 4 ranks"));
    }

    // Clocks off by up to 3 ms, far more than the collectives' waits: every rank whose offset
    // exceeds the median wait is named, and only those.
    void clocksOffByMoreThanTheWaitsAreNamed()
    {
        const auto dir = scratchDir("health-skew");
        SynthOptions options;
        options.ranks = 4;
        options.steps = 3;
        options.clockSkewNs = 3'000'000;
        QVERIFY(writeSynthRun(dir, options).ok);
        const auto run = loadRun(dir, LoadOptions{});
        const TraceHealth health = traceHealth(*run);
        const ClockSkew skew = matchCollectives(*run, {.compareWithHta = false}).clockSkew;
        std::set<int> flagged, expected;
        for (const HealthProblem& problem : health.problems)
            if (problem.check == HealthCheck::ClockSkew)
                flagged.insert(problem.rank);
        for (const RankClockOffset& offset : skew.ranks)
            if (offset.reliable && offsetExceedsWaits(skew, offset.offsetNs))
                expected.insert(offset.rank);
        QVERIFY(!expected.empty());
        QCOMPARE(flagged, expected);
        for (int rank = 1; rank < 4; ++rank)
            if (std::llabs(synthClockOffsetNs(options, rank)) > 1'000'000)
                QVERIFY2(flagged.count(rank), std::to_string(rank).c_str());
    }

    void cliPrintsTheProblems()
    {
        const auto dir = scratchDir("health-cli");
        using namespace kscope::test::hta;
        writeFile(dir / "rank0.json", traceText({x("cpu_op", "aten::mm", "10", "5")}, rankHead(0)));
        writeFile(dir / "rank1.json", "this is not json");
        const CommandResult failing = runCli("health " + dir.string() + " --format csv");
        QCOMPARE(failing.exitCode, 3);  // a file failed: incomplete, as every command says
        QVERIFY2(failing.out.starts_with("rank,check,severity,count,affects,example"), failing.out.c_str());
        QVERIFY(failing.out.find(",file_failed,error,1,") != std::string::npos);
        QVERIFY(failing.out.find("0,no_gpu_activity,warning,1,") != std::string::npos);
        const CommandResult partialOk = runCli("health " + dir.string() + " --format csv --allow-partial");
        QCOMPARE(partialOk.exitCode, 0);
        const CommandResult missing = runCli("health " + (dir / "nope").string());
        QVERIFY(missing.exitCode != 0);
    }
};

QTEST_APPLESS_MAIN(TraceHealthTest)
#include "tst_tracehealth.moc"
