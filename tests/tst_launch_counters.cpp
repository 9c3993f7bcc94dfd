// Launch statistics, queue length, memory bandwidth, traces with counters and CUPTI counters on
// small traces written here: what the default mode answers where HTA is blind or quirky, and
// that HTA's mode keeps HTA's rules.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/launch/countertrace.h"
#include "analysis/launch/cupticounters.h"
#include "analysis/launch/launchstats.h"
#include "analysis/tables/launchtables.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>

using namespace kscope;
using namespace kscope::test;

namespace {

// One Kineto-like event; times in microseconds as written in the file.
struct E {
    std::string ph = "X";
    std::string cat;
    std::string name;
    double ts = 0;
    double dur = 0;
    int pid = 1;
    int tid = 1;
    std::string args;  // the inside of "args": {...}
};

std::string traceJson(const std::vector<E>& events, const std::string& extraTopLevel = {})
{
    std::string out = "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [";
    for (size_t i = 0; i < events.size(); ++i) {
        const E& e = events[i];
        out += i ? ",\n  " : "\n  ";
        out += "{\"ph\": \"" + e.ph + "\", \"cat\": \"" + e.cat + "\", \"name\": \"" + e.name
            + "\", \"pid\": " + std::to_string(e.pid) + ", \"tid\": " + std::to_string(e.tid)
            + ", \"ts\": " + QString::number(e.ts, 'f', 3).toStdString()
            + ", \"dur\": " + QString::number(e.dur, 'f', 3).toStdString();
        if (!e.args.empty())
            out += ", \"args\": {" + e.args + "}";
        out += "}";
    }
    out += "\n  ]" + extraTopLevel + "\n}\n";
    return out;
}

E launch(const std::string& name, double ts, double dur, int64_t correlation)
{
    return {"X", "cuda_runtime", name, ts, dur, 1, 1, "\"correlation\": " + std::to_string(correlation)};
}

E kernel(const std::string& name, int stream, double ts, double dur, int64_t correlation,
         const std::string& category = "kernel", const std::string& extraArgs = {})
{
    return {"X", category, name, ts, dur, 0, stream,
            "\"stream\": " + std::to_string(stream) + ", \"correlation\": " + std::to_string(correlation) + extraArgs};
}

std::shared_ptr<Run> load(const std::filesystem::path& file, bool htaCompat)
{
    LoadOptions options;
    options.htaCompat = htaCompat;
    return loadRun(file, options);
}

std::shared_ptr<Run> loadText(const std::string& name, const std::string& json, bool htaCompat, bool gzip = false)
{
    const auto dir = scratchDir("launch-" + name + (htaCompat ? "-hta" : ""));
    const auto file = dir / (gzip ? "rank0.json.gz" : "rank0.json");
    if (gzip)
        writeGzipFile(file, json);
    else
        writeFile(file, json);
    return load(file, htaCompat);
}

// 1000.0 us base; a ProfilerStep-free trace (no trimming).
std::vector<E> launchTrace()
{
    return {
        kernel("early_kernel", 7, 1000, 5, 1),  // its launch came before the capture began
        launch("cudaLaunchKernel", 1010, 60, 2), kernel("gemm", 7, 1100, 10, 2),
        launch("cudaGraphLaunch", 1200, 8, 3), kernel("graph_a", 7, 1210, 3, 3), kernel("graph_b", 7, 1214, 3, 3),
        launch("hipLaunchKernel", 1300, 4, 4), kernel("hip_kernel", 7, 1302, 2, 4),  // starts inside its call
        launch("cudaMemcpyAsync", 1400, 5, 5),
        kernel("Memcpy HtoD (Pageable -> Device)", 7, 1600, 20, 5, "gpu_memcpy"),
    };
}

const KernelLaunch* findLaunch(const Run& run, const RankLaunchStats& r, std::string_view kernelName)
{
    for (const KernelLaunch& l : r.launches)
        if (run.str(l.kernelName) == kernelName)
            return &l;
    return nullptr;
}

} // namespace

