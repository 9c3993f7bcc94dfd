// The engine side of the CLI's contract: rank sets that never expand, atomic file writes, runs
// given as several files, JSON that is no trace, partial ranks marked in tables, the table
// format, column names per mode, and the default mode's rules (what a kernel is, idle gaps).

// moc cannot parse <stop_token>'s concepts (the loader); it needs none of these.
#ifndef Q_MOC_RUN
#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/tables/resulttables.h"
#include "analysis/core/runsummary.h"
#include "analysis/core/temporalbreakdown.h"
#include "model/atomicfile.h"
#include "model/loader.h"
#include "model/runslice.h"
#include "model/rankset.h"
#include "runbuilder.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <climits>
#include <sstream>
#include <sys/stat.h>

using namespace kscope;
using kscope::test::RunBuilder;

namespace fs = std::filesystem;

namespace {

std::string firstLine(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

std::string header(const Table& table)
{
    std::string text;
    for (const std::string& c : table.columns)
        text += (text.empty() ? "" : ",") + c;
    return text;
}

// A kernel run with an Inductor-style cpu_op that carries args.stream 0 and a runtime call with
// a stream argument: GPU activity only to HTA.
std::shared_ptr<Run> runWithStreamArgsOnCpuEvents()
{
    return RunBuilder()
        .rank(0)
        .gpu("triton_poi_fused_add_0", 0, 0, 50, -1, "cpu_op")
        .gpu("cudaStreamSynchronize", 7, 60, 30, -1, "cuda_runtime")
        .launched("triton_poi_fused_add_0", 7, 10, 100, 10)
        .launched("gemm", 7, 20, 120, 20)
        .build();
}

} // namespace

class TestEngineContract : public QObject {
    Q_OBJECT

private slots:
    // EventTable::gpuRows is what every GPU analysis walks instead of the table: it must hold
    // exactly the visible events on a stream, after loading (both modes, trimmed or not), in a
    // step slice and in a run built in code.
    void gpuRowsAreEveryVisibleEventOnAStream()
    {
        auto check = [](const Run& run, const std::string& what) {
            for (const RankTrace& rank : run.ranks) {
                const EventTable& t = rank.events;
                std::vector<EventIndex> scan;
                for (size_t i = 0; i < t.size(); ++i)
                    if (t.stream[i] != -1 && t.phase[i] == Phase::Complete && t.kind[i] != EventKind::TraceSpan)
                        scan.push_back(static_cast<EventIndex>(i));
                QVERIFY2(t.gpuRows == scan, (what + ", rank " + std::to_string(rank.rank)).c_str());
            }
        };
        check(*runWithStreamArgsOnCpuEvents(), "built in code");
        size_t withGpu = 0;
        for (const char* folder : {"trace_filter", "ns_resolution_trace", "amd_trace", "mtia_trace_single_rank"}) {
            for (const bool hta : {false, true}) {
                LoadOptions options;
                options.htaCompat = hta;
                const auto run = loadRun(test::sharedDir() / "traces" / folder, options);
                QVERIFY2(run && !run->ranks.empty(), folder);
                const std::string what = std::string(folder) + (hta ? " (hta)" : "");
                check(*run, what);
                for (const RankTrace& rank : run->ranks)
                    withGpu += rank.events.gpuRows.size();
                if (!run->ranks.front().steps.empty())
                    check(*sliceRunToStep(*run, run->ranks.front().steps.front().number), what + ", first step");
            }
        }
        QVERIFY(withGpu > 1000);  // the traces do have GPU work
    }

