// Unit tests of the call tree, kernel patterns, op-kernel delays, annotations, step spans and
// stragglers on runs built in code (hand-made call trees: nested operators, kernels launched from
// different depths, operators with no kernels, two threads), a synthetic run with a straggler,
// and the CLI's commands and --step.

#ifndef Q_MOC_RUN
#include "analysis/patterns/annotations.h"
#include "analysis/operators/calltree.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/launch/opkernels.h"
#include "analysis/tables/patterntables.h"
#include "analysis/patterns/steps.h"
#include "model/loader.h"
#include "model/synth/synthrun.h"
#include "runbuilder.h"
#include "testsupport.h"
#endif

#include <QtTest>

using namespace kscope;
using namespace kscope::test;

namespace {

constexpr int64_t kCpuPid = 100;
constexpr int64_t kGpuPid = 0;  // HTA takes pid 0 for a GPU stream

// A kernel launched from thread `tid` at launchUs (the launch lasts 1 us), run on `stream`.
void launch(RunBuilder& b, int64_t tid, const std::string& kernel, double launchUs, double tsUs, double durUs,
            int stream = 7)
{
    static int64_t correlation = 5000;
    ++correlation;
    b.onThread(kCpuPid, tid).cpu("cudaLaunchKernel", launchUs, 1.0, correlation);
    b.onThread(kGpuPid, stream).gpu(kernel, stream, tsUs, durUs, correlation);
    b.onThread(kCpuPid, tid);
}

void op(RunBuilder& b, int64_t tid, const std::string& name, double tsUs, double durUs,
        const std::string& category = "cpu_op")
{
    b.onThread(kCpuPid, tid).cpu(name, tsUs, durUs, -1, category);
}

std::string text(const Run& run, const KernelPattern& p)
{
    return patternText(run, p);
}

const KernelPattern* findPattern(const Run& run, const KernelPatterns& result, const std::string& pattern)
{
    for (const KernelPattern& p : result.patterns)
        if (text(run, p) == pattern)
            return &p;
    return nullptr;
}

// Two aten::linear with three kernels at different depths, one with two (too few).
std::shared_ptr<Run> linearRun()
{
    RunBuilder b;
    b.rank(0);
    op(b, 1, "ProfilerStep#1", 0, 1000, "user_annotation");
    op(b, 1, "## forward ##", 1, 500, "user_annotation");
    op(b, 1, "nn.Module: Block", 2, 200, "user_annotation");
    op(b, 1, "aten::linear", 10, 40);
    launch(b, 1, "k1", 11, 100, 5);
    launch(b, 1, "k2", 13, 110, 5);
    launch(b, 1, "k3", 15, 120, 5);
    op(b, 1, "aten::linear", 300, 40);
    launch(b, 1, "k1", 301, 400, 5);
    launch(b, 1, "k2", 303, 410, 5);
    launch(b, 1, "k3", 305, 420, 5);
    op(b, 1, "aten::linear", 350, 10);
    launch(b, 1, "k1", 351, 430, 5);
    launch(b, 1, "k2", 353, 440, 5);
    return b.build();
}

} // namespace

class TestPatternsUnits : public QObject {
    Q_OBJECT

private slots:
    void stepTimeMedians();
    void patternsAtAnyDepth();
    void nestedCandidatesCountOnce();
    void suggestedOperatorRepeatsMost();
    void kernelsFromDifferentDepthsInStartOrder();
    void twoThreadsKeepTheirOwnKernels();
    void htaLinksTheBackwardThread();
    void opKernelsThreadVersusHta();
    void opKernelsHtaAddsEarlierRanks();
    void annotationsFoldIntoOthers_data();
    void annotationsFoldIntoOthers();
    void annotatedKernelsTakeTheInnermost();
    void stepSpans();
    void stragglersLateRank();
    void stragglersNeedTwoRanks();
    void synthStraggler();
    void cliCommandsAndStep();
};

