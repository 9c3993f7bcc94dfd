// HTA-RULES.md §1.0 (loading and normalisation), rule by rule: each case writes the smallest
// trace that exercises one rule and checks that HTA's mode (LoadOptions::htaCompat, the CLI's
// --hta-compat) gives what HTA's code gives; where the default mode differs on purpose, that too.
// The expected values are derived from HTA's source (hta/common/trace_file.py, trace_parser.py,
// trace.py, trace_filter.py), not from our output.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>/<concepts>; it only needs the test class
#include "analysis/tables/launchtables.h"
#include "analysis/launch/queuelength.h"
#include "analysis/resulttable.h"
#include "analysis/core/temporalbreakdown.h"
#include "htarulestrace.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <sstream>

using namespace kscope;
using namespace kscope::test::hta;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<Run> loadDir(const fs::path& dir, bool htaCompat, bool includeLastStep = false)
{
    LoadOptions options;
    options.htaCompat = htaCompat;
    options.includeLastStep = includeLastStep;
    options.threads = 1;
    return loadRun(dir, options);
}

std::shared_ptr<Run> loadOne(const std::string& name, const std::string& json, bool htaCompat, bool includeLastStep = false)
{
    const fs::path dir = test::scratchDir("hta-rules-" + name + (htaCompat ? "-hta" : ""));
    test::writeFile(dir / "rank0.json", json);
    return loadDir(dir, htaCompat, includeLastStep);
}

EventIndex findEvent(const Run& run, const RankTrace& r, std::string_view name)
{
    for (size_t i = 0; i < r.events.size(); ++i)
        if (run.str(r.events.name[i]) == name)
            return static_cast<EventIndex>(i);
    return kNoEvent;
}

QStringList eventNames(const Run& run, const RankTrace& r)
{
    QStringList names;
    for (size_t i = 0; i < r.events.size(); ++i)
        names << QString::fromUtf8(run.str(r.events.name[i]).data(), qsizetype(run.str(r.events.name[i]).size()));
    names.sort();
    return names;
}

QList<int> rankNumbers(const Run& run)
{
    QList<int> ranks;
    for (const RankTrace& r : run.ranks)
        ranks << r.rank;
    return ranks;
}

} // namespace

class TestHtaRulesLoading : public QObject {
    Q_OBJECT

private slots:
    // create_rank_to_trace_dict_from_dir: a non-recursive scan of names ending in .json or .gz
    // (the latter read as gzip), so "rank1.trace.gz" is a trace to HTA; the default mode takes
    // *.json and *.json.gz and lists the rest as skipped.
    void directoryScanTakesGz()
    {
        const fs::path dir = test::scratchDir("hta-rules-gz");
        test::writeFile(dir / "rank0.json", traceText({kernelEv("k", 7, "10", "5", 1)}, rankHead(0)));
        test::writeGzipFile(dir / "rank1.trace.gz", traceText({kernelEv("k", 7, "10", "5", 1)}, rankHead(1)));
        test::writeFile(dir / "notes.txt", "not a trace");
        fs::create_directories(dir / "sub");
        test::writeFile(dir / "sub" / "rank2.json", traceText({kernelEv("k", 7, "10", "5", 1)}, rankHead(2)));
        const auto hta = loadDir(dir, true);
        QVERIFY(hta->errors.empty());
        QCOMPARE(rankNumbers(*hta), (QList<int>{0, 1}));
        QCOMPARE(hta->skippedFiles.size(), size_t(1));
        const auto ours = loadDir(dir, false);
        QCOMPARE(rankNumbers(*ours), QList<int>{0});
        QCOMPARE(ours->skippedFiles.size(), size_t(2));
    }

