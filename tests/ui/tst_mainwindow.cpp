// GUI tests, offscreen: open the bundled sample run, check every view, drill into a rank and a
// kernel, export, narrow to a step, toggle HTA-compatible mode, cancel a load, open a run with
// a corrupt file. Each test starts from the sample run with nothing selected (init()), so the
// tests do not depend on their order.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "analysis/core/idlecauses.h"
#include "analysis/patterns/steps.h"
#include "analysis/tables/difftables.h"
#include "analysis/diff/tracediff.h"
#include "model/synth/synthrun.h"
#include "model/trace.h"
#include "testsupport.h"
#endif

#include "uitestsupport.h"

#include "common/format.h"
#include "models/eventtablemodel.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "session/runsession.h"
#include "shell/loadcontroller.h"

#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTabBar>
#include <QTableView>
#include <QPushButton>
#include <QTabWidget>
#include <QDockWidget>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QThreadPool>

#include <cstdlib>
#include <set>
#include <variant>

using namespace kscope;
using namespace kscope::test;

namespace {

// Whether the dock titled `title` is the current tab of its tab stack (docks alone count as front).
bool isFrontTab(QMainWindow& window, const QString& title)
{
    for (QTabBar* bar : window.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == title)
                return bar->currentIndex() == i;
    return true;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void opensSampleRun();
    void barsPerRank();
    void clickRankBarDrillsIn();
    void clickIdleCauseListsItsGaps();
    void ctrlClickSelectsSeveralRanks();
    void kernelRowSelectsDistribution();
    void exportsPngAndCsv();
    void stepSelectorNarrowsViews();
    void htaCompatibleModeKeepsSelection();
    void cancelKeepsPreviousRun();
    void openCancelRepeatedly();
    void corruptFileListedOthersShown();
    void emptyFolderSaysWhy();
    void partialRankIsHatched();
    void twoFilesClaimingOneRankAreTwoRanks();
    void cpuOnlyAndOneRankRunsSayWhy();
    void healthProblemsShowWhereTheyMatter();
    void comparisonViewShowsBothRuns();
    void launchAndQueueViewsFollowTheRank();
    void stepsHeatMapSelectsRankAndStep();
    void patternsViewFollowsOperatorAndRank();
    void collectivesViewNamesTheStraggler();
    void findingsOpenTheirEvidence();
    void operatorsViewListsAnOpsKernels();
    void criticalPathViewFollowsRankAndWindow();
    void eventsViewFollowsRankKindNameAndTime();
    void anEventPickedOnThePathIsTheEventsViewsRow();
    void memoryViewNamesTheAllocatingOp();
    void smallWindowKeepsNamesReadable();
    void aboutNamesVersionsAndLicences();
    void viewMenuRaisesAndResetLayoutRestores();
    void cleanupTestCase();

private:
    MainWindow& w() { return *m_window; }
    ResultTableView* kernelsTable() { return w().view(QStringLiteral("kernels"))->tableViews().value(0); }
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("KinetoscopeTest"));
    QSettings().clear();
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMainWindow::init()
{
    w().session()->closeComparison();
    if (w().session()->htaCompat())
        w().session()->setHtaCompat(false);
    if (w().run() || w().loader()->isLoading())
        QVERIFY(waitIdle(w()));
    const auto run = w().run();
    const bool sample = run && w().session()->runPath() == MainWindow::sampleRunPath() && !run->htaCompat;
    if (!sample)
        QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    w().session()->selection()->clear();
    QVERIFY(waitIdle(w()));
}

void TestMainWindow::opensSampleRun()
{
    QCOMPARE(w().run()->ranks.size(), size_t(8));
    QVERIFY(w().windowTitle().contains(QStringLiteral("sample")));
    for (AnalysisView* view : w().views())
        QVERIFY2(view->isCurrent(), qPrintable(view->title()));
    QVERIFY(w().bannerText().isEmpty());
    // Every dock of the registry is there, found by its id.
    for (const ViewSpec& spec : viewRegistry())
        QVERIFY2(w().dock(spec.id) && w().view(spec.id), qPrintable(spec.id));
}

void TestMainWindow::barsPerRank()
{
    const int ranks = int(w().run()->ranks.size());
    ChartView* temporal = w().view(QStringLiteral("temporal"))->charts().front();
    QCOMPARE(temporal->plottableCount(), 3);  // idle, compute, non-compute stacked
    for (int s = 0; s < 3; ++s)
        QCOMPARE(pointCount(temporal, s), ranks);
    QCOMPARE(pointCount(w().view(QStringLiteral("overlap"))->charts().front()), ranks);
    QCOMPARE(pointCount(w().view(QStringLiteral("kernel-distribution"))->charts().front()), ranks);
    QCOMPARE(w().view(QStringLiteral("idle"))->charts().front()->plottableCount(), 3);
    QVERIFY(kernelsTable()->model()->rowCount() > 0);
    // Notes go under the chart, never into an axis label.
    ChartView* histogram = w().view(QStringLiteral("idle"))->charts().at(1);
    QCOMPARE(histogram->xAxis->label(), QStringLiteral("Gap length (µs, log scale)"));
    // Absolute times read in a unit that fits them.
    w().session()->setOption(QStringLiteral("temporal"), QStringLiteral("percent"), false);
    QCOMPARE(temporal->yAxis->label(), QStringLiteral("Time (ms)"));
    w().session()->setOption(QStringLiteral("temporal"), QStringLiteral("percent"), true);
    QCOMPARE(temporal->yAxis->label(), QStringLiteral("Share of GPU span (%)"));
}

void TestMainWindow::clickRankBarDrillsIn()
{
    w().dock(QStringLiteral("temporal"))->raise();
    w().dock(QStringLiteral("kernel-distribution"))->raise();  // the idle view's tab goes behind
    QCoreApplication::processEvents();
    QVERIFY(!isFrontTab(w(), QStringLiteral("Idle time")));
    ChartView* chart = w().view(QStringLiteral("temporal"))->charts().front();
    chart->replot();
    QVERIFY(chartTitle(w(), "idle").contains(QStringLiteral("rank 0")));  // nothing selected: the first rank
    const int rank = 5;
    const QPoint bar(int(chart->xAxis->coordToPixel(rank)), int(chart->yAxis->coordToPixel(50.0)));
    QVERIFY(chart->axisRect()->rect().contains(bar));
    QTest::mouseClick(chart, Qt::LeftButton, Qt::NoModifier, bar);
    QCOMPARE(selectedRankNumber(w()), rank);
    QVERIFY(waitIdle(w()));
    QVERIFY(chartTitle(w(), "idle").contains(QStringLiteral("rank %1").arg(rank)));
    QCOMPARE(w().view(QStringLiteral("idle"))->tables().front().name, QStringLiteral("idle-time-rank5"));
    QCOMPARE(kernelsTable()->proxy()->rankFilter(), w().session()->selection()->ranks());
    QVERIFY(kernelsTable()->proxy()->rowCount() > 0);
    QVERIFY(isFrontTab(w(), QStringLiteral("Idle time")));  // the drill target was raised
    screenshot(&w(), "rank-clicked");
}

// The Host causes tab: a bar per cause of the shown rank's gaps; a click on one lists its gaps.
void TestMainWindow::clickIdleCauseListsItsGaps()
{
    w().dock(QStringLiteral("idle"))->raise();
    AnalysisView* view = w().view(QStringLiteral("idle"));
    auto* tabs = view->findChild<QTabWidget*>();
    int causesTab = -1;
    for (int t = 0; t < tabs->count(); ++t)
        if (tabs->tabText(t) == QLatin1String("Host causes"))
            causesTab = t;
    QVERIFY(causesTab >= 0);
    tabs->setCurrentIndex(causesTab);
    QVERIFY(waitIdle(w()));
    ChartView* chart = view->charts().at(2);
    chart->replot();
    const RankIndex shown = w().session()->slice()->ranks.empty() ? RankIndex{} : RankIndex{0};
    if (!w().session()->selection()->ranks().isEmpty())
        QSKIP("a rank is selected; this test expects the first");
    // What the engine says of the shown rank: the bars' order is the causes' order.
    IdleCausesOptions options;
    options.ranks = {shown};
    options.listGaps = true;
    const IdleCauses causes = idleCauses(*w().session()->slice(), options);
    QVERIFY(causes.byRank.size() >= 2);
    // One stacked bar for the rank, then one per stream; a series (a colour) per cause.
    QCOMPARE(chart->plottableCount(), int(causes.byRank.size()));
    std::set<int> streams;
    for (const IdleCauseRow& row : causes.byStream)
        streams.insert(row.stream);
    QVERIFY(!streams.empty());
    QCOMPARE(chart->plottable(0)->interface1D()->dataCount(), int(streams.size()) + 1);
    // Click the first segment of the rank's bar (key 0, bars are horizontal), near the value
    // axis: the first cause's.
    const QPoint bar(int(chart->xAxis->coordToPixel(0.5)), int(chart->yAxis->coordToPixel(0.0)));
    QVERIFY(chart->axisRect()->rect().contains(bar));
    QTest::mouseClick(chart, Qt::LeftButton, Qt::NoModifier, bar);
    const IdleCause first = causes.byRank.front().cause;
    ResultTableView* gaps = view->tableViews().at(1);
    QCOMPARE(int64_t(gaps->model()->rowCount()), causes.byRank.front().gaps);
    int64_t listed = 0;
    for (const IdleCauseGap& gap : causes.gaps)
        listed += gap.cause == first;
    QCOMPARE(listed, causes.byRank.front().gaps);
    bool captionNamesIt = false;
    for (QLabel* label : view->findChildren<QLabel*>())
        captionNamesIt = captionNamesIt || label->text().contains(QString::fromLatin1(toString(first)));
    QVERIFY(captionNamesIt);
    chart->replot();
    screenshot(view, "idle-host-causes");
    tabs->setCurrentIndex(0);
}

void TestMainWindow::ctrlClickSelectsSeveralRanks()
{
    ChartView* chart = w().view(QStringLiteral("temporal"))->charts().front();
    const auto click = [chart](int rank, Qt::KeyboardModifiers modifiers) {
        QTest::mouseClick(chart, Qt::LeftButton, modifiers,
                          QPoint(int(chart->xAxis->coordToPixel(rank)), int(chart->yAxis->coordToPixel(50.0))));
    };
    click(5, Qt::NoModifier);
    QVERIFY(waitIdle(w()));
    const int rowsForOne = kernelsTable()->proxy()->rowCount();
    click(2, Qt::ControlModifier);
    QCOMPARE(selectedRankNumbers(w()), (QList<int>{2, 5}));
    QVERIFY(waitIdle(w()));
    // Idle time shows both ranks' streams side by side; its gaps are the newest rank's.
    QVERIFY2(chartTitle(w(), "idle").contains(QStringLiteral("ranks 2, 5")), qPrintable(chartTitle(w(), "idle")));
    QCOMPARE(w().view(QStringLiteral("idle"))->tables().front().name, QStringLiteral("idle-time-ranks2-5"));
    QCOMPARE(w().view(QStringLiteral("idle"))->tables().at(2).name, QStringLiteral("idle-gaps-rank2"));
    QCOMPARE(kernelsTable()->proxy()->rankFilter().size(), 2);
    QCOMPARE(kernelsTable()->proxy()->rankFilter(), w().session()->selection()->ranks());
    QVERIFY(kernelsTable()->proxy()->rowCount() > rowsForOne);
    // The toolbar says both ranks, not only the last.
    auto* rankBox = w().findChild<QComboBox*>(QStringLiteral("rankSelector"));
    QVERIFY(rankBox);
    QCOMPARE(rankBox->currentText(), QStringLiteral("2, 5"));
    screenshot(&w(), "two-ranks");
    click(2, Qt::ControlModifier);
    QCOMPARE(selectedRankNumbers(w()), QList<int>{5});
    QCOMPARE(rankBox->currentText(), QStringLiteral("5"));
}

void TestMainWindow::kernelRowSelectsDistribution()
{
    ResultTableView* table = kernelsTable();
    // The last row after sorting by sum is a light kernel, likely outside the distribution's top list.
    const int rows = table->model()->rowCount();
    QVERIFY(rows > 0);
    quint32 picked = 0;
    QString name;
    for (int r = rows - 1; r >= 0 && !picked; --r) {
        const QModelIndex index = table->model()->index(r, 0);
        if (index.data(kIdRole).toUInt() == 0)
            continue;  // "others"
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, table->visualRect(index).center());
        picked = index.data(kIdRole).toUInt();
        name = index.data(kFilterRole).toString();
    }
    QVERIFY(picked != 0);
    QCOMPARE(w().session()->selection()->kernel(), picked);
    QVERIFY(waitIdle(w()));
    AnalysisView* dist = w().view(QStringLiteral("kernel-distribution"));
    QCOMPARE(dist->charts().front()->title(), name);  // by id: exactly the kernel picked
    QVERIFY(pointCount(dist->charts().front()) > 0);
    QVERIFY(isFrontTab(w(), QStringLiteral("Kernel distribution")));  // drilling raised its tab
    screenshot(&w(), "kernel-selected");
}

