// HTA-RULES.md §1.2, the rules and quirks of the analyses that other suites do not already pin
// (see the index in the README's HTA-rules list): each case loads the smallest trace written
// here and checks HTA's mode against what HTA's code gives (hta/analyzers/breakdown_analysis.py,
// trace_counters.py, cuda_kernel_analysis.py), and the default mode where it differs on purpose.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>/<concepts>; it only needs the test class
#include "analysis/launch/countertrace.h"
#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/launch/launchstats.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "analysis/core/temporalbreakdown.h"
#include "htarulestrace.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <cmath>

using namespace kscope;
using namespace kscope::test::hta;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<Run> load(const std::string& name, const std::vector<std::string>& files, bool htaCompat)
{
    const fs::path dir = test::scratchDir("hta-rules-a-" + name + (htaCompat ? "-hta" : ""));
    for (size_t i = 0; i < files.size(); ++i)
        test::writeFile(dir / ("rank" + std::to_string(i) + ".json"), files[i]);
    LoadOptions options;
    options.htaCompat = htaCompat;
    options.threads = 1;
    return loadRun(dir, options);
}

int64_t idleOf(const IdleTime& idle, IdleCategory category, double* ratio = nullptr)
{
    for (const IdleTimeRow& row : idle.rows)
        if (row.category == category) {
            if (ratio)
                *ratio = row.ratio;
            return row.idleNs;
        }
    return -1;
}

QString rowLabel(const Run& run, const KernelStatsRow& row)
{
    const std::string_view name = rowName(run, row);
    return QString::fromUtf8(name.data(), qsizetype(name.size())) + "@" + QString::number(row.rank);
}

// Kernel sums 40 (two launches, 15 and 25), 30, 20, 10 µs on one rank and stream.
std::string foldingTrace()
{
    return traceText({
        launchEv("0", 1), kernelEv("k_a", 7, "10", "15", 1),
        launchEv("1", 2), kernelEv("k_a", 7, "30", "25", 2),
        launchEv("2", 3), kernelEv("k_b", 7, "60", "30", 3),
        launchEv("3", 4), kernelEv("k_c", 7, "100", "20", 4),
        launchEv("4", 5), kernelEv("k_d", 7, "130", "10", 5),
    }, rankHead(0));
}

} // namespace

class TestHtaRulesAnalyses : public QObject {
    Q_OBJECT

private slots:
    // (1) The working set is every event on a stream, cuda_sync included: a Stream Wait Event
    // widens the span and is busy, not compute. Percentages are rounded to 2 decimals in HTA.
    void temporalCountsSyncOnAStream()
    {
        const std::string trace = traceText({
            launchEv("0", 1), kernelEv("gemm", 7, "10", "10", 1),
            launchEv("1", 2, "cudaStreamWaitEvent"), kernelEv("Stream Wait Event", 7, "30", "10", 2, "cuda_sync"),
        }, rankHead(0));
        for (const bool hta : {true, false}) {
            const auto run = load("temporal-sync", {trace}, hta);
            const TemporalBreakdown t = temporalBreakdown(*run, {.htaCompat = hta});
            QVERIFY2(t.error.empty(), t.error.c_str());
            QCOMPARE(t.rows.size(), size_t(1));
            const TemporalBreakdownRow& r = t.rows[0];
            QCOMPARE(r.spanNs, int64_t(30000));
            QCOMPARE(r.idleNs, int64_t(10000));
            QCOMPARE(r.computeNs, int64_t(10000));
            QCOMPARE(r.nonComputeNs, int64_t(10000));
            if (hta)
                QCOMPARE(r.computePctg, 33.33);
            else
                QVERIFY(std::abs(r.computePctg - 100.0 / 3) < 1e-9);
        }
    }

