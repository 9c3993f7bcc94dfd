// Every view follows every change: after opening a second run, toggling HTA-compatible mode,
// choosing a step, going back to all steps and changing a view's options, each view's tables
// (what Export All writes) equal the analysis computed afresh on what the session shows. This
// is the test the Idle time panel failed when it kept the first run's numbers for rank 0.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "analysis/core/idlecauses.h"
#include "analysis/findings/findings.h"
#include "analysis/tables/findingstable.h"
#include "analysis/core/tracehealth.h"
#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/kerneldistribution.h"
#include "analysis/core/kernelnames.h"
#include "analysis/core/overlap.h"
#include "analysis/tables/healthtable.h"
#include "analysis/tables/idlecausetables.h"
#include "analysis/tables/resulttables.h"
#include "analysis/core/temporalbreakdown.h"
#include "analysis/tables/difftables.h"
#include "analysis/launch/launchstats.h"
#include "analysis/tables/launchtables.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/patterns/annotations.h"
#include "analysis/collectives/collectives.h"
#include "analysis/tables/collectivetables.h"
#include "analysis/criticalpath/criticalpath.h"
#include "analysis/tables/criticalpathtables.h"
#include "analysis/operators/eventquery.h"
#include "analysis/operators/memory.h"
#include "analysis/tables/memorytables.h"
#include "analysis/operators/operatorkernels.h"
#include "analysis/operators/operators.h"
#include "analysis/tables/operatortables.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/tables/patterntables.h"
#include "analysis/launch/queuelength.h"
#include "analysis/patterns/steps.h"
#include "analysis/tables/timelinetables.h"
#include "analysis/timeline/spansummary.h"
#include "analysis/diff/tracediff.h"
#include "model/synth/synthrun.h"
#include "model/trace.h"
#include "testsupport.h"
#endif

#include "uitestsupport.h"

#include "session/runsession.h"

#include <QStandardPaths>

#include <sstream>
#include <tuple>

using namespace kscope;
using namespace kscope::test;

namespace {

std::string csvOf(const Table& table)
{
    std::ostringstream out;
    writeCsv(table, out);
    return out.str();
}

bool hasStepIn(const Run& run, int step)
{
    for (const RankTrace& rank : run.ranks)
        for (const ProfilerStep& s : rank.steps)
            if (s.number == step)
                return true;
    return false;
}

int rankNumber(const QString& name)  // "idle-time-rank5" -> 5
{
    return name.mid(name.lastIndexOf(QStringLiteral("rank")) + 4).toInt();
}

// The rank trace an export of one rank is about (the sample runs have one file per number).
RankIndex rankOf(const Run& run, const QString& name)
{
    const RankTrace* rank = run.findRank(rankNumber(name));
    return rank ? run.indexOf(*rank) : RankIndex{static_cast<uint32_t>(run.ranks.size())};
}

} // namespace

class TestViewTransitions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void eachResultComputedOnce();
    void secondRunReplacesEveryNumber();
    void htaModeReplacesEveryNumber();
    void stepReplacesEveryNumber();
    void stepSlicesAndResultsAreBounded();
    void optionsReplaceNumbers();
    void exportAllWritesCurrentNumbers();
    void comparisonSideSwitchReplacesEveryNumber();
    void aThrowingAnalysisSaysWhy();
    void cleanupTestCase();

private:
    // What each exported table must hold, computed here from the session's slice.
    Table expected(const QString& name) const;
    void verifyEveryView();
    MainWindow& w() { return *m_window; }
    std::unique_ptr<MainWindow> m_window;
    QString m_otherRun;
    QString m_brokenRun;
};

