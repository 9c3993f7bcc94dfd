// The generic result-table model and its proxy under QAbstractItemModelTester, on the tables the
// CLI prints for the bundled sample run: units from column names, raw values for sorting, the
// search over full names, the rank filter, and "export what is shown".

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "analysis/core/kernelbreakdown.h"
#include "analysis/tables/resulttables.h"
#include "analysis/core/temporalbreakdown.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/downsample.h"
#include "plots/plots.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace kscope;

class TestUiModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void columnsReadByTheirDeclaredUnits();
    void kernelTableSearchAndRankFilter();
    void exportsWhatIsShown();
    void collidingShortNamesAreToldApart();
    void downsampledStepsKeepPeaks();
    void heatMapCellsSitOnTheirTicks();
    void exportsLeaveTheSelectionOut();

private:
    std::shared_ptr<const Run> m_run;
};

void TestUiModels::initTestCase()
{
    m_run = loadRun(KSCOPE_SAMPLE_RUN_DIR, {});
    QVERIFY(m_run);
    QCOMPARE(m_run->ranks.size(), size_t(8));
}

void TestUiModels::columnsReadByTheirDeclaredUnits()
{
    ResultTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    const TemporalBreakdown result = temporalBreakdown(*m_run, {});
    model.setTable(std::make_shared<Table>(temporalTable(result)));
    QCOMPARE(model.rowCount(), int(m_run->ranks.size()));
    QCOMPARE(model.index(3, 0).data(kRankRole).toInt(), result.rows[3].rank);
    const int idle = model.columnOf(QStringLiteral("idle_time(us)"));
    QVERIFY(idle > 0);
    QCOMPARE(model.headerData(idle, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("idle time"));
    QCOMPARE(model.index(0, idle).data(kSortRole).toDouble(), result.rows[0].idleNs / 1000.0);
    QVERIFY(model.index(0, idle).data().toString().endsWith(QLatin1String("ms")));     // compact, with its unit
    QVERIFY(model.index(0, idle).data(Qt::ToolTipRole).toString().endsWith(QStringLiteral("µs")));  // exact
    const int pct = model.columnOf(QStringLiteral("idle_time_pctg"));
    QVERIFY(model.index(0, pct).data().toString().endsWith(QLatin1Char('%')));
    // The unit is the table's declaration, not the name's: HTA's unit-free names read in time
    // units too, and a name that merely ends like a unit is not taken for one.
    Table hta;
    hta.columns = {"name", micros("sum"), "count (us)"};
    hta.addRow({std::string("k"), 1500.0, int64_t{7}});
    model.setTable(std::make_shared<Table>(hta));
    QCOMPARE(model.index(0, 1).data().toString(), fmt::compact(1500.0 * 1000.0));
    QVERIFY(model.index(0, 1).data().toString().endsWith(QLatin1String("ms")));
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("7"));
    // In --hta-compat the kernels table's stddev carries HTA's unit-free name and still reads as a time.
    const Table kernels = kernelsTable(*m_run, kernelBreakdown(*m_run, {.htaCompat = true}));
    QVERIFY(std::find(kernels.columns.begin(), kernels.columns.end(), "stddev") != kernels.columns.end());
    model.setTable(std::make_shared<Table>(kernels));
    const int sum = model.columnOf(QStringLiteral("stddev"));
    QVERIFY(sum > 0);
    QVERIFY2(model.index(0, sum).data().toString().contains(QLatin1String("s")), qPrintable(model.index(0, sum).data().toString()));
    QVERIFY(model.index(0, sum).data(Qt::ToolTipRole).toString().endsWith(QStringLiteral("µs")));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestUiModels::kernelTableSearchAndRankFilter()
{
    ResultTableView view(QStringLiteral("kernels"));
    view.setNameColumn(QStringLiteral("name"));
    ResultTableModel& model = *view.resultModel();
    ResultFilterProxy& filter = *view.proxy();
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const KernelBreakdown result = kernelBreakdown(*m_run, {});
    QVector<quint32> ids;
    for (const KernelStatsRow& row : result.kernels)
        ids.push_back(row.name.value);
    model.setTable(std::make_shared<Table>(kernelsTable(*m_run, result)), ids);
    QVERIFY(model.rowCount() > 0);
    QCOMPARE(filter.rowCount(), model.rowCount());
    QCOMPARE(model.index(0, 0).data(kIdRole).toUInt(), ids[0]);
    QCOMPARE(model.rowOfId(ids[2]), ids.indexOf(ids[2]));

    filter.setRankFilter({m_run->indexOf(*m_run->findRank(2))});
    QVERIFY(filter.rowCount() > 0 && filter.rowCount() < model.rowCount());
    for (int r = 0; r < filter.rowCount(); ++r)
        QCOMPARE(filter.index(r, 0).data(kRankRole).toInt(), 2);

    // Search matches the full name, whatever the display shortens.
    const QString name = model.index(0, 0).data(kFilterRole).toString();
    filter.setRankFilter({});
    filter.setFilterFixedString(name.right(12).toUpper());
    QVERIFY(filter.rowCount() >= 1);
    for (int r = 0; r < filter.rowCount(); ++r)
        QVERIFY(filter.index(r, 0).data(kFilterRole).toString().contains(name.right(12), Qt::CaseInsensitive));
    filter.setFilterFixedString(QStringLiteral("no such kernel anywhere"));
    QCOMPARE(filter.rowCount(), 0);
    filter.setFilterFixedString(QString());

    // Sorting uses raw numbers: sums descend.
    const int sum = model.columnOf(QStringLiteral("sum (us)"));
    filter.sort(sum, Qt::DescendingOrder);
    for (int r = 1; r < filter.rowCount(); ++r)
        QVERIFY(filter.index(r - 1, sum).data(kSortRole).toDouble() >= filter.index(r, sum).data(kSortRole).toDouble());
    model.clear();
    QCOMPARE(filter.rowCount(), 0);
}

void TestUiModels::exportsWhatIsShown()
{
    ResultTableView view(QStringLiteral("kernels"));
    view.setNameColumn(QStringLiteral("name"));
    const KernelBreakdown result = kernelBreakdown(*m_run, {});
    const Table all = kernelsTable(*m_run, result);
    view.resultModel()->setTable(std::make_shared<Table>(all));
    QVERIFY(!view.isFiltered());
    QCOMPARE(view.shownRows().rows.size(), all.rows.size());
    view.proxy()->setFilterFixedString(QStringLiteral("ncclDevKernel"));
    QVERIFY(view.isFiltered());
    const Table shown = view.shownRows();
    QCOMPARE(int(shown.rows.size()), view.proxy()->rowCount());
    QVERIFY(shown.rows.size() < all.rows.size());
    QCOMPARE(shown.columnNames(), all.columnNames());  // every column, the CLI's names
    for (const auto& row : shown.rows)
        QVERIFY(std::get<std::string>(row[0]).find("ncclDevKernel") != std::string::npos);
}

void TestUiModels::collidingShortNamesAreToldApart()
{
    Table table;
    table.columns = {"name", "rank"};
    for (const char* name : {"void at::native::vectorized_elementwise_kernel<4, at::native::AbsFunctor<float>>(int)",
                             "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>>(int)",
                             "void at::native::::multi_tensor_apply_kernel<float>(int)",
                             "ampere_sgemm_128x64_nn"})
        table.addRow({std::string(name), int64_t{0}});
    ResultTableModel model;
    model.setNameColumn(QStringLiteral("name"));
    model.setTable(std::make_shared<Table>(table));
    const QString abs = model.index(0, 0).data().toString();
    const QString mul = model.index(1, 0).data().toString();
    QVERIFY2(abs != mul, qPrintable(abs));
    QVERIFY(abs.startsWith(QLatin1String("at::native::vectorized_elementwise_kernel [")));
    QVERIFY(abs.contains(QLatin1String("Abs")) && mul.contains(QLatin1String("Mul")));
    QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("at::native::multi_tensor_apply_kernel"));
    QCOMPARE(model.index(3, 0).data().toString(), QStringLiteral("ampere_sgemm_128x64_nn"));
    // The tooltip wraps: rich text with break opportunities.
    QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().startsWith(QLatin1String("<p")));
}