class TestLaunchCounters : public QObject {
    Q_OBJECT

private slots:
    void launchStatsDefaultSeesWhatHtaMisses();
    void launchStatsHtaMode();
    void launchViewsAndHistograms();
    void queueLengthSteps();
    void queueLengthBlocked();
    void queueLengthOfGraphLaunch();
    void memoryBandwidthSeries();
    void counterTraceSplices_data();
    void counterTraceSplices();
    void counterTraceRefusesChangedFile();
    void counterTraceName();
    void counterTraceOfTwoFilesClaimingOneRank();
    void cuptiCountersFlops();
    void cuptiCountersCountsDiffer();
    void loaderKeepsFileOrderOnlyForHta();
    void cliCommands_data();
    void cliCommands();
};

void TestLaunchCounters::launchStatsDefaultSeesWhatHtaMisses()
{
    const auto run = loadText("default", traceJson(launchTrace()), false);
    const LaunchStats stats = kernelLaunchStats(*run, {});
    QCOMPARE(stats.ranks.size(), size_t{1});
    const RankLaunchStats& r = stats.ranks[0];
    // cudaLaunchKernel, the graph launch (once), HIP's launch, the memcpy; not the early kernel.
    QCOMPARE(r.launches.size(), size_t{4});
    QCOMPARE(r.opsWithoutLaunch, int64_t{1});
    QVERIFY(!findLaunch(*run, r, "early_kernel"));
    const KernelLaunch* gemm = findLaunch(*run, r, "gemm");
    QVERIFY(gemm);
    QCOMPARE(gemm->cpuDurationNs, int64_t{60000});
    QCOMPARE(gemm->gpuDurationNs, int64_t{10000});
    QCOMPARE(gemm->launchDelayNs, int64_t{30000});  // 1100 - (1010 + 60)
    const KernelLaunch* hip = findLaunch(*run, r, "hip_kernel");
    QVERIFY(hip);
    QCOMPARE(hip->launchDelayNs, int64_t{0});  // started before its call returned: 0, as HTA clips
    // The graph launch is one row from its first op: the span of both ops, the delay to the first.
    QVERIFY2(!findLaunch(*run, r, "graph_b"), "a graph's later ops are not launches of their own");
    const KernelLaunch* graph = findLaunch(*run, r, "graph_a");
    QVERIFY(graph);
    QCOMPARE(run->str(graph->launchName), std::string_view("cudaGraphLaunch"));
    QCOMPARE(graph->gpuOps, uint32_t{2});
    QCOMPARE(graph->gpuDurationNs, int64_t{7000});  // 1210 .. 1217
    QCOMPARE(graph->launchDelayNs, int64_t{2000});  // 1210 - (1200 + 8)
    QCOMPARE(gemm->gpuOps, uint32_t{1});
    // Per API: the graph launch is one call with two ops; the missing launch is its own row.
    bool sawGraph = false, sawMissing = false;
    for (const LaunchApiCount& api : r.apis) {
        if (api.name && run->str(api.name) == "cudaGraphLaunch") {
            sawGraph = true;
            QCOMPARE(api.calls, int64_t{1});
            QCOMPARE(api.gpuOps, int64_t{2});
            QVERIFY(!api.countedByHta);
        }
        if (!api.name) {
            sawMissing = true;
            QCOMPARE(api.gpuOps, int64_t{1});
        }
    }
    QVERIFY(sawGraph && sawMissing);
    const Table table = launchStatsTable(*run, stats);
    bool noted = false;
    for (const std::string& note : table.notes)
        noted |= note.find("cudaGraphLaunch 1 call (2 GPU ops)") != std::string::npos;
    QVERIFY2(noted, "the launches HTA misses are reported");
    QVERIFY(std::find(table.columns.begin(), table.columns.end(), "launch_delay (us)") != table.columns.end());
    // Without memory events the memcpy goes.
    LaunchStatsOptions noMemory;
    noMemory.includeMemoryEvents = false;
    QCOMPARE(kernelLaunchStats(*run, noMemory).ranks[0].launches.size(), size_t{3});
}