void TestViewTransitions::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("KinetoscopeTest"));
    QSettings().clear();
    const auto dir = scratchDir("kscope-ui-other-run");
    const auto broken = scratchDir("kscope-ui-other-run-broken");
    SynthOptions options;
    options.ranks = 4;
    options.steps = 3;
    options.seed = 7;  // rank 0 differs from the sample's rank 0
    options.stragglerRank = 2;
    QVERIFY(writeSynthRun(dir, options).ok);
    m_otherRun = QString::fromStdString(dir.string());
    // The same run with a truncated extra rank: a comparison run with import issues of its own.
    QVERIFY(writeSynthRun(broken, options).ok);
    writeFile(broken / "rank9.pt.trace.json", "{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ");
    m_brokenRun = QString::fromStdString(broken.string());
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestViewTransitions::init()
{
    // Each test starts with no comparison, default options and nothing selected.
    w().session()->closeComparison();
    if (w().session()->htaCompat()) {
        QSignalSpy changed(&w(), &MainWindow::runChanged);
        w().session()->setHtaCompat(false);
        QVERIFY(changed.wait(kUiTimeoutMs));
    }
    for (const auto& [view, name, value] : {std::tuple{"kernels", "numKernels", QVariant(10)},
                                            {"kernels", "durationRatio", QVariant(0.8)},
                                            {"idle", "consecutiveKernelDelayUs", QVariant(30.0)},
                                            {"idle", "logBins", QVariant(true)},
                                            {"temporal", "percent", QVariant(true)},
                                            {"diff", "device", QVariant(0)},
                                            {"diff", "shortNames", QVariant(false)},
                                            {"diff", "allRanksAndSteps", QVariant(false)},
                                            {"operators", "groupBy", QVariant(QStringLiteral("name"))},
                                            {"operators", "annotations", QVariant(false)},
                                            {"critical-path", "annotation", QVariant(QString())},
                                            {"critical-path", "instance", QVariant(0)}})
        w().session()->setOption(QString::fromLatin1(view), QString::fromLatin1(name), value);
    w().session()->selection()->clear();
    if (w().run())
        QVERIFY(waitIdle(w()));
}