    void rankSetParsesRangesWithoutExpanding()
    {
        std::string error;
        const auto set = RankSet::parse("5, 0-2,3,2000000000-2147483647", &error);
        QVERIFY2(set, error.c_str());
        QCOMPARE(set->ranges().size(), size_t(3));  // 0-2 and 3 merge; 5 stays apart
        QCOMPARE(set->toString(), std::string("0-3, 5, 2000000000-2147483647"));
        QVERIFY(set->contains(3) && set->contains(5) && !set->contains(4) && set->contains(INT_MAX));
        QCOMPARE(set->count(), int64_t(4 + 1 + 147483648));
        const RankSet present = {0, 1, 2, 3, 4, 5, 6, 7};
        QCOMPARE(RankSet::parse("0-2000000000")->minus(present).toString(), std::string("8-2000000000"));
        QCOMPARE(RankSet({0, 9, 12}).minus(present).toString(), std::string("9, 12"));
        QCOMPARE(RankSet({1, 3, 5, 7}).toString(2), std::string("1, 3, ... (2 more)"));
        for (const char* bad : {"", "1,,2", "3-1", "-1", "x", "1-", "99999999999"}) {
            error.clear();
            QVERIFY2(!RankSet::parse(bad, &error), bad);
            QVERIFY(!error.empty());
        }
    }

    void atomicWrites()
    {
        const fs::path dir = test::scratchDir("atomic");
        const fs::path file = dir / "out.csv";
        QCOMPARE(writeFileAtomically(file, "one\n"), std::string());
        QCOMPARE(test::readFileBytes(file), std::string("one\n"));
        ::chmod(file.c_str(), 0600);
        fs::create_hard_link(file, dir / "old.csv");
        QCOMPARE(writeFileAtomically(file, "two\n"), std::string());
        QCOMPARE(test::readFileBytes(file), std::string("two\n"));
        QCOMPARE(test::readFileBytes(dir / "old.csv"), std::string("one\n"));  // a new file renamed over
        QCOMPARE(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
        fs::create_symlink(file, dir / "link.csv");
        QCOMPARE(writeFileAtomically(dir / "link.csv", "three\n"), std::string());
        QVERIFY(fs::is_symlink(dir / "link.csv"));  // the link stays, its target is replaced
        QCOMPARE(test::readFileBytes(file), std::string("three\n"));
        QCOMPARE(writeFileAtomically(dir, "x"), std::string("is a folder"));
        QCOMPARE(writeFileAtomically("/dev/null", "in place"), std::string());
        QCOMPARE(writeFileAtomically("/dev/full", "x"), std::string("No space left on device"));
        QVERIFY(writeFileAtomically(dir / "missing" / "x.csv", "x").find("No such file or directory") != std::string::npos);
        int entries = 0;
        for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir))
            ++entries;
        QCOMPARE(entries, 3);  // out.csv, old.csv, link.csv: no temporary left
    }

    void runFromSeveralFiles()
    {
        const fs::path sample = test::sourceDir() / "resources" / "sample-run";
        const auto run = loadRun(std::vector<fs::path>{sample / "rank3.pt.trace.json.gz", sample / "rank1.pt.trace.json.gz",
                                                       sample / "rank3.pt.trace.json.gz"},
                                 LoadOptions{});
        QCOMPARE(run->ranks.size(), size_t(2));  // the repeated file once
        QCOMPARE(run->ranks[0].rank, 1);
        QCOMPARE(run->folder, sample);
        const auto withFolder = loadRun(std::vector<fs::path>{sample / "rank3.pt.trace.json.gz", sample}, LoadOptions{});
        QVERIFY(withFolder->ranks.empty());
        QCOMPARE(withFolder->errors.size(), size_t(1));
        QVERIFY(withFolder->errors[0].message.find("not several folders") != std::string::npos);
        const auto missing = loadRun("/nonexistent/run", LoadOptions{});
        QCOMPARE(describe(missing->errors.at(0)), std::string("/nonexistent/run: no such file or folder"));
    }