    // (2) With more than num_kernels names, rows at index >= num_kernels fold into "others"
    // (duration_ratio 1.0 makes the cumsum-quantile rule fold nothing); the table is then
    // re-aggregated over the sums: kept rows read max = min = mean = sum, std 0, and "others"
    // has the statistics of the folded kernels' sums (20 and 10: std 7.07 with ddof 1).
    void kernelFoldingByCount_data()
    {
        QTest::addColumn<bool>("hta");
        QTest::newRow("hta") << true;
        QTest::newRow("default") << false;
    }
    void kernelFoldingByCount()
    {
        QFETCH(bool, hta);
        const auto run = load("fold-count", {foldingTrace()}, hta);
        const KernelBreakdown k = kernelBreakdown(*run, {.htaCompat = hta, .durationRatio = 1.0, .numKernels = 2});
        QStringList labels;
        for (const KernelStatsRow& row : k.kernels)
            labels << rowLabel(*run, row);
        QCOMPARE(labels, (QStringList{"k_a@0", "k_b@0", "others@0"}));
        const KernelStatsRow& a = k.kernels[0];
        const KernelStatsRow& others = k.kernels[2];
        QCOMPARE(a.sumNs, int64_t(40000));
        QCOMPARE(others.sumNs, int64_t(30000));
        if (hta) {
            QCOMPARE(a.maxNs, int64_t(40000));
            QCOMPARE(a.minNs, int64_t(40000));
            QCOMPARE(a.meanNs, 40000.0);
            QCOMPARE(a.stddevNs, 0.0);
            QCOMPARE(others.maxNs, int64_t(20000));
            QCOMPARE(others.minNs, int64_t(10000));
            QCOMPARE(others.meanNs, 15000.0);
            QVERIFY(std::abs(others.stddevNs - 10000.0 / std::sqrt(2.0)) < 1e-6);
        } else {
            QCOMPARE(a.maxNs, int64_t(25000));
            QCOMPARE(a.minNs, int64_t(15000));
            QCOMPARE(others.count, int64_t(2));
            QCOMPARE(others.meanNs, 15000.0);
        }
    }

    // (2) No more names than num_kernels: nothing folds, whatever the quantile, and HTA keeps the
    // real per-launch statistics (the collapse to sums happens only where it folds).
    void kernelNoFoldingAtNumKernels()
    {
        const auto run = load("fold-none", {foldingTrace()}, true);
        const KernelBreakdown k = kernelBreakdown(*run, {.htaCompat = true, .durationRatio = 0.1, .numKernels = 4});
        QCOMPARE(k.kernels.size(), size_t(4));
        QCOMPARE(rowName(*run, k.kernels[0]), std::string_view("k_a"));
        QCOMPARE(k.kernels[0].maxNs, int64_t(25000));
        QCOMPARE(k.kernels[0].minNs, int64_t(15000));
        QVERIFY(std::abs(k.kernels[0].stddevNs - 10000.0 / std::sqrt(2.0)) < 1e-6);
        for (const KernelStatsRow& row : k.kernels)
            QVERIFY(!row.isOthers());
    }

    // (2) Rows are sorted by kernel_type (as text), then name, then rank.
    void kernelRowsSortedByTypeNameRank()
    {
        const std::string rank0 = traceText({launchEv("0", 1), kernelEv("zeta", 7, "10", "50", 1),
                                             launchEv("1", 2), kernelEv("alpha", 7, "70", "5", 2)},
                                            rankHead(0));
        const std::string rank1 = traceText({launchEv("0", 1), kernelEv("alpha", 7, "10", "5", 1),
                                             launchEv("1", 2), kernelEv("ncclKernel_AllReduce", 9, "20", "5", 2),
                                             launchEv("2", 3), kernelEv("Memcpy HtoD", 8, "40", "5", 3, "gpu_memcpy")},
                                            rankHead(1));
        const auto run = load("sorted", {rank0, rank1}, true);
        const KernelBreakdown k = kernelBreakdown(*run, {.htaCompat = true});
        QStringList labels;
        for (const KernelStatsRow& row : k.kernels)
            labels << rowLabel(*run, row);
        QCOMPARE(labels, (QStringList{"ncclKernel_AllReduce@1", "alpha@0", "alpha@1", "zeta@0", "Memcpy HtoD@1"}));
    }

    // (6) Idle time: cuda_sync is not in the working set (PR #149); a gap equal to
    // consecutive_kernel_delay is "other" (strict <); a launch at the previous kernel's very end
    // is not host wait (strict >). The first kernel's NaN gap leaves its category's sum alone.
    void idleThresholdsAndSync_data()
    {
        QTest::addColumn<bool>("hta");
        QTest::newRow("hta") << true;
        QTest::newRow("default") << false;
    }
    void idleThresholdsAndSync()
    {
        QFETCH(bool, hta);
        const std::string trace = traceText({
            launchEv("0", 1), kernelEv("k0", 7, "10", "10", 1),
            launchEv("2", 9, "cudaStreamWaitEvent"), kernelEv("Stream Wait Event", 7, "25", "2", 9, "cuda_sync"),
            launchEv("1", 2), kernelEv("k1", 7, "50", "10", 2),   // gap 30: other
            launchEv("60", 3), kernelEv("k2", 7, "70", "10", 3),  // launched at k1's end; gap 10: kernel wait
        }, rankHead(0));
        const auto run = load("idle-thresholds", {trace}, hta);
        const IdleTime idle = idleTimeBreakdown(*run, {.htaCompat = hta});
        QVERIFY2(idle.error.empty(), idle.error.c_str());
        double ratio = 0;
        QCOMPARE(idleOf(idle, IdleCategory::KernelWait, &ratio), int64_t(10000));
        QCOMPARE(ratio, 0.25);
        QCOMPARE(idleOf(idle, IdleCategory::Other, &ratio), int64_t(30000));
        QCOMPARE(ratio, 0.75);
        const int64_t hostWait = idleOf(idle, IdleCategory::HostWait);
        QVERIFY(hostWait == -1 || hostWait == 0);
        if (hta)
            QCOMPARE(hostWait, int64_t(-1));  // HTA groups by the categories present
    }

