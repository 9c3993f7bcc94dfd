// The trace diff on small runs built in code: renamed, added and removed ops, short names, the
// device rule of each mode, one-sided steps, runs from different GPU vendors, mismatched ranks,
// the per-rank summary and the tables.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/tables/difftables.h"
#include "analysis/core/kerneltype.h"
#include "analysis/diff/tracediff.h"
#include "model/loader.h"
#include "runbuilder.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <algorithm>
#include <variant>

using namespace kscope;
using namespace kscope::test;

namespace {

using Names = std::vector<std::string>;

// A step: its ProfilerStep span and one launched kernel per (name, µs).
void addStep(RunBuilder& b, int number, double startUs, const std::vector<std::pair<std::string, double>>& kernels)
{
    b.cpu("ProfilerStep#" + std::to_string(number), startUs, 100, -1, "user_annotation");
    double at = startUs + 1;
    for (const auto& [name, us] : kernels) {
        b.launched(name, 7, at, at + 1, us);
        at += 2 + us;
    }
}

const OpDiffRow* findRow(const TraceComparison& c, const std::string& name)
{
    for (const OpDiffRow& row : c.rows)
        if (row.name == name)
            return &row;
    return nullptr;
}

bool hasNote(const std::vector<std::string>& notes, const std::string& part)
{
    return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

std::string allNotes(const std::vector<std::string>& notes)
{
    std::string text;
    for (const std::string& n : notes)
        text += n + " | ";
    return text;
}

Names rowNames(const TraceComparison& c)
{
    Names names;
    for (const OpDiffRow& row : c.rows)
        names.push_back(row.name);
    return names;
}

// A one-rank trace file loaded the way the CLI loads it.
std::shared_ptr<Run> loadJson(const std::string& name, const std::string& events, bool htaCompat)
{
    const auto dir = scratchDir("tracediff-" + name);
    writeFile(dir / "rank0.json", R"({"distributedInfo": {"rank": 0}, "traceEvents": [)" + events + "]}");
    LoadOptions options;
    options.htaCompat = htaCompat;
    options.includeLastStep = true;
    return loadRun(dir, options);
}

} // namespace

class TestTraceDiff : public QObject {
    Q_OBJECT

private slots:
    void renamedAddedRemoved();
    void shortNamesMerge();
    void deviceRule_data();
    void deviceRule();
    void oneSidedSteps();
    void missingStepsAndRanks();
    void noProfilerStep();
    void differentVendors();
    void mismatchedRankCounts();
    void disjointRankNumbers();
    void summaryKernelsAndBreakdown();
    void summaryCutsToCommonSteps();
    void compatRounding();
    void tables();
    void opsDiffJsonFormat();
};

void TestTraceDiff::renamedAddedRemoved()
{
    RunBuilder cb;
    addStep(cb, 1, 0, {{"gemm_a", 10}, {"gemm_a", 12}, {"relu", 3}});
    cb.cpu("aten::mm", 2, 5, -1, "cpu_op");
    RunBuilder tb;
    addStep(tb, 1, 0, {{"gemm_b", 9}, {"relu", 3}, {"relu", 4}});
    tb.cpu("aten::mm", 2, 6, -1, "cpu_op");
    const auto control = cb.build();
    const auto test = tb.build();

    const TraceComparison c = compareTraces(*control, *test, {});
    QVERIFY2(c.error.empty(), c.error.c_str());
    // control's names sorted, then test's new ones
    QCOMPARE(rowNames(c), (Names{"ProfilerStep#N", "aten::mm", "cudaLaunchKernel", "gemm_a", "relu", "gemm_b"}));
    const OpDiffRow* gemmA = findRow(c, "gemm_a");
    QCOMPARE(gemmA->controlCount, int64_t{2});
    QCOMPARE(gemmA->controlDurNs, int64_t{22000});
    QCOMPARE(gemmA->testCount, int64_t{0});
    QCOMPARE(gemmA->change, '-');
    const OpDiffRow* relu = findRow(c, "relu");
    QCOMPARE(relu->change, '+');
    QCOMPARE(c.diffDurNs(*relu), 4000.0);
    QCOMPARE(findRow(c, "aten::mm")->change, '=');
    QCOMPARE(c.diffDurNs(*findRow(c, "aten::mm")), 1000.0);

    const OpsDiff ops = opsDiff(c);
    QCOMPARE(ops.added, Names{"gemm_b"});
    QCOMPARE(ops.deleted, Names{"gemm_a"});
    QCOMPARE(ops.increased, Names{"relu"});
    QCOMPARE(ops.decreased, Names{});
    QCOMPARE(ops.unchanged, (Names{"ProfilerStep#N", "aten::mm", "cudaLaunchKernel"}));
}

void TestTraceDiff::shortNamesMerge()
{
    RunBuilder cb;
    addStep(cb, 1, 0, {{"void foo<float>(int)", 5}, {"void foo<double>(int)", 7}});
    RunBuilder tb;
    addStep(tb, 1, 0, {{"void foo<float>(int)", 6}});
    const auto control = cb.build();
    const auto test = tb.build();
    const TraceComparison c = compareTraces(*control, *test, {.shortNames = true, .device = DiffDevice::Gpu});
    QCOMPARE(rowNames(c), Names{"foo"});
    QCOMPARE(c.rows[0].controlCount, int64_t{2});
    QCOMPARE(c.rows[0].controlDurNs, int64_t{12000});
    QCOMPARE(c.rows[0].change, '-');
    const Table table = compareTracesTable(c, "A", "B");
    QCOMPARE(table.columns.front(), std::string("short_name"));
    // HTA's shorten_name keeps memory kernels whole, hip ones included (its memory pattern alone)
    QCOMPARE(shortenKernelName("hipMemcpyWithStream(int)"), std::string("hipMemcpyWithStream(int)"));
    QCOMPARE(shortenKernelName("Memset (Device)"), std::string("Memset (Device)"));
    QCOMPARE(shortenKernelName("void at::native::f<int>(int) const"), std::string("const"));
}

void TestTraceDiff::deviceRule_data()
{
    QTest::addColumn<bool>("htaCompat");
    QTest::addColumn<int>("device");
    QTest::addColumn<QStringList>("names");
    // A Triton launch (cpu_op with "stream": 0) and a GPU user annotation (no stream).
    QTest::newRow("HTA GPU: any stream") << true << int(DiffDevice::Gpu) << QStringList{"gemm", "triton_launch"};
    QTest::newRow("HTA CPU: no stream") << true << int(DiffDevice::Cpu)
                                         << QStringList{"ProfilerStep#1", "cudaLaunchKernel", "fwd"};
    QTest::newRow("default GPU: by category") << false << int(DiffDevice::Gpu) << QStringList{"fwd", "gemm"};
    QTest::newRow("default CPU: by category")
        << false << int(DiffDevice::Cpu) << QStringList{"ProfilerStep#N", "cudaLaunchKernel", "triton_launch"};
}

void TestTraceDiff::deviceRule()
{
    QFETCH(bool, htaCompat);
    QFETCH(int, device);
    QFETCH(QStringList, names);
    RunBuilder b;
    addStep(b, 1, 0, {{"gemm", 5}});
    b.gpu("triton_launch", 0, 20, 2, -1, "cpu_op");
    b.cpu("fwd", 3, 4, -1, "gpu_user_annotation");
    const auto run = b.build();
    TraceDiffOptions options;
    options.htaCompat = htaCompat;
    options.device = static_cast<DiffDevice>(device);
    const TraceComparison c = compareTraces(*run, *run, options);
    QStringList got;
    for (const OpDiffRow& row : c.rows) {
        got << QString::fromStdString(row.name);
        QCOMPARE(row.change, '=');
    }
    QCOMPARE(got, names);
}

void TestTraceDiff::oneSidedSteps()
{
    // control steps 1-3, test 2-4; the warm-down step of each is trimmed by the loader.
    RunBuilder cb;
    addStep(cb, 1, 0, {{"gemm", 10}});
    addStep(cb, 2, 100, {{"gemm", 20}});
    addStep(cb, 3, 200, {{"gemm", 30}, {"relu", 1}});
    addStep(cb, 4, 300, {{"gemm", 99}});
    RunBuilder tb;
    addStep(tb, 2, 0, {{"gemm", 40}});
    addStep(tb, 3, 100, {{"gemm", 50}});
    addStep(tb, 4, 200, {{"gemm", 60}});
    addStep(tb, 5, 300, {{"gemm", 99}});
    const auto control = cb.build();
    const auto test = tb.build();
    QCOMPARE(runSteps(*control), (std::vector<int>{1, 2, 3}));
    QCOMPARE(runSteps(*test), (std::vector<int>{2, 3, 4}));

    // HTA's default: the first step of each, whatever its number
    const TraceComparison first = compareTraces(*control, *test, {});
    QCOMPARE(first.controlSteps, std::vector<int>{1});
    QCOMPARE(first.testSteps, std::vector<int>{2});
    QCOMPARE(findRow(first, "gemm")->testDurNs, int64_t{40000});
    // Steps 1 and 2 are one numbered annotation in the default mode (HTA: one deleted, one added)
    QVERIFY(!findRow(first, "ProfilerStep#1") && !findRow(first, "ProfilerStep#2"));
    QCOMPARE(findRow(first, "ProfilerStep#N")->controlCount, int64_t{1});
    QCOMPARE(findRow(first, "ProfilerStep#N")->testCount, int64_t{1});
    QVERIFY2(hasNote(first.notes, "numbered annotations are one name"), allNotes(first.notes).c_str());
    const TraceComparison hta = compareTraces(*control, *test, {.htaCompat = true});
    QVERIFY(findRow(hta, "ProfilerStep#1") && findRow(hta, "ProfilerStep#2") && !findRow(hta, "ProfilerStep#N"));

    const TraceComparison all = compareTraces(*control, *test, {.allSteps = true});
    QVERIFY2(all.error.empty(), all.error.c_str());
    QCOMPARE(all.controlSteps, (std::vector<int>{2, 3}));
    QCOMPARE(all.controlUnits, int64_t{2});
    QVERIFY2(hasNote(all.notes, "only in control, left out: 1"), allNotes(all.notes).c_str());
    QVERIFY2(hasNote(all.notes, "only in test, left out: 4"), allNotes(all.notes).c_str());
    const OpDiffRow* gemm = findRow(all, "gemm");
    QCOMPARE(all.controlDurNs(*gemm), 25000.0);  // (20 + 30) / 2
    QCOMPARE(all.testDurNs(*gemm), 45000.0);
    QCOMPARE(gemm->change, '=');
    const OpDiffRow* relu = findRow(all, "relu");
    QCOMPARE(all.controlCount(*relu), 0.5);
    QCOMPARE(relu->change, '-');
    const Table table = compareTracesTable(all, "c", "t");
    const auto& reluRow = table.rows[static_cast<size_t>(relu - all.rows.data())];
    QCOMPARE(std::get<double>(reluRow[1]), 0.5);
    QCOMPARE(std::get<double>(reluRow[2]), 0.5);  // µs per step
    QCOMPARE(std::get<double>(reluRow[5]), -0.5);
}

void TestTraceDiff::missingStepsAndRanks()
{
    RunBuilder cb;
    addStep(cb, 1, 0, {{"gemm", 10}});
    const auto control = cb.build();
    for (bool compat : {false, true}) {
        TraceDiffOptions options;
        options.htaCompat = compat;
        options.testSteps = {7};
        const TraceComparison c = compareTraces(*control, *control, options);
        QVERIFY(c.rows.empty());
        QVERIFY2(c.error.find("ProfilerStep#7") != std::string::npos, c.error.c_str());
        options.testSteps.clear();
        options.controlRanks = {3};
        const TraceComparison r = compareTraces(*control, *control, options);
        QVERIFY(r.rows.empty());
        QVERIFY2(r.error.find("no rank 3") != std::string::npos, r.error.c_str());
    }
}

void TestTraceDiff::noProfilerStep()
{
    RunBuilder cb;
    cb.launched("gemm", 7, 0, 1, 10);
    RunBuilder tb;
    addStep(tb, 1, 0, {{"gemm", 12}});
    const auto control = cb.build();
    const auto test = tb.build();
    const TraceComparison c = compareTraces(*control, *test, {});
    QVERIFY2(c.error.empty(), c.error.c_str());
    QVERIFY(c.controlSteps.empty());
    QVERIFY(hasNote(c.notes, "control run has no ProfilerStep"));
    QCOMPARE(findRow(c, "gemm")->controlDurNs, int64_t{10000});
    // HTA raises ValueError (no iteration)
    const TraceComparison hta = compareTraces(*control, *test, {.htaCompat = true});
    QVERIFY(hta.rows.empty());
    QVERIFY(!hta.error.empty());
    // all steps: no common step, each side over what it has
    const TraceComparison all = compareTraces(*control, *test, {.allSteps = true});
    QVERIFY(all.error.empty());
    QCOMPARE(findRow(all, "gemm")->testDurNs, int64_t{12000});
}

void TestTraceDiff::differentVendors()
{
    RunBuilder cb;
    cb.cpu("ProfilerStep#1", 0, 100, -1, "user_annotation");
    cb.cpu("aten::mm", 1, 20, -1, "cpu_op");
    cb.cpu("cudaLaunchKernel", 2, 1, 11);
    cb.gpu("ampere_sgemm_128x64_nn", 7, 4, 10, 11);
    RunBuilder tb;
    tb.cpu("ProfilerStep#1", 0, 100, -1, "user_annotation");
    tb.cpu("aten::mm", 1, 20, -1, "cpu_op");
    tb.cpu("hipLaunchKernel", 2, 1, 11);
    tb.gpu("Cijk_Ailk_Bljk_SB_MT64x64x8", 7, 4, 14, 11);
    const auto control = cb.build();
    const auto test = tb.build();
    QVERIFY2(control->ranks[0].deviceType == DeviceType::Nvidia, toString(control->ranks[0].deviceType));
    QVERIFY2(test->ranks[0].deviceType == DeviceType::Amd, toString(test->ranks[0].deviceType));

    const TraceComparison c = compareTraces(*control, *test, {});
    QVERIFY(hasNote(c.notes, "NVIDIA GPU, the test run on AMD GPU"));
    const OpsDiff ops = opsDiff(c);
    QCOMPARE(ops.added, (Names{"Cijk_Ailk_Bljk_SB_MT64x64x8", "hipLaunchKernel"}));
    QCOMPARE(ops.deleted, (Names{"ampere_sgemm_128x64_nn", "cudaLaunchKernel"}));
    QCOMPARE(ops.unchanged, (Names{"ProfilerStep#N", "aten::mm"}));
    // the launched kernel belongs to step 1 on both vendors
    const TraceComparison gpu = compareTraces(*control, *test, {.device = DiffDevice::Gpu});
    QCOMPARE(rowNames(gpu), (Names{"ampere_sgemm_128x64_nn", "Cijk_Ailk_Bljk_SB_MT64x64x8"}));

    const DiffSummary s = diffSummary(*control, *test);
    QCOMPARE(s.ranks.size(), size_t{1});
    QVERIFY(hasNote(s.notes, "AMD GPU"));
    QCOMPARE(s.ranks[0].kernels.size(), size_t{2});
    QCOMPARE(s.ranks[0].kernels[0].name, std::string("Cijk_Ailk_Bljk_SB_MT64x64x8"));  // +14 µs
    QCOMPARE(s.ranks[0].kernels[1].deltaNs(), int64_t{-10000});
}

void TestTraceDiff::mismatchedRankCounts()
{
    RunBuilder cb;
    for (int r = 0; r < 2; ++r) {
        cb.rank(r);
        addStep(cb, 1, 0, {{"gemm", 10.0 + r}});
    }
    RunBuilder tb;
    for (int r = 0; r < 4; ++r) {
        tb.rank(r);
        addStep(tb, 1, 0, {{"gemm", 20.0 + r}});
    }
    const auto control = cb.build();
    const auto test = tb.build();

    const TraceComparison all = compareTraces(*control, *test, {.device = DiffDevice::Gpu, .allRanks = true});
    QCOMPARE(all.controlRanks, (std::vector<int>{0, 1}));
    QCOMPARE(all.testRanks, (std::vector<int>{0, 1}));
    QVERIFY2(hasNote(all.notes, "only in test: 2, 3"), allNotes(all.notes).c_str());
    QCOMPARE(all.testDurNs(all.rows[0]), 20500.0);  // (20 + 21) / 2 ranks

    const DiffSummary s = diffSummary(*control, *test);
    QVERIFY2(s.error.empty(), s.error.c_str());
    QCOMPARE(s.ranks.size(), size_t{2});
    QCOMPARE(s.testOnlyRanks, (std::vector<int>{2, 3}));
    QVERIFY2(hasNote(s.notes, "2 and 4 ranks"), allNotes(s.notes).c_str());
    QCOMPARE(s.ranks[1].kernels[0].deltaNs(), int64_t{10000});
    QVERIFY(s.ranks[1].controlTemporal && s.ranks[1].testTemporal);
    QCOMPARE(s.ranks[1].testTemporal->computeNs - s.ranks[1].controlTemporal->computeNs, int64_t{10000});
}

void TestTraceDiff::disjointRankNumbers()
{
    // HTA's own trace_diff case: control is rank 3, test rank 1.
    RunBuilder cb;
    cb.rank(3);
    addStep(cb, 1, 0, {{"gemm", 10}});
    RunBuilder tb;
    tb.rank(1);
    addStep(tb, 1, 0, {{"gemm", 11}});
    const auto control = cb.build();
    const auto test = tb.build();
    const TraceComparison first = compareTraces(*control, *test, {});
    QCOMPARE(first.controlRanks, std::vector<int>{3});
    QCOMPARE(first.testRanks, std::vector<int>{1});
    const TraceComparison all = compareTraces(*control, *test, {.allRanks = true});
    QVERIFY(hasNote(all.notes, "paired in order"));
    QCOMPARE(findRow(all, "gemm")->testDurNs, int64_t{11000});
    const DiffSummary s = diffSummary(*control, *test);
    QCOMPARE(s.ranks.size(), size_t{1});
    QCOMPARE(s.ranks[0].controlRank, 3);
    QCOMPARE(s.ranks[0].testRank, 1);
    QVERIFY(hasNote(s.notes, "control/test: 3/1"));
}

void TestTraceDiff::summaryKernelsAndBreakdown()
{
    RunBuilder cb;
    addStep(cb, 1, 0, {{"a", 10}, {"a", 10}, {"b", 5}, {"c", 1}, {"ncclKernel_AllReduce", 8}});
    RunBuilder tb;
    addStep(tb, 1, 0, {{"a", 10}, {"a", 20}, {"b", 2}, {"d", 4}, {"ncclKernel_AllReduce", 8}});
    const auto control = cb.build();
    const auto test = tb.build();
    const DiffSummary s = diffSummary(*control, *test, {.topKernels = 3});
    QVERIFY2(s.error.empty(), s.error.c_str());
    QVERIFY2(s.notes.empty(), allNotes(s.notes).c_str());
    QCOMPARE(s.ranks.size(), size_t{1});
    const RankDiff& r = s.ranks[0];
    QCOMPARE(r.kernels.size(), size_t{3});
    QCOMPARE(r.kernels[0].name, std::string("a"));  // +10
    QCOMPARE(r.kernels[0].controlMeanNs(), 10000.0);
    QCOMPARE(r.kernels[0].testMeanNs(), 15000.0);
    QCOMPARE(r.kernels[0].deltaPctg(), 50.0);
    QCOMPARE(r.kernels[1].name, std::string("d"));  // +4, added
    QVERIFY(std::isnan(r.kernels[1].controlMeanNs()));
    QCOMPARE(r.kernels[2].name, std::string("b"));  // -3 (c's -1 is cut)
    QVERIFY(r.controlOverlap && r.testOverlap);
    QVERIFY(r.controlOverlap->hasCommunication);

    const Table kernels = diffKernelsTable(s, "before", "after");
    QCOMPARE(kernels.rows.size(), size_t{3});
    const auto column = [&](const Table& t, const std::string& name) {
        return static_cast<size_t>(std::find(t.columns.begin(), t.columns.end(), name) - t.columns.begin());
    };
    QCOMPARE(std::get<std::string>(kernels.rows[1][column(kernels, "change")]), std::string("added"));
    QCOMPARE(std::get<int64_t>(kernels.rows[0][column(kernels, "diff_total_time(us)")]), int64_t{10});
    QCOMPARE(std::get<int64_t>(kernels.rows[0][column(kernels, "after_mean_time(us)")]), int64_t{15});
    QVERIFY(std::holds_alternative<std::monostate>(kernels.rows[1][column(kernels, "diff_total_time_pctg")]));
    const Table temporal = diffTemporalTable(s, "before", "after");
    QCOMPARE(temporal.rows.size(), size_t{1});
    const int64_t computeDelta = std::get<int64_t>(temporal.rows[0][column(temporal, "diff_compute_time(us)")]);
    QCOMPARE(computeDelta, r.testTemporal->computeNs / 1000 - r.controlTemporal->computeNs / 1000);
    const Table overlap = diffOverlapTable(s, "before", "after");
    QCOMPARE(overlap.columns.back(), std::string("diff_comp_comm_overlap_pctg"));
    for (const Table* t : {&kernels, &temporal, &overlap})
        for (const std::string& c : t->columns)
            QVERIFY2(c.find("time") == std::string::npos || c.find("(us)") != std::string::npos || c.ends_with("pctg"),
                     c.c_str());
}

void TestTraceDiff::summaryCutsToCommonSteps()
{
    RunBuilder cb;
    addStep(cb, 1, 0, {{"gemm", 10}});
    addStep(cb, 2, 100, {{"gemm", 10}});
    addStep(cb, 3, 200, {{"gemm", 10}});
    RunBuilder tb;
    addStep(tb, 2, 0, {{"gemm", 12}});
    addStep(tb, 3, 100, {{"gemm", 12}});
    const auto control = cb.build();  // steps 1, 2 (3 trimmed)
    const auto test = tb.build();     // step 2 (3 trimmed)
    const DiffSummary s = diffSummary(*control, *test);
    QCOMPARE(s.steps, std::vector<int>{2});
    QCOMPARE(s.controlOnlySteps, std::vector<int>{1});
    QVERIFY2(hasNote(s.notes, "compared the 1 steps in both runs"), allNotes(s.notes).c_str());
    QCOMPARE(s.ranks[0].kernels[0].controlCount, int64_t{1});
    QCOMPARE(s.ranks[0].kernels[0].deltaNs(), int64_t{2000});
    const DiffSummary whole = diffSummary(*control, *test, {.commonStepsOnly = false});
    QVERIFY(whole.steps.empty());
    QCOMPARE(whole.ranks[0].kernels[0].controlCount, int64_t{2});
    QVERIFY(hasNote(whole.notes, "whole runs compared"));
}

void TestTraceDiff::compatRounding()
{
    // A 0.3 µs kernel at 10.4 µs: HTA rounds it to ceil(10.4) .. floor(10.7), i.e. -1 µs.
    const std::string events = R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0.5, "dur": 100},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 9.25, "dur": 1, "args": {"correlation": 5}},
        {"ph": "X", "cat": "kernel", "name": "tiny", "pid": 0, "tid": 7, "ts": 10.4, "dur": 0.3, "args": {"stream": 7, "correlation": 5}})";
    const auto hta = loadJson("hta", events, true);
    const auto exact = loadJson("exact", events, false);
    const TraceComparison h = compareTraces(*hta, *hta, {.htaCompat = true, .device = DiffDevice::Gpu});
    QCOMPARE(h.rows.size(), size_t{1});
    QCOMPARE(h.rows[0].controlDurNs, int64_t{-1000});
    const TraceComparison e = compareTraces(*exact, *exact, {.device = DiffDevice::Gpu});
    QCOMPARE(e.rows[0].controlDurNs, int64_t{300});
    QVERIFY(hasNote(e.notes, "exact nanoseconds"));
    const Table table = compareTracesTable(e, "a", "b");
    QCOMPARE(std::get<double>(table.rows[0][2]), 0.3);
}