Table TestViewTransitions::expected(const QString& name) const
{
    const auto control = m_window->session()->controlRun(), test = m_window->session()->testRun();
    if (test && (name == QLatin1String("compare-traces") || name.startsWith(QLatin1String("diff-")))) {
        // What the Comparison view shows: HTA's defaults, narrowed to a selected rank and step
        // both runs have.
        const std::string controlLabel = m_window->session()->label(RunSide::Control).toStdString();
        const std::string testLabel = m_window->session()->label(RunSide::Test).toStdString();
        if (name == QLatin1String("compare-traces")) {
            TraceDiffOptions options;
            options.htaCompat = control->htaCompat;
            const int rank = selectedRankNumber(*m_window);
            if (rank >= 0 && control->findRank(rank) && test->findRank(rank))
                options.controlRanks = options.testRanks = {rank};
            const int step = m_window->session()->selection()->step();
            const auto cs = runSteps(*control), ts = runSteps(*test);
            if (step >= 0 && std::count(cs.begin(), cs.end(), step) && std::count(ts.begin(), ts.end(), step))
                options.controlSteps = options.testSteps = {step};
            return compareTracesTable(compareTraces(*control, *test, options), controlLabel, testLabel);
        }
        const DiffSummary summary = diffSummary(*control, *test, {.htaCompat = control->htaCompat});
        if (name == QLatin1String("diff-temporal"))
            return diffTemporalTable(summary, controlLabel, testLabel);
        if (name == QLatin1String("diff-overlap"))
            return diffOverlapTable(summary, controlLabel, testLabel);
        return diffKernelsTable(summary, controlLabel, testLabel);
    }
    const Run& slice = *m_window->session()->slice();
    const bool hta = slice.htaCompat;
    if (name == QLatin1String("temporal"))
        return temporalTable(temporalBreakdown(slice, {.htaCompat = hta}));
    if (name == QLatin1String("overlap"))
        return overlapTable(commCompOverlap(slice, {.htaCompat = hta}));
    if (name == QLatin1String("kernel-types") || name == QLatin1String("kernels")) {
        KernelBreakdownOptions options;
        options.htaCompat = hta;
        options.durationRatio = m_window->session()->option(QStringLiteral("kernels"), QStringLiteral("durationRatio"), 0.8).toDouble();
        options.numKernels = m_window->session()->option(QStringLiteral("kernels"), QStringLiteral("numKernels"), 10).toInt();
        const KernelBreakdown result = kernelBreakdown(slice, options);
        return name == QLatin1String("kernels") ? kernelsTable(slice, result) : kernelTypesTable(result);
    }
    if (name == QLatin1String("kernel-distribution"))
        return kernelDistributionTable(slice, kernelDistributions(slice, {}));
    if (name.startsWith(QLatin1String("idle-time-rank"))) {
        IdleTimeOptions options;
        options.htaCompat = hta;
        options.ranks = {rankOf(slice, name)};
        options.consecutiveKernelDelayUs =
            m_window->session()->option(QStringLiteral("idle"), QStringLiteral("consecutiveKernelDelayUs"), 30.0).toDouble();
        return idleTable(idleTimeBreakdown(slice, options));
    }
    if (name.startsWith(QLatin1String("idle-histogram-rank")) || name.startsWith(QLatin1String("idle-gaps-rank"))) {
        IdleHistogramOptions options;
        options.rank = rankOf(slice, name);
        options.bins = 40;
        options.logScale = m_window->session()->option(QStringLiteral("idle"), QStringLiteral("logBins"), true).toBool();
        options.consecutiveKernelDelayUs =
            m_window->session()->option(QStringLiteral("idle"), QStringLiteral("consecutiveKernelDelayUs"), 30.0).toDouble();
        const IdleHistogram histogram = idleHistogram(slice, options);
        if (!histogram.error.empty())
            return Table{};
        return name.startsWith(QLatin1String("idle-gaps")) ? idleGapsTable(slice, histogram) : idleHistogramTable(histogram);
    }
    if (name == QLatin1String("trace-health"))
        return healthTable(traceHealth(slice));
    if (name.startsWith(QLatin1String("idle-causes-rank")) || name.startsWith(QLatin1String("idle-cause-gaps-rank"))) {
        IdleCausesOptions options;
        options.ranks = {rankOf(slice, name)};
        options.consecutiveKernelDelayUs =
            m_window->session()->option(QStringLiteral("idle"), QStringLiteral("consecutiveKernelDelayUs"), 30.0).toDouble();
        options.listGaps = true;
        const IdleCauses causes = idleCauses(slice, options);
        return name.startsWith(QLatin1String("idle-causes")) ? idleCausesTable(causes) : idleCauseGapsTable(slice, causes);
    }
    if (name.startsWith(QLatin1String("launch-"))) {
        LaunchStatsOptions options;
        options.htaCompat = hta;
        options.ranks = {rankOf(slice, name)};
        const LaunchStats result = kernelLaunchStats(slice, options);
        if (name.startsWith(QLatin1String("launch-stats")))
            return launchStatsTable(slice, result);
        if (name.startsWith(QLatin1String("launch-histograms")))
            return launchHistogramTable(result);
        if (name.startsWith(QLatin1String("launch-outliers")))
            return launchOutliersTable(slice, result);
        return launchApisTable(slice, result);
    }
    if (name.startsWith(QLatin1String("queue-"))) {
        const QueueLength result = queueLength(slice, {.htaCompat = hta, .ranks = {rankOf(slice, name)}});
        return name.startsWith(QLatin1String("queue-blocked")) ? queueBlockedTable(result) : queueSummaryTable(result);
    }
    if (name == QLatin1String("timeline-span")) {
        const TimeRange range = m_window->session()->selection()->timeRange();
        return spanSummaryTable(slice, summarizeSpan(slice, {range.beginNs, range.endNs}));
    }
    if (name.startsWith(QLatin1String("memory-bw-")))
        return memoryBwSummaryTable(memoryBandwidth(slice, {.htaCompat = hta, .ranks = {rankOf(slice, name)}}));
    if (name.startsWith(QLatin1String("kernel-patterns-rank"))) {
        KernelPatternOptions options;
        options.htaCompat = hta;
        options.operatorName = m_window->session()->option(QStringLiteral("patterns"), QStringLiteral("operator"),
                                                           QString()).toString().toStdString();
        options.ranks = {rankOf(slice, name)};
        return patternsTable(slice, frequentKernelSequences(slice, options));
    }
    if (name.startsWith(QLatin1String("annotations-rank"))) {
        AnnotationOptions options;
        options.htaCompat = hta;
        options.ranks = {rankOf(slice, name)};
        return annotationsTable(slice, userAnnotationBreakdown(slice, options));
    }
    if (name == QLatin1String("step-spans"))
        return stepSpansTable(*m_window->run(), profilerSteps(*m_window->run()));  // the whole run, as the map
    if (name == QLatin1String("stragglers"))
        return stragglersTable(*m_window->run(), potentialStragglers(*m_window->run(), {.htaCompat = m_window->run()->htaCompat}));
    if (name.startsWith(QLatin1String("memory-")) && !name.startsWith(QLatin1String("memory-bw-"))) {
        MemoryOptions options;
        options.ranks = {rankOf(slice, name)};
        options.maxPoints = 4000;
        const MemoryTimeline result = memoryTimeline(slice, options);
        if (name.startsWith(QLatin1String("memory-devices")))
            return memorySummaryTable(slice, result);
        if (name.startsWith(QLatin1String("memory-steps")))
            return memoryStepsTable(result);
        if (name.startsWith(QLatin1String("memory-ops")))
            return memoryOpsTable(slice, result);
        return memoryUnfreedTable(slice, result);
    }
    if (name.startsWith(QLatin1String("events-rank"))) {
        // The Events view's filter is the default (every kind and name) in these tests; its
        // time range is the selection's.
        EventFilter filter;
        const TimeRange range = m_window->session()->selection()->timeRange();
        if (!range.isEmpty()) {
            filter.fromNs = range.beginNs;
            filter.toNs = range.endNs;
        }
        const RankTrace& rank = *slice.findRank(rankNumber(name));
        const std::vector<EventIndex> rows = selectEvents(slice, rank, filter);
        Table table;
        table.columns = eventColumns();
        for (size_t r = 0; r < std::min<size_t>(rows.size(), 100000); ++r)
            table.addRow(eventCells(slice, rank, rows[r]));
        if (rows.size() > 100000)
            table.notes.push_back("the first 100000 of " + std::to_string(rows.size()) + " events; kinetoscope-cli events writes them all");
        return table;
    }
    if (name.startsWith(QLatin1String("critical-path"))) {
        CriticalPathOptions options;
        options.htaCompat = hta;
        const QString annotation = m_window->session()->option(QStringLiteral("critical-path"), QStringLiteral("annotation"), QString()).toString();
        if (!annotation.isEmpty())
            options.annotation = annotation.toStdString();
        options.instanceStart = options.instanceEnd =
            m_window->session()->option(QStringLiteral("critical-path"), QStringLiteral("instance"), 0).toInt();
        if (name == QLatin1String("critical-path-ranks"))
            return crossRankSharesTable(criticalPathAllRanks(slice, options));
        if (name == QLatin1String("critical-path-across-ranks"))
            return crossRankPathTable(slice, criticalPathAllRanks(slice, options));
        options.rank = rankOf(slice, name);
        const CriticalPath path = criticalPath(slice, options);
        return name.startsWith(QLatin1String("critical-path-summary")) ? criticalPathSummaryTable(path)
                                                                       : criticalPathBreakdownTable(slice, path);
    }
    if (name.startsWith(QLatin1String("operators-rank"))) {
        OperatorOptions options;
        options.groupBy = OpGroupBy::Name;
        const QString by = m_window->session()->option(QStringLiteral("operators"), QStringLiteral("groupBy"), QStringLiteral("name")).toString();
        options.groupBy = by == QLatin1String("shape") ? OpGroupBy::Shape : by == QLatin1String("stack") ? OpGroupBy::Stack : OpGroupBy::Name;
        options.includeAnnotations = m_window->session()->option(QStringLiteral("operators"), QStringLiteral("annotations"), false).toBool();
        options.ranks = {rankOf(slice, name)};
        return operatorsTable(slice, operatorStats(slice, options));
    }
    if (name.startsWith(QLatin1String("operator-kernels-rank"))) {
        const QString op = m_window->session()->selection()->op();
        const bool annotations = m_window->session()->option(QStringLiteral("operators"), QStringLiteral("annotations"), false).toBool();
        return operatorKernelsTable(slice, operatorKernels(slice, {.rank = rankOf(slice, name), .op = slice.strings.find(op.toStdString()),
                                                                    .includeAnnotations = annotations}));
    }
    if (name.startsWith(QLatin1String("collective"))) {
        const Collectives result = matchCollectives(slice, {.htaCompat = hta});
        if (name == QLatin1String("collectives"))
            return collectivesTable(slice, result);
        if (name == QLatin1String("collective-ranks"))
            return collectiveRanksTable(result, false);
        if (name == QLatin1String("collective-clock-skew"))
            return clockSkewTable(slice, result);
        return collectiveSummaryTable(slice, result);
    }
    if (name == QLatin1String("findings"))
        return findingsTable(findings(slice));
    if (name == QLatin1String("import-issues") && !m_window->session()->testRun())
        return importIssuesTable(*m_window->run());
    return {};
}

