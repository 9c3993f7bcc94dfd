// Idle-gap causes (analysis/core/idlecauses.h): a hand-built rank with one gap of every cause,
// placed so that each gap's answer is known by construction; the totals against the idle
// breakdown's gaps; the synthetic run's placed stalls (data loader, metrics logging, the optimizer
// waiting on the all-reduce); and kinetoscope-cli idle-causes.

#include "analysis/core/idlecauses.h"
#include "analysis/core/idletime.h"
#include "analysis/tables/idlecausetables.h"
#include "model/loader.h"
#include "model/synth/synthrun.h"
#include "support/runbuilder.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace kscope;
using namespace kscope::test;

namespace {

constexpr int kCompute = 7;
constexpr int kComm = 20;

// One rank: a main thread (1, 1) launching onto stream 7 (and once onto stream 20), with the gaps
// below, all inside ProfilerStep#1 (a marker, never a cause). Times in us.
std::shared_ptr<Run> everyCauseRun()
{
    RunBuilder b;
    b.rank(0);
    int64_t correlation = 0;
    auto host = [&b](const std::string& name, double ts, double dur, const std::string& cat) {
        b.onThread(1, 1).cpu(name, ts, dur, -1, cat);
    };
    auto launch = [&](const std::string& kernel, int stream, double launchTs, double launchDur, double ts, double dur) {
        ++correlation;
        b.onThread(1, 1).cpu("cudaLaunchKernel", launchTs, launchDur, correlation);
        b.onThread(0, stream).gpu(kernel, stream, ts, dur, correlation);
    };
    host("ProfilerStep#1", 0, 2100, "user_annotation");
    launch("k0", kCompute, 0, 1, 10, 10);                      // [10, 20]
    host("cudaStreamSynchronize", 15, 105, "cuda_runtime");    // gap [20, 125]: synchronization
    launch("k1_after_sync", kCompute, 121, 1, 125, 5);
    host("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 130, 170, "user_annotation");
    launch("k2_after_data", kCompute, 301, 1, 305, 5);        // gap [130, 305]: data loading
    host("Optimizer.step#SGD.step", 310, 285, "user_annotation");
    host("aten::_foreach_add_", 320, 10, "cpu_op");            // inside the step: still the optimizer
    launch("k3_after_optimizer", kCompute, 590, 1, 595, 5);   // gap [310, 595]
    host("log_metrics", 600, 300, "user_annotation");
    host("aten::copy_", 610, 270, "cpu_op");                   // the innermost op spanning most of it
    launch("k4_after_cpu", kCompute, 901, 1, 905, 5);         // gap [600, 905]: cpu_op aten::copy_
    launch("k5_slow_launch", kCompute, 905, 95, 1002, 8);     // gap [910, 1002]: the launch call
    launch("ncclKernel_AllReduce", kComm, 1005, 1, 1010, 490); // [1010, 1500] on stream 20
    host("cudaStreamWaitEvent", 1011, 1, "cuda_runtime");
    launch("k6_after_wait", kCompute, 1013, 1, 1501, 9);      // gap [1010, 1501]: stream wait
    launch("k7_queued", kCompute, 1520, 1, 1700, 10);         // gap [1510, 1700]: gpu queued
    launch("k8_idle_host", kCompute, 1900, 1, 1905, 5);       // gap [1710, 1905]: no host activity
    b.onThread(0, kCompute).gpu("k9_no_launch", kCompute, 2000, 10, 999);  // gap [1910, 2000]
    host("ProfilerStep#2", 2100, 100, "user_annotation");
    return b.build();
}

struct Expected {
    const char* next;
    IdleCause cause;
    const char* causeOp;  // "" = none
    double causeUs;
};

const IdleCauseGap* gapBefore(const Run& run, const IdleCauses& result, const std::string& next)
{
    for (const IdleCauseGap& gap : result.gaps)
        if (run.str(run.at(gap.rankIndex).events.name[gap.next]) == next)
            return &gap;
    return nullptr;
}

// The gaps the generator placed, from truth.json: {rank, stream, startNs, endNs} -> cause.
struct PlacedGap {
    int rank;
    int stream;
    int64_t startNs, endNs;
    std::string cause;
};
std::vector<PlacedGap> keptPlacedGaps(const std::filesystem::path& truthFile)
{
    QFile file(QString::fromStdString(truthFile.string()));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", truthFile.c_str());
    std::vector<PlacedGap> out;
    for (const QJsonValue rank : QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("ranks")).toArray())
        for (const QJsonValue v : rank.toObject().value(QLatin1String("placedGaps")).toArray()) {
            const QJsonObject gap = v.toObject();
            if (gap.value(QLatin1String("kept")).toBool())
                out.push_back({rank.toObject().value(QLatin1String("rank")).toInt(), gap.value(QLatin1String("stream")).toInt(),
                               int64_t(gap.value(QLatin1String("startNs")).toDouble()),
                               int64_t(gap.value(QLatin1String("endNs")).toDouble()),
                               gap.value(QLatin1String("cause")).toString().toStdString()});
        }
    return out;
}

std::shared_ptr<Run> synthRun()
{
    SynthOptions options;
    options.ranks = 2;
    options.steps = 3;
    options.seed = 5;
    options.nsTimestamps = true;
    const auto dir = scratchDir("idlecauses-synth");
    const SynthResult written = writeSynthRun(dir, options);
    if (!written.ok)
        qFatal("synth failed: %s", written.error.c_str());
    return loadRun(dir, LoadOptions{});
}

} // namespace