    void plainlyNoTraceIsSkipped()
    {
        const fs::path dir = test::scratchDir("not-a-trace");
        test::writeFile(dir / "rank0.json", R"J({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}]})J");
        test::writeFile(dir / "config.json", R"J({"lr": 0.1})J");
        test::writeFile(dir / "list.json", "[1, 2, 3]");
        test::writeFile(dir / "notes.txt", "x");
        const auto run = loadRun(dir, LoadOptions{});
        QCOMPARE(run->ranks.size(), size_t(1));
        QVERIFY(run->errors.empty());
        QCOMPARE(run->skippedFiles.size(), size_t(3));
        QCOMPARE(run->skippedFiles[0].file.filename().string(), std::string("config.json"));
        QVERIFY(run->skippedFiles[0].reason.find("JSON, but not a trace") != std::string::npos);
        QVERIFY(run->skippedFiles[1].reason.find("the top level is an array") != std::string::npos);
        QVERIFY(run->skippedFiles[2].reason.find("not a trace file name") != std::string::npos);
        const std::vector<std::string> notes = loadOutcomeNotes(*run);
        QCOMPARE(notes.size(), size_t(2));  // the two *.json; notes.txt only in `info`
    }

    void gzipOffsetsAreInflated()
    {
        const fs::path dir = test::scratchDir("gz-offset");
        const std::string bytes =
            test::readFileBytes(test::sourceDir() / "resources" / "sample-run" / "rank2.pt.trace.json.gz");
        test::writeFile(dir / "rank2.json.gz", bytes.substr(0, bytes.size() / 2));
        LoadOptions options;
        const auto run = loadRun(dir, options);
        QCOMPARE(run->errors.size(), size_t(1));
        const LoadError& e = run->errors[0];
        QVERIFY(e.partial && e.inflated);
        QVERIFY(e.byteOffset > bytes.size() / 2);  // counted in inflated bytes
        QVERIFY(describe(e).find("(rank 2): truncated at byte " + std::to_string(e.byteOffset) + " of the inflated stream")
                != std::string::npos);
        // A partial rank nobody asked for is not this run's error.
        options.onlyRanks = {0};
        QVERIFY(loadRun(dir, options)->errors.empty());
    }

    void ranksNotLoadedAreKnown()
    {
        LoadOptions options;
        options.onlyRanks = {1, 2};
        const auto run = loadRun(test::sourceDir() / "resources" / "sample-run", options);
        QCOMPARE(run->ranks.size(), size_t(2));
        QCOMPARE(run->ranksNotLoaded.toString(), std::string("0, 3-7"));
    }

    void categoryDecidesWhatAKernelIs()
    {
        const auto run = runWithStreamArgsOnCpuEvents();
        const TemporalBreakdown ours = temporalBreakdown(*run, {});
        const TemporalBreakdown hta = temporalBreakdown(*run, {.htaCompat = true});
        QCOMPARE(ours.rows.at(0).spanNs, int64_t(40000));  // 100..140: the two kernels
        QCOMPARE(ours.rows.at(0).computeNs, int64_t(30000));
        QCOMPARE(hta.rows.at(0).spanNs, int64_t(140000));  // from the cpu_op at 0
        auto tritonLaunches = [&run](const KernelBreakdown& result) {
            for (const KernelStatsRow& row : result.kernels)
                if (rowName(*run, row) == "triton_poi_fused_add_0")
                    return row.count;
            return int64_t{-1};
        };
        QCOMPARE(tritonLaunches(kernelBreakdown(*run, {})), int64_t(1));
        QCOMPARE(tritonLaunches(kernelBreakdown(*run, {.htaCompat = true})), int64_t(2));  // the cpu_op too
        QCOMPARE(summarizeRank(run->ranks[0]).streams, 1);
        QCOMPARE(summarizeRank(run->ranks[0], true).streams, 2);
    }