void TestLaunchCounters::launchStatsHtaMode()
{
    const auto run = loadText("hta", traceJson(launchTrace()), true);
    const LaunchStats stats = kernelLaunchStats(*run, {.htaCompat = true});
    const RankLaunchStats& r = stats.ranks[0];
    // HTA: cudaLaunchKernel and cudaMemcpyAsync only; graph and HIP launches are invisible.
    QCOMPARE(r.launches.size(), size_t{2});
    QCOMPARE(r.launches[0].correlation, int64_t{2});
    QCOMPARE(r.launches[1].correlation, int64_t{5});
    const Table table = launchStatsTable(*run, stats);
    QCOMPARE(table.columnNames(), (std::vector<std::string>{"rank", "correlation", "cpu_duration", "gpu_duration",
                                                      "launch_delay"}));
}

void TestLaunchCounters::launchViewsAndHistograms()
{
    const auto run = loadText("views", traceJson(launchTrace()), false);
    LaunchStatsOptions options;
    options.bins = 4;
    options.launchDelayCutoffUs = 100;
    const RankLaunchStats r = kernelLaunchStats(*run, options).ranks[0];
    // Runtime outliers: the 60 us cudaLaunchKernel only. Launch-delay outliers: the memcpy (195 us).
    QCOMPARE(r.runtimeOutlierRows.size(), size_t{1});
    QCOMPARE(run->str(r.launches[r.runtimeOutlierRows[0]].kernelName), std::string_view("gemm"));
    QCOMPARE(r.launchDelayOutlierRows.size(), size_t{1});
    QCOMPARE(r.launches[r.launchDelayOutlierRows[0]].launchDelayNs, int64_t{195000});
    // Short kernels (call <= 50 us, op shorter than the call): the graph launch once (8 us call, its
    // two ops span 7 us), hip (4 us).
    QCOMPARE(r.shortKernels.total, int64_t{2});
    QCOMPARE(r.shortKernels.edgesUs.size(), size_t{5});
    QCOMPARE(r.shortKernels.edgesUs.front(), 4.0);
    QCOMPARE(r.shortKernels.edgesUs.back(), 8.0);
    QCOMPARE(r.shortKernels.counts, (std::vector<int64_t>{1, 0, 0, 1}));
    QCOMPARE(r.runtimeOutliers.counts, (std::vector<int64_t>{1, 0, 0, 0}));  // one value: one bin of width 1
    const Table hist = launchHistogramTable(kernelLaunchStats(*run, options));
    QCOMPARE(hist.rows.size(), size_t{12});
    const Table outliers = launchOutliersTable(*run, kernelLaunchStats(*run, options));
    QCOMPARE(outliers.rows.size(), size_t{2});
}

void TestLaunchCounters::queueLengthSteps()
{
    // Two launches, then their kernels; at 1020 a third launch and the first kernel's start meet.
    const std::vector<E> events = {
        launch("cudaLaunchKernel", 1000, 1, 1), launch("cudaLaunchKernel", 1010, 1, 2),
        launch("cudaLaunchKernel", 1020, 1, 3), kernel("k1", 7, 1020, 5, 1), kernel("k2", 7, 1030, 5, 2),
        kernel("k3", 7, 1040, 5, 3),
    };
    const auto run = loadText("queue", traceJson(events), false);
    const QueueLength q = queueLength(*run, {});
    QCOMPARE(q.series.size(), size_t{1});
    const QueueSeries& s = q.series[0];
    QCOMPARE(s.stream, 7);
    // Default mode: one point per time; at 1020 +1 and -1 leave 2.
    QCOMPARE(s.tsNs, (std::vector<int64_t>{1000000000 - 1000000000 + 1000000, 1010000, 1020000, 1030000, 1040000}));
    QCOMPARE(s.length, (std::vector<int32_t>{1, 2, 2, 1, 0}));
    QCOMPARE(q.stats[0].count, int64_t{5});
    // Time-weighted: 1 for 10 us, 2 for 20 us, 1 for 10 us over 40 us.
    QCOMPARE(q.stats[0].timeWeightedMean, (10.0 + 40.0 + 10.0) / 40.0);
    // HTA's mode: a point per change, equal times in numpy's order.
    const auto hta = loadText("queue", traceJson(events), true);
    const QueueLength h = queueLength(*hta, {.htaCompat = true});
    QCOMPARE(h.series[0].tsNs.size(), size_t{6});
    QVERIFY(std::isnan(h.stats[0].timeWeightedMean));
}