    // (10) Queue length counts launches with index_correlation > 0: a launch whose kernel is the
    // first traceEvents element (row 0) has index_correlation 0, so HTA leaves both out.
    void queueLengthPartnerAtRowZero()
    {
        const std::string trace = traceText({
            kernelEv("k_first", 7, "20", "5", 1),
            launchEv("10", 1),
            launchEv("30", 2), kernelEv("k2", 7, "40", "5", 2),
        }, rankHead(0));
        const auto hta = load("queue-row0", {trace}, true);
        const QueueLength h = queueLength(*hta, {.htaCompat = true});
        QCOMPARE(h.series.size(), size_t(1));
        QCOMPARE(h.series[0].tsNs, (std::vector<int64_t>{30000, 40000}));
        QCOMPARE(h.series[0].length, (std::vector<int32_t>{1, 0}));
        const auto ours = load("queue-row0", {trace}, false);
        const QueueLength d = queueLength(*ours, {});
        QCOMPARE(d.series[0].tsNs, (std::vector<int64_t>{10000, 20000, 30000, 40000}));
    }

    // (12) Time blocked on a full queue: per stream, dur = next ts - ts summed where the length
    // is >= the limit; relative to the rank's ts.max - ts.min (starts only: a long late op's end
    // does not count). The result is keyed by rank, so of two full streams only the one HTA
    // handles last survives: streams come in ascending order (groupby), not in time order.
    void queueBlockedLastStreamAndRelative()
    {
        std::vector<std::string> events;
        for (int k = 0; k < 3; ++k)
            events.push_back(launchEv(std::to_string(k), 1 + k));
        for (int k = 0; k < 3; ++k)
            events.push_back(kernelEv("k", 9, std::to_string(12 + k), "0.5", 1 + k));
        for (int k = 0; k < 3; ++k)
            events.push_back(launchEv(std::to_string(100 + k), 11 + k));
        for (int k = 0; k < 3; ++k)
            events.push_back(kernelEv("k", 7, std::to_string(107 + k), "0.5", 11 + k));
        events.push_back(x("cpu_op", "late_long_op", "400", "1000"));
        const auto run = load("blocked", {traceText(events, rankHead(0))}, true);
        const QueueLength q = queueLength(*run, {.htaCompat = true, .maxQueueLength = 3});
        QCOMPARE(q.blocked.size(), size_t(1));
        QCOMPARE(q.blocked[0].stream, 9);
        QCOMPARE(q.blocked[0].durationNs, int64_t(10000));
        QCOMPARE(q.blocked[0].relative, 10.0 / 400.0);
    }

    // (15) generate_trace_with_counters writes <name>_with_counters.json with gzip.open: always
    // gzip, even into a .json name (quirk); the default mode keeps the input's form. (min_ts
    // added back to the counters' ts: tst_launch_counters::counterTraceSplices.)
    void countersOutputIsAlwaysGzip()
    {
        const std::string trace = traceText({launchEv("1000", 1), kernelEv("k", 7, "1010", "5", 1)}, rankHead(0));
        for (const bool hta : {true, false}) {
            const auto run = load("counters", {trace}, hta);
            const fs::path out = test::scratchDir(std::string("hta-rules-counters-out") + (hta ? "-hta" : ""));
            const CounterTraces result = writeTracesWithCounters(*run, {.htaCompat = hta, .outputDir = out});
            QCOMPARE(result.files.size(), size_t(1));
            QVERIFY2(result.files[0].error.empty(), result.files[0].error.c_str());
            QCOMPARE(result.files[0].output.filename().string(), std::string("rank0_with_counters.json"));
            const std::string bytes = test::readFileBytes(result.files[0].output);
            QCOMPARE(bytes.size() > 2 && uint8_t(bytes[0]) == 0x1f && uint8_t(bytes[1]) == 0x8b, hta);
            const std::string text = test::readMaybeGzip(result.files[0].output);
            QVERIFY(text.find(R"("name": "Queue Length")") != std::string::npos || text.find(R"("name":"Queue Length")") != std::string::npos);
            // Our loader reads it back either way (gzip is found by its magic bytes).
            const auto again = loadRun(result.files[0].output, LoadOptions{});
            QVERIFY(again->errors.empty());
        }
    }