void TestPatternsUnits::stepTimeMedians()
{
    // Two ranks x two steps; rank 1's second step has no GPU work.
    ProfilerSteps steps;
    steps.steps = {1, 2};
    const auto span = [](int rank, int step, int64_t cpuNs, int64_t gpuNs) {
        StepSpan s;
        s.rank = rank;
        s.step = step;
        s.cpuEndNs = cpuNs;
        s.gpuEndNs = gpuNs;
        s.gpuEvents = gpuNs > 0 ? 1 : 0;
        return s;
    };
    steps.spans = {span(0, 1, 100, 90), span(0, 2, 200, 180), span(1, 1, 110, 120), span(1, 2, 300, 0)};
    const StepTimeStats gpu = stepTimeStats(steps, StepClock::Gpu);
    QCOMPARE(gpu.spans, size_t{3});
    QCOMPARE(gpu.medianNs, 120.0);
    QCOMPARE(gpu.minNs, 90.0);
    QCOMPARE(gpu.maxNs, 180.0);
    QCOMPARE(gpu.medianOfStep.at(1), 105.0);  // (90 + 120) / 2
    QCOMPARE(gpu.medianOfStep.at(2), 180.0);  // rank 1 has no GPU time in step 2
    QCOMPARE(gpu.slowestRank, 0);             // median 135 vs 120
    const StepTimeStats either = stepTimeStats(steps, StepClock::GpuElseCpu);
    QCOMPARE(either.spans, size_t{4});
    QCOMPARE(either.slowestRank, 1);  // 120 and 300 (its CPU span)
    QCOMPARE(either.slowestMedianNs, 210.0);
    QVERIFY(std::isnan(stepTimeNs(steps.spans[3], StepClock::Gpu)));
    QCOMPARE(stepTimeStats(ProfilerSteps{}, StepClock::Cpu).spans, size_t{0});
}

void TestPatternsUnits::patternsAtAnyDepth()
{
    const auto run = linearRun();
    KernelPatternOptions options{.operatorName = "aten::linear"};
    const KernelPatterns result = frequentKernelSequences(*run, options);
    QCOMPARE(result.patterns.size(), size_t{1});
    const KernelPattern& p = result.patterns.front();
    QCOMPARE(text(*run, p), std::string("aten::linear|k1|k2|k3"));
    QCOMPARE(p.count, int64_t{2});
    QCOMPARE(p.gpuNs, int64_t{30000});
    QCOMPARE(p.cpuNs, int64_t{80000});
    QCOMPARE(p.roots.size(), size_t{2});
    QCOMPARE(p.kernels.size(), size_t{6});
    QVERIFY(p.top);
    // 2 operators + 6 launches + 6 kernels
    QCOMPARE(p.members.size(), size_t{14});
    // HTA: only the candidates at the least depth (the second and third, depth 2) count.
    options.htaCompat = true;
    const KernelPatterns hta = frequentKernelSequences(*run, options);
    QCOMPARE(hta.patterns.size(), size_t{1});
    QCOMPARE(hta.patterns.front().count, int64_t{1});
    QCOMPARE(hta.patterns.front().cpuNs, int64_t{40000});
    // --min-pattern-len 2 lets the short one in.
    options = {.operatorName = "aten::linear", .minPatternLength = 2};
    QCOMPARE(frequentKernelSequences(*run, options).patterns.size(), size_t{2});
    // Nothing named like it: no rows, and why.
    options.operatorName = "aten::conv";
    const KernelPatterns none = frequentKernelSequences(*run, options);
    QVERIFY(none.patterns.empty());
    QVERIFY(!none.error.empty());
    QCOMPARE(patternsTable(*run, none).rows.size(), size_t{0});
}