    // trace_file.create_rank_to_trace_dict: the first line matching "rank":\s+(\d+) gives the
    // rank; compact JSON ("rank":3) does not match and the rank is 0, as is a file without one.
    void rankRegex_data()
    {
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("tail");
        QTest::addColumn<int>("htaRank");
        QTest::addColumn<int>("defaultRank");
        QTest::newRow("with a space") << QString::fromStdString(rankHead(3)) << QString() << 3 << 3;
        QTest::newRow("compact: no match, 0") << "  \"distributedInfo\": {\"backend\": \"nccl\",\"rank\":3},\n" << QString() << 0 << 3;
        QTest::newRow("tab after the colon") << "  \"distributedInfo\": {\"rank\":\t4},\n" << QString() << 4 << 4;
        QTest::newRow("none: 0, not the file name") << QString() << QString() << 0 << 5;
        QTest::newRow("after traceEvents") << QString() << ",\n  \"distributedInfo\": {\"rank\": 6}" << 6 << 6;
    }
    void rankRegex()
    {
        QFETCH(QString, head);
        QFETCH(QString, tail);
        QFETCH(int, htaRank);
        QFETCH(int, defaultRank);
        const std::string json = traceText({kernelEv("k", 7, "10", "5", 1)}, head.toStdString(), tail.toStdString());
        for (const bool hta : {true, false}) {
            const fs::path dir = test::scratchDir(std::string("hta-rules-rank") + (hta ? "-hta" : ""));
            test::writeFile(dir / "rank5.json", json);
            const auto run = loadDir(dir, hta);
            QVERIFY(run->errors.empty());
            QCOMPARE(rankNumbers(*run), QList<int>{hta ? htaRank : defaultRank});
            // --ranks picks files by the same rule before reading them.
            LoadOptions only;
            only.htaCompat = hta;
            only.onlyRanks.insert(hta ? htaRank : defaultRank);
            QCOMPARE(rankNumbers(*loadRun(dir, only)), QList<int>{hta ? htaRank : defaultRank});
        }
    }

    // Two files with one rank: HTA keeps the later one (the warning "Will use <later file>"),
    // which is how "missing ranks" appear; the default mode loads both. Later = file name order.
    void duplicateRanksLaterWins()
    {
        const fs::path dir = test::scratchDir("hta-rules-duplicate");
        test::writeFile(dir / "a.json", traceText({kernelEv("from_a", 7, "10", "5", 1)}, rankHead(1)));
        test::writeFile(dir / "b.json", traceText({kernelEv("from_b", 7, "10", "5", 1)}, rankHead(1)));
        test::writeFile(dir / "c.json", traceText({kernelEv("no_rank_c", 7, "10", "5", 1)}));
        test::writeFile(dir / "d.json", traceText({kernelEv("no_rank_d", 7, "10", "5", 1)}));
        const auto hta = loadDir(dir, true);
        QCOMPARE(rankNumbers(*hta), (QList<int>{0, 1}));
        QVERIFY(findEvent(*hta, hta->ranks[0], "no_rank_d") != kNoEvent);
        QVERIFY(findEvent(*hta, hta->ranks[1], "from_b") != kNoEvent);
        const bool warned = std::any_of(hta->warnings.begin(), hta->warnings.end(), [](const LoadWarning& w) {
            return w.message.find("a.json") != std::string::npos && w.message.find("b.json") != std::string::npos;
        });
        QVERIFY2(warned, "the file HTA drops is named");
        const auto ours = loadDir(dir, false);
        QCOMPARE(ours->ranks.size(), size_t(4));
    }