    void defaultIdleGapsAreNeverNegative()
    {
        auto run = RunBuilder()
                       .rank(0)
                       .launched("k0", 7, 0, 10, 10)
                       .launched("k1", 7, 5, 15, 30)    // overlaps k0 by 5: no gap (HTA: -5)
                       .launched("k2", 7, 6, 30, 5)     // inside k1: no gap (HTA: 30 - 45 = -15)
                       .launched("k3", 7, 7, 50, 10)    // 5 after k1's end (45); HTA: 50 - 35 = 15
                       .build();
        const IdleTime ours = idleTimeBreakdown(*run, {.intervalStats = true});
        QCOMPARE(ours.overlaps.size(), size_t(1));
        QCOMPARE(ours.overlaps[0].count, int64_t(2));
        QCOMPARE(ours.overlaps[0].overlapNs, int64_t(5000 + 5000));
        for (const IdleIntervalStats& s : ours.stats)
            QVERIFY(s.count == 0 || s.minUs >= 0.0);
        int64_t kernelWait = 0;
        for (const IdleTimeRow& row : ours.rows)
            if (row.category == IdleCategory::KernelWait)
                kernelWait = row.idleNs;
        QCOMPARE(kernelWait, int64_t(5000));
        QVERIFY(!ours.notes.empty() && ours.notes[0].find("2 GPU ops started before") != std::string::npos);

        const IdleTime hta = idleTimeBreakdown(*run, {.htaCompat = true});
        QVERIFY(hta.overlaps.empty());
        for (const IdleTimeRow& row : hta.rows)
            if (row.category == IdleCategory::KernelWait)
                kernelWait = row.idleNs;
        QCOMPARE(kernelWait, int64_t(-5000 - 15000 + 15000));
        const IdleHistogram histogram = idleHistogram(*run, {.rank = RankIndex{0}, .bins = 2});
        QCOMPARE(histogram.rank, 0);
        QVERIFY(histogram.edgesUs.front() >= 0.0);
    }

    void columnNamesPerMode()
    {
        const auto run = RunBuilder().rank(0).launched("k0", 7, 0, 10, 10).launched("k1", 7, 5, 25, 10).build();
        QCOMPARE(header(idleTable(idleTimeBreakdown(*run, {}))), std::string("rank,stream,idle_category,idle_time(us),idle_time_ratio"));
        QCOMPARE(header(idleTable(idleTimeBreakdown(*run, {.htaCompat = true}))),
                 std::string("rank,stream,idle_category,idle_time,idle_time_ratio"));
        QCOMPARE(header(idleStatsTable(idleTimeBreakdown(*run, {.intervalStats = true}))),
                 std::string("rank,stream,idle_category,count,mean (us),std (us),min (us),25% (us),50% (us),75% (us),max (us)"));
        QCOMPARE(header(kernelTypesTable(kernelBreakdown(*run, {}))), std::string("kernel_type,sum (us),percentage"));
        QCOMPARE(header(kernelTypesTable(kernelBreakdown(*run, {.htaCompat = true}))), std::string("kernel_type,sum,percentage"));
        QCOMPARE(header(kernelsTable(*run, kernelBreakdown(*run, {}))),
                 std::string("name,sum (us),max (us),min (us),stddev (us),mean (us),kernel_type,rank"));
        QCOMPARE(header(idleHistogramTable(idleHistogram(*run, {}))),
                 std::string("rank,idle_category,bin_start (us),bin_end (us),count"));
    }