    // (13) Memory bandwidth picks MEMORY by HTA's name regexes (a copy named hipMemcpy... is
    // COMMUNICATION there), turns dur 0 into 1 µs, and leaves a rounded negative duration alone,
    // so that copy's end point comes before its start.
    void memoryBandwidthRules()
    {
        const std::string bw = R"J(, "memory bandwidth (GB/s)": )J";
        const std::string trace = traceText({
            launchEv("1", 1, "cudaMemcpyAsync"),
            x("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", "10.6", "0.3", R"("stream": 7, "correlation": 1)" + bw + "2.0", 0, 7),
            launchEv("2", 2, "cudaMemsetAsync"),
            x("gpu_memset", "Memset (Device)", "20.5", "0.5", R"("stream": 7, "correlation": 2)" + bw + "4.0", 0, 7),
            launchEv("3", 3, "hipMemcpyAsync"),
            x("gpu_memcpy", "hipMemcpyDtoH", "30", "5", R"("stream": 7, "correlation": 3)" + bw + "1.0", 0, 7),
        }, rankHead(0));
        const auto hta = load("membw", {trace}, true);
        const MemoryBandwidth m = memoryBandwidth(*hta, {.htaCompat = true});
        QStringList kinds;
        for (const MemoryBwSeries& s : m.series)
            kinds << QString::fromStdString(s.kind);
        QCOMPARE(kinds, (QStringList{"Memcpy HtoD", "Memset"}));
        QCOMPARE(m.series[0].tsNs, (std::vector<int64_t>{10000, 11000}));  // ts 11, dur -1: end at 10
        QCOMPARE(m.series[0].gbps, (std::vector<double>{-2.0, 0.0}));
        QCOMPARE(m.series[1].tsNs, (std::vector<int64_t>{21000, 22000}));  // ts 21, dur 0 -> 1
        QCOMPARE(m.series[1].gbps, (std::vector<double>{4.0, 0.0}));
        // The default mode keeps exact times and picks copies by category: hipMemcpyDtoH counts.
        const auto ours = load("membw", {trace}, false);
        QCOMPARE(memoryBandwidth(*ours, {}).series.size(), size_t(3));
    }

    // (9) Launch stats: cudaLaunchKernel and cudaLaunchKernelExC (and the async memcpy/memset)
    // are launches, cuLaunchKernel is not; launch_delay = gpu.ts - (cpu.ts + cpu.dur), clipped at 0.
    void launchStatsNamesAndClipping()
    {
        const std::string trace = traceText({
            x("cuda_runtime", "cudaLaunchKernel", "10", "20", R"("correlation": 1)"), kernelEv("early", 7, "15", "5", 1),
            x("cuda_runtime", "cudaLaunchKernelExC", "40", "2", R"("correlation": 2)"), kernelEv("ex", 7, "50", "5", 2),
            x("cuda_runtime", "cuLaunchKernel", "60", "2", R"("correlation": 3)"), kernelEv("driver", 7, "70", "5", 3),
        }, rankHead(0));
        const auto run = load("launch", {trace}, true);
        const LaunchStats stats = kernelLaunchStats(*run, {.htaCompat = true});
        QCOMPARE(stats.ranks.size(), size_t(1));
        const RankLaunchStats& r = stats.ranks[0];
        QCOMPARE(r.launches.size(), size_t(2));
        QCOMPARE(r.launches[0].correlation, int64_t(1));
        QCOMPARE(r.launches[0].launchDelayNs, int64_t(0));  // 15 - 30 = -15, clipped
        QCOMPARE(r.launches[0].cpuDurationNs, int64_t(20000));
        QCOMPARE(r.launches[1].correlation, int64_t(2));
        QCOMPARE(r.launches[1].launchDelayNs, int64_t(8000));
    }
};

QTEST_APPLESS_MAIN(TestHtaRulesAnalyses)
#include "tst_hta_rules_analyses.moc"