void TestMainWindow::exportsPngAndCsv()
{
    const auto dir = scratchDir("kscope-ui-export");
    ChartView* chart = w().view(QStringLiteral("temporal"))->charts().front();
    const QString png = QString::fromStdString((dir / "temporal.png").string());
    QVERIFY(chart->exportImage(png));
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), chart->size() * chart->devicePixelRatio());
    QVERIFY2(distinctColours(image) > 4, "exported chart looks blank");

    const QString pdf = QString::fromStdString((dir / "temporal.pdf").string());
    QVERIFY(chart->exportImage(pdf));
    QVERIFY(QFileInfo(pdf).size() > 1000);

    QVERIFY(w().exportAll(QString::fromStdString((dir / "all").string())).isEmpty());  // no such folder yet
    std::filesystem::create_directories(dir / "all");
    const QStringList files = w().exportAll(QString::fromStdString((dir / "all").string()));
    QVERIFY(files.size() >= 10);
    QFile csv(QString::fromStdString((dir / "all" / "temporal.csv").string()));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readLine().trimmed(), QByteArray("rank,idle_time(us),compute_time(us),non_compute_time(us),"
                                                  "kernel_time(us),idle_time_pctg,compute_time_pctg,non_compute_time_pctg,partial"));  // as the CLI writes it
    int lines = 0;
    while (!csv.readLine().isEmpty())
        ++lines;
    QCOMPARE(lines, 8);
    for (const QString& file : files)
        if (file.endsWith(QLatin1String(".png")))
            QVERIFY2(distinctColours(QImage(file)) > 4, qPrintable(file));

    // A full disk, a folder that cannot hold files, a trace of the open run: a clear reason, the
    // target as it was, no temporary file left behind (checked as root too: CI runs as root).
    QString error;
    QVERIFY(!chart->exportImage(QStringLiteral("/dev/full"), 0, 0, &error));
    QVERIFY2(error.contains(QLatin1String("No space left on device")), qPrintable(error));
    test::writeFile(dir / "plain-file", "x");
    for (const char* suffix : {"png", "pdf"}) {
        const QString inside = QString::fromStdString((dir / "plain-file" / "chart.").string()) + QLatin1String(suffix);
        error.clear();
        QVERIFY(!chart->exportImage(inside, 0, 0, &error));
        QVERIFY2(error.startsWith(inside + QLatin1String(": ")), qPrintable(error));
    }
    const std::filesystem::path input = std::filesystem::path(MainWindow::sampleRunPath().toStdString()) / "rank0.pt.trace.json.gz";
    const std::string before = test::readFileBytes(input);
    std::filesystem::create_symlink(input, dir / "link.png");
    for (const std::filesystem::path& target : {input, dir / "link.png"}) {
        error.clear();
        QVERIFY(!chart->exportImage(QString::fromStdString(target.string()), 0, 0, &error));
        QVERIFY2(error.contains(QLatin1String("it is an input trace of this run")), qPrintable(error));
    }
    QCOMPARE(test::readFileBytes(input), before);
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        QVERIFY2(entry.path().filename().string().find(".tmp-") == std::string::npos, entry.path().c_str());
    QStringList errors;
    QVERIFY(w().exportAll(QString::fromStdString((dir / "plain-file").string()), &errors).isEmpty());
    QCOMPARE(errors.size(), 1);
}