class IdleCausesTest : public QObject {
    Q_OBJECT

private slots:
    void everyGapGetsItsCause_data()
    {
        QTest::addColumn<QString>("next");
        QTest::addColumn<int>("cause");
        QTest::addColumn<QString>("causeOp");
        QTest::addColumn<double>("causeUs");
        const Expected expected[] = {
            {"k1_after_sync", IdleCause::Synchronization, "cudaStreamSynchronize", 100},
            {"k2_after_data", IdleCause::DataLoading, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 170},
            {"k3_after_optimizer", IdleCause::OptimizerStep, "Optimizer.step#SGD.step", 280},
            {"k4_after_cpu", IdleCause::CpuOp, "aten::copy_", 300},
            {"k5_slow_launch", IdleCause::LaunchOverhead, "cudaLaunchKernel", 92},
            {"k6_after_wait", IdleCause::StreamWait, "ncclKernel_AllReduce", 487},
            {"k7_queued", IdleCause::GpuQueued, "cudaLaunchKernel", 179},
            {"k8_idle_host", IdleCause::NoHostActivity, "", 190},
            {"k9_no_launch", IdleCause::LaunchNotInTrace, "", 90},
        };
        for (const Expected& e : expected)
            QTest::newRow(e.next) << QString(e.next) << int(e.cause) << QString(e.causeOp) << e.causeUs;
    }

    void everyGapGetsItsCause()
    {
        QFETCH(QString, next);
        QFETCH(int, cause);
        QFETCH(QString, causeOp);
        QFETCH(double, causeUs);
        const auto run = everyCauseRun();
        const IdleCauses result = idleCauses(*run, {.listGaps = true});
        QVERIFY2(result.error.empty(), result.error.c_str());
        const IdleCauseGap* gap = gapBefore(*run, result, next.toStdString());
        QVERIFY2(gap, "no gap before the op");
        QCOMPARE(toString(gap->cause), toString(static_cast<IdleCause>(cause)));
        QCOMPARE(QString::fromStdString(gap->causeName), causeOp);
        QCOMPARE(double(gap->causeNs) / 1000.0, causeUs);
        // A GPU op's step is its launch's: the op without one is outside every step.
        QCOMPARE(gap->step, next == "k9_no_launch" ? -1 : 1);
    }