void TestLaunchCounters::queueLengthBlocked()
{
    // Stream 7 holds 3 for 10 us, stream 9 holds 3 for 5 us: with a limit of 3 the default mode
    // lists both, HTA's mode only the last.
    std::vector<E> events;
    int64_t correlation = 0;
    for (int s : {7, 9}) {
        const double base = s == 7 ? 1000 : 2000;
        for (int k = 0; k < 3; ++k)
            events.push_back(launch("cudaLaunchKernel", base + k, 0.5, ++correlation));
        const double hold = s == 7 ? 12 : 7;  // the first kernel starts at base + hold
        for (int k = 0; k < 3; ++k)
            events.push_back(kernel("k", s, base + hold + k, 0.5, correlation - 2 + k));
    }
    for (bool hta : {false, true}) {
        const auto run = loadText("blocked", traceJson(events), hta);
        const QueueLength q = queueLength(*run, {.htaCompat = hta, .maxQueueLength = 3});
        QCOMPARE(q.maxObserved, int64_t{3});
        if (!hta) {
            QCOMPARE(q.blocked.size(), size_t{2});
            QCOMPARE(q.blocked[0].durationNs, int64_t{10000});
            QCOMPARE(q.blocked[1].durationNs, int64_t{5000});
        } else {
            QCOMPARE(q.blocked.size(), size_t{1});
            QCOMPARE(q.blocked[0].stream, 9);
        }
    }
}

void TestLaunchCounters::queueLengthOfGraphLaunch()
{
    const std::vector<E> events = {launch("cudaGraphLaunch", 1000, 2, 1), kernel("a", 7, 1010, 1, 1),
                                   kernel("b", 7, 1012, 1, 1), kernel("orphan", 7, 1020, 1, 99)};
    const auto run = loadText("graph", traceJson(events), false);
    const QueueLength q = queueLength(*run, {});
    QCOMPARE(q.series[0].length, (std::vector<int32_t>{2, 1, 0}));  // the graph enqueues both ops at once
    bool noted = false;
    for (const std::string& note : q.notes)
        noted |= note.find("1 GPU ops whose launch is not in the trace") != std::string::npos;
    QVERIFY(noted);
    // HTA does not see graph launches: no queue at all.
    const auto hta = loadText("graph", traceJson(events), true);
    QVERIFY(queueLength(*hta, {.htaCompat = true}).series.empty());
}