void TestTraceDiff::tables()
{
    RunBuilder b;
    addStep(b, 1, 0, {{"gemm", 10}});
    const auto run = b.build();
    const TraceComparison c = compareTraces(*run, *run, {});
    const Table table = compareTracesTable(c, "Run", "Run");
    QCOMPARE(table.columnNames(), (std::vector<std::string>{"name", "Run_counts", "Run_total_duration (us)", "Run_control_test_counts",
                                                      "Run_control_test_total_duration (us)", "diff_counts",
                                                      "diff_duration (us)", "counts_change_categories"}));
    QVERIFY(hasNote(table.notes, "Run_control_test"));
    QCOMPARE(std::get<int64_t>(table.rows[0][1]), int64_t{1});
    QCOMPARE(std::get<std::string>(table.rows[0][7]), std::string("="));

    TraceComparison failed;
    failed.error = "the test run has no rank";
    QVERIFY(hasNote(compareTracesTable(failed, "a", "b").notes, "no result: the test run has no rank"));
}

void TestTraceDiff::opsDiffJsonFormat()
{
    OpsDiff diff;
    diff.added = {"a\"b\\c", "caf\xc3\xa9", "\xf0\x9f\x98\x80", "tab\there"};
    diff.unchanged = {"x"};
    const std::string expected = "{\n \"added\": [\n  \"a\\\"b\\\\c\",\n  \"caf\\u00e9\",\n  \"\\ud83d\\ude00\",\n"
                                 "  \"tab\\there\"\n ],\n \"deleted\": [],\n \"increased\": [],\n \"decreased\": [],\n"
                                 " \"unchanged\": [\n  \"x\"\n ]\n}";
    QCOMPARE(opsDiffJson(diff), expected);
}

QTEST_GUILESS_MAIN(TestTraceDiff)
#include "tst_tracediff.moc"