    // Every cause appears once; the totals are the gaps' lengths, and those are the idle
    // breakdown's: causes explain the same idle time, no more, no less.
    void totalsAreTheIdleBreakdownsGaps()
    {
        const auto run = everyCauseRun();
        const IdleCauses result = idleCauses(*run, {});
        QCOMPARE(result.totalGaps, int64_t{9});
        QCOMPARE(int(result.byRank.size()), kIdleCauseCount);
        int64_t sum = 0;
        for (const IdleCauseRow& row : result.byRank) {
            QCOMPARE(row.gaps, int64_t{1});
            sum += row.idleNs;
        }
        QCOMPARE(sum, result.totalIdleNs);
        const IdleTime idle = idleTimeBreakdown(*run, {});
        int64_t idleNs = 0;
        for (const IdleTimeRow& row : idle.rows)
            idleNs += row.idleNs;
        QCOMPARE(result.totalIdleNs, idleNs);
        // Per stream: each cause's streams add up to its rank total, and each stream's ratios to 1.
        std::map<IdleCause, int64_t> byCause;
        std::map<int, double> ratioOfStream;
        for (const IdleCauseRow& row : result.byStream) {
            QVERIFY(row.stream >= 0);
            byCause[row.cause] += row.idleNs;
            ratioOfStream[row.stream] += row.ratio;
        }
        for (const IdleCauseRow& row : result.byRank)
            QCOMPARE(byCause[row.cause], row.idleNs);
        for (const auto& [stream, ratio] : ratioOfStream)
            QVERIFY2(std::abs(ratio - 1.0) < 1e-9, qPrintable(QString::number(stream)));
        // Per step: all of it in ProfilerStep 1 but the gap before the op with no launch.
        QCOMPARE(int(result.byStep.size()), kIdleCauseCount);
        for (const IdleCauseRow& row : result.byStep)
            QCOMPARE(row.step, row.cause == IdleCause::LaunchNotInTrace ? -1 : 1);
        QCOMPARE(result.byStep.front().cause, IdleCause::LaunchNotInTrace);  // step -1 first
    }

    void streamsAndRanksNarrowTheGaps()
    {
        const auto run = everyCauseRun();
        IdleCausesOptions onlyComm;
        onlyComm.streams = {kComm};
        QCOMPARE(idleCauses(*run, onlyComm).totalGaps, int64_t{0});
        IdleCausesOptions missing;
        missing.ranks = {RankIndex{5}};
        const IdleCauses none = idleCauses(*run, missing);
        QVERIFY(!none.error.empty());
        QVERIFY(!none.notes.empty());
    }

    // A data-load name asked for turns the logging stall into data loading.
    void dataLoadNamesAreHonoured()
    {
        const auto run = everyCauseRun();
        IdleCausesOptions options;
        options.listGaps = true;
        options.dataLoadNames = {"log_metrics"};
        const IdleCauses result = idleCauses(*run, options);
        const IdleCauseGap* gap = gapBefore(*run, result, "k4_after_cpu");
        QVERIFY(gap);
        QCOMPARE(toString(gap->cause), "data_loading");
        QCOMPARE(gap->causeName, std::string("log_metrics"));
    }