// Open, cancel, open again, 20 times over, some cancelled at once and some half-way: the last
// open wins, every view follows it, nothing of the cancelled loads shows (ASan checks for leaks).
void TestMainWindow::openCancelRepeatedly()
{
    const auto dir = scratchDir("kscope-ui-reopen");
    SynthOptions options;
    options.ranks = 4;
    options.steps = 2;
    QVERIFY(writeSynthRun(dir, options).ok);
    const QString other = QString::fromStdString(dir.string());
    QSignalSpy cancelled(w().loader(), &LoadController::cancelled);
    QSignalSpy changed(&w(), &MainWindow::runChanged);
    int cancelledLoads = 0;
    QString lastOpened = w().session()->runPath();
    for (int i = 0; i < 20; ++i) {
        const QString path = i % 2 ? other : MainWindow::sampleRunPath();
        w().openRun(path);
        QVERIFY(w().loader()->isLoading());
        if (i % 3 == 1)  // let it get going first (a small run may even finish)
            QTest::qWait(5);
        if (w().loader()->isLoading()) {
            w().loader()->cancel();
            ++cancelledLoads;
        } else {
            lastOpened = path;
        }
    }
    QThreadPool::globalInstance()->waitForDone(kUiTimeoutMs);
    QCoreApplication::processEvents();
    QVERIFY(cancelledLoads >= 10);
    QCOMPARE(int(cancelled.count()), cancelledLoads);
    QCOMPARE(int(changed.count()), 20 - cancelledLoads);  // only the loads that finished first
    QCOMPARE(w().session()->runPath(), lastOpened);
    QVERIFY(openAndWait(w(), other));
    QCOMPARE(w().run()->ranks.size(), size_t(4));
    for (AnalysisView* view : w().views())
        QVERIFY2(view->isCurrent(), qPrintable(view->title()));
    QVERIFY(!w().isBusy());
}

void TestMainWindow::stepSelectorNarrowsViews()
{
    const auto whole = w().run();
    const int step = whole->ranks.front().steps.at(1).number;
    w().session()->selection()->setStep(step);
    QVERIFY(waitIdle(w()));
    const auto slice = w().session()->slice();
    QVERIFY(slice && slice != whole);
    QCOMPARE(slice->ranks.size(), whole->ranks.size());
    for (const RankTrace& rank : slice->ranks) {
        QVERIFY(rank.events.size() > 0);
        QVERIFY(rank.events.size() < whole->ranks.front().events.size());
        QVERIFY(std::all_of(rank.events.step.begin(), rank.events.step.end(), [step](int32_t s) { return s == step; }));
    }
    QCOMPARE(pointCount(w().view(QStringLiteral("temporal"))->charts().front(), 0), int(slice->ranks.size()));
    QVERIFY(w().view(QStringLiteral("issues"))->tables().isEmpty());
    QCOMPARE(w().view(QStringLiteral("issues"))->findChild<QLabel*>()->text(), QStringLiteral("No import issues: every file was read completely."));
    // The overview counts the steps shown: one, and which.
    bool stepShown = false;
    for (QLabel* label : w().view(QStringLiteral("overview"))->findChildren<QLabel*>())
        stepShown |= label->text().contains(QStringLiteral("1 (#%1)").arg(step));
    QVERIFY(stepShown);
    screenshot(&w(), "step-selected");
    w().session()->selection()->setStep(-1);
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().session()->slice(), whole);
}

void TestMainWindow::htaCompatibleModeKeepsSelection()
{
    const int step = w().run()->ranks.front().steps.at(1).number;
    selectRankNumbered(w(), 3);
    w().session()->selection()->setStep(step);
    QVERIFY(waitIdle(w()));
    const auto previous = w().run();
    QSignalSpy changed(&w(), &MainWindow::runChanged);
    w().session()->setHtaCompat(true);  // View > HTA-Compatible Numbers: reloads the run
    QVERIFY(changed.wait(kUiTimeoutMs));
    QVERIFY(waitIdle(w()));
    QVERIFY(w().run() != previous);
    QVERIFY(w().run()->htaCompat);
    QVERIFY(w().windowTitle().contains(QStringLiteral("HTA-compatible")));
    // Microsecond rounding: every timestamp is a whole microsecond.
    const EventTable& events = w().run()->ranks.front().events;
    QVERIFY(std::all_of(events.tsNs.begin(), events.tsNs.end(), [](int64_t ts) { return ts % 1000 == 0; }));
    QCOMPARE(selectedRankNumber(w()), 3);
    QCOMPARE(w().session()->selection()->step(), step);
    QVERIFY(chartTitle(w(), "idle").contains(QStringLiteral("rank 3")));
    w().session()->setHtaCompat(false);
    QVERIFY(changed.wait(kUiTimeoutMs));
    QVERIFY(waitIdle(w()));
    QVERIFY(!w().run()->htaCompat);
    QCOMPARE(selectedRankNumber(w()), 3);
}

void TestMainWindow::cancelKeepsPreviousRun()
{
    const auto previous = w().run();
    QSignalSpy cancelled(w().loader(), &LoadController::cancelled);
    w().openRun(MainWindow::sampleRunPath());
    QVERIFY(w().loader()->isLoading());
    w().loader()->cancel();
    QCOMPARE(cancelled.count(), 1);
    // The worker finishes in the background; its result must be dropped.
    QThreadPool::globalInstance()->waitForDone(kUiTimeoutMs);
    QCoreApplication::processEvents();
    QCOMPARE(w().run(), previous);
    QVERIFY(!w().isBusy());
}

void TestMainWindow::corruptFileListedOthersShown()
{
    const auto dir = scratchDir("kscope-ui-corrupt");
    for (const char* name : {"rank0.pt.trace.json.gz", "rank1.pt.trace.json.gz", "rank2.pt.trace.json.gz"})
        std::filesystem::copy_file(std::filesystem::path(KSCOPE_SAMPLE_RUN_DIR) / name, dir / name);
    writeFile(dir / "rank3.pt.trace.json", "{\"schemaVersion\": 1, \"traceEvents\": [ {\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 12");
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    QCOMPARE(w().run()->ranks.size(), size_t(3));
    const QList<TableExport> issues = w().view(QStringLiteral("issues"))->tables();
    QCOMPARE(issues.size(), 1);
    bool listed = false;
    for (const auto& row : issues.front().table.rows)
        listed |= std::get<std::string>(row[1]).find("rank3.pt.trace.json") != std::string::npos;
    QVERIFY(listed);
    // The caption counts them and says errors are among them; the message stands right after the severity.
    AnalysisView* issuesView = w().view(QStringLiteral("issues"));
    QVERIFY2(issuesView->findChild<QLabel*>()->text().contains(QStringLiteral("errors")), qPrintable(issuesView->findChild<QLabel*>()->text()));
    auto* issuesTable = issuesView->findChild<ResultTableView*>();
    QCOMPARE(issuesTable->horizontalHeader()->visualIndex(issuesTable->resultModel()->columnOf(QStringLiteral("message"))), 1);
    QVERIFY(!w().bannerText().isEmpty());
    QVERIFY(!w().bannerText().contains(QStringLiteral("(s)")));  // "1 file", not "1 file(s)"
    // The banner says what the issue is: the file and its reason.
    QVERIFY2(w().bannerText().contains(QStringLiteral("rank3.pt.trace.json: ")), qPrintable(w().bannerText()));
    QVERIFY(w().dock(QStringLiteral("issues"))->isVisible());
    ChartView* temporal = w().view(QStringLiteral("temporal"))->charts().front();
    QCOMPARE(pointCount(temporal), 3);
    // The rank that could not be read is named under the chart, not silently missing.
    QVERIFY(temporal->footnote().contains(QStringLiteral("rank3.pt.trace.json")));
    QVERIFY(chartTitle(w(), "idle").contains(QStringLiteral("rank 0")));
    screenshot(&w(), "corrupt-run");
    // Import issues describe the whole run, whatever step is shown.
    w().session()->selection()->setStep(w().run()->ranks.front().steps.at(1).number);
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().view(QStringLiteral("issues"))->tables().value(0).table.rows.size(), issues.front().table.rows.size());
}

void TestMainWindow::emptyFolderSaysWhy()
{
    const auto dir = scratchDir("kscope-ui-empty");
    for (const QString& path : {QString::fromStdString(dir.string()), QString::fromStdString((dir / "missing").string())}) {
        QVERIFY(openAndWait(w(), path));
        QVERIFY(w().run()->ranks.empty());
        QVERIFY2(w().bannerText().startsWith(QStringLiteral("No usable rank")), qPrintable(w().bannerText()));
        for (AnalysisView* view : w().views()) {
            for (ChartView* chart : view->charts())
                QVERIFY2(chart->message().startsWith(QStringLiteral("No usable rank")), qPrintable(chart->message()));
            // Nothing of the previous run is left to export; the issues say why.
            if (view->id() != QLatin1String("issues"))
                QVERIFY2(view->tables().isEmpty(), qPrintable(view->id()));
        }
        // A missing folder is an import issue of its own; an empty one has none to list.
        const bool missing = path.endsWith(QLatin1String("missing"));
        QCOMPARE(w().view(QStringLiteral("issues"))->tables().size(), missing ? 1 : 0);
        const auto out = scratchDir("kscope-ui-empty-export");
        w().exportAll(QString::fromStdString(out.string()));
        QVERIFY(!std::filesystem::exists(out / "temporal.csv"));
        QCOMPARE(std::filesystem::exists(out / "import-issues.csv"), missing);
    }
}