    void partialRanksAreMarked()
    {
        auto run = RunBuilder().rank(0).launched("k", 7, 0, 10, 10).rank(1).launched("k", 7, 0, 10, 5).build();
        Table table = temporalTable(temporalBreakdown(*run, {}));
        QCOMPARE(withLoadOutcome(table, *run).columns.back(), std::string("partial"));  // default mode: always
        run->htaCompat = true;
        QCOMPARE(withLoadOutcome(table, *run).columnNames(), table.columnNames());  // HTA's columns exactly
        run->errors.push_back({"rank1.json.gz", 1, 1234, LoadErrorKind::Truncated, "file ends inside \"traceEvents\"", true, true});
        run->errors.push_back({"rank5.json", -1, 0, LoadErrorKind::NotJson, "expected '{'", false, false});
        const Table marked = withLoadOutcome(table, *run);
        QCOMPARE(marked.columns.back(), std::string("partial"));
        QCOMPARE(marked.rows[0].back(), Cell{int64_t{0}});
        QCOMPARE(marked.rows[1].back(), Cell{int64_t{1}});
        QCOMPARE(marked.notes.at(0), std::string("rank 1 is partial (read only up to an error, marked in the \"partial\" "
                                                 "column): rank1.json.gz (rank 1): truncated at byte 1234 of the inflated "
                                                 "stream: file ends inside \"traceEvents\""));
        QCOMPARE(marked.notes.at(1), std::string("not loaded: rank5.json: not JSON at byte 0: expected '{'"));
        const Table types = withLoadOutcome(kernelTypesTable(kernelBreakdown(*run, {})), *run);
        QCOMPARE(types.columns.size(), size_t(3));  // no rank column: notes only
        QCOMPARE(types.notes.size(), size_t(2));
    }

    void alignedTableIsForReading()
    {
        Table table;
        table.columns = {"name", "rank", "ratio", "sum (us)", "notes", "partial"};
        table.addRow({std::string("void at::native::vectorized_elementwise_kernel<4, at::native::AbsFunctor<float>>(int)"),
                      int64_t{0}, 26.503863498509983, 1.5, std::string(80, 'x'), int64_t{0}});
        table.addRow({std::string("void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>>(int)"),
                      int64_t{1}, -0.00001, 2.25, std::string("short"), int64_t{0}});
        std::ostringstream out;
        QVERIFY(writeAligned(table, out).empty());
        const std::string text = out.str();
        QVERIFY2(text.find("26.504") != std::string::npos && text.find("0.000") != std::string::npos
                     && text.find("-0.000") == std::string::npos,
                 text.c_str());
        QVERIFY2(text.find(" 1.50") != std::string::npos && text.find(" 2.25") != std::string::npos, text.c_str());  // one scale per column
        QVERIFY(text.find("AbsFunctor") != std::string::npos && text.find("MulFunctor") != std::string::npos);
        QVERIFY(text.find("void at::native") == std::string::npos);
        QVERIFY(text.find(std::string(80, 'x')) == std::string::npos);  // other text is cut

        std::ostringstream full;
        writeAligned(table, full, {.fullNames = true});
        QVERIFY(full.str().find("void at::native::vectorized_elementwise_kernel<4, at::native::AbsFunctor<float>>(int)")
                != std::string::npos);

        // [trust] 12: to fit a width, names are cut first (in the middle, still told apart), then
        // columns go: the table's own list, then text before numbers, and never what it keeps.
        std::ostringstream narrow;
        const std::vector<std::string> dropped = writeAligned(table, narrow, {.width = 60, .dropFirst = {"sum (us)"}});
        QCOMPARE(dropped, (std::vector<std::string>{"partial", "sum (us)", "notes"}));
        QCOMPARE(firstLine(narrow.str()).substr(0, 4), std::string("name"));
        QVERIFY2(narrow.str().find("AbsFunctor") != std::string::npos && narrow.str().find("MulFunctor") != std::string::npos,
                 narrow.str().c_str());
        QVERIFY2(narrow.str().find("26.504") != std::string::npos, narrow.str().c_str());
        std::ostringstream kept;
        const std::vector<std::string> keptDropped = writeAligned(table, kept, {.width = 40, .keep = {"sum (us)"}});
        QVERIFY(std::find(keptDropped.begin(), keptDropped.end(), "sum (us)") == keptDropped.end());
        QVERIFY2(kept.str().find("2.25") != std::string::npos, kept.str().c_str());
        for (const std::string& line : {firstLine(narrow.str()), firstLine(kept.str())})
            QVERIFY2(line.size() <= 60, line.c_str());
    }
};

QTEST_APPLESS_MAIN(TestEngineContract)
#include "tst_engine_contract.moc"