void TestViewTransitions::verifyEveryView()
{
    QVERIFY(waitIdle(w()));
    int tables = 0;
    for (AnalysisView* view : w().views()) {
        QVERIFY2(view->isCurrent(), qPrintable(view->id()));
        QCOMPARE(view->presentedGeneration(), w().session()->sliceGeneration());
        for (const TableExport& table : view->tables()) {
            if (table.name == QLatin1String("import-issues") && w().session()->testRun())
                continue;  // both runs' issues: checked in comparisonSideSwitchReplacesEveryNumber
            QVERIFY2(!expected(table.name).columns.empty(), qPrintable(table.name));
            // Kernel tables carry short names right after the full ones.
            Table want = expected(table.name);
            const auto shortName = std::find(table.table.columns.begin(), table.table.columns.end(), "short_name");
            if (table.name == QLatin1String("kernels") || table.name == QLatin1String("kernel-distribution"))
                QVERIFY2(shortName != table.table.columns.end(), qPrintable(table.name));
            if (shortName != table.table.columns.end() && shortName != table.table.columns.begin())
                want = withShortNameColumn(std::move(want), std::prev(shortName)->name);
            QCOMPARE(csvOf(table.table), csvOf(withLoadOutcome(want, *w().run())));
            ++tables;
        }
    }
    QVERIFY(tables >= 7);
    // The idle view shows the selected rank, or the first.
    const int rank = selectedRankNumber(w()) >= 0 ? selectedRankNumber(w())
                                                              : w().session()->slice()->ranks.front().rank;
    QCOMPARE(w().view(QStringLiteral("idle"))->tables().front().name, QStringLiteral("idle-time-rank%1").arg(rank));
}