void TestMainWindow::partialRankIsHatched()
{
    const auto dir = scratchDir("kscope-ui-partial");
    std::filesystem::copy_file(std::filesystem::path(KSCOPE_SAMPLE_RUN_DIR) / "rank0.pt.trace.json.gz", dir / "rank0.pt.trace.json.gz");
    const std::string json = readMaybeGzip(std::filesystem::path(KSCOPE_SAMPLE_RUN_DIR) / "rank1.pt.trace.json.gz");
    writeFile(dir / "rank1.pt.trace.json", std::string_view(json).substr(0, json.size() * 6 / 10));
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    QCOMPARE(w().run()->ranks.size(), size_t(2));
    // A rank cut at 60% must not read as a fast rank: hatched in every per-rank chart, and said why.
    for (const char* view : {"temporal", "overlap", "kernel-distribution"}) {
        ChartView* chart = w().view(QString::fromLatin1(view))->charts().front();
        QCOMPARE(chart->markedIds(), QList<int>{1});
        QVERIFY2(chart->footnote().contains(QStringLiteral("rank 1 read only to byte")), qPrintable(chart->footnote()));
    }
    selectRankNumbered(w(), 1);
    QVERIFY(waitIdle(w()));
    QVERIFY(!w().bannerText().isEmpty());
    screenshot(&w(), "partial-rank");
}

void TestMainWindow::twoFilesClaimingOneRankAreTwoRanks()
{
    // Two files claim rank 1 (a copied trace, a rerun written into the same folder): both are
    // loaded, and every per-rank view shows, selects and exports them apart, named by file.
    const auto dir = scratchDir("kscope-ui-two-files-one-rank");
    const std::filesystem::path sample(KSCOPE_SAMPLE_RUN_DIR);
    std::filesystem::copy_file(sample / "rank0.pt.trace.json.gz", dir / "rank0.pt.trace.json.gz");
    std::filesystem::copy_file(sample / "rank1.pt.trace.json.gz", dir / "rank1.pt.trace.json.gz");
    std::filesystem::copy_file(sample / "rank1.pt.trace.json.gz", dir / "rerun-rank1.pt.trace.json.gz");
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    const auto run = w().run();
    QCOMPARE(run->ranks.size(), size_t(3));
    QCOMPARE(run->ranks[1].rank, 1);
    QCOMPARE(run->ranks[2].rank, 1);
    const RankIndex first{1}, second{2};
    QCOMPARE(QString::fromStdString(run->rankName(first)), QStringLiteral("1 (rank1)"));
    QCOMPARE(QString::fromStdString(run->rankName(second)), QStringLiteral("1 (rerun-rank1)"));
    // A bar (or box) per file in every per-rank chart.
    for (const char* view : {"temporal", "overlap", "kernel-distribution", "critical-path"}) {
        ChartView* chart = w().view(QString::fromLatin1(view))->charts().front();
        QVERIFY2(pointCount(chart) == 3, view);
    }
    // The overview's rows and the toolbar's ranks: three, each its own.
    auto* rankBox = w().findChild<QComboBox*>(QStringLiteral("rankSelector"));
    QStringList entries;
    for (int i = 0; i < rankBox->count(); ++i)
        entries << rankBox->itemText(i);
    QVERIFY2(entries.contains(QStringLiteral("1 (rank1)")) && entries.contains(QStringLiteral("1 (rerun-rank1)")),
             qPrintable(entries.join(QLatin1Char('|'))));
    QAbstractItemModel* overview = w().view(QStringLiteral("overview"))->tableViews().front()->model();
    QCOMPARE(overview->rowCount(), 3);
    QSet<uint> ids;
    for (int row = 0; row < 3; ++row)
        ids.insert(overview->index(row, 0).data(kIdRole).toUInt());
    QCOMPARE(ids, (QSet<uint>{0, 1, 2}));
    // Selecting the second file's rank selects that file, not the first claiming its number.
    ChartView* temporal = w().view(QStringLiteral("temporal"))->charts().front();
    QTest::mouseClick(temporal, Qt::LeftButton, Qt::NoModifier,
                      QPoint(int(temporal->xAxis->coordToPixel(2)), int(temporal->yAxis->coordToPixel(50.0))));
    QCOMPARE(w().session()->selection()->ranks(), QList<RankIndex>{second});
    QVERIFY(waitIdle(w()));
    QCOMPARE(temporal->highlightedIds(), QList<int>{2});
    QVERIFY2(chartTitle(w(), "idle").contains(QStringLiteral("rerun-rank1")), qPrintable(chartTitle(w(), "idle")));
    QCOMPARE(w().view(QStringLiteral("idle"))->tables().front().name, QStringLiteral("idle-time-rank1-2"));
    // The kernels of the selected ranks: that file's rows only, though both say rank 1.
    QAbstractItemModel* kernels = kernelsTable()->proxy();
    QVERIFY(kernels->rowCount() > 0);
    for (int row = 0; row < kernels->rowCount(); ++row)
        QCOMPARE(kernels->index(row, 0).data(kRankIndexRole).toInt(), int(second.value));
    for (const char* view : {"operators", "memory", "events", "critical-path"}) {
        const QList<TableExport> tables = w().view(QString::fromLatin1(view))->tables();
        QVERIFY2(!tables.isEmpty() && tables.front().name.endsWith(QStringLiteral("rank1-2")),
                 qPrintable(QString::fromLatin1(view) + QLatin1Char(' ') + (tables.isEmpty() ? QString() : tables.front().name)));
    }
    selectRankNumbered(w(), 1);  // the first file claiming 1
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().session()->selection()->ranks(), QList<RankIndex>{first});
    QCOMPARE(w().view(QStringLiteral("idle"))->tables().front().name, QStringLiteral("idle-time-rank1-1"));
    QVERIFY(chartTitle(w(), "idle").contains(QStringLiteral("1 (rank1)")));
    // Reopened, the selection keeps the file it named.
    w().session()->selection()->setRank(second);
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    QCOMPARE(w().session()->selection()->ranks(), QList<RankIndex>{second});
    screenshot(&w(), "two-files-one-rank");
}

void TestMainWindow::cpuOnlyAndOneRankRunsSayWhy()
{
    // A rank with CPU ops only: no GPU stream, so no idle time to split (not "fully busy").
    const auto dir = scratchDir("kscope-ui-cpu-only");
    writeFile(dir / "rank0.json", R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 20, "dur": 5}]})");
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    QVERIFY2(w().view(QStringLiteral("idle"))->charts().front()->message().contains(QStringLiteral("no kernel")),
             qPrintable(w().view(QStringLiteral("idle"))->charts().front()->message()));
    QVERIFY(!w().view(QStringLiteral("overlap"))->charts().front()->message().isEmpty());

    // One rank with communication: overlap is drawn, and the imbalance list says why it is moot.
    const auto one = scratchDir("kscope-ui-one-rank");
    std::filesystem::copy_file(std::filesystem::path(KSCOPE_SAMPLE_RUN_DIR) / "rank0.pt.trace.json.gz", one / "rank0.pt.trace.json.gz");
    QVERIFY(openAndWait(w(), QString::fromStdString(one.string())));
    QCOMPARE(pointCount(w().view(QStringLiteral("overlap"))->charts().front()), 1);
    bool said = false;
    for (QLabel* label : w().view(QStringLiteral("kernel-distribution"))->findChildren<QLabel*>())
        said |= label->text().contains(QStringLiteral("one rank"));
    QVERIFY(said);
}