void TestUiModels::downsampledStepsKeepPeaks()
{
    QVector<double> keys, values;
    for (int i = 0; i < 100000; ++i) {
        keys.push_back(i * 10.0);
        values.push_back(i == 54321 ? 1024.0 : i % 7);  // one full-queue spike among small values
    }
    QVector<double> outKeys, outValues;
    downsampleSteps(keys, values, 500, outKeys, outValues);
    QVERIFY(outKeys.size() <= 4 * 500);
    QVERIFY(outKeys.size() >= 500);
    QCOMPARE(outKeys.front(), keys.front());
    QCOMPARE(outKeys.back(), keys.back());
    QVERIFY(std::is_sorted(outKeys.begin(), outKeys.end()));
    QCOMPARE(*std::max_element(outValues.begin(), outValues.end()), 1024.0);
    QCOMPARE(*std::min_element(outValues.begin(), outValues.end()), 0.0);
    // Short series pass through untouched.
    downsampleSteps(keys.mid(0, 100), values.mid(0, 100), 500, outKeys, outValues);
    QCOMPARE(outKeys, keys.mid(0, 100));
}

// A heat map as a reader sees it: one step's cells centred on the step's tick (not right of it),
// both ends of the scale visible on the white background, a colour scale with its unit, and the
// value under the mouse.
void TestUiModels::heatMapCellsSitOnTheirTicks()
{
    ChartView view(QStringLiteral("heat"));
    view.resize(600, 400);
    HeatMapData data;
    data.title = QStringLiteral("Mean lateness");
    data.xLabel = QStringLiteral("ProfilerStep");
    data.yLabel = QStringLiteral("Rank");
    data.valueLabel = QStringLiteral("mean lateness (µs)");
    data.xKeys = {551};
    data.yKeys = {0, 1};
    data.yLabels = {QStringLiteral("0"), QStringLiteral("1 ⚑")};
    data.values = {0.0, 62000.0};  // rank 1 about 62 ms late
    drawHeatMap(view, data);
    view.replot();
    const QImage image = view.toPixmap(600, 400).toImage();
    if (const QByteArray dir = qgetenv("KSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
        image.save(QString::fromLocal8Bit(dir) + QStringLiteral("/heatmap-one-step.png"));
    const int tickX = int(view.xAxis->coordToPixel(0));  // the one step sits at index 0
    const int rowOf1 = int(view.yAxis->coordToPixel(1)), rowOf0 = int(view.yAxis->coordToPixel(0));
    const int halfCell = int(std::abs(view.xAxis->coordToPixel(0.5) - view.xAxis->coordToPixel(0)));
    QVERIFY(halfCell > 20);
    const auto isBackground = [](QColor c) { return c.lightness() > 235; };
    // Left and right of the tick, within the cell: painted. Both the late rank and the one on time.
    for (int dx : {-halfCell + 6, 0, halfCell - 6}) {
        QVERIFY2(!isBackground(image.pixelColor(tickX + dx, rowOf1)), qPrintable(image.pixelColor(tickX + dx, rowOf1).name()));
        QVERIFY2(!isBackground(image.pixelColor(tickX + dx, rowOf0)), qPrintable(image.pixelColor(tickX + dx, rowOf0).name()));
    }
    QVERIFY(image.pixelColor(tickX, rowOf1) != image.pixelColor(tickX, rowOf0));
    // The scale starts at 0 (lateness) and says its unit.
    QCPColorScale* scale = nullptr;
    for (int e = 0; e < view.plotLayout()->elementCount(); ++e)
        if (auto* s = qobject_cast<QCPColorScale*>(view.plotLayout()->elementAt(e)))
            scale = s;
    QVERIFY(scale);
    QCOMPARE(scale->dataRange().lower, 0.0);
    QCOMPARE(scale->dataRange().upper, 62000.0);
    QCOMPARE(scale->axis()->label(), data.valueLabel);
    // A redraw without a colour map drops the scale.
    drawHeatMap(view, HeatMapData{.message = QStringLiteral("nothing")});
    for (int e = 0; e < view.plotLayout()->elementCount(); ++e)
        QVERIFY(!qobject_cast<QCPColorScale*>(view.plotLayout()->elementAt(e)));
}

// A bar picked on screen is the user's, not the chart's: exports leave its highlight out unless
// asked.
void TestUiModels::exportsLeaveTheSelectionOut()
{
    ChartView view(QStringLiteral("bars"));
    view.resize(300, 300);  // narrow on screen: its ticks thin out
    BarChartData data;
    data.title = QStringLiteral("Per rank");
    data.keyLabel = QStringLiteral("Rank");
    for (int r = 0; r < 16; ++r) {
        data.keys << r;
        data.ids << r;
        data.rankNames << QString::number(r);
    }
    data.series = {{QStringLiteral("time"), QColor(40, 120, 200), QVector<double>(16, 5.0)}};
    drawBars(view, data);
    view.setHighlightedIds({3});
    const auto dir = test::scratchDir("kscope-export-selection");
    const QString plain = QString::fromStdString((dir / "plain.png").string());
    const QString picked = QString::fromStdString((dir / "picked.png").string());
    QVERIFY(view.exportImage(plain, 1200, 500));
    QVERIFY(view.exportImage(picked, 1200, 500, nullptr, true));
    QCOMPARE(view.highlightedIds(), QList<int>{3});  // the screen keeps its selection
    view.setHighlightedIds({});
    const QString none = QString::fromStdString((dir / "none.png").string());
    QVERIFY(view.exportImage(none, 1200, 500));
    QCOMPARE(QImage(plain), QImage(none));
    QVERIFY(QImage(picked) != QImage(plain));
}

QTEST_MAIN(TestUiModels)
#include "tst_uimodels.moc"