void TestViewTransitions::eachResultComputedOnce()
{
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    verifyEveryView();
    // Overview and Temporal breakdown show one temporal result: twenty-four analyses for twenty-five
    // requests (trace health, asked for by every view and computed once, summary, temporal twice,
    // kernels, kernel distribution, idle, its histogram and its host causes, overlap, launches, queue length, bandwidth, steps, stragglers, patterns, annotations,
    // collectives, operators, critical path of the rank, of every rank, across ranks, events,
    // memory, the timeline's index). Findings reads temporal, overlap, collectives and health as
    // those views do (computed once for both), every rank's critical path in the first step as the
    // Critical path view does, and nine of its own: idle, idle causes, launches and queue length of
    // every rank, the slice's steps, its host syncs, memory of every rank (as the timeline's
    // counters ask for it, shared when they are on), patterns of every rank, kernels' Tensor Core use.
    const int computed = w().session()->computedCount();
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    QCOMPARE(w().session()->computedCount() - computed, 24 + 9);
    // Asking again (a redraw, a toggle that changes no option) computes nothing.
    for (AnalysisView* view : w().views())
        view->refresh();
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().session()->computedCount() - computed, 24 + 9);
}

void TestViewTransitions::secondRunReplacesEveryNumber()
{
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    const std::string sampleIdle = csvOf(w().view(QStringLiteral("idle"))->tables().front().table);
    QVERIFY(openAndWait(w(), m_otherRun));  // rank 0 keeps its number in the other run
    verifyEveryView();
    QVERIFY(csvOf(w().view(QStringLiteral("idle"))->tables().front().table) != sampleIdle);
    // A rank picked in the second run, then the sample again: the selection belongs to one run.
    selectRankNumbered(w(), 1);
    verifyEveryView();
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    QCOMPARE(selectedRankNumber(w()), -1);
    verifyEveryView();
}

void TestViewTransitions::htaModeReplacesEveryNumber()
{
    QVERIFY(openAndWait(w(), m_otherRun));
    selectRankNumbered(w(), 2);
    verifyEveryView();
    QSignalSpy changed(&w(), &MainWindow::runChanged);
    w().session()->setHtaCompat(true);
    QVERIFY(changed.wait(kUiTimeoutMs));
    QVERIFY(w().run()->htaCompat);
    verifyEveryView();
    w().session()->setHtaCompat(false);
    QVERIFY(changed.wait(kUiTimeoutMs));
    verifyEveryView();
}