void TestLaunchCounters::memoryBandwidthSeries()
{
    const std::string bw = ", \"memory bandwidth (GB/s)\": ";
    const std::vector<E> events = {
        launch("cudaMemcpyAsync", 990, 1, 1), launch("cudaMemcpyAsync", 991, 1, 2),
        launch("cudaMemsetAsync", 992, 1, 3),
        kernel("Memcpy HtoD (Pageable -> Device)", 7, 1000, 10, 1, "gpu_memcpy", bw + "0.1"),
        kernel("Memcpy HtoD (Pinned -> Device)", 8, 1005, 10, 2, "gpu_memcpy", bw + "0.2"),
        kernel("Memset (Device)", 7, 1030, 0, 3, "gpu_memset", bw + "4.5"),  // zero length: 1 us
    };
    const auto run = loadText("bw", traceJson(events), false);
    const MemoryBandwidth m = memoryBandwidth(*run, {});
    QCOMPARE(m.series.size(), size_t{2});
    QCOMPARE(m.series[0].kind, std::string("Memcpy HtoD"));
    QCOMPARE(m.series[0].tsNs, (std::vector<int64_t>{1000000, 1005000, 1010000, 1015000}));
    QCOMPARE(m.series[0].gbps[1], 0.1 + 0.2);
    QCOMPARE(m.series[0].gbps.back(), 0.0);  // exactly: no copy runs
    QCOMPARE(m.series[1].kind, std::string("Memset"));
    QCOMPARE(m.series[1].tsNs, (std::vector<int64_t>{1030000, 1031000}));
    QCOMPARE(m.stats[0].count, int64_t{3});
    QCOMPARE(m.stats[0].busyNs, int64_t{15000});
    QCOMPARE(memoryKind("Memcpy DtoD (Device -> Device)"), std::string("Memcpy DtoD"));
    QCOMPARE(memoryKind("dma_copy"), std::string("Memcpy Unknown"));
}

void TestLaunchCounters::counterTraceSplices_data()
{
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<bool>("hta");
    QTest::addColumn<bool>("noEventsBefore");
    QTest::newRow("json") << false << false << false;
    QTest::newRow("gzip") << true << false << false;
    QTest::newRow("hta gzip") << true << true << false;
    QTest::newRow("counters only") << false << false << true;
}

void TestLaunchCounters::counterTraceSplices()
{
    QFETCH(bool, gzip);
    QFETCH(bool, hta);
    QFETCH(bool, noEventsBefore);
    std::vector<E> events = {launch("cudaLaunchKernel", 1000.5, 1, 1), kernel("k", 7, 1010.25, 5, 1),
                             launch("cudaMemcpyAsync", 1020, 1, 2),
                             kernel("Memcpy DtoH (Device -> Pinned)", 7, 1030, 4, 2, "gpu_memcpy",
                                    ", \"memory bandwidth (GB/s)\": 2.5")};
    std::string json = traceJson(events, ",\n  \"displayTimeUnit\": \"ms\"");
    const auto dir = scratchDir(std::string("counters-") + (gzip ? "gz" : "json") + (hta ? "-hta" : "")
                                + (noEventsBefore ? "-empty" : ""));
    const auto input = dir / (gzip ? "rank0.pt.trace.json.gz" : "rank0.pt.trace.json");
    gzip ? writeGzipFile(input, json) : writeFile(input, json);
    auto run = load(input, hta);
    if (noEventsBefore) {
        // The counters must also be valid JSON after an empty array: same series, no events kept.
        const std::string empty = "{\"traceEvents\": [  ], \"x\": 1}";
        writeFile(input, empty);
        auto emptyRun = load(input, hta);
        QCOMPARE(emptyRun->ranks.size(), size_t{1});
        // Use the first run's series on the empty file's rank.
        const QueueLength q = queueLength(*run, {.htaCompat = hta});
        std::string spliced;
        forEachCounterEvent(*run, run->ranks[0], &q, nullptr, [&](std::string_view e) { spliced += e; });
        QVERIFY(!spliced.empty());
        run = emptyRun;
    }
    CounterTraceOptions options;
    options.htaCompat = hta;
    options.outputDir = dir / "out";
    const CounterTraces result = writeTracesWithCounters(*run, options);
    QCOMPARE(result.files.size(), size_t{1});
    const CounterTraceFile& file = result.files[0];
    QVERIFY2(file.error.empty(), file.error.c_str());
    QCOMPARE(file.output.filename().string(), std::string(gzip ? "rank0.pt.trace_with_counters.json.gz"
                                                                : "rank0.pt.trace_with_counters.json"));
    const std::string bytes = readFileBytes(file.output);
    QCOMPARE(bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f, gzip);  // gzip stays gzip, json json
    QCOMPARE(readMaybeGzip(input), noEventsBefore ? std::string("{\"traceEvents\": [  ], \"x\": 1}") : json);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(readMaybeGzip(file.output)), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonArray out = doc.object().value("traceEvents").toArray();
    QCOMPARE(doc.object().value(noEventsBefore ? "x" : "displayTimeUnit").isUndefined(), false);
    int counters = 0;
    for (const QJsonValue& v : out)
        counters += v.toObject().value("ph").toString() == "C";
    QCOMPARE(counters, static_cast<int>(file.counterEvents));
    if (noEventsBefore) {
        QCOMPARE(counters, 0);  // the empty trace has no launches: nothing appended, still valid
        return;
    }
    QCOMPARE(out.size(), static_cast<qsizetype>(events.size()) + counters);
    // The first queue point: the launch at 1000.5 us (HTA's mode rounds it up to 1001).
    const QJsonObject first = out[static_cast<qsizetype>(events.size())].toObject();
    QCOMPARE(first.value("name").toString(), QString("Queue Length"));
    QCOMPARE(first.value("id").toInt(), 7);
    QCOMPARE(first.value("ts").toDouble(), hta ? 1001.0 : 1000.5);
    QCOMPARE(first.value("args").toObject().value("Queue Length").toInt(), 1);
    const QJsonObject last = out.last().toObject();
    QCOMPARE(last.value("name").toString(), QString("Memcpy DtoH"));
    QCOMPARE(last.value("args").toObject().value("Memcpy BW").toDouble(), 0.0);
    // Our loader reads it back: the counters as samples.
    const auto again = load(file.output, hta);
    QVERIFY(again->errors.empty());
    QCOMPARE(static_cast<int>(again->ranks[0].counters.size()), counters);
}