void TestPatternsUnits::suggestedOperatorRepeatsMost()
{
    // aten::linear: one sequence twice (and one too short); aten::mm: one sequence three times;
    // aten::add: three kernels once (more frequent ops without a repeat do not win).
    RunBuilder b;
    b.rank(0);
    op(b, 1, "aten::linear", 10, 40);
    launch(b, 1, "k1", 11, 100, 5);
    launch(b, 1, "k2", 13, 110, 5);
    launch(b, 1, "k3", 15, 120, 5);
    op(b, 1, "aten::linear", 300, 40);
    launch(b, 1, "k1", 301, 400, 5);
    launch(b, 1, "k2", 303, 410, 5);
    launch(b, 1, "k3", 305, 420, 5);
    for (int i = 0; i < 3; ++i) {
        const double at = 1000.0 + 100.0 * i;
        op(b, 1, "aten::mm", at, 40);
        launch(b, 1, "m1", at + 1, 2000 + 50.0 * i, 5);
        launch(b, 1, "m2", at + 3, 2010 + 50.0 * i, 5);
        launch(b, 1, "m3", at + 5, 2020 + 50.0 * i, 5);
    }
    op(b, 1, "aten::add", 2000, 40);
    launch(b, 1, "a1", 2001, 3000, 5);
    launch(b, 1, "a2", 2003, 3010, 5);
    launch(b, 1, "a3", 2005, 3020, 5);
    const auto run = b.build();
    const PatternOperatorSuggestion suggestion = suggestPatternOperator(*run, {});
    QCOMPARE(suggestion.operatorName, std::string("aten::mm"));
    QCOMPARE(suggestion.repeats, int64_t{3});
    QCOMPARE(suggestion.rank, 0);
    // No operator asked: the suggestion's patterns, said in a note.
    const KernelPatterns result = frequentKernelSequences(*run, {});
    QVERIFY2(result.error.empty(), result.error.c_str());
    QVERIFY(result.suggested);
    QCOMPARE(result.operatorName, std::string("aten::mm"));
    QCOMPARE(result.patterns.size(), size_t{1});
    QCOMPARE(text(*run, result.patterns.front()), std::string("aten::mm|m1|m2|m3"));
    QCOMPARE(result.patterns.front().count, int64_t{3});
    QVERIFY(!result.notes.empty() && result.notes.front().find("aten::mm") != std::string::npos);
    // Asked by name: no suggestion.
    QVERIFY(!frequentKernelSequences(*run, {.operatorName = "aten::linear"}).suggested);
    // Nothing repeats: no suggestion, and the error says so.
    const KernelPatterns none = frequentKernelSequences(*run, {.minPatternLength = 4});
    QVERIFY(!none.suggested);
    QVERIFY(none.patterns.empty());
    QVERIFY(none.error.find("no operator name given") != std::string::npos);
}

void TestPatternsUnits::nestedCandidatesCountOnce()
{
    RunBuilder b;
    b.rank(0);
    op(b, 1, "aten::linear", 0, 100);
    op(b, 1, "linear_inner", 10, 50);
    launch(b, 1, "k1", 11, 200, 5);
    launch(b, 1, "k2", 13, 210, 5);
    launch(b, 1, "k3", 15, 220, 5);
    launch(b, 1, "k4", 70, 230, 5);
    op(b, 1, "aten::relu", 150, 10);  // no kernels at all
    const auto run = b.build();
    const KernelPatterns result = frequentKernelSequences(*run, {.operatorName = "linear"});
    QCOMPARE(result.patterns.size(), size_t{1});
    QCOMPARE(text(*run, result.patterns.front()), std::string("aten::linear|k1|k2|k3|k4"));
    QCOMPARE(result.patterns.front().count, int64_t{1});
    // The call tree: kernels under their launch, counted up to the outer operator.
    const CallTree tree = buildCallTree(run->ranks[0], run->strings, false);
    const EventTable& t = run->ranks[0].events;
    for (size_t i = 0; i < t.size(); ++i) {
        const std::string_view name = run->str(t.name[i]);
        if (name == "aten::linear")
            QCOMPARE(tree.kernels[i], 4);
        if (name == "linear_inner")
            QCOMPARE(tree.kernels[i], 3);
        if (name == "aten::relu")
            QCOMPARE(tree.kernels[i], 0);
        if (name == "k4")
            QCOMPARE(run->str(t.name[static_cast<size_t>(tree.parent[i])]), std::string_view("cudaLaunchKernel"));
    }
}