void TestViewTransitions::stepReplacesEveryNumber()
{
    QVERIFY(openAndWait(w(), m_otherRun));
    selectRankNumbered(w(), 0);
    verifyEveryView();
    const std::string allSteps = csvOf(w().view(QStringLiteral("idle"))->tables().front().table);
    const int step = w().run()->ranks.front().steps.at(1).number;
    w().session()->selection()->setStep(step);
    verifyEveryView();
    QVERIFY(csvOf(w().view(QStringLiteral("idle"))->tables().front().table) != allSteps);
    w().session()->selection()->setStep(-1);
    verifyEveryView();
    QCOMPARE(csvOf(w().view(QStringLiteral("idle"))->tables().front().table), allSteps);
}

// [engine-seams] Going through every step keeps only the last few slices (copies of a step's
// events) and a bounded number of results; going back to a recent step needs no new cut, and
// every view still shows the current numbers.
void TestViewTransitions::stepSlicesAndResultsAreBounded()
{
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    std::vector<int> steps;
    for (const ProfilerStep& s : w().run()->ranks.front().steps)
        steps.push_back(s.number);
    QVERIFY(steps.size() > size_t(RunSession::kMaxStepSlices));
    for (int step : steps) {
        w().session()->selection()->setStep(step);
        QVERIFY(waitIdle(w()));
        QVERIFY(w().session()->stepSliceCount() <= RunSession::kMaxStepSlices);
        QVERIFY(w().session()->cachedResultCount() <= RunSession::kMaxCachedResults);
    }
    QCOMPARE(w().session()->stepSliceCount(), RunSession::kMaxStepSlices);
    // The step before the last is still cut: shown at once, not "Computing…".
    w().session()->selection()->setStep(steps[steps.size() - 2]);
    QVERIFY(w().session()->slice());
    verifyEveryView();
    w().session()->selection()->setStep(-1);
    verifyEveryView();
}

void TestViewTransitions::optionsReplaceNumbers()
{
    QVERIFY(openAndWait(w(), m_otherRun));
    const size_t kernels = w().view(QStringLiteral("kernels"))->tables().at(1).table.rows.size();
    w().session()->setOption(QStringLiteral("kernels"), QStringLiteral("numKernels"), 2);
    verifyEveryView();
    QVERIFY(w().view(QStringLiteral("kernels"))->tables().at(1).table.rows.size() < kernels);
    w().session()->setOption(QStringLiteral("idle"), QStringLiteral("consecutiveKernelDelayUs"), 1.0);
    w().session()->setOption(QStringLiteral("idle"), QStringLiteral("logBins"), false);
    w().session()->setOption(QStringLiteral("temporal"), QStringLiteral("percent"), false);
    verifyEveryView();
    // An operator picked: its kernels are listed, then follow the grouping and the rank.
    w().session()->selection()->setOp(QStringLiteral("aten::linear"));
    verifyEveryView();
    QCOMPARE(w().view(QStringLiteral("operators"))->tables().size(), 2);
    QVERIFY(!w().view(QStringLiteral("operators"))->tables().at(1).table.rows.empty());
    w().session()->setOption(QStringLiteral("operators"), QStringLiteral("groupBy"), QStringLiteral("stack"));
    w().session()->setOption(QStringLiteral("operators"), QStringLiteral("annotations"), true);
    selectRankNumbered(w(), 2);
    verifyEveryView();
    QCOMPARE(w().view(QStringLiteral("operators"))->tables().at(1).name, QStringLiteral("operator-kernels-rank2"));
    w().session()->setOption(QStringLiteral("operators"), QStringLiteral("groupBy"), QStringLiteral("name"));
    w().session()->setOption(QStringLiteral("operators"), QStringLiteral("annotations"), false);
    w().session()->selection()->setOp(QString());
    w().session()->setOption(QStringLiteral("kernels"), QStringLiteral("numKernels"), 10);
    w().session()->setOption(QStringLiteral("idle"), QStringLiteral("consecutiveKernelDelayUs"), 30.0);
    w().session()->setOption(QStringLiteral("idle"), QStringLiteral("logBins"), true);
    w().session()->setOption(QStringLiteral("temporal"), QStringLiteral("percent"), true);
    verifyEveryView();
}

