// GUI smoke test, offscreen: open the bundled sample run, wait for every panel, check the bars,
// click a rank bar and watch the idle panel follow, export a PNG and check it is not blank,
// then open a folder with a corrupt file and check the issues dock while the other ranks show.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "model/trace.h"
#include "testsupport.h"
#endif

#include "chartview.h"
#include "idlepanel.h"
#include "issuesmodel.h"
#include "issuespanel.h"
#include "kernelbreakdownpanel.h"
#include "kerneldistpanel.h"
#include "kernelfiltermodel.h"
#include "kerneltablemodel.h"
#include "loadcontroller.h"
#include "modelroles.h"
#include "mainwindow.h"
#include "overlappanel.h"
#include "selectionmodel.h"
#include "temporalpanel.h"

#include <QDockWidget>
#include <QSet>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace kscope;

namespace {

constexpr int kTimeoutMs = 60000;

int pointCount(ChartView* chart, int plottable = 0)
{
    auto* p = chart->plottable(plottable);
    return p && p->interface1D() ? p->interface1D()->dataCount() : -1;
}

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

// KSCOPE_SCREENSHOT_DIR=/some/dir saves the window at each step, to look at what is drawn.
void screenshot(QWidget* window, const char* name)
{
    const QByteArray dir = qgetenv("KSCOPE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        window->grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void opensSampleRun();
    void barsPerRank();
    void clickRankBarDrillsIn();
    void kernelRowSelectsDistribution();
    void exportsPngAndCsv();
    void stepSelectorNarrowsPanels();
    void htaCompatibleMode();
    void cancelKeepsPreviousRun();
    void corruptFileListedOthersShown();
    void cleanupTestCase();

private:
    void waitIdle();
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("KinetoscopeTest"));
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMainWindow::waitIdle()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_window->run() && !m_window->isBusy(), kTimeoutMs);
    QCoreApplication::processEvents();
}

void TestMainWindow::opensSampleRun()
{
    m_window->openSampleRun();
    waitIdle();
    QCOMPARE(m_window->run()->ranks.size(), size_t(8));
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("sample")));
    for (Panel* panel : m_window->panels())
        QVERIFY2(!panel->isBusy(), qPrintable(panel->title()));
    QVERIFY(m_window->bannerText().isEmpty());
}

void TestMainWindow::barsPerRank()
{
    const int ranks = int(m_window->run()->ranks.size());
    ChartView* temporal = m_window->temporalPanel()->chart();
    QCOMPARE(temporal->plottableCount(), 3);  // idle, compute, non-compute stacked
    for (int s = 0; s < 3; ++s)
        QCOMPARE(pointCount(temporal, s), ranks);
    QCOMPARE(pointCount(m_window->overlapPanel()->chart()), ranks);
    QCOMPARE(pointCount(m_window->kernelDistPanel()->chart()), ranks);  // the sample's kernels run everywhere
    QVERIFY(m_window->idlePanel()->streamChart()->plottableCount() == 3);
    QVERIFY(m_window->kernelBreakdownPanel()->tableModel()->rowCount() > 0);
}