void TestPatternsUnits::kernelsFromDifferentDepthsInStartOrder()
{
    RunBuilder b;
    b.rank(0);
    op(b, 1, "aten::foo", 0, 100);
    launch(b, 1, "direct", 5, 200, 5);
    op(b, 1, "aten::bar", 10, 50);
    launch(b, 1, "child", 20, 230, 5);
    op(b, 1, "aten::baz", 30, 10);
    launch(b, 1, "grandchild", 35, 215, 5);  // starts before "child" on the GPU
    const auto run = b.build();
    const KernelPatterns result = frequentKernelSequences(*run, {.operatorName = "aten::foo"});
    QCOMPARE(result.patterns.size(), size_t{1});
    QCOMPARE(text(*run, result.patterns.front()), std::string("aten::foo|direct|grandchild|child"));
    const KernelPatterns hta = frequentKernelSequences(*run, {.htaCompat = true, .operatorName = "aten::foo"});
    QCOMPARE(text(*run, hta.patterns.front()), std::string("aten::foo|direct|grandchild|child"));
}

void TestPatternsUnits::twoThreadsKeepTheirOwnKernels()
{
    RunBuilder b;
    b.rank(0);
    op(b, 1, "aten::mm", 0, 100);
    launch(b, 1, "a1", 10, 200, 5);
    launch(b, 1, "a2", 20, 210, 5);
    launch(b, 1, "a3", 30, 220, 5);
    op(b, 2, "aten::mm", 5, 100);
    launch(b, 2, "b1", 15, 300, 5, 8);
    launch(b, 2, "b2", 25, 310, 5, 8);
    launch(b, 2, "b3", 35, 320, 5, 8);
    const auto run = b.build();
    const KernelPatterns result = frequentKernelSequences(*run, {.operatorName = "aten::mm"});
    QCOMPARE(result.patterns.size(), size_t{2});
    QVERIFY(findPattern(*run, result, "aten::mm|a1|a2|a3"));
    QVERIFY(findPattern(*run, result, "aten::mm|b1|b2|b3"));
    // Op-kernel delays look on the launching thread: each op has its own three kernels.
    const OpKernels ops = opKernelDelays(*run, {});
    QCOMPARE(ops.rows.size(), size_t{2});
    for (const OpKernelRow& r : ops.rows) {
        QCOMPARE(r.kernels.size(), size_t{3});
        QCOMPARE(r.avgOpLaunchDelayNs, 10000.0);
    }
}

void TestPatternsUnits::htaLinksTheBackwardThread()
{
    RunBuilder b;
    b.rank(0);
    op(b, 1, "ProfilerStep#1", 0, 1000, "user_annotation");
    op(b, 1, "## forward ##", 10, 400, "user_annotation");
    op(b, 1, "nn.Module: Net", 15, 300, "user_annotation");
    op(b, 1, "aten::mm", 20, 40);
    launch(b, 1, "f1", 21, 100, 5);
    launch(b, 1, "f2", 23, 110, 5);
    launch(b, 1, "f3", 25, 120, 5);
    op(b, 1, "## backward ##", 500, 400, "user_annotation");
    op(b, 2, "autograd::engine::evaluate_function: MmBackward0", 550, 150);
    op(b, 2, "aten::mm", 560, 90);
    launch(b, 2, "g1", 561, 700, 5);
    launch(b, 2, "g2", 563, 710, 5);
    launch(b, 2, "g3", 565, 720, 5);
    const auto run = b.build();
    // HTA: the backward thread's top-level op goes under "## backward ##", so its aten::mm sits
    // at depth 3 like the forward one: both count.
    const CallTree tree = buildCallTree(run->ranks[0], run->strings, true);
    const EventTable& t = run->ranks[0].events;
    for (size_t i = 0; i < t.size(); ++i)
        if (run->str(t.name[i]) == "aten::mm")
            QCOMPARE(tree.depth[i], 3);
    const KernelPatterns hta = frequentKernelSequences(*run, {.htaCompat = true, .operatorName = "aten::mm"});
    QCOMPARE(hta.patterns.size(), size_t{2});
    const KernelPatterns step = frequentKernelSequences(*run, {.htaCompat = true, .operatorName = "ProfilerStep"});
    QCOMPARE(step.patterns.size(), size_t{1});
    QCOMPARE(step.patterns.front().kernelCount(), size_t{6});  // the backward kernels are the step's too
    // The default mode keeps each thread's own stack: the step holds the forward kernels only.
    const KernelPatterns own = frequentKernelSequences(*run, {.operatorName = "ProfilerStep"});
    QCOMPARE(own.patterns.front().kernelCount(), size_t{3});
}