    // _compress_df: rows without dur or cat go (instants, counters, flows, metadata), so does
    // cat "Trace"; python_function stays (only the ijson backends skip it). The default mode
    // keeps instants and the profiler span as events.
    void droppedEvents()
    {
        const std::string json = traceText({
            x("user_annotation", "keep_annotation", "10", "5"),
            x("python_function", "keep_python", "11", "2"),
            R"({"ph": "X", "cat": "cpu_op", "name": "no_dur", "pid": 1, "tid": 1, "ts": 12})",
            R"({"ph": "X", "name": "no_cat", "pid": 1, "tid": 1, "ts": 12, "dur": 3})",
            x("Trace", "PyTorch Profiler (0)", "1", "100"),
            R"({"ph": "i", "cat": "cpu_instant_event", "name": "instant", "pid": 1, "tid": 1, "ts": 13, "s": "t"})",
            R"({"ph": "C", "name": "Memory", "pid": 1, "tid": 1, "ts": 14, "args": {"Total Allocated": 5}})",
            R"({"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 15, "cat": "ac2g", "name": "ac2g"})",
            R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "ts": 0, "args": {"name": "main"}})",
        });
        const auto hta = loadOne("dropped", json, true);
        QCOMPARE(eventNames(*hta, hta->ranks[0]), (QStringList{"keep_annotation", "keep_python"}));
        const auto ours = loadOne("dropped", json, false);
        const QStringList names = eventNames(*ours, ours->ranks[0]);
        QVERIFY(names.contains("PyTorch Profiler (0)"));
        QVERIFY(names.contains("instant"));
    }

    // A trace of metadata only (#337), or whose events all drop, is an empty frame: HTA removes
    // the rank (parse_multiple_ranks: "has no analyzable events").
    void emptyRankIsRemoved()
    {
        const fs::path dir = test::scratchDir("hta-rules-empty-rank");
        test::writeFile(dir / "r0.json", traceText({launchEv("5", 1), kernelEv("k", 7, "10", "5", 1)}, rankHead(0)));
        test::writeFile(dir / "r1.json", traceText({R"({"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "x"}})"},
                                                   rankHead(1)));
        test::writeFile(dir / "r2.json", traceText({x("Trace", "PyTorch Profiler (0)", "1", "100"),
                                                    R"({"ph": "i", "cat": "cpu_instant_event", "name": "i", "pid": 1, "tid": 1, "ts": 13})"},
                                                   rankHead(2)));
        const auto hta = loadDir(dir, true);
        QVERIFY(hta->errors.empty());
        QCOMPARE(rankNumbers(*hta), QList<int>{0});
        // So HTA's temporal breakdown answers for rank 0 instead of failing on a rank without GPU work.
        const TemporalBreakdown t = temporalBreakdown(*hta, {.htaCompat = true});
        QVERIFY2(t.error.empty(), t.error.c_str());
        QCOMPARE(t.rows.size(), size_t(1));
    }

    // normalize_gpu_stream_numbers: pd.to_numeric(errors="coerce").fillna(-1): "0x0" (ROCm
    // runtime events) and a missing stream are -1, a numeric string is its number.
    void streamNormalisation()
    {
        const std::string json = traceText({
            x("cuda_runtime", "hipLaunchKernel", "10", "2", R"("stream": "0x0", "correlation": 1)"),
            x("cuda_runtime", "no_stream", "11", "2", R"("correlation": 2)"),
            x("kernel", "text_stream", "20", "2", R"("stream": "7", "correlation": 1)", 0, 7),
            x("kernel", "float_stream", "30", "2", R"("stream": 8.0, "correlation": 2)", 0, 8),
        });
        const auto hta = loadOne("stream", json, true);
        const RankTrace& r = hta->ranks[0];
        QCOMPARE(r.events.stream[findEvent(*hta, r, "hipLaunchKernel")], -1);
        QCOMPARE(r.events.stream[findEvent(*hta, r, "no_stream")], -1);
        QCOMPARE(r.events.stream[findEvent(*hta, r, "text_stream")], 7);
        // The "0x0" launch is a CPU event, so it joins its kernel.
        QCOMPARE(r.events.link[findEvent(*hta, r, "text_stream")], findEvent(*hta, r, "hipLaunchKernel"));
    }

    // round_down_time_stamps: when the ts column is float64, end = floor(ts + dur), ts = ceil(ts),
    // dur = end - ts, so sub-µs kernels get 0 or negative durations. pandas makes the column
    // float64 when any event's ts is a float, metadata events included, or missing; an all-integer
    // ts column is left alone even when dur has fractions.
    void nsRounding_data()
    {
        QTest::addColumn<QString>("metaTs");
        QTest::addColumn<QString>("kernelTs");
        QTest::addColumn<QString>("kernelDur");
        QTest::addColumn<qint64>("htaTsNs");
        QTest::addColumn<qint64>("htaDurNs");
        QTest::addColumn<qint64>("defaultDurNs");
        QTest::newRow("negative") << "0" << "10.6" << "0.3" << qint64(11000) << qint64(-1000) << qint64(300);
        QTest::newRow("zero") << "0" << "10.5" << "0.5" << qint64(11000) << qint64(0) << qint64(500);
        QTest::newRow("ordinary") << "0" << "10.5" << "20.25" << qint64(11000) << qint64(19000) << qint64(20250);
        QTest::newRow("integer ts, fractional dur: no rounding") << "0" << "10" << "2.5" << qint64(10000) << qint64(2500) << qint64(2500);
        QTest::newRow("float ts on a metadata event") << "0.000" << "10" << "2.5" << qint64(10000) << qint64(2000) << qint64(2500);
        QTest::newRow("metadata event without ts") << QString() << "10" << "2.5" << qint64(10000) << qint64(2000) << qint64(2500);
    }
    void nsRounding()
    {
        QFETCH(QString, metaTs);
        QFETCH(QString, kernelTs);
        QFETCH(QString, kernelDur);
        QFETCH(qint64, htaTsNs);
        QFETCH(qint64, htaDurNs);
        QFETCH(qint64, defaultDurNs);
        const std::string meta = R"({"ph": "M", "name": "process_name", "pid": 0, "tid": 0, )"
                                 + (metaTs.isEmpty() ? std::string() : "\"ts\": " + metaTs.toStdString() + ", ")
                                 + R"("args": {"name": "gpu"}})";
        const std::string json = traceText({meta, kernelEv("k", 7, kernelTs.toStdString(), kernelDur.toStdString(), -1)});
        const auto hta = loadOne("round", json, true);
        const RankTrace& r = hta->ranks[0];
        const EventIndex k = findEvent(*hta, r, "k");
        QCOMPARE(r.events.tsNs[k], htaTsNs);
        QCOMPARE(r.events.durNs[k], htaDurNs);
        const auto ours = loadOne("round", json, false);
        QCOMPARE(ours->ranks[0].events.durNs[findEvent(*ours, ours->ranks[0], "k")], defaultDurNs);
    }

    // _align_all_ranks: every rank is shifted by one run-wide min_ts (the earliest ts of any
    // rank after the drops), not by its own start: times in HTA's tables count from there.
    void globalMinTsAlignment()
    {
        const fs::path dir = test::scratchDir("hta-rules-align");
        test::writeFile(dir / "r0.json", traceText({launchEv("1000", 1), kernelEv("k", 7, "1010", "5", 1)}, rankHead(0)));
        // Rank 1 starts 500 µs earlier; its metadata event (dropped) is earlier still.
        test::writeFile(dir / "r1.json", traceText({R"({"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "ts": 1, "args": {"name": "x"}})",
                                                    launchEv("500", 1), kernelEv("k", 7, "520", "5", 1)},
                                                   rankHead(1)));
        const auto run = loadDir(dir, true);
        QCOMPARE(run->minTsNs, int64_t(500000));
        const QueueLength q = queueLength(*run, {.htaCompat = true});
        const Table series = queueSeriesTable(*run, q);
        std::ostringstream csv;
        writeCsv(series, csv);
        // Rank 0's launch at 1000 µs is at 500 µs since the run's start; rank 1's at 0.
        QVERIFY2(csv.str().find("\n0,500,") != std::string::npos, csv.str().c_str());
        QVERIFY2(csv.str().find("\n1,0,") != std::string::npos, csv.str().c_str());
    }

    // transform_correlation_to_index: CPU and GPU events sharing a correlation are joined; a GPU
    // event is (stream >= 0 and correlation >= 0) or named Event Sync / Context Sync, everything
    // else is CPU. So a runtime call with a stream and a correlation is GPU work to HTA: it and
    // its copy are two GPU events and join nothing.
    void correlationJoin()
    {
        const std::string json = traceText({
            x("cuda_runtime", "cudaStreamSynchronize", "5", "20", R"("stream": -1, "correlation": 3)"),
            x("cuda_sync", "Context Sync", "8", "10", R"("correlation": 3)", 0, 7),
            launchEv("30", 4),
            kernelEv("k", 7, "40", "5", 4),
            kernelEv("orphan", 7, "50", "5", 99),
            x("cuda_runtime", "cudaMemcpyAsync", "60", "2", R"("stream": 7, "correlation": 5)"),
            kernelEv("Memcpy HtoD", 7, "70", "2", 5, "gpu_memcpy"),
        });
        const auto hta = loadOne("corr", json, true);
        const RankTrace& r = hta->ranks[0];
        const EventIndex sync = findEvent(*hta, r, "Context Sync");
        QCOMPARE(r.events.link[sync], findEvent(*hta, r, "cudaStreamSynchronize"));
        QCOMPARE(r.events.link[findEvent(*hta, r, "k")], findEvent(*hta, r, "cudaLaunchKernel"));
        QCOMPARE(r.events.link[findEvent(*hta, r, "orphan")], kNoEvent);  // HTA: index_correlation 0
        QCOMPARE(r.events.link[findEvent(*hta, r, "cudaMemcpyAsync")], kNoEvent);
        QCOMPARE(r.events.link[findEvent(*hta, r, "Memcpy HtoD")], kNoEvent);
    }

    // add_iteration: CPU events get the step whose [ts, ts + dur) holds their ts, the last such
    // step in the trace's (file) order when steps overlap; GPU events on streams > 0 take their
    // launch's; GPU events on stream 0 get none (quirk), but a cpu_op with stream 0 (Triton) does.
    void iterationAssignment()
    {
        const std::string json = traceText({
            x("user_annotation", "ProfilerStep#6", "50", "100"),
            x("user_annotation", "ProfilerStep#5", "0", "100"),   // written after #6, overlaps it
            x("cpu_op", "in_both", "60", "1"),
            x("cpu_op", "at_end_of_5", "100", "1"),              // [0, 100) excludes 100: step 6
            x("cpu_op", "triton_op", "20", "1", R"("stream": 0)"),
            launchEv("21", 1),
            kernelEv("k_stream7", 7, "30", "2", 1),
            launchEv("22", 2),
            kernelEv("k_stream0", 0, "31", "2", 2),
            x("cpu_op", "after_steps", "150", "1"),             // kept (<= the last end), in no step
        });
        // Two step names: the last step (#6, latest start) is trimmed unless kept; keep it here.
        const auto hta = loadOne("iter", json, true, true);
        const RankTrace& r = hta->ranks[0];
        auto step = [&](std::string_view name) {
            const EventIndex e = findEvent(*hta, r, name);
            return e == kNoEvent ? -99 : r.events.step[e];
        };
        QCOMPARE(step("in_both"), 5);
        QCOMPARE(step("at_end_of_5"), 6);
        QCOMPARE(step("triton_op"), 5);
        QCOMPARE(step("k_stream7"), 5);
        QCOMPARE(step("k_stream0"), -1);
        QCOMPARE(step("after_steps"), -1);
        QCOMPARE(step("cudaLaunchKernel"), 5);
    }

    // _filter_irrelevant_gpu_kernels: only with >= 2 distinct ProfilerStep#N names in the run.
    void trimmingNeedsTwoStepNames()
    {
        const std::string oneName = traceText({
            x("user_annotation", "ProfilerStep#1", "0", "100"),
            x("user_annotation", "ProfilerStep#1", "100", "100"),  // the same name twice: one symbol
            launchEv("150", 1), kernelEv("k", 7, "160", "5", 1),
        });
        const auto run = loadOne("trim-one", oneName, true);
        QCOMPARE(run->ranks[0].eventsTrimmed, uint64_t(0));
        QVERIFY(findEvent(*run, run->ranks[0], "k") != kNoEvent);
    }

    // CPU events are kept when ts < the last step's start (include_last_step: ts <= its end); a
    // GPU event only when its correlation matches a kept CPU event. An event on a stream without a
    // correlation is a CPU event by GPUKernelFilter's rule, so it is kept or dropped by its ts.
    void trimmingWindow_data()
    {
        QTest::addColumn<bool>("includeLast");
        QTest::addColumn<QStringList>("kept");
        QTest::newRow("default") << false
                                 << QStringList{"ProfilerStep#1", "cudaLaunchKernel", "k1", "stream_no_corr"};
        QTest::newRow("include_last_step")
            << true << QStringList{"ProfilerStep#1", "ProfilerStep#2", "at_end", "cudaLaunchKernel", "cudaLaunchKernel",
                                   "k1", "k2", "late_no_corr", "stream_no_corr"};
    }
    void trimmingWindow()
    {
        QFETCH(bool, includeLast);
        QFETCH(QStringList, kept);
        const std::string json = traceText({
            x("user_annotation", "ProfilerStep#1", "0", "100"),
            launchEv("10", 1), kernelEv("k1", 7, "150", "5", 1),   // GPU work after the step: kept
            x("kernel", "stream_no_corr", "20", "5", R"("stream": 7)", 0, 7),
            x("user_annotation", "ProfilerStep#2", "100", "100"),
            launchEv("110", 2), kernelEv("k2", 7, "160", "5", 2),
            kernelEv("k_launched_outside", 7, "170", "5", 99),      // no launch in the trace: HTA drops it
            x("cpu_op", "at_end", "200", "1"),
            x("cpu_op", "after_end", "201", "1"),
            x("kernel", "late_no_corr", "150", "5", R"("stream": 7)", 0, 7),
        });
        for (const bool hta : {true, false}) {
            const auto run = loadOne("trim-window", json, hta, includeLast);
            QStringList expected = kept;
            // HTA drops GPU work whose launch is nowhere in the trace; the default mode keeps it
            // when it starts inside the window ([trust] 7).
            if (!hta && includeLast)
                expected << "k_launched_outside";
            expected.sort();
            QCOMPARE(eventNames(*run, run->ranks[0]), expected);
        }
    }

    // A rank with no ProfilerStep in a run that has two step names: HTA falls back to the rank's
    // first CPU ts as "last step start", so every CPU event (and every GPU event) goes; with
    // include_last_step, to its last CPU end, so all stay. A rank with no CPU event is untouched.
    void trimmingRankWithoutSteps()
    {
        const fs::path dir = test::scratchDir("hta-rules-trim-nostep");
        test::writeFile(dir / "r0.json", traceText({x("user_annotation", "ProfilerStep#1", "0", "100"),
                                                    x("user_annotation", "ProfilerStep#2", "100", "100"),
                                                    launchEv("10", 1), kernelEv("k", 7, "20", "5", 1)},
                                                   rankHead(0)));
        test::writeFile(dir / "r1.json", traceText({launchEv("10", 1), kernelEv("k", 7, "20", "5", 1)}, rankHead(1)));
        test::writeFile(dir / "r2.json", traceText({kernelEv("gpu_only", 7, "20", "5", 1)}, rankHead(2)));
        const auto run = loadDir(dir, true);
        QCOMPARE(rankNumbers(*run), (QList<int>{0, 1, 2}));
        QCOMPARE(run->ranks[1].events.size(), size_t(0));
        QCOMPARE(run->ranks[2].events.size(), size_t(1));
        const auto kept = loadDir(dir, true, true);
        QCOMPARE(kept->ranks[1].events.size(), size_t(2));
        // Both are said, per rank; and the default mode keeps the rank whole: it has no step to cut.
        auto warnsRank1 = [](const Run& r, std::string_view what) {
            return std::any_of(r.warnings.begin(), r.warnings.end(), [&](const LoadWarning& w) {
                return w.rank == 1 && w.message.find(what) != std::string::npos;
            });
        };
        QVERIFY(warnsRank1(*run, "every event of the rank is dropped"));
        // The GPU-only rank 2 is not trimmed, and is not said to be.
        for (const LoadWarning& w : run->warnings)
            QVERIFY2(w.rank != 2 || w.message.find("kept whole") != std::string::npos, w.message.c_str());
        const auto native = loadDir(dir, false);
        QCOMPARE(native->ranks[1].events.size(), size_t(2));
        QCOMPARE(native->ranks[1].eventsTrimmed, uint64_t(0));
        QVERIFY(warnsRank1(*native, "kept whole"));
        QCOMPARE(native->ranks[0].events.size(), size_t(3));  // rank 0 is still trimmed to step 1
    }

    // infer_gpu_type: backend "mtia:hccl", then the symbols cudaLaunchKernel, hipLaunchKernel,
    // "runFunction - job_prep_and_submit_for_execution"; none of them: unknown.
    void deviceType_data()
    {
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("launchName");
        QTest::addColumn<int>("type");
        QTest::newRow("nvidia") << QString() << "cudaLaunchKernel" << int(DeviceType::Nvidia);
        QTest::newRow("amd") << QString() << "hipLaunchKernel" << int(DeviceType::Amd);
        QTest::newRow("mtia job") << QString() << "runFunction - job_prep_and_submit_for_execution" << int(DeviceType::Mtia);
        QTest::newRow("mtia backend wins") << "  \"distributedInfo\": {\"backend\": \"mtia:hccl\", \"rank\": 0},\n"
                                           << "cudaLaunchKernel" << int(DeviceType::Mtia);
        QTest::newRow("unknown") << QString() << "cuLaunchKernel" << int(DeviceType::Unknown);
    }
    void deviceType()
    {
        QFETCH(QString, head);
        QFETCH(QString, launchName);
        QFETCH(int, type);
        const std::string json = traceText({launchEv("10", 1, launchName.toStdString()), kernelEv("k", 7, "20", "5", 1)},
                                           head.toStdString());
        const auto run = loadOne("device", json, true);
        QCOMPARE(int(run->ranks[0].deviceType), type);
    }
};

QTEST_APPLESS_MAIN(TestHtaRulesLoading)
#include "tst_hta_rules_loading.moc"