void TestLaunchCounters::counterTraceRefusesChangedFile()
{
    const auto dir = scratchDir("counters-changed");
    const auto input = dir / "rank0.json";
    const std::vector<E> events = {launch("cudaLaunchKernel", 1000, 1, 1), kernel("k", 7, 1010, 5, 1)};
    writeFile(input, traceJson(events));
    const auto run = load(input, false);
    writeFile(input, traceJson({launch("cudaLaunchKernel", 1000, 1, 1)}));  // changed after loading
    const CounterTraces result = writeTracesWithCounters(*run, {.outputDir = dir / "out"});
    QVERIFY(!result.files[0].error.empty());
    QVERIFY(!std::filesystem::exists(dir / "out" / "rank0_with_counters.json"));
    QVERIFY(std::filesystem::is_empty(dir / "out"));  // no temporary file left behind
}

void TestLaunchCounters::counterTraceOfTwoFilesClaimingOneRank()
{
    // Two files claim rank 0: each copy gets its own file's counters, not both files'.
    const auto dir = scratchDir("counters-two-files-one-rank");
    writeFile(dir / "rank0.json", traceJson({launch("cudaLaunchKernel", 1000, 1, 1), kernel("k", 7, 1010, 5, 1)}));
    writeFile(dir / "rerun-rank0.json",
              traceJson({launch("cudaLaunchKernel", 1000, 1, 1), kernel("k", 7, 1010, 5, 1),
                         launch("cudaLaunchKernel", 2000, 1, 2), kernel("k", 7, 2010, 5, 2),
                         launch("cudaLaunchKernel", 3000, 1, 3), kernel("k", 7, 3010, 5, 3)}));
    const auto run = loadRun(dir, LoadOptions{});
    QCOMPARE(run->ranks.size(), size_t{2});
    QCOMPARE(run->ranks[0].rank, run->ranks[1].rank);
    const CounterTraces both = writeTracesWithCounters(*run, {.memoryBandwidth = false, .outputDir = dir / "out"});
    QCOMPARE(both.files.size(), size_t{2});
    for (size_t k = 0; k < 2; ++k) {
        const auto alone = loadRun(run->ranks[k].file, LoadOptions{});
        const CounterTraces one = writeTracesWithCounters(*alone, {.memoryBandwidth = false, .outputDir = dir / ("alone" + std::to_string(k))});
        QVERIFY2(both.files[k].error.empty(), both.files[k].error.c_str());
        QVERIFY(one.files[0].counterEvents > 0);
        QCOMPARE(both.files[k].counterEvents, one.files[0].counterEvents);
    }
    QVERIFY(both.files[0].counterEvents != both.files[1].counterEvents);
}