void TestPatternsUnits::opKernelsThreadVersusHta()
{
    RunBuilder b;
    b.rank(0);
    op(b, 1, "aten::add", 0, 50);
    launch(b, 1, "k1", 10, 100, 5);
    launch(b, 1, "k2", 60, 200, 5);  // outside aten::add, inside thread 2's aten::mul
    op(b, 2, "aten::mul", 5, 95);
    const auto run = b.build();
    const OpKernels own = opKernelDelays(*run, {});
    QCOMPARE(own.rows.size(), size_t{1});
    QCOMPARE(run->str(own.rows[0].op), std::string_view("aten::add"));
    QCOMPARE(kernelSequenceText(*run, own.rows[0]), std::string("k1"));
    QCOMPARE(own.rows[0].avgOpLaunchDelayNs, 10000.0);
    QCOMPARE(own.rows[0].avgRuntimeDelayNs, 90000.0);
    // HTA: the latest-starting aten:: op of any thread that spans the launch: aten::mul, twice.
    const OpKernels hta = opKernelDelays(*run, {.htaCompat = true});
    QCOMPARE(hta.rows.size(), size_t{1});
    QCOMPARE(run->str(hta.rows[0].op), std::string_view("aten::mul"));
    QCOMPARE(kernelSequenceText(*run, hta.rows[0]), std::string("k1 -> k2"));
    QCOMPARE(hta.rows[0].avgOpLaunchDelayNs, 5000.0);
    const Table table = opKernelsTable(*run, hta);
    QCOMPARE(table.columns[4], std::string("avg_aten_op_launch_delay"));
}

void TestPatternsUnits::opKernelsHtaAddsEarlierRanks()
{
    RunBuilder b;
    for (int r = 0; r < 2; ++r) {
        b.rank(r);
        op(b, 1, "aten::add", 1000.0 * r, 50);
        launch(b, 1, "k1", 1000.0 * r + 10, 1000.0 * r + 100, 5);
    }
    const auto run = b.build();
    const OpKernels own = opKernelDelays(*run, {});
    QCOMPARE(own.rows.size(), size_t{2});
    QCOMPARE(own.rows[1].count, int64_t{1});
    const OpKernels hta = opKernelDelays(*run, {.htaCompat = true, .ranks = choiceOfNumbers(*run, {0, 1})});
    QCOMPARE(hta.rows.size(), size_t{2});
    QCOMPARE(hta.rows[0].count, int64_t{1});
    QCOMPARE(hta.rows[1].rank, 1);
    QCOMPARE(hta.rows[1].count, int64_t{2});  // rank 0's launch counted again (HTA's list is never cleared)
    // A rank without launches in an op: HTA raises (KeyError), we say so.
    RunBuilder empty;
    empty.rank(0);
    op(empty, 1, "aten::add", 0, 50);
    const auto quiet = empty.build();
    QVERIFY(opKernelDelays(*quiet, {.htaCompat = true}).error.find("KeyError") != std::string::npos);
    QVERIFY(opKernelDelays(*quiet, {}).rows.empty());
}