// A kernel whose launch is missing: the Health view lists it, the views whose answers it degrades
// (idle time, launches) carry a warning line linking there, the others (collectives) do not.
void TestMainWindow::healthProblemsShowWhereTheyMatter()
{
    const auto dir = scratchDir("kscope-ui-health");
    writeFile(dir / "rank0.json", R"({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"correlation": 1}},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 10, "dur": 10, "args": {"stream": 7, "correlation": 1}},
        {"ph": "X", "cat": "kernel", "name": "orphan", "pid": 0, "tid": 7, "ts": 30, "dur": 10, "args": {"stream": 7, "correlation": 99}}]})");
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    AnalysisView* health = w().view(QStringLiteral("health"));
    QVERIFY(health);
    const ResultTableView* table = health->tableViews().value(0);
    QVERIFY(table && table->model()->rowCount() >= 1);
    QCOMPARE(table->model()->index(0, 1).data().toString(), QStringLiteral("gpu_op_without_launch"));
    const auto line = [this](const char* view) -> QLabel* {
        QLabel* label = w().view(QString::fromLatin1(view))->findChild<QLabel*>(QStringLiteral("healthLine"));
        return label && !label->isHidden() ? label : nullptr;
    };
    for (const char* view : {"idle", "launches", "queue"}) {
        QLabel* label = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((label = line(view)) != nullptr, kUiTimeoutMs);
        QVERIFY2(label->text().contains(QStringLiteral("gpu_op_without_launch ×1")), qPrintable(label->text()));
    }
    QVERIFY(!line("collectives"));  // a missing launch touches neither collectives nor the temporal breakdown
    QVERIFY(!line("temporal"));
    // The link raises the Health view.
    w().dock(QStringLiteral("idle"))->raise();
    QCoreApplication::processEvents();
    screenshot(w().view(QStringLiteral("idle")), "health-line-idle");
    emit line("idle")->linkActivated(QStringLiteral("health"));
    QCoreApplication::processEvents();
    QVERIFY(isFrontTab(w(), QStringLiteral("Trace health")));
    screenshot(health, "health-view");
    // The sample run is healthy: no line anywhere.
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    for (AnalysisView* view : w().views())
        QVERIFY2(!line(qPrintable(view->id())), qPrintable(view->id()));
}

void TestMainWindow::comparisonViewShowsBothRuns()
{
    AnalysisView* diff = w().view(QStringLiteral("diff"));
    QVERIFY(diff->charts().front()->message().contains(QStringLiteral("Compare With")));
    const auto dir = scratchDir("kscope-ui-compare");
    SynthOptions options;
    options.ranks = 8;
    options.steps = 4;
    options.seed = 9;
    options.stragglerRank = 3;
    QVERIFY(writeSynthRun(dir, options).ok);
    QSignalSpy compared(w().session(), &RunSession::comparisonChanged);
    w().openComparison(QString::fromStdString(dir.string()));
    QVERIFY(compared.wait(kUiTimeoutMs));
    QVERIFY(waitIdle(w()));
    QVERIFY(w().windowTitle().contains(QStringLiteral(" vs ")));
    QVERIFY(isFrontTab(w(), QStringLiteral("Comparison")));  // the comparison view comes forward
    // What it shows is the engine's comparison of the two runs, HTA's defaults (first rank and step).
    const auto control = w().session()->controlRun(), test = w().session()->testRun();
    const QString controlLabel = w().session()->label(RunSide::Control), testLabel = w().session()->label(RunSide::Test);
    const Table expected = compareTracesTable(compareTraces(*control, *test, {}), controlLabel.toStdString(), testLabel.toStdString());
    const QList<TableExport> tables = diff->tables();
    QCOMPARE(tables.size(), 4);
    QCOMPARE(tables.front().name, QStringLiteral("compare-traces"));
    QCOMPARE(tables.front().table.rows.size(), expected.rows.size());
    QCOMPARE(tables.front().table.columnNames(), expected.columnNames());
    QCOMPARE(diff->charts().front()->plottableCount(), 3);  // control, test, difference
    // A click on an op selects it in the run the other views show.
    ResultTableView* ops = diff->tableViews().front();
    QModelIndex kernelRow;
    for (int r = 0; r < ops->model()->rowCount() && !kernelRow.isValid(); ++r)
        if (ops->model()->index(r, 0).data(kFilterRole).toString().startsWith(QStringLiteral("ampere_sgemm")))
            kernelRow = ops->model()->index(r, 0);
    QVERIFY(kernelRow.isValid());
    ops->setCurrentIndex(kernelRow);
    const QString name = kernelRow.data(kFilterRole).toString();
    QCOMPARE(w().session()->selection()->kernelName(), name);
    QCOMPARE(w().session()->selection()->kernel(), control->strings.find(name.toStdString()).value);
    QVERIFY(waitIdle(w()));
    screenshot(&w(), "comparison");
    // The ops come sorted by the size of their change, decreases ranked with increases.
    const int change = expected.columnNames().size() > 6 ? 6 : -1;
    QVERIFY(change > 0);
    double previous = INFINITY;
    for (int r = 0; r < ops->model()->rowCount(); ++r) {
        const double size = std::abs(ops->model()->index(r, change).data(kSortRole).toDouble());
        QVERIFY2(size <= previous, qPrintable(ops->model()->index(r, 0).data().toString()));
        previous = size;
    }
    QCOMPARE(ops->horizontalHeader()->visualIndex(change), 1);  // beside the name, in view
    // The view leads with the temporal change the engine computes, and lists every note.
    const TemporalChange temporal = temporalChange(diffSummary(*control, *test, {}));
    bool headline = false, notes = false;
    for (QLabel* label : diff->findChildren<QLabel*>()) {
        headline |= label->text().contains(QStringLiteral("GPU idle")) && label->text().contains(fmt::duration(double(temporal.control.idleNs)))
            && label->text().contains(fmt::duration(double(temporal.test.idleNs)));
        notes |= label->text().contains(QStringLiteral("numbered annotations are one name"));
    }
    QVERIFY2(temporal.rankPairs == 8 && headline, "the headline gives the idle time of both runs");
    QVERIFY2(notes, "the comparison's notes are listed");
    // "Show on timeline": its first run in the shown run, selected and zoomed to.
    QPushButton* toTimeline = nullptr;
    for (QPushButton* button : diff->findChildren<QPushButton*>())
        if (button->text() == QLatin1String("Show on timeline"))
            toTimeline = button;
    QVERIFY(toTimeline && toTimeline->isEnabled());
    toTimeline->click();
    QVERIFY(waitIdle(w()));
    QVERIFY(isFrontTab(w(), QStringLiteral("Timeline")));
    const std::optional<EventRef> first = w().session()->selection()->event();
    QVERIFY(first.has_value());
    QCOMPARE(QString::fromStdString(std::string(control->str(control->at(first->rank).events.name[first->event]))), name);
    QVERIFY(!w().session()->selection()->timeRange().isEmpty());
    w().session()->selection()->setTimeRange({});
    w().dock(QStringLiteral("diff"))->raise();
    QVERIFY(waitIdle(w()));
    // A rank picked anywhere narrows the comparison to it.
    selectRankNumbered(w(), 3);
    QVERIFY(waitIdle(w()));
    const Table rank3 = compareTracesTable(compareTraces(*control, *test, {.controlRanks = {3}, .testRanks = {3}}),
                                           controlLabel.toStdString(), testLabel.toStdString());
    QCOMPARE(diff->tables().front().table.rows.size(), rank3.rows.size());
    w().session()->closeComparison();
    QVERIFY(waitIdle(w()));
    QVERIFY(diff->tables().isEmpty());
}

void TestMainWindow::launchAndQueueViewsFollowTheRank()
{
    w().dock(QStringLiteral("launches"))->raise();
    w().dock(QStringLiteral("queue"))->raise();
    selectRankNumbered(w(), 2);
    QVERIFY(waitIdle(w()));
    AnalysisView* launches = w().view(QStringLiteral("launches"));
    QCOMPARE(launches->tables().front().name, QStringLiteral("launch-stats-rank2"));
    QVERIFY(launches->tables().front().table.rows.size() > 0);
    // The three histograms of HTA's launch views, drawn or saying why not.
    for (ChartView* chart : launches->charts())
        QVERIFY2(chart->plottableCount() > 0 || !chart->message().isEmpty(), qPrintable(chart->exportName()));
    QVERIFY(launches->charts().front()->plottableCount() > 0);  // the sample has short kernels
    // Queue length: one step line per stream of rank 2; bandwidth per copy kind.
    AnalysisView* queue = w().view(QStringLiteral("queue"));
    const RankTrace* rank = w().run()->findRank(2);
    QVERIFY(rank);
    QCOMPARE(queue->charts().front()->graphCount(), int(rank->streamsInFileOrder.size()));
    QVERIFY(queue->charts().at(1)->graphCount() >= 1);
    QVERIFY(queue->charts().front()->title().contains(QStringLiteral("rank 2")));
    screenshot(&w(), "launches-and-queue");
}