    // The generator places three stalls each step (model/synth/synthrun.h): the data loader at
    // the step's start and metrics logging mid-forward drain the compute stream while the host is
    // busy; the optimizer's first kernel is queued early and waits (cudaStreamWaitEvent) for the
    // last all-reduce. Each gap they open gets its cause on every rank and kept step.
    void synthStallsGetTheirCauses()
    {
        const auto run = synthRun();
        const IdleCauses result = idleCauses(*run, {.streams = {kCompute}, .listGaps = true});
        QVERIFY2(result.error.empty(), result.error.c_str());
        std::map<std::string, int> gapsByCause;
        for (const IdleCauseGap& gap : result.gaps) {
            if (gap.endNs - gap.startNs < 50'000)
                continue;  // the stalls are hundreds of us long; the 1-6 us jitter gaps are not placed
            const std::string cause = toString(gap.cause);
            const std::string next(run->str(run->at(gap.rankIndex).events.name[gap.next]));
            ++gapsByCause[cause];
            if (cause == "data_loading") {
                QCOMPARE(gap.causeName, std::string("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
                QCOMPARE(next, std::string("Memcpy HtoD (Pageable -> Device)"));  // the step's input copy
            } else if (cause == "cpu_op") {
                QCOMPARE(gap.causeName, std::string("log_metrics"));
            } else if (cause == "stream_wait") {
                QVERIFY2(gap.causeName.starts_with("ncclDevKernel_AllReduce"), gap.causeName.c_str());
                QVERIFY2(next.find("multi_tensor_apply_kernel") != std::string::npos, next.c_str());  // optimizer
            } else {
                QFAIL(("a gap the generator did not place: " + cause + " before " + next).c_str());
            }
        }
        // 2 ranks x 3 kept steps; the first step's data loader runs before the stream's first op,
        // so no gap precedes it.
        QCOMPARE(gapsByCause["data_loading"], 2 * 2);
        QCOMPARE(gapsByCause["cpu_op"], 2 * 3);
        QCOMPARE(gapsByCause["stream_wait"], 2 * 3);
        // The short gaps between queued kernels are launch overhead, as HTA's kernel wait.
        for (const IdleCauseGap& gap : result.gaps)
            if (gap.endNs - gap.startNs < 30'000)
                QCOMPARE(toString(gap.cause), "launch_overhead");
    }

    // Per-gap truth: every gap the generator placed (truth.json's placedGaps, with the cause it
    // built in) is a gap of idle-causes, to the nanosecond, with that cause. The default step
    // places data_loading, cpu_op and stream_wait; --idle-cause-stalls adds synchronization,
    // optimizer_step and gpu_queued. (launch_not_in_trace and no_host_activity are the hand-built
    // run's: a generated trace always records its launches and its host.)
    void placedGapsGetTheTruthsCause_data()
    {
        QTest::addColumn<bool>("stalls");
        QTest::addColumn<QStringList>("causes");
        QTest::newRow("default") << false << QStringList{"cpu_op", "data_loading", "stream_wait"};
        QTest::newRow("idle-cause stalls") << true
                                           << QStringList{"cpu_op", "data_loading", "gpu_queued", "optimizer_step",
                                                          "synchronization"};
    }
    void placedGapsGetTheTruthsCause()
    {
        QFETCH(bool, stalls);
        QFETCH(QStringList, causes);
        SynthOptions options;
        options.ranks = 3;
        options.steps = 3;
        options.seed = 9;
        options.nsTimestamps = true;
        options.stragglerRank = 1;
        options.idleCauseStalls = stalls;
        const auto dir = scratchDir(stalls ? "idlecauses-placed-stalls" : "idlecauses-placed");
        const SynthResult written = writeSynthRun(dir, options);
        QVERIFY2(written.ok, written.error.c_str());
        const std::vector<PlacedGap> truth = keptPlacedGaps(written.truthFile);
        const auto run = loadRun(dir, LoadOptions{});
        const IdleCauses result = idleCauses(*run, {.listGaps = true});
        QVERIFY2(result.error.empty(), result.error.c_str());
        std::map<std::tuple<int, int, int64_t, int64_t>, std::string> found;
        for (const IdleCauseGap& gap : result.gaps)
            found[{gap.rank, gap.stream, gap.startNs, gap.endNs}] = toString(gap.cause);
        std::set<std::string> seen;
        for (const PlacedGap& placed : truth) {
            const auto it = found.find({placed.rank, placed.stream, placed.startNs, placed.endNs});
            QVERIFY2(it != found.end(), qPrintable(QStringLiteral("rank %1: the %2 gap at %3 ns is not a gap of idle-causes")
                                                       .arg(placed.rank).arg(QString::fromStdString(placed.cause))
                                                       .arg(placed.startNs)));
            QVERIFY2(it->second == placed.cause, qPrintable(QStringLiteral("rank %1 at %2 ns: placed %3, found %4")
                                                                .arg(placed.rank).arg(placed.startNs)
                                                                .arg(QString::fromStdString(placed.cause),
                                                                     QString::fromStdString(it->second))));
            seen.insert(placed.cause);
        }
        QStringList seenList;
        for (const std::string& cause : seen)
            seenList << QString::fromStdString(cause);
        QCOMPARE(seenList, causes);
        // Every rank and kept step: the first step's loader comes before the stream's first op.
        QCOMPARE(std::count_if(truth.begin(), truth.end(), [](const PlacedGap& g) { return g.cause == "data_loading"; }),
                 std::ptrdiff_t(3 * 2));
        for (const std::string cause : {"cpu_op", stalls ? "synchronization" : "stream_wait"})
            QCOMPARE(std::count_if(truth.begin(), truth.end(), [&](const PlacedGap& g) { return g.cause == cause; }),
                     std::ptrdiff_t(3 * 3));
        // The CLI reads the same: --idle-cause-stalls writes the run.
        if (stalls) {
            const auto cliDir = scratchDir("idlecauses-placed-cli");
            const CommandResult synth = runCli("synth " + cliDir.string() + " --ranks 2 --steps 2 --idle-cause-stalls");
            QCOMPARE(synth.exitCode, 0);
            const CommandResult byCause = runCli("idle-causes " + cliDir.string() + " --format csv");
            for (const char* cause : {",synchronization,", ",optimizer_step,", ",gpu_queued,"})
                QVERIFY2(byCause.out.find(cause) != std::string::npos, byCause.out.c_str());
        }
    }

    void cliPrintsCausesStepsAndGaps()
    {
        const auto dir = scratchDir("idlecauses-cli");
        SynthOptions options;
        options.ranks = 2;
        options.steps = 2;
        QVERIFY(writeSynthRun(dir, options).ok);
        const CommandResult causes = runCli("idle-causes " + dir.string() + " --format csv");
        QCOMPARE(causes.exitCode, 0);
        QVERIFY2(causes.out.starts_with("rank,cause,gaps,idle_time (us),ratio,partial\n"), causes.out.c_str());
        QVERIFY(causes.out.find(",data_loading,") != std::string::npos);
        const CommandResult steps = runCli("idle-causes " + dir.string() + " --by-step --format csv");
        QCOMPARE(steps.exitCode, 0);
        QVERIFY(steps.out.starts_with("rank,step,cause,"));
        const CommandResult gaps = runCli("idle-causes " + dir.string() + " --gaps --ranks 1 --format csv");
        QCOMPARE(gaps.exitCode, 0);
        QVERIFY(gaps.out.starts_with("rank,stream,step,start (us),duration (us),cause,cause_time (us),cause_op,next,partial\n"));
        QVERIFY(gaps.out.find("\n0,") == std::string::npos);  // rank 1 only
        const CommandResult streams = runCli("idle-causes " + dir.string() + " --by-stream --format csv");
        QCOMPARE(streams.exitCode, 0);
        QVERIFY(streams.out.starts_with("rank,stream,cause,"));
        QVERIFY(streams.out.find("\n0,7,data_loading,") != std::string::npos);
        const CommandResult both = runCli("idle-causes " + dir.string() + " --gaps --by-step");
        QCOMPARE(both.exitCode, 1);
        QCOMPARE(runCli("idle-causes " + dir.string() + " --by-stream --by-step").exitCode, 1);
        const CommandResult wrong = runCli("idle-causes " + dir.string() + " --streams x");
        QCOMPARE(wrong.exitCode, 1);
    }
};

QTEST_APPLESS_MAIN(IdleCausesTest)
#include "tst_idlecauses.moc"