void TestPatternsUnits::annotationsFoldIntoOthers_data()
{
    QTest::addColumn<bool>("hta");
    QTest::addColumn<QStringList>("allow");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QList<qlonglong>>("maxUs");
    QTest::newRow("default") << false << QStringList{} << QStringList{"A", "B", "others"} << QList<qlonglong>{60, 50, 30};
    QTest::newRow("hta") << true << QStringList{} << QStringList{"A", "B", "others"} << QList<qlonglong>{100, 50, 30};
    QTest::newRow("allow C") << false << QStringList{"C"} << QStringList{"A", "B", "C", "others"}
                             << QList<qlonglong>{60, 50, 30, 20};
}

void TestPatternsUnits::annotationsFoldIntoOthers()
{
    QFETCH(bool, hta);
    QFETCH(QStringList, allow);
    QFETCH(QStringList, names);
    QFETCH(QList<qlonglong>, maxUs);
    RunBuilder b;
    b.rank(0);
    b.onThread(kGpuPid, 7);
    for (const auto& [name, ts, dur] : std::vector<std::tuple<std::string, double, double>>{
             {"A", 0, 60}, {"A", 100, 40}, {"B", 200, 50}, {"C", 300, 30}, {"D", 400, 20}})
        b.cpu(name, ts, dur, -1, "gpu_user_annotation");
    const auto run = b.build();
    AnnotationOptions options{.htaCompat = hta, .numKernels = 2};
    for (const QString& a : allow)
        options.allow.push_back(a.toStdString());
    const AnnotationBreakdown result = userAnnotationBreakdown(*run, options);
    QCOMPARE(static_cast<qsizetype>(result.rows.size()), names.size());
    for (qsizetype k = 0; k < names.size(); ++k) {
        QCOMPARE(QString::fromStdString(std::string(annotationName(*run, result.rows[k]))), names[k]);
        QCOMPARE(result.rows[k].maxNs, maxUs[k] * 1000);
    }
    const AnnotationRow& others = result.rows.back();
    QVERIFY(others.isOthers());
    QCOMPARE(others.sumNs, allow.isEmpty() ? int64_t{50000} : int64_t{20000});
    // CPU annotations: none here.
    QVERIFY(!userAnnotationBreakdown(*run, {.cpu = true}).error.empty());
}

void TestPatternsUnits::annotatedKernelsTakeTheInnermost()
{
    RunBuilder b;
    b.rank(0);
    b.onThread(kGpuPid, 7).cpu("outer", 0, 100, -1, "gpu_user_annotation").cpu("inner", 10, 20, -1, "gpu_user_annotation");
    launch(b, 1, "inside", 1, 15, 5);
    launch(b, 1, "outside", 2, 50, 10);
    launch(b, 1, "after", 3, 200, 10);
    launch(b, 1, "other stream", 4, 15, 5, 8);
    const auto run = b.build();
    const AnnotatedKernels result = kernelsWithAnnotations(*run, {});
    QCOMPARE(result.kernels.size(), size_t{4});
    const EventTable& t = run->ranks[0].events;
    for (const AnnotatedKernel& k : result.kernels) {
        const std::string_view name = run->str(t.name[k.kernel]);
        const std::string_view annotation = k.annotation == kNoEvent ? std::string_view() : run->str(t.name[k.annotation]);
        if (name == "inside")
            QCOMPARE(annotation, std::string_view("inner"));
        else if (name == "outside")
            QCOMPARE(annotation, std::string_view("outer"));
        else
            QCOMPARE(annotation, std::string_view());
    }
    QCOMPARE(annotatedKernelsTable(*run, result).rows.size(), size_t{4});
}