void TestMainWindow::stepsHeatMapSelectsRankAndStep()
{
    w().dock(QStringLiteral("steps"))->raise();
    QVERIFY(waitIdle(w()));
    AnalysisView* steps = w().view(QStringLiteral("steps"));
    ChartView* chart = steps->charts().front();
    QCOMPARE(chart->plottableCount(), 1);  // the rank x step colour map
    // The sample's straggler (rank 5, written with --straggler 5) is found and marked.
    QVERIFY2(chart->footnote().contains(QStringLiteral("straggler")), qPrintable(chart->footnote()));
    const Table stragglers = steps->tables().at(1).table;
    // Marked in the per-rank charts too, from the same one result.
    QVERIFY(w().view(QStringLiteral("temporal"))->charts().front()->footnote().contains(QStringLiteral("stragglers")));
    QVERIFY(!stragglers.rows.empty());
    screenshot(&w(), "steps");
    // A click on a cell selects its rank and step everywhere.
    chart->replot();
    const QPoint cell(int(chart->xAxis->coordToPixel(1)), int(chart->yAxis->coordToPixel(3)));
    QTest::mouseClick(chart, Qt::LeftButton, Qt::NoModifier, cell);
    QCOMPARE(selectedRankNumber(w()), 3);
    QCOMPARE(w().session()->selection()->step(), w().run()->ranks.front().steps.at(1).number);
    QVERIFY(waitIdle(w()));
    QCOMPARE(steps->charts().front()->plottableCount(), 1);  // still the whole run's map
}

void TestMainWindow::patternsViewFollowsOperatorAndRank()
{
    w().dock(QStringLiteral("patterns"))->raise();
    selectRankNumbered(w(), 1);
    w().session()->setOption(QStringLiteral("patterns"), QStringLiteral("operator"), QStringLiteral("forward"));
    QVERIFY(waitIdle(w()));
    AnalysisView* patterns = w().view(QStringLiteral("patterns"));
    const QList<TableExport> tables = patterns->tables();
    QCOMPARE(tables.size(), 2);
    QCOMPARE(tables.front().name, QStringLiteral("kernel-patterns-rank1"));
    QVERIFY(!tables.front().table.rows.empty());  // the sample's forward passes launch GEMMs
    ResultTableView* table = patterns->tableViews().front();
    table->setCurrentIndex(table->model()->index(0, 0));
    QVERIFY(w().session()->selection()->kernel() != 0);  // the pattern's first kernel
    screenshot(&w(), "patterns");
    w().session()->setOption(QStringLiteral("patterns"), QStringLiteral("operator"), QStringLiteral("aten::linear"));
}

void TestMainWindow::collectivesViewNamesTheStraggler()
{
    w().dock(QStringLiteral("collectives"))->raise();
    QVERIFY(waitIdle(w()));
    AnalysisView* view = w().view(QStringLiteral("collectives"));
    // The sample run was written with --straggler 5: it arrives last at every all-reduce.
    QVERIFY2(view->findChild<QLabel*>()->text().contains(QLatin1String("Rank 5 arrived last")),
             qPrintable(view->findChild<QLabel*>()->text()));
    ChartView* bars = view->charts().front();
    QCOMPARE(bars->plottableCount(), 2);  // wait and transfer, stacked
    QCOMPARE(pointCount(bars), 8);        // one bar per rank
    const QList<TableExport> tables = view->tables();
    QCOMPARE(tables.size(), 4);
    QCOMPARE(tables.front().name, QStringLiteral("collectives"));
    // Clock skew: the sample run's clocks agree (synth writes one clock), so rank 0's row reads 0
    // and every other rank's offset is within a microsecond of it.
    QCOMPARE(tables.back().name, QStringLiteral("collective-clock-skew"));
    QCOMPARE(tables.back().table.rows.size(), size_t(8));
    for (const auto& row : tables.back().table.rows)
        QVERIFY(std::holds_alternative<int64_t>(row[1]) ? std::abs(std::get<int64_t>(row[1])) <= 1
                                                        : std::abs(std::get<double>(row[1])) <= 1.0);
    QVERIFY(!tables.front().table.rows.empty());
    ResultTableView* table = view->tableViews().front();
    table->setCurrentIndex(table->model()->index(0, 0));
    QVERIFY(w().session()->selection()->kernel() != 0);
    QCOMPARE(selectedRankNumber(w()), 5);
    QVERIFY(!w().session()->selection()->timeRange().isEmpty());
    screenshot(view, "collectives");
    view->findChild<QTabWidget*>()->setCurrentIndex(1);
    screenshot(view, "collectives-lateness");
    view->findChild<QTabWidget*>()->setCurrentIndex(5);
    screenshot(view, "collectives-clock-skew");
}

void TestMainWindow::findingsOpenTheirEvidence()
{
    w().dock(QStringLiteral("findings"))->raise();
    QVERIFY(waitIdle(w()));
    AnalysisView* view = w().view(QStringLiteral("findings"));
    const QList<TableExport> tables = view->tables();
    QCOMPARE(tables.size(), 1);
    const Table& table = tables.front().table;
    // The sample run's fp32 GEMMs on every rank first (the most at stake), then its straggler,
    // then the ranks waiting for it.
    QVERIFY(table.rows.size() >= 3);
    QCOMPARE(std::get<std::string>(table.rows[0][10]), std::string("low_tensor_core_use"));
    QCOMPARE(std::get<std::string>(table.rows[1][10]), std::string("collective_straggler/rank5"));
    QCOMPARE(std::get<std::string>(table.rows[2][10]), std::string("exposed_communication"));
    // The first finding is explained from the start; Open evidence selects its rank and shows its view.
    QPushButton* open = nullptr;
    for (QPushButton* button : view->findChildren<QPushButton*>())
        if (button->text() == QLatin1String("Open evidence"))
            open = button;
    QVERIFY(open && open->isEnabled());
    QVERIFY(view->findChild<QTextBrowser*>()->toPlainText().contains(QLatin1String("What to do:")));
    screenshot(view, "findings");
    open->click();
    QVERIFY(waitIdle(w()));
    QCOMPARE(selectedRankNumbers(w()).size(), 8);
    QVERIFY(!w().dock(QStringLiteral("operators"))->visibleRegion().isEmpty());
    // The straggler: rank 5 selected, the Collectives view in front.
    w().dock(QStringLiteral("findings"))->raise();
    ResultTableView* rows = view->tableViews().front();
    rows->setCurrentIndex(rows->model()->index(1, 0));
    open->click();
    QVERIFY(waitIdle(w()));
    QCOMPARE(selectedRankNumber(w()), 5);
    QVERIFY(!w().dock(QStringLiteral("collectives"))->visibleRegion().isEmpty());
    // The third concerns seven ranks: all of them selected, the Overlap view in front.
    w().dock(QStringLiteral("findings"))->raise();
    rows->setCurrentIndex(rows->model()->index(2, 0));
    open->click();
    QVERIFY(waitIdle(w()));
    QList<int> ranks = selectedRankNumbers(w());
    std::sort(ranks.begin(), ranks.end());
    QCOMPARE(ranks, QList<int>({0, 1, 2, 3, 4, 6, 7}));
    QVERIFY(!w().dock(QStringLiteral("overlap"))->visibleRegion().isEmpty());

    // Show on timeline: the straggler's rank and the span of its first step, the timeline in front.
    w().dock(QStringLiteral("findings"))->raise();
    rows->setCurrentIndex(rows->model()->index(1, 0));
    QPushButton* onTimeline = nullptr;
    for (QPushButton* button : view->findChildren<QPushButton*>())
        if (button->text() == QLatin1String("Show on timeline"))
            onTimeline = button;
    QVERIFY(onTimeline && onTimeline->isEnabled());
    onTimeline->click();
    QVERIFY(waitIdle(w()));
    QCOMPARE(selectedRankNumber(w()), 5);
    const auto slice = w().session()->slice();
    const ProfilerSteps steps = profilerSteps(*slice);
    const auto first = std::find_if(steps.spans.begin(), steps.spans.end(), [](const StepSpan& s) { return s.rank == 5; });
    QVERIFY(first != steps.spans.end());
    const TimeRange range = w().session()->selection()->timeRange();
    QCOMPARE(range.beginNs, qint64(std::min(first->cpuStartNs, first->gpuStartNs) - slice->minTsNs));
    QCOMPARE(range.endNs, qint64(std::max(first->cpuEndNs, first->gpuEndNs) - slice->minTsNs));
    QVERIFY(!w().dock(QStringLiteral("timeline"))->visibleRegion().isEmpty());
    screenshot(w().view(QStringLiteral("timeline")), "finding-on-timeline");
}

