// The GUI's item models under QAbstractItemModelTester, on the bundled sample run and on a run
// with a corrupt file; plus the kernels proxy's search and rank filter.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "analysis/kernelbreakdown.h"
#include "analysis/kerneldistribution.h"
#include "analysis/temporalbreakdown.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include "imbalancemodel.h"
#include "issuesmodel.h"
#include "kernelfiltermodel.h"
#include "kerneltablemodel.h"
#include "modelroles.h"
#include "temporaltablemodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace kscope;

class TestUiModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void temporalModel();
    void kernelModelAndFilter();
    void imbalanceModel();
    void issuesModel();

private:
    std::shared_ptr<const Run> m_run;
};

void TestUiModels::initTestCase()
{
    m_run = loadRun(KSCOPE_SAMPLE_RUN_DIR, {});
    QVERIFY(m_run);
    QCOMPARE(m_run->ranks.size(), size_t(8));
}

void TestUiModels::temporalModel()
{
    TemporalTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    auto result = std::make_shared<const TemporalBreakdown>(temporalBreakdown(*m_run, {}));
    model.setResult(result);
    QCOMPARE(model.rowCount(), int(m_run->ranks.size()));
    QCOMPARE(model.index(3, 0).data(kRankRole).toInt(), result->rows[3].rank);
    QCOMPARE(model.index(0, 1).data(kSortRole).toLongLong(), qint64(result->rows[0].spanNs));
    QVERIFY(model.index(0, 5).data().toString().endsWith(QLatin1Char('%')));
    model.setResult(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestUiModels::kernelModelAndFilter()
{
    KernelTableModel model;
    KernelFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto result = std::make_shared<const KernelBreakdown>(kernelBreakdown(*m_run, {}));
    model.setResult(m_run, result);
    QCOMPARE(model.rowCount(), int(result->kernels.size()));
    QVERIFY(model.rowCount() > 0);
    QCOMPARE(filter.rowCount(), model.rowCount());

    filter.setRankFilter({2});
    QVERIFY(filter.rowCount() > 0);
    QVERIFY(filter.rowCount() < model.rowCount());
    for (int r = 0; r < filter.rowCount(); ++r)
        QCOMPARE(filter.index(r, 0).data(kRankRole).toInt(), 2);

    // Search matches the full name, whatever the display elides.
    const QString name = model.index(0, KernelTableModel::Name).data(Qt::ToolTipRole).toString();
    filter.setRankFilter({});
    filter.setFilterFixedString(name.right(12).toUpper());
    QVERIFY(filter.rowCount() >= 1);
    for (int r = 0; r < filter.rowCount(); ++r)
        QVERIFY(filter.index(r, 0).data(Qt::ToolTipRole).toString().contains(name.right(12), Qt::CaseInsensitive));
    filter.setFilterFixedString(QStringLiteral("no such kernel anywhere"));
    QCOMPARE(filter.rowCount(), 0);
    filter.setFilterFixedString(QString());

    // Sorting uses raw numbers: sums descend.
    filter.sort(KernelTableModel::Sum, Qt::DescendingOrder);
    for (int r = 1; r < filter.rowCount(); ++r)
        QVERIFY(filter.index(r - 1, KernelTableModel::Sum).data(kSortRole).toDouble()
                >= filter.index(r, KernelTableModel::Sum).data(kSortRole).toDouble());
    model.setResult(nullptr, nullptr);
    QCOMPARE(filter.rowCount(), 0);
}

void TestUiModels::imbalanceModel()
{
    ImbalanceModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto result = std::make_shared<const KernelDistributions>(kernelDistributions(*m_run, {}));
    model.setResult(m_run, result);
    QCOMPARE(model.rowCount(), int(result->kernels.size()));
    QVERIFY(model.rowCount() > 0);
    const quint32 first = result->kernels.front().name.value;
    QCOMPARE(model.index(0, 0).data(kIdRole).toUInt(), first);
    QCOMPARE(model.rowOfKernel(first), 0);
    QCOMPARE(model.rowOfKernel(0xffffffu), -1);
}

void TestUiModels::issuesModel()
{
    const auto dir = test::scratchDir("kscope-uimodels-issues");
    std::filesystem::copy_file(std::filesystem::path(KSCOPE_SAMPLE_RUN_DIR) / "rank0.pt.trace.json.gz",
                               dir / "rank0.pt.trace.json.gz");
    test::writeFile(dir / "rank1.pt.trace.json", "{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ");
    test::writeFile(dir / "notes.txt", "not a trace");
    std::shared_ptr<const Run> run = loadRun(dir, {});
    IssuesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRun(run);
    QVERIFY(model.rowCount() >= 2);  // the corrupt file and the skipped one
    QCOMPARE(model.errorCount(), 1);
    bool listed = false;
    for (int r = 0; r < model.rowCount(); ++r)
        listed |= model.index(r, IssuesModel::File).data().toString() == QLatin1String("rank1.pt.trace.json");
    QVERIFY(listed);
    QVERIFY(!model.summary().isEmpty());
    model.setRun(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.summary().isEmpty());
}

QTEST_MAIN(TestUiModels)
#include "tst_uimodels.moc"