void TestMainWindow::clickRankBarDrillsIn()
{
    MainWindow& w = *m_window;
    w.dockOf(w.temporalPanel())->raise();
    ChartView* chart = w.temporalPanel()->chart();
    chart->replot();
    QCOMPARE(w.idlePanel()->shownRank(), 0);  // nothing selected: the first rank
    const int rank = 5;
    const QPoint bar(int(chart->xAxis->coordToPixel(rank)), int(chart->yAxis->coordToPixel(50.0)));
    QVERIFY(chart->axisRect()->rect().contains(bar));
    QTest::mouseClick(chart, Qt::LeftButton, Qt::NoModifier, bar);
    QCOMPARE(w.selection()->rank(), rank);
    QTRY_COMPARE_WITH_TIMEOUT(w.idlePanel()->shownRank(), rank, kTimeoutMs);
    waitIdle();
    QVERIFY(w.idlePanel()->streamChart()->title().contains(QString::number(rank)));
    QCOMPARE(w.kernelBreakdownPanel()->filterModel()->rankFilter(), QList<int>{rank});
    QVERIFY(w.kernelBreakdownPanel()->filterModel()->rowCount() > 0);
    screenshot(&w, "rank-clicked");

    // Ctrl+click adds a rank (the newest drives the single-rank panels), and removes it again.
    const QPoint other(int(chart->xAxis->coordToPixel(2)), bar.y());
    const int rowsForOne = w.kernelBreakdownPanel()->filterModel()->rowCount();
    QTest::mouseClick(chart, Qt::LeftButton, Qt::ControlModifier, other);
    QCOMPARE(w.selection()->ranks(), (QList<int>{2, rank}));
    QTRY_COMPARE_WITH_TIMEOUT(w.idlePanel()->shownRank(), 2, kTimeoutMs);
    QCOMPARE(w.kernelBreakdownPanel()->filterModel()->rankFilter(), (QList<int>{2, rank}));
    QVERIFY(w.kernelBreakdownPanel()->filterModel()->rowCount() > rowsForOne);
    waitIdle();
    screenshot(&w, "two-ranks");
    QTest::mouseClick(chart, Qt::LeftButton, Qt::ControlModifier, other);
    QCOMPARE(w.selection()->ranks(), QList<int>{rank});
    waitIdle();
}

void TestMainWindow::kernelRowSelectsDistribution()
{
    MainWindow& w = *m_window;
    QTableView* table = w.kernelBreakdownPanel()->table();
    // The last row after sorting by sum is a light kernel, likely outside the distribution's top list.
    const int rows = table->model()->rowCount();
    QVERIFY(rows > 0);
    quint32 picked = 0;
    for (int r = rows - 1; r >= 0 && !picked; --r) {
        const QModelIndex index = table->model()->index(r, 0);
        if (index.data(kIdRole).toUInt() == 0)
            continue;  // "others"
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, table->visualRect(index).center());
        picked = index.data(kIdRole).toUInt();
    }
    QVERIFY(picked != 0);
    QCOMPARE(w.selection()->kernel(), picked);
    QTRY_COMPARE_WITH_TIMEOUT(w.kernelDistPanel()->shownKernel(), picked, kTimeoutMs);
    QVERIFY(pointCount(w.kernelDistPanel()->chart()) > 0);
    QVERIFY(w.kernelDistPanel()->isVisible());  // drilling raised its tab
    screenshot(&w, "kernel-selected");
}

void TestMainWindow::exportsPngAndCsv()
{
    MainWindow& w = *m_window;
    const auto dir = test::scratchDir("kscope-ui-export");
    ChartView* chart = w.temporalPanel()->chart();
    const QString png = QString::fromStdString((dir / "temporal.png").string());
    QVERIFY(chart->exportImage(png));
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), chart->size() * chart->devicePixelRatio());
    QVERIFY2(distinctColours(image) > 4, "exported chart looks blank");

    const QString pdf = QString::fromStdString((dir / "temporal.pdf").string());
    QVERIFY(chart->exportImage(pdf));
    QVERIFY(QFileInfo(pdf).size() > 1000);

    const QStringList written = w.exportAll(QString::fromStdString((dir / "all").string()));
    QVERIFY(written.isEmpty());  // the folder does not exist yet
    std::filesystem::create_directories(dir / "all");
    const QStringList files = w.exportAll(QString::fromStdString((dir / "all").string()));
    QVERIFY(files.size() >= 10);
    QFile csv(QString::fromStdString((dir / "all" / "temporal.csv").string()));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readLine().trimmed(), QByteArray("rank,idle_time(us),compute_time(us),non_compute_time(us),"
                                                  "kernel_time(us),idle_time_pctg,compute_time_pctg,non_compute_time_pctg"));
    int lines = 0;
    while (!csv.readLine().isEmpty())
        ++lines;
    QCOMPARE(lines, 8);
    for (const QString& file : files)
        if (file.endsWith(QLatin1String(".png")))
            QVERIFY2(distinctColours(QImage(file)) > 4, qPrintable(file));
}