void TestMainWindow::operatorsViewListsAnOpsKernels()
{
    w().dock(QStringLiteral("operators"))->raise();
    selectRankNumbered(w(), 4);
    QVERIFY(waitIdle(w()));
    AnalysisView* view = w().view(QStringLiteral("operators"));
    QCOMPARE(view->tables().size(), 1);
    QCOMPARE(view->tables().front().name, QStringLiteral("operators-rank4"));
    ResultTableView* ops = view->tableViews().front();
    // The op with the most device time comes first; picking it lists the GPU work it launched.
    ops->setCurrentIndex(ops->model()->index(0, 0));
    QVERIFY(waitIdle(w()));
    QCOMPARE(view->tables().size(), 2);
    const Table kernels = view->tables().at(1).table;
    QVERIFY(!kernels.rows.empty());
    QCOMPARE(kernels.columns.at(1), std::string("operator"));
    ResultTableView* kernelTable = view->tableViews().at(1);
    kernelTable->setCurrentIndex(kernelTable->model()->index(0, 0));
    QVERIFY(w().session()->selection()->kernel() != 0);
    screenshot(view, "operators");
    w().session()->selection()->setOp(QString());
}

void TestMainWindow::criticalPathViewFollowsRankAndWindow()
{
    w().dock(QStringLiteral("critical-path"))->raise();
    selectRankNumbered(w(), 2);
    QVERIFY(waitIdle(w()));
    AnalysisView* view = w().view(QStringLiteral("critical-path"));
    QCOMPARE(pointCount(view->charts().front()), 8);  // a path on every rank of the first step
    QList<TableExport> tables = view->tables();
    QCOMPARE(tables.at(1).name, QStringLiteral("critical-path-breakdown-rank2"));
    QVERIFY(!tables.at(1).table.rows.empty());
    QVERIFY2(view->findChild<QLabel*>()->text().contains(QLatin1String("ProfilerStep#")), qPrintable(view->findChild<QLabel*>()->text()));
    ResultTableView* breakdown = view->tableViews().front();
    breakdown->setCurrentIndex(breakdown->model()->index(0, 0));
    QVERIFY(!w().session()->selection()->timeRange().isEmpty());
    screenshot(view, "critical-path");
    // Another window: the third step; an annotation that does not exist says so.
    w().session()->setOption(QStringLiteral("critical-path"), QStringLiteral("instance"), 2);
    QVERIFY(waitIdle(w()));
    // The window is named by its own step (instance 2 is the third ProfilerStep), not "#2".
    const std::vector<ProfilerStep>& steps = w().session()->run()->ranks.front().steps;
    QVERIFY(steps.size() >= 3);
    const QString third = QStringLiteral("ProfilerStep#%1").arg(steps[2].number);
    QVERIFY2(view->findChild<QLabel*>()->text().contains(third), qPrintable(view->findChild<QLabel*>()->text()));
    // Every note the CLI prints with the path is in the caption (here: GPU ops without a launch edge).
    QVERIFY2(view->findChild<QLabel*>()->text().contains(QLatin1String("got no launch")), qPrintable(view->findChild<QLabel*>()->text()));
    w().session()->setOption(QStringLiteral("critical-path"), QStringLiteral("annotation"), QStringLiteral("no such op"));
    QVERIFY(waitIdle(w()));
    QVERIFY(!view->charts().front()->message().isEmpty());
    w().session()->setOption(QStringLiteral("critical-path"), QStringLiteral("annotation"), QString());
    w().session()->setOption(QStringLiteral("critical-path"), QStringLiteral("instance"), 0);
}

void TestMainWindow::eventsViewFollowsRankKindNameAndTime()
{
    w().dock(QStringLiteral("events"))->raise();
    selectRankNumbered(w(), 1);
    QVERIFY(waitIdle(w()));
    AnalysisView* view = w().view(QStringLiteral("events"));
    auto* table = view->findChild<QTableView*>();
    const RankTrace* rank = w().session()->slice()->findRank(1);
    QCOMPARE(size_t(table->model()->rowCount()), rank->events.size());
    size_t kernels = 0;
    for (size_t i = 0; i < rank->events.size(); ++i)
        kernels += rank->events.kind[i] == EventKind::Kernel;
    w().session()->setOption(QStringLiteral("events"), QStringLiteral("kind"), QStringLiteral("kernel"));
    QVERIFY(waitIdle(w()));
    QCOMPARE(size_t(table->model()->rowCount()), kernels);
    w().session()->setOption(QStringLiteral("events"), QStringLiteral("name"), QStringLiteral("^nccl"));
    QVERIFY(waitIdle(w()));
    const int nccl = table->model()->rowCount();
    QVERIFY(nccl > 0 && size_t(nccl) < kernels);
    table->setCurrentIndex(table->model()->index(0, 0));
    QVERIFY(w().session()->selection()->kernelName().startsWith(QLatin1String("nccl")));
    // A time span (from the timeline or a collective) narrows the table; "Whole time" widens it.
    const qint64 first = rank->events.tsNs[size_t(qobject_cast<EventTableModel*>(table->model())->eventAt(0))] - w().run()->minTsNs;
    w().session()->selection()->setTimeRange({first, first + 2000000});
    QVERIFY(waitIdle(w()));
    QVERIFY(table->model()->rowCount() >= 1 && table->model()->rowCount() < nccl);
    screenshot(view, "events");
    view->findChild<QPushButton*>()->click();
    QVERIFY(waitIdle(w()));
    QCOMPARE(table->model()->rowCount(), nccl);
    w().session()->setOption(QStringLiteral("events"), QStringLiteral("name"), QStringLiteral("(unclosed"));
    QVERIFY(waitIdle(w()));
    QCOMPARE(table->model()->rowCount(), 0);
    QVERIFY(view->findChild<QLabel*>()->text().startsWith(QLatin1String("Bad name filter")));
    // A filter kept on is said in the caption; the field's clear button drops it at once.
    w().session()->setOption(QStringLiteral("events"), QStringLiteral("name"), QStringLiteral("^no such event$"));
    QVERIFY(waitIdle(w()));
    QCOMPARE(table->model()->rowCount(), 0);
    QVERIFY2(view->findChild<QLabel*>()->text().contains(QLatin1String("filtered: name")), qPrintable(view->findChild<QLabel*>()->text()));
    view->findChild<QLineEdit*>()->clear();
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().session()->option(QStringLiteral("events"), QStringLiteral("name"), QString()).toString(), QString());
    QCOMPARE(size_t(table->model()->rowCount()), kernels);
    // Numbers are never cut: every column but the name fits its first rows' values.
    const QFontMetrics metrics(table->font());
    for (int c = 0; c < table->model()->columnCount(); ++c) {
        const QString header = table->model()->headerData(c, Qt::Horizontal).toString();
        if (header == QLatin1String("name") || header == QLatin1String("input dims"))
            continue;
        for (int r = 0; r < std::min(50, table->model()->rowCount()); ++r) {
            const QString text = table->model()->index(r, c).data().toString();
            QVERIFY2(metrics.horizontalAdvance(text) + 8 <= table->columnWidth(c), qPrintable(header + QStringLiteral(": ") + text));
        }
    }
    w().session()->setOption(QStringLiteral("events"), QStringLiteral("kind"), QString());
}

void TestMainWindow::anEventPickedOnThePathIsTheEventsViewsRow()
{
    // A critical-path segment selects its event; the status bar names it, the events view (which
    // follows the segment's time span) makes it its current row, in the whole run and in its step.
    w().dock(QStringLiteral("critical-path"))->raise();
    selectRankNumbered(w(), 2);
    QVERIFY(waitIdle(w()));
    AnalysisView* path = w().view(QStringLiteral("critical-path"));
    ResultTableView* breakdown = path->tableViews().front();
    breakdown->setCurrentIndex(breakdown->model()->index(0, 0));
    const std::optional<EventRef> picked = w().session()->selection()->event();
    QVERIFY(picked.has_value());
    QCOMPARE(w().run()->at(picked->rank).rank, 2);
    const int pickedStep = w().run()->at(picked->rank).events.step[picked->event];
    const QString named = w().findChild<QLabel*>(QStringLiteral("selectedEvent"))->text();
    QVERIFY2(named.contains(QLatin1String("on rank 2")), qPrintable(named));

    const auto currentEvent = [this]() -> EventRef {
        auto* table = w().view(QStringLiteral("events"))->findChild<QTableView*>();
        const auto* model = qobject_cast<EventTableModel*>(table->model());
        if (!table->currentIndex().isValid())
            return {};
        const Run& slice = *w().session()->slice();
        const RankIndex rank = slice.indexOf(*model->rank());
        return EventRef{rank, slice.at(rank).runRow(model->eventAt(table->currentIndex().row()))};
    };
    w().dock(QStringLiteral("events"))->raise();
    QVERIFY(waitIdle(w()));
    QCOMPARE(currentEvent(), *picked);
    // In the event's own step the slice holds it at another row: still the same event.
    w().session()->selection()->setStep(pickedStep);
    QVERIFY(waitIdle(w()));
    QVERIFY(!w().session()->slice()->at(picked->rank).runRows.empty());
    QCOMPARE(currentEvent(), *picked);
    QCOMPARE(w().session()->selection()->event(), picked);
    // A row clicked in the events view is the selected event, named by its row of the whole run.
    auto* table = w().view(QStringLiteral("events"))->findChild<QTableView*>();
    table->setCurrentIndex(table->model()->index(table->model()->rowCount() - 1, 0));
    const EventRef clicked = currentEvent();
    QCOMPARE(w().session()->selection()->event(), std::optional<EventRef>(clicked));
    const RankTrace& whole = w().run()->at(clicked.rank);
    const RankTrace& inStep = w().session()->slice()->at(clicked.rank);
    const EventIndex row = inStep.rowOfRunEvent(clicked.event);
    QVERIFY(row != kNoEvent);
    QCOMPARE(inStep.events.tsNs[row], whole.events.tsNs[clicked.event]);
    QCOMPARE(inStep.events.name[row], whole.events.name[clicked.event]);
    w().session()->selection()->setStep(-1);
    w().session()->selection()->setTimeRange({});
    QVERIFY(waitIdle(w()));
    w().session()->selection()->setEvent(std::nullopt);
    QVERIFY(w().findChild<QLabel*>(QStringLiteral("selectedEvent"))->text().isEmpty());
}