void TestLaunchCounters::counterTraceName()
{
    QCOMPARE(kscope::counterTraceName("/a/rank-0.pt.trace.json.gz", "_with_counters").string(),
             std::string("rank-0.pt.trace_with_counters.json.gz"));
    QCOMPARE(kscope::counterTraceName("x.json", "_c").string(), std::string("x_c.json"));
    QCOMPARE(kscope::counterTraceName("trace", "_c").string(), std::string("trace_c.json"));
}

void TestLaunchCounters::cuptiCountersFlops()
{
    const std::string ffma = "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\": ";
    const std::string fadd = "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\": ";
    const std::vector<E> events = {
        {"X", "cpu_op", "aten::linear", 1000, 100, 7, 7, ""},
        {"X", "cpu_op", "aten::addmm", 1010, 50, 7, 7, ""},
        launch("cudaLaunchKernel", 1020, 5, 11),
        {"X", "cpu_op", "aten::relu", 1200, 20, 7, 7, ""},
        launch("cudaLaunchKernel", 1205, 5, 12),
        {"X", "cuda_profiler_range", "gemm", 5000, 1000, 0, 0, ffma + "1000, " + fadd + "10"},
        {"X", "cuda_profiler_range", "relu", 6000, 500, 0, 0, fadd + "4, \"dram__bytes_read.sum\": 8"},
    };
    std::vector<E> fixed = events;
    for (E& e : fixed)
        if (e.cat == "cuda_runtime")
            e.pid = e.tid = 7;  // launches on the ops' thread
    const std::string props = ",\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"A100\", \"computeMajor\": 8, "
                              "\"computeMinor\": 0, \"numSms\": 108}]";
    for (bool hta : {false, true}) {
        const auto run = loadText("cupti", traceJson(fixed, props), hta);
        const CuptiCounters c = cuptiCounters(*run, {.htaCompat = hta});
        QVERIFY2(c.error.empty(), c.error.c_str());
        QCOMPARE(c.kernels.size(), size_t{2});
        const CuptiKernel& gemm = c.kernels[0];
        QCOMPARE(run->str(gemm.name), std::string_view("gemm"));
        QCOMPARE(gemm.opStack.size(), size_t{2});
        QCOMPARE(run->str(gemm.opStack[0]), std::string_view("aten::linear"));
        QCOMPARE(run->str(gemm.opStack[1]), std::string_view("aten::addmm"));
        QCOMPARE(gemm.flops, 2.0 * 1000 + 10);
        QCOMPARE(gemm.flopsPerSecond, 2010.0 / 1e-3);
        QCOMPARE(gemm.peakFp32FlopsPerCycle, 108.0 * 64 * 2);
        QVERIFY(std::isnan(gemm.arithmeticIntensity));
        const CuptiKernel& relu = c.kernels[1];
        QCOMPARE(relu.flops, 4.0);
        QCOMPARE(relu.arithmeticIntensity, 0.5);
        const Table table = cuptiCountersTable(*run, c);
        const auto stack = std::find(table.columns.begin(), table.columns.end(), "op_stack") - table.columns.begin();
        QCOMPARE(std::get<std::string>(table.rows[0][stack]), std::string("aten::linear;aten::addmm"));
    }
    QCOMPARE(sassFlopsPerInstruction("smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"), 2.0);
    QCOMPARE(sassFlopsPerInstruction("smsp__sass_thread_inst_executed_op_dmul_pred_on.sum"), 1.0);
    QCOMPARE(sassFlopsPerInstruction("dram__bytes_read.sum"), 0.0);
}