void TestViewTransitions::exportAllWritesCurrentNumbers()
{
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    const int step = w().run()->ranks.front().steps.at(2).number;
    w().session()->selection()->setStep(step);
    // No wait: Export All itself waits for every view before it writes.
    const auto dir = scratchDir("kscope-ui-export-step");
    const QStringList files = w().exportAll(QString::fromStdString(dir.string()));
    QVERIFY(files.size() >= 10);
    const std::string idle = readFileBytes(dir / "idle-time-rank0.csv");
    QCOMPARE(idle, csvOf(withLoadOutcome(expected(QStringLiteral("idle-time-rank0")), *w().run())));
    QCOMPARE(readFileBytes(dir / "temporal.csv"), csvOf(withLoadOutcome(expected(QStringLiteral("temporal")), *w().run())));
}

void TestViewTransitions::comparisonSideSwitchReplacesEveryNumber()
{
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    selectRankNumbered(w(), 2);
    verifyEveryView();
    const std::string controlIdle = csvOf(w().view(QStringLiteral("idle"))->tables().front().table);
    QSignalSpy compared(w().session(), &RunSession::comparisonChanged);
    const int computed = w().session()->computedCount();
    w().openComparison(m_brokenRun);
    QVERIFY(compared.wait(kUiTimeoutMs));
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().session()->shownSide(), RunSide::Control);  // opening a comparison changes nothing shown
    QCOMPARE(w().session()->computedCount() - computed, 2);   // only the comparison and its summary
    verifyEveryView();
    QCOMPARE(csvOf(w().view(QStringLiteral("idle"))->tables().front().table), controlIdle);
    // Both runs' import issues, told apart: the test run's truncated rank is listed as its own.
    const Table issues = w().view(QStringLiteral("issues"))->tables().value(0).table;
    QCOMPARE(issues.columns.front(), std::string("run"));
    QVERIFY(!issues.rows.empty());
    QCOMPARE(std::get<std::string>(issues.rows.front()[0]), w().session()->label(RunSide::Test).toStdString());

    w().session()->setShownSide(RunSide::Test);
    verifyEveryView();
    QCOMPARE(w().session()->run(), w().session()->testRun());
    QCOMPARE(selectedRankNumber(w()), 2);  // the other run has rank 2 too: kept
    QVERIFY(csvOf(w().view(QStringLiteral("idle"))->tables().front().table) != controlIdle);
    const int step = w().session()->testRun()->ranks.front().steps.at(1).number;
    w().session()->selection()->setStep(step);
    verifyEveryView();
    w().session()->setShownSide(RunSide::Control);
    verifyEveryView();
    QCOMPARE(w().session()->selection()->step(), hasStepIn(*w().run(), step) ? step : -1);
    w().session()->closeComparison();
    QVERIFY(!w().session()->testRun());
    verifyEveryView();
}

// An analysis that throws (out of memory, a defect) ends in a message, never in the event loop
// (which would end the program), and is not started again for the same state.
void TestViewTransitions::aThrowingAnalysisSaysWhy()
{
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    int calls = 0;
    const AnalysisRequest request = analysisRequest("throws", NoOptions{}, [&calls](const Run&, NoOptions) -> int {
        ++calls;
        throw std::out_of_range("row 12 of rank 3");
    });
    QSignalSpy ready(w().session(), &RunSession::resultReady);
    QVERIFY(!w().session()->request(request));
    QVERIFY(ready.wait(kUiTimeoutMs));
    QVERIFY(!w().session()->request(request));
    QCOMPARE(w().session()->failure(request), QStringLiteral("row 12 of rank 3"));
    QVERIFY(!w().session()->isBusy());
    QCOMPARE(calls, 1);
    // A new run is a new state: its own attempt.
    QVERIFY(openAndWait(w(), m_otherRun));
    QVERIFY(w().session()->failure(request).isEmpty());
}

void TestViewTransitions::cleanupTestCase() { m_window.reset(); }

QTEST_MAIN(TestViewTransitions)
#include "tst_viewtransitions.moc"