void TestPatternsUnits::stepSpans()
{
    RunBuilder b;
    b.rank(0);
    op(b, 1, "ProfilerStep#1", 0, 100, "user_annotation");
    launch(b, 1, "k", 10, 150, 10);
    op(b, 1, "ProfilerStep#2", 100, 100, "user_annotation");
    launch(b, 1, "k", 110, 210, 20);
    launch(b, 1, "k", 120, 240, 10);
    op(b, 1, "ProfilerStep#3", 200, 100, "user_annotation");  // trimmed, as HTA trims the last step
    launch(b, 1, "k", 210, 300, 10);
    const auto run = b.build();
    const ProfilerSteps steps = profilerSteps(*run);
    QCOMPARE(steps.steps, (std::vector<int>{1, 2}));
    QCOMPARE(steps.spans.size(), size_t{2});
    const StepSpan& first = steps.spans[0];
    QCOMPARE(first.step, 1);
    QCOMPARE(first.cpuNs(), int64_t{100000});
    QCOMPARE(first.gpuStartNs - first.cpuStartNs, int64_t{150000});
    QCOMPARE(first.gpuNs(), int64_t{10000});
    QCOMPARE(steps.spans[1].gpuNs(), int64_t{40000});
    QCOMPARE(steps.spans[1].gpuEvents, int64_t{2});
    QCOMPARE(stepListTable(steps).rows.size(), size_t{2});
    QCOMPARE(stepSpansTable(*run, steps).rows.size(), size_t{2});
}

namespace {

// Three ranks, steps 1..3 (3 trimmed); rank `late` starts its all-reduce 300 us later each step.
std::shared_ptr<Run> collectiveRun(int ranks, int late, const std::string& kernel)
{
    RunBuilder b;
    for (int r = 0; r < ranks; ++r) {
        b.rank(r);
        for (int s = 1; s <= 3; ++s) {
            const double start = (s - 1) * 1000.0;
            op(b, 1, "ProfilerStep#" + std::to_string(s), start, 1000, "user_annotation");
            const double at = start + 500 + (r == late ? 300 : 10 * r);
            launch(b, 1, kernel, start + 10, at, r == late ? 50 : 300 - 20 * r, 20);
        }
    }
    return b.build();
}

} // namespace

void TestPatternsUnits::stragglersLateRank()
{
    const auto run = collectiveRun(3, 2, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    Stragglers result = potentialStragglers(*run, {.candidates = 1});
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.ranks, std::vector<int>{2});
    QCOMPARE(result.steps.size(), size_t{6});  // 3 ranks x steps 1, 2
    for (const StragglerStep& s : result.steps)
        QCOMPARE(s.flagged, s.rank == 2);
    QCOMPARE(result.perRank[2].flaggedSteps, 2);
    result = potentialStragglers(*run, {.candidates = 2});
    QCOMPARE(result.ranks, (std::vector<int>{1, 2}));  // both flagged twice: rank order breaks the tie
    QCOMPARE(stragglersTable(*run, result).rows.size(), size_t{6});
    QCOMPARE(stragglerRanksTable(result).rows.size(), size_t{3});
    // HTA knows only ncclKernel_*: nothing, and it raises.
    const Stragglers hta = potentialStragglers(*run, {.htaCompat = true});
    QVERIFY(hta.ranks.empty());
    QVERIFY(hta.error.find("HTA raises") != std::string::npos);
    const auto legacy = collectiveRun(3, 0, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)");
    QCOMPARE(potentialStragglers(*legacy, {.htaCompat = true, .candidates = 1}).ranks, std::vector<int>{0});
    // One step only (HTA's profiler_steps).
    QCOMPARE(potentialStragglers(*run, {.candidates = 1, .steps = {2}}).steps.size(), size_t{3});
}

void TestPatternsUnits::stragglersNeedTwoRanks()
{
    const auto run = collectiveRun(1, 0, "ncclDevKernel_AllReduce");
    const Stragglers result = potentialStragglers(*run, {});
    QVERIFY(result.ranks.empty());
    QVERIFY(!result.error.empty());
    QVERIFY(potentialStragglers(*run, {.steps = {9}}).error.find("no step") != std::string::npos);
}