void TestLaunchCounters::cuptiCountersCountsDiffer()
{
    const std::vector<E> events = {
        launch("cudaLaunchKernel", 1020, 5, 11),
        {"X", "cuda_profiler_range", "a", 5000, 1000, 0, 0, "\"x.sum\": 1"},
        {"X", "cuda_profiler_range", "b", 6000, 1000, 0, 0, "\"x.sum\": 2"},
    };
    const auto run = loadText("cupti-differ", traceJson(events), false);
    const CuptiCounters c = cuptiCounters(*run, {});
    QVERIFY(c.kernels.empty());
    QVERIFY(!c.error.empty());
    QVERIFY(!c.notes.empty());
    QVERIFY(c.notes[0].find("2 profiled kernels but 1 cudaLaunchKernel") != std::string::npos);
}

void TestLaunchCounters::loaderKeepsFileOrderOnlyForHta()
{
    const std::string json = traceJson(launchTrace());
    const auto dflt = loadText("order", json, false);
    const auto hta = loadText("order", json, true);
    QVERIFY(dflt->ranks[0].events.fileIndex.empty());
    QCOMPARE(hta->ranks[0].events.fileIndex.size(), hta->ranks[0].events.size());
    // The offset of traceEvents' ']' in the file.
    const size_t close = json.rfind(']');
    QCOMPARE(dflt->ranks[0].traceEventsEndOffset, static_cast<uint64_t>(close));
    QVERIFY(dflt->ranks[0].firstElementKept);
}

void TestLaunchCounters::cliCommands_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("expected");  // in stdout
    QTest::newRow("launch-stats help") << "launch-stats --help" << 0 << "--runtime-cutoff";
    QTest::newRow("queue-length help") << "queue-length --help" << 0 << "--max-queue-length";
    QTest::newRow("memory-bw help") << "memory-bw --help" << 0 << "--series";
    QTest::newRow("counters help") << "counters --help" << 0 << "--kind";
    QTest::newRow("cupti help") << "cupti-counters --help" << 0 << "range-profiler";
    QTest::newRow("counters needs --out") << "counters /tmp" << 1 << "";
    QTest::newRow("bad kind") << "counters /tmp --out /tmp/x --kind queue" << 1 << "";
    QTest::newRow("hist excludes outliers") << "launch-stats /tmp --hist --outliers" << 1 << "";
    // HTA's numbers through the CLI (golden: critical_path__alexnet, amd_trace).
    const std::string traces = (sharedDir() / "traces").string();
    if (std::filesystem::exists(sharedDir() / "traces" / "amd_trace")) {
        QTest::newRow("launch-stats hta") << QString::fromStdString("launch-stats --hta-compat --format csv " + traces
                                                                    + "/critical_path/alexnet")
                                          << 0 << "rank,correlation,cpu_duration,gpu_duration,launch_delay\n0,14,54,12,1\n";
        QTest::newRow("queue series hta") << QString::fromStdString("queue-length --series --hta-compat --format csv "
                                                                    + traces + "/amd_trace")
                                          << 0 << "rank,ts,pid,tid,stream,queue_length\n0,251,2,0,0,1\n0,267,2,0,0,0\n";
    }
}

void TestLaunchCounters::cliCommands()
{
    QFETCH(QString, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, expected);
    const CommandResult result = runCli(arguments.toStdString());
    QCOMPARE(result.exitCode, exitCode);
    QVERIFY2(result.out.find(expected.toStdString()) != std::string::npos, result.out.c_str());
    if (exitCode == 1)
        QVERIFY(result.out.empty());
}

QTEST_GUILESS_MAIN(TestLaunchCounters)
#include "tst_launch_counters.moc"