void TestMainWindow::memoryViewNamesTheAllocatingOp()
{
    // The bundled sample has no [memory] events: the view says how to record them.
    w().dock(QStringLiteral("memory"))->raise();
    QVERIFY(waitIdle(w()));
    AnalysisView* view = w().view(QStringLiteral("memory"));
    QVERIFY2(view->charts().front()->message().contains(QLatin1String("profile_memory=True")),
             qPrintable(view->charts().front()->message()));

    // Two steps on one GPU: aten::empty takes 1 GiB, aten::mm 2 GiB more (the peak), both freed.
    const auto memoryEvent = [](int ts, int64_t addr, int64_t bytes, int64_t allocated) {
        return R"({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": )"
            + std::to_string(ts) + R"(, "args": {"Total Reserved": 4294967296, "Total Allocated": )" + std::to_string(allocated)
            + R"(, "Bytes": )" + std::to_string(bytes) + R"(, "Addr": )" + std::to_string(addr) + R"(, "Device Id": 0, "Device Type": 1}})";
    };
    const auto op = [](const char* cat, const char* name, int ts, int dur) {
        return std::string(R"({"ph": "X", "cat": ")") + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )"
            + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + "}";
    };
    const int64_t gib = int64_t(1) << 30;
    const std::string trace = R"({"distributedInfo": {"rank": 0}, "traceEvents": [)" "\n"
        + op("user_annotation", "ProfilerStep#1", 1000, 1000) + ",\n" + op("user_annotation", "ProfilerStep#2", 2000, 1000) + ",\n"
        + op("user_annotation", "ProfilerStep#3", 3000, 1000) + ",\n" + op("cpu_op", "aten::empty", 1100, 50) + ",\n"
        + memoryEvent(1110, 1, gib, gib) + ",\n" + op("cpu_op", "aten::mm", 1500, 100) + ",\n"
        + memoryEvent(1550, 2, 2 * gib, 3 * gib) + ",\n" + memoryEvent(1900, 2, -2 * gib, gib) + ",\n"
        + memoryEvent(2500, 1, -gib, 0) + "\n]}\n";
    const auto dir = scratchDir("kscope-ui-memory");
    writeFile(dir / "rank0.json", trace);
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    ChartView* chart = view->charts().front();
    QCOMPARE(chart->graphCount(), 2);  // reserved and allocated of cuda:0
    QVERIFY2(view->findChild<QLabel*>()->text().contains(QLatin1String("peak 3")), qPrintable(view->findChild<QLabel*>()->text()));
    const QList<TableExport> tables = view->tables();
    QCOMPARE(tables.size(), 4);
    QCOMPARE(tables.at(1).name, QStringLiteral("memory-steps-rank0"));
    QVERIFY(!tables.at(2).table.rows.empty());  // bytes by op
    // A click where aten::mm's allocation holds names it and lists its work in the Operators view.
    const double atMs = (1560.0 * 1000 - double(w().run()->minTsNs)) / 1e6;  // 1560 us, 10 us after it
    const int x = int(chart->xAxis->coordToPixel(atMs));
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(x, chart->height() / 2));
    QVERIFY2(view->findChild<QLabel*>()->text().contains(QLatin1String("aten::mm")), qPrintable(view->findChild<QLabel*>()->text()));
    QCOMPARE(w().session()->selection()->op(), QStringLiteral("aten::mm"));
    // The pick is the session's selection: the Operators view follows it (its kernels listed).
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().view(QStringLiteral("operators"))->tables().size(), 2);
    screenshot(view, "memory");
    w().session()->selection()->setOp(QString());
}

void TestMainWindow::smallWindowKeepsNamesReadable()
{
    w().dock(QStringLiteral("overview"))->raise();
    w().resize(1024, 700);
    QCoreApplication::processEvents();
    // No view's minimum forces the window wider or taller (its minimum, not a layout in progress).
    QVERIFY2(w().minimumSizeHint().width() <= 1024, qPrintable(QString::number(w().minimumSizeHint().width())));
    QVERIFY2(w().minimumSizeHint().height() <= 700, qPrintable(QString::number(w().minimumSizeHint().height())));
    QCOMPARE(w().width(), 1024);
    ResultTableView* table = kernelsTable();
    table->fitColumns();
    const int name = table->resultModel()->columnOf(QStringLiteral("name"));
    // Names get the spare width and never shrink to "…" while numbers keep theirs.
    QVERIFY2(table->columnWidth(name) >= 150, qPrintable(QString::number(table->columnWidth(name))));
    QVERIFY(!table->model()->index(0, name).data().toString().contains(QChar(0x2026)));
    // The overview keeps every summary row.
    QLabel* summary = nullptr;
    for (QLabel* label : w().view(QStringLiteral("overview"))->findChildren<QLabel*>())
        if (label->text().contains(QStringLiteral("Trace size")))
            summary = label;
    QVERIFY(summary);
    QVERIFY(summary->height() >= summary->sizeHint().height());
    screenshot(&w(), "small-window");
    w().resize(1280, 800);
}

void TestMainWindow::aboutNamesVersionsAndLicences()
{
    const QString about = MainWindow::aboutText();
    QVERIFY(about.contains(QStringLiteral(KSCOPE_VERSION)));
    QVERIFY(about.contains(QString::fromLatin1(qVersion())));
    for (const char* library : {"Qt 6", "QCustomPlot", "simdjson", "Eigen", "zlib", "ISA-L", "CLI11"})
        QVERIFY2(about.contains(QLatin1String(library)), library);
}

void TestMainWindow::cleanupTestCase() { m_window.reset(); }

// View > a view brings it forward, never hides it (a dock's own toggle hid a view that was only
// behind another tab); Reset Layout puts a floated or closed dock back.
void TestMainWindow::viewMenuRaisesAndResetLayoutRestores()
{
    QMenu* viewMenu = nullptr;
    for (QMenu* menu : w().menuBar()->findChildren<QMenu*>())
        if (menu->title() == tr("&View"))
            viewMenu = menu;
    QVERIFY(viewMenu);
    const auto action = [viewMenu](const QString& text) {
        for (QAction* a : viewMenu->actions())
            if (a->text() == text)
                return a;
        return static_cast<QAction*>(nullptr);
    };
    QDockWidget* timeline = w().dock(QStringLiteral("timeline"));
    w().dock(QStringLiteral("idle"))->raise();
    QCoreApplication::processEvents();
    QVERIFY(!isFrontTab(w(), timeline->windowTitle()));
    QAction* showTimeline = action(timeline->windowTitle());
    QVERIFY(showTimeline);
    for (int k = 0; k < 2; ++k) {  // twice: still shown, still in front
        showTimeline->trigger();
        QCoreApplication::processEvents();
        QVERIFY(timeline->isVisible());
        QVERIFY(isFrontTab(w(), timeline->windowTitle()));
    }
    QDockWidget* overview = w().dock(QStringLiteral("overview"));
    QDockWidget* temporal = w().dock(QStringLiteral("temporal"));
    overview->setFloating(true);
    temporal->close();
    QCoreApplication::processEvents();
    QVERIFY(!temporal->isVisible());
    action(tr("Reset &Layout"))->trigger();
    QCoreApplication::processEvents();
    QVERIFY(!overview->isFloating());
    QVERIFY(temporal->isVisible());
    QCOMPARE(w().dockWidgetArea(overview), Qt::LeftDockWidgetArea);
    w().dock(QStringLiteral("overview"))->raise();
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