void TestPatternsUnits::synthStraggler()
{
    const auto dir = scratchDir("patterns-synth-straggler");
    SynthOptions options;
    options.ranks = 4;
    options.steps = 3;
    options.stragglerRank = 1;
    options.seed = 11;
    QVERIFY(writeSynthRun(dir, options).ok);
    const auto run = loadRun(dir, LoadOptions{});
    const Stragglers result = potentialStragglers(*run, {.candidates = 1});
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.ranks, std::vector<int>{1});
    QCOMPARE(result.perRank[1].flaggedSteps, 3);
}

void TestPatternsUnits::cliCommandsAndStep()
{
    const auto dir = scratchDir("patterns-cli");
    SynthOptions options;
    options.ranks = 2;
    options.steps = 3;
    QVERIFY(writeSynthRun(dir, options).ok);
    const std::string run = " '" + dir.string() + "' --format csv";
    CommandResult r = runCli("steps" + run);
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("rank,step,cpu_start (us)"));
    QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 2 * 3);
    r = runCli("steps --list" + run);
    QCOMPARE(r.out, std::string("step\n100\n101\n102\n"));
    // --step N: every analysis sees that step only.
    r = runCli("steps --step 101" + run);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 2);
    r = runCli("stragglers --step 101 --summary" + run);
    QCOMPARE(r.exitCode, 0);
    r = runCli("steps --step 7" + run);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.find("no rank has ProfilerStep#7") != std::string::npos);
    QVERIFY(r.out.empty());
    for (const char* command : {"op-kernels", "annotations --cpu", "annotated-kernels", "patterns --op aten::mm"}) {
        r = runCli(std::string(command) + run);
        QVERIFY2(r.exitCode == 0, (std::string(command) + ": " + r.err).c_str());
    }
    r = runCli("patterns --min-pattern-len 1" + run);  // no --op: the suggested operator, said in a note
    QVERIFY2(r.exitCode == 0, r.err.c_str());
    QVERIFY2(r.err.find("no operator given") != std::string::npos || r.out.find("no operator given") != std::string::npos,
             (r.out + r.err).c_str());
    // --overlay: a copy of each trace with args.Patterns on the top pattern's events, still a trace.
    const auto overlay = scratchDir("patterns-cli-overlay");
    r = runCli("patterns --op aten::mm --min-pattern-len 1 --top-k 1 --overlay '" + overlay.string() + "'" + run);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.find("events marked") != std::string::npos, r.err.c_str());
    const std::string copy = readMaybeGzip(overlay / "overlaid_rank0.pt.trace.json");
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(copy));
    int marked = 0;
    for (const QJsonValue& e : doc.object().value("traceEvents").toArray())
        marked += e.toObject().value("args").toObject().contains("Patterns");
    QVERIFY(marked > 0 && marked % 3 == 0);  // operator, launch, kernel per occurrence
    const auto reread = loadRun(overlay, LoadOptions{});
    QCOMPARE(reread->ranks.size(), size_t{2});
    QVERIFY(reread->errors.empty());
    r = runCli("patterns --op aten::mm --min-pattern-len 1 --overlay '" + dir.string() + "'" + run);
    QVERIFY(r.err.find("the run's own") != std::string::npos);
    QCOMPARE(r.exitCode, 4);  // an overlay asked for and not written fails the command (kExitOutputFailed)
    r = runCli("patterns --op aten::mm --min-pattern-len 1 --overlay /proc/no-such-folder" + run);
    QVERIFY2(r.err.find("no overlay: cannot create the folder") != std::string::npos, r.err.c_str());
    QCOMPARE(r.exitCode, 4);
}

QTEST_GUILESS_MAIN(TestPatternsUnits)
#include "tst_patterns_units.moc"