void TestMainWindow::stepSelectorNarrowsPanels()
{
    MainWindow& w = *m_window;
    waitIdle();
    const auto whole = w.run();
    const int step = whole->ranks.front().steps.at(1).number;
    w.selection()->setStep(step);
    QTRY_VERIFY_WITH_TIMEOUT(w.shownRun() != whole, kTimeoutMs);
    waitIdle();
    const auto slice = w.shownRun();
    QCOMPARE(slice->ranks.size(), whole->ranks.size());
    for (const RankTrace& rank : slice->ranks) {
        QVERIFY(rank.events.size() > 0);
        QVERIFY(rank.events.size() < whole->ranks.front().events.size());
        QVERIFY(std::all_of(rank.events.step.begin(), rank.events.step.end(), [step](int32_t s) { return s == step; }));
    }
    ChartView* temporal = w.temporalPanel()->chart();
    QCOMPARE(pointCount(temporal, 0), int(slice->ranks.size()));
    QVERIFY(w.issuesPanel()->model()->rowCount() == 0);
    screenshot(&w, "step-selected");
    w.selection()->setStep(-1);
    QTRY_VERIFY_WITH_TIMEOUT(w.shownRun() == whole, kTimeoutMs);
    waitIdle();
}

void TestMainWindow::htaCompatibleMode()
{
    MainWindow& w = *m_window;
    w.loader()->setHtaCompat(true);
    const auto previous = w.run();
    w.openSampleRun();
    QTRY_VERIFY_WITH_TIMEOUT(w.run() != previous, kTimeoutMs);
    waitIdle();
    QVERIFY(w.run()->htaCompat);
    QVERIFY(w.windowTitle().contains(QStringLiteral("HTA-compatible")));
    // Microsecond rounding: every timestamp is a whole microsecond.
    const EventTable& events = w.run()->ranks.front().events;
    QVERIFY(std::all_of(events.tsNs.begin(), events.tsNs.end(), [](int64_t ts) { return ts % 1000 == 0; }));
    w.loader()->setHtaCompat(false);
    w.openSampleRun();
    QTRY_VERIFY_WITH_TIMEOUT(!w.run()->htaCompat, kTimeoutMs);
    waitIdle();
}

void TestMainWindow::cancelKeepsPreviousRun()
{
    MainWindow& w = *m_window;
    const auto previous = w.run();
    QSignalSpy cancelled(w.loader(), &LoadController::cancelled);
    w.openRun(MainWindow::sampleRunPath());
    QVERIFY(w.loader()->isLoading());
    w.loader()->cancel();
    QCOMPARE(cancelled.count(), 1);
    QTest::qWait(500);  // the worker finishes in the background; its result must be dropped
    QCOMPARE(w.run(), previous);
    QVERIFY(!w.isBusy());
}

void TestMainWindow::corruptFileListedOthersShown()
{
    MainWindow& w = *m_window;
    const auto dir = test::scratchDir("kscope-ui-corrupt");
    for (const char* name : {"rank0.pt.trace.json.gz", "rank1.pt.trace.json.gz", "rank2.pt.trace.json.gz"})
        std::filesystem::copy_file(std::filesystem::path(KSCOPE_SAMPLE_RUN_DIR) / name, dir / name);
    test::writeFile(dir / "rank3.pt.trace.json", "{\"schemaVersion\": 1, \"traceEvents\": [ {\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 12");
    const auto previous = w.run();
    w.openRun(QString::fromStdString(dir.string()));
    QTRY_VERIFY_WITH_TIMEOUT(w.run() != previous, kTimeoutMs);
    waitIdle();
    QCOMPARE(w.run()->ranks.size(), size_t(3));
    IssuesModel* issues = w.issuesPanel()->model();
    QVERIFY(issues->errorCount() >= 1);
    bool listed = false;
    for (int r = 0; r < issues->rowCount(); ++r)
        listed |= issues->index(r, IssuesModel::File).data().toString() == QLatin1String("rank3.pt.trace.json");
    QVERIFY(listed);
    QVERIFY(!w.bannerText().isEmpty());
    QVERIFY(w.dockOf(w.issuesPanel())->isVisible());
    QCOMPARE(pointCount(w.temporalPanel()->chart()), 3);
    QCOMPARE(w.idlePanel()->shownRank(), 0);
    screenshot(&w, "corrupt-run");
}

void TestMainWindow::cleanupTestCase() { m_window.reset(); }

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
