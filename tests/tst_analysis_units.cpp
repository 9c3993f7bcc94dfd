// Unit tests of the analyses on runs built in code: each case states what the answer must be.

// moc cannot parse <stop_token>'s concepts (runbuilder.h includes the loader); it needs none of these.
#ifndef Q_MOC_RUN
#include "analysis/htanumerics.h"
#include "analysis/resulttable.h"
#include "analysis/core/idletime.h"
#include "analysis/core/intervals.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/kerneldistribution.h"
#include "analysis/core/kernelnames.h"
#include "analysis/core/kerneltype.h"
#include "analysis/core/overlap.h"
#include "analysis/core/temporalbreakdown.h"
#include "runbuilder.h"
#endif

#include <QtTest>

#include <cmath>
#include <random>

using namespace kscope;
using kscope::test::RunBuilder;

class TestAnalysisUnits : public QObject {
    Q_OBJECT

private slots:
    void kernelType_data();
    void kernelType();
    void shortenKernelName_data();
    void shortenKernelName();
    void distinctShortNamesTellKernelsApart();
    void intervalUnion_data();
    void intervalUnion();
    void numpyRound_data();
    void numpyRound();
    void quantile();
    void integerSelectionAgreesWithSorting();
    void quicksortAgreesOnDistinctKeys();
    void descendingKeepsNameOrderOnTies();

    void temporalOverlappingKernelsOnOneStream();
    void temporalSubMicrosecondKernels();
    void temporalOneKernel();
    void temporalEmptyRank_data();
    void temporalEmptyRank();

    void overlapWithAndWithoutCommunication();

    void kernelTypeShares();
    void kernelFolding_data();
    void kernelFolding();

    void idleCategories();
    void idleOneKernelStream();
    void idleEmptyRank();
    void idleStats();
    void idleHistogramCountsEveryGap();

    void kernelDistributionSpread();
};

void TestAnalysisUnits::kernelType_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("expected");
    const int comm = int(KernelType::Communication), mem = int(KernelType::Memory),
              comp = int(KernelType::Computation), other = int(KernelType::Other);
    QTest::newRow("nccl kernel") << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)" << comm;
    QTest::newRow("nccl >= 2.19") << "ncclDevKernel_AllGather_RING_LL(ncclDevComm*)" << comm;
    QTest::newRow("ncclKernel inside") << "void foo<ncclKernel_x>()" << comm;
    QTest::newRow("hip first (quirk)") << "hipMemcpyWithStream" << comm;
    QTest::newRow("hccl") << "hccl_allreduce" << comm;
    QTest::newRow("memcpy") << "Memcpy HtoD (Pageable -> Device)" << mem;
    QTest::newRow("memset") << "Memset (Device)" << mem;
    QTest::newRow("dma") << "dma_transfer" << mem;
    QTest::newRow("compute") << "void at::native::vectorized_elementwise_kernel<4>(int)" << comp;
    QTest::newRow("gemm") << "ampere_sgemm_128x64_nn" << comp;
    QTest::newRow("event sync") << "Event Sync" << other;
    QTest::newRow("stream wait") << "Stream Wait Event" << other;
    QTest::newRow("memcpy not first") << "void copy_Memcpy_kernel()" << other;
    QTest::newRow("launch") << "cudaLaunchKernel" << other;
    QTest::newRow("cuda..LaunchKernel") << "cudaGraphLaunchKernelEx" << other;
    QTest::newRow("runFunction") << "runFunction - job_prep" << other;
    QTest::newRow("newline stops .*") << "kernel\nncclKernel" << comp;
    QTest::newRow("empty") << "" << comp;
}

void TestAnalysisUnits::kernelType()
{
    QFETCH(QString, name);
    QFETCH(int, expected);
    QCOMPARE(int(classifyKernelName(name.toStdString())), expected);
}

void TestAnalysisUnits::shortenKernelName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::newRow("templated") << "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int> >(int, float)"
                               << "at::native::vectorized_elementwise_kernel";
    QTest::newRow("nccl args") << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
                               << "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
    QTest::newRow("plain") << "ampere_sgemm_128x64_nn" << "ampere_sgemm_128x64_nn";
    QTest::newRow("memory kept") << "Memcpy HtoD (Pageable -> Device)" << "Memcpy HtoD (Pageable -> Device)";
    QTest::newRow("arrow removed") << "void f<a->b>(int)" << "f";
    QTest::newRow("lambda") << "void k<(anonymous namespace)::op>(int)::{lambda(int)#1}" << "k::{lambda#1}";
    QTest::newRow("unbalanced") << "foo>bar(" << "bar(";
}

void TestAnalysisUnits::shortenKernelName()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(kscope::shortenKernelName(name.toStdString())), expected);
}

void TestAnalysisUnits::distinctShortNamesTellKernelsApart()
{
    // Tensile kernels that differ deep inside one long word: on screen the middle is elided, so
    // the differing field goes to the end, where it stays visible.
    const std::string a = "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_LDSB1_AFC1_GRVWA8_WSGRB0_WS64_WG32_8_1";
    const std::string b = "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x64_MI16x16x1_SN_LDSB1_AFC1_GRVWA8_WSGRB0_WS64_WG32_8_1";
    const std::vector<std::string> tensile = distinctShortNames({a, b, a});
    QVERIFY2(tensile[0] != tensile[1], tensile[0].c_str());
    QCOMPARE(tensile[0], tensile[2]);  // equal full names, equal short names
    QVERIFY2(tensile[0].ends_with("]") && tensile[0].find("MT256x256x64") != std::string::npos, tensile[0].c_str());
    QVERIFY2(tensile[1].find("MT128x256x64") != std::string::npos, tensile[1].c_str());
    // A short name that needs no hint keeps none.
    QCOMPARE(distinctShortNames({a}).front(), a);
    // A hint cut inside a template says it was cut, never a bare "<...,]".
    const std::vector<std::string> templated = distinctShortNames(
        {"void at::native::f<at::native::Functor<c10::BFloat16, float, float>, unsigned int>(int)",
         "void at::native::f<at::native::Functor<c10::BFloat16, c10::BFloat16, float>, unsigned int>(int)"});
    QVERIFY2(templated[0] != templated[1], templated[0].c_str());
    for (const std::string& name : templated)
        QVERIFY2(name.ends_with("…]") || name.find(",]") == std::string::npos, name.c_str());
    // Mangled names (HIP's composable kernels) are demangled before they are shortened.
    const std::vector<std::string> mangled = distinctShortNames({"_ZN7ck_tile6kentryILi1ENS_6KernelEEEvv"});
    QVERIFY2(mangled[0].find("_ZN") == std::string::npos, mangled[0].c_str());
    QVERIFY2(mangled[0].find("kentry") != std::string::npos, mangled[0].c_str());
    // NCCL's variants at the end of one word keep that end.
    const std::vector<std::string> nccl = distinctShortNames(
        {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
         "ncclDevKernel_AllReduce_Sum_f32_RING_SIMPLE(ncclDevKernelArgsStorage<4096ul>)"});
    QVERIFY2(nccl[0] != nccl[1], nccl[0].c_str());
    QVERIFY2(nccl[0].find("LL") != std::string::npos && nccl[1].find("SIMPLE") != std::string::npos, nccl[1].c_str());
    // An exported kernel table carries the short name beside the full one.
    Table table;
    table.columns = {"rank", "name", "sum"};
    table.addRow({int64_t{0}, a, 1.0});
    table.addRow({int64_t{1}, b, 2.0});
    const Table exported = withShortNameColumn(table, "name");
    QCOMPARE(exported.columnNames(), (std::vector<std::string>{"rank", "name", "short_name", "sum"}));
    QCOMPARE(std::get<std::string>(exported.rows[0][2]), tensile[0]);
    QCOMPARE(std::get<std::string>(exported.rows[1][1]), b);
    QCOMPARE(withShortNameColumn(exported, "name").columns.size(), size_t{4});  // once
    QCOMPARE(withShortNameColumn(table, "kernel").columns.size(), size_t{3});   // no such column
}

void TestAnalysisUnits::intervalUnion_data()
{
    QTest::addColumn<QList<qint64>>("input");  // start, end pairs in start order
    QTest::addColumn<QList<qint64>>("merged");
    QTest::newRow("disjoint") << QList<qint64>{0, 5, 10, 15} << QList<qint64>{0, 5, 10, 15};
    QTest::newRow("touching merge") << QList<qint64>{0, 5, 5, 8} << QList<qint64>{0, 8};
    QTest::newRow("nested") << QList<qint64>{0, 10, 2, 3, 4, 12} << QList<qint64>{0, 12};
    QTest::newRow("gap after long one") << QList<qint64>{0, 10, 2, 3, 11, 12} << QList<qint64>{0, 10, 11, 12};
}

void TestAnalysisUnits::intervalUnion()
{
    QFETCH(QList<qint64>, input);
    QFETCH(QList<qint64>, merged);
    IntervalUnion u;
    for (int i = 0; i < input.size(); i += 2)
        u.add(input[i], input[i + 1]);
    QList<qint64> got;
    for (const Interval& g : u.groups())
        got << g.start << g.end;
    QCOMPARE(got, merged);
}

void TestAnalysisUnits::numpyRound_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<double>("expected");
    QTest::newRow("half to even") << 0.125 << 2 << 0.12;
    QTest::newRow("scaled first, unlike Python round") << 2.675 << 2 << 2.68;
    QTest::newRow("one decimal") << 73.28244274809161 << 1 << 73.3;
    QTest::newRow("negative") << -1.005 << 2 << -1.0;
}

void TestAnalysisUnits::numpyRound()
{
    QFETCH(double, value);
    QFETCH(int, decimals);
    QFETCH(double, expected);
    QCOMPARE(hta::round(value, decimals), expected);
}

void TestAnalysisUnits::quantile()
{
    const std::vector<double> v = {1, 2, 3, 4};
    QCOMPARE(hta::quantileLinear(v, 0.25), 1.75);
    QCOMPARE(hta::quantileLinear(v, 0.5), 2.5);
    QCOMPARE(hta::quantileLinear(v, 1.0), 4.0);
    const std::vector<double> one = {7};
    QCOMPARE(hta::quantileLinear(one, 0.8), 7.0);
}

// The bucketing selection behind idle-gap and queue-length quartiles, against sorting: narrow
// and 2^62-wide ranges, heavy skew (most gaps tiny, a few huge), ties, negatives, the extremes.
void TestAnalysisUnits::integerSelectionAgreesWithSorting()
{
    std::mt19937_64 random(7);
    const auto check = [](std::vector<int64_t> values) {
        std::vector<int64_t> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        std::vector<size_t> ranks;
        for (size_t r : {size_t{0}, sorted.size() / 4, sorted.size() / 4 + 1, sorted.size() / 2, sorted.size() / 2 + 1,
                         sorted.size() * 3 / 4, sorted.size() - 1})
            if (r < sorted.size() && (ranks.empty() || ranks.back() < r))
                ranks.push_back(r);
        std::vector<int64_t> found(ranks.size(), -12345);
        hta::selectOrderStatistics<int64_t>(values, sorted.front(), sorted.back(), ranks, found);
        for (size_t i = 0; i < ranks.size(); ++i)
            QCOMPARE(found[i], sorted[ranks[i]]);
        const std::array<double, 3> quartiles = hta::integerQuantilesLinear(
            std::span<const int64_t>(values), sorted.front(), sorted.back(), std::array<double, 3>{0.25, 0.5, 0.75},
            [](int64_t v) { return static_cast<double>(v) / 1000.0; });
        std::vector<double> us(sorted.size());
        for (size_t i = 0; i < sorted.size(); ++i)
            us[i] = static_cast<double>(sorted[i]) / 1000.0;
        QCOMPARE(quartiles[0], hta::quantileLinear(us, 0.25));
        QCOMPARE(quartiles[1], hta::quantileLinear(us, 0.5));
        QCOMPARE(quartiles[2], hta::quantileLinear(us, 0.75));
    };
    for (size_t size : {size_t{1}, size_t{2}, size_t{3}, size_t{64}, size_t{65}, size_t{1000}, size_t{100000}}) {
        std::vector<int64_t> narrow(size), wide(size), skewed(size), ties(size), signedValues(size);
        for (size_t i = 0; i < size; ++i) {
            narrow[i] = static_cast<int64_t>(random() % 3000);
            wide[i] = static_cast<int64_t>(random() >> 2);
            // Most gaps of a few us, one in fifty of up to a second.
            skewed[i] = random() % 50 == 0 ? static_cast<int64_t>(random() % 1000000000) : 1500 + static_cast<int64_t>(random() % 40);
            ties[i] = random() % 10 == 0 ? int64_t{7} << 40 : int64_t{2000};
            signedValues[i] = static_cast<int64_t>(random()) ;
        }
        for (auto* values : {&narrow, &wide, &skewed, &ties, &signedValues})
            check(*values);
    }
    check({std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 0, -1, 1});
    std::vector<int64_t> extremes(500, std::numeric_limits<int64_t>::max());
    extremes[17] = std::numeric_limits<int64_t>::min();
    check(extremes);
    check(std::vector<int64_t>(300, 42));
    // 32-bit values (queue lengths), a narrow range counted in one pass.
    std::vector<int32_t> lengths(5000);
    for (int32_t& v : lengths)
        v = static_cast<int32_t>(random() % 1100) - 3;
    std::vector<int32_t> sortedLengths = lengths;
    std::sort(sortedLengths.begin(), sortedLengths.end());
    const std::vector<size_t> ranks = {0, 1249, 1250, 2499, 2500, 3749, 4999};
    std::vector<int32_t> found(ranks.size());
    hta::selectOrderStatistics<int32_t>(lengths, sortedLengths.front(), sortedLengths.back(), ranks, found);
    for (size_t i = 0; i < ranks.size(); ++i)
        QCOMPARE(found[i], sortedLengths[ranks[i]]);
}

void TestAnalysisUnits::quicksortAgreesOnDistinctKeys()
{
    std::mt19937_64 random(42);
    for (int size : {0, 1, 2, 15, 16, 17, 100, 5000}) {
        std::vector<int64_t> keys(size);
        std::iota(keys.begin(), keys.end(), int64_t{0});
        std::shuffle(keys.begin(), keys.end(), random);
        const std::vector<uint32_t> order = hta::quicksortArgsort(keys);
        QCOMPARE(order.size(), keys.size());
        for (size_t i = 0; i < order.size(); ++i)
            QCOMPARE(keys[order[i]], int64_t(i));
    }
    // All equal: every index once (numpy's own permutation, not necessarily the identity).
    std::vector<int64_t> same(1000, 5);
    std::vector<uint32_t> order = hta::quicksortArgsort(same);
    std::sort(order.begin(), order.end());
    for (size_t i = 0; i < order.size(); ++i)
        QCOMPARE(order[i], uint32_t(i));
}

void TestAnalysisUnits::descendingKeepsNameOrderOnTies()
{
    // Below 16 elements numpy's quicksort is an insertion sort: pandas' reverse-sort-reverse
    // then keeps equal sums in their original (name) order.
    const std::vector<int64_t> sums = {5, 9, 5, 1};
    const std::vector<uint32_t> order = hta::sortDescendingOrder(sums);
    QCOMPARE(order, (std::vector<uint32_t>{1, 0, 2, 3}));
}

void TestAnalysisUnits::temporalOverlappingKernelsOnOneStream()
{
    auto run = RunBuilder()
                   .rank(0)
                   .gpu("gemm_a", 7, 0, 10)
                   .gpu("gemm_b", 7, 5, 10)  // overlaps gemm_a on the same stream
                   .gpu("ncclKernel_AllReduce", 7, 20, 10)
                   .build();
    const TemporalBreakdown t = temporalBreakdown(*run, {});
    QVERIFY(t.error.empty());
    QCOMPARE(t.rows.size(), size_t(1));
    const TemporalBreakdownRow& r = t.rows[0];
    QCOMPARE(r.spanNs, int64_t(30000));
    QCOMPARE(r.idleNs, int64_t(5000));
    QCOMPARE(r.computeNs, int64_t(15000));
    QCOMPARE(r.nonComputeNs, int64_t(10000));
    QCOMPARE(r.idlePctg + r.computePctg + r.nonComputePctg, 100.0);
}

void TestAnalysisUnits::temporalSubMicrosecondKernels()
{
    // Exact nanoseconds in the default mode: no kernel rounds to zero or below.
    auto run = RunBuilder().rank(0).gpu("k1", 7, 0.1, 0.3).gpu("k2", 7, 0.9, 0.05).build();
    const TemporalBreakdown t = temporalBreakdown(*run, {});
    QCOMPARE(t.rows.size(), size_t(1));
    QCOMPARE(t.rows[0].spanNs, int64_t(850));
    QCOMPARE(t.rows[0].computeNs, int64_t(350));
    QCOMPARE(t.rows[0].idleNs, int64_t(500));
    QCOMPARE(t.rows[0].nonComputeNs, int64_t(0));
}

void TestAnalysisUnits::temporalOneKernel()
{
    auto run = RunBuilder().rank(0).gpu("k", 7, 100, 45).build();
    const TemporalBreakdown t = temporalBreakdown(*run, {.htaCompat = true});
    QCOMPARE(t.rows.size(), size_t(1));
    QCOMPARE(t.rows[0].spanNs, int64_t(45000));
    QCOMPARE(t.rows[0].idleNs, int64_t(0));
    QCOMPARE(t.rows[0].computePctg, 100.0);
}

void TestAnalysisUnits::temporalEmptyRank_data()
{
    QTest::addColumn<bool>("htaCompat");
    QTest::newRow("default: rank left out") << false;
    QTest::newRow("hta: no result") << true;
}

void TestAnalysisUnits::temporalEmptyRank()
{
    QFETCH(bool, htaCompat);
    auto run = RunBuilder().rank(0).gpu("k", 7, 0, 10).rank(1).cpu("aten::add", 0, 5, -1, "cpu_op").build();
    const TemporalBreakdown t = temporalBreakdown(*run, {.htaCompat = htaCompat});
    if (htaCompat) {
        QVERIFY(t.rows.empty());
        QVERIFY(t.error.find("rank 1") != std::string::npos);
    } else {
        QVERIFY(t.error.empty());
        QCOMPARE(t.rows.size(), size_t(1));
        QCOMPARE(t.rows[0].rank, 0);
        QCOMPARE(t.notes.size(), size_t(1));
    }
}

void TestAnalysisUnits::overlapWithAndWithoutCommunication()
{
    auto run = RunBuilder()
                   .rank(0)
                   .gpu("ncclKernel_AllReduce", 20, 0, 10)
                   .gpu("gemm", 7, 5, 10)
                   .gpu("Memcpy DtoD", 8, 0, 10)  // memory is ignored
                   .rank(1)
                   .gpu("gemm", 7, 0, 10)
                   .build();
    const Overlap o = commCompOverlap(*run, {.htaCompat = true});
    QCOMPARE(o.rows.size(), size_t(2));
    QCOMPARE(o.rows[0].overlapNs, int64_t(5000));
    QCOMPARE(o.rows[0].overlapPctg, 50.0);
    QVERIFY(!o.rows[1].hasCommunication);
    QVERIFY(std::isnan(o.rows[1].overlapPctg));
    QCOMPARE(o.notes.size(), size_t(1));
}

void TestAnalysisUnits::kernelTypeShares()
{
    auto run = RunBuilder()
                   .rank(0)
                   .gpu("gemm", 7, 0, 10)
                   .gpu("ncclKernel_AllReduce", 20, 5, 10)
                   .gpu("Memcpy HtoD", 8, 30, 4)
                   .gpu("Event Sync", 7, 40, 100, -1, "cuda_sync")  // OTHER: not in the table
                   .build();
    const KernelBreakdown k = kernelBreakdown(*run, {.htaCompat = true});
    QCOMPARE(k.types.size(), size_t(4));
    QCOMPARE(k.types[0].kernelType, std::string("COMMUNICATION"));  // ties keep name order
    QCOMPARE(k.types[0].sumNs, int64_t(5000));
    QCOMPARE(k.types[1].kernelType, std::string("COMPUTATION"));
    QCOMPARE(k.types[2].kernelType, std::string("COMPUTATION overlapping COMMUNICATION"));
    QCOMPARE(k.types[3].kernelType, std::string("MEMORY"));
    QCOMPARE(k.types[3].percentage, 21.1);
    QCOMPARE(k.kernels.size(), size_t(3));
    QCOMPARE(toString(k.kernels[0].type), "COMMUNICATION");
    const KernelBreakdown noMemory = kernelBreakdown(*run, {.includeMemoryKernels = false});
    QCOMPARE(noMemory.types.size(), size_t(3));
    QCOMPARE(noMemory.kernels.size(), size_t(2));
}

void TestAnalysisUnits::kernelFolding_data()
{
    QTest::addColumn<bool>("htaCompat");
    QTest::newRow("default keeps real stats") << false;
    QTest::newRow("hta collapses to sums") << true;
}

void TestAnalysisUnits::kernelFolding()
{
    QFETCH(bool, htaCompat);
    // 12 compute kernels k00..k11, kernel kNN runs twice for (12 - NN) and (12 - NN + 2) µs.
    RunBuilder builder;
    builder.rank(0);
    double t = 0;
    for (int n = 0; n < 12; ++n) {
        const std::string name = (n < 10 ? "k0" : "k") + std::to_string(n);
        builder.gpu(name, 7, t, 12 - n);
        t += 100;
        builder.gpu(name, 7, t, 14 - n);
        t += 100;
    }
    auto run = builder.build();
    const KernelBreakdown k = kernelBreakdown(*run, {.htaCompat = htaCompat});
    // Sums 26, 24, ..., 4 µs; their running total's 0.8 quantile is 168.4 µs, so the rows whose
    // running total passes it (k09 at 170 µs and after) fold into "others".
    QStringList names;
    for (const KernelStatsRow& row : k.kernels)
        names << QString::fromUtf8(rowName(*run, row).data(), int(rowName(*run, row).size()));
    QCOMPARE(names, (QStringList{"k00", "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08", "others"}));
    const KernelStatsRow& first = k.kernels[0];
    const KernelStatsRow& others = k.kernels.back();
    QCOMPARE(first.sumNs, int64_t(26000));
    QCOMPARE(others.sumNs, int64_t(18000));
    if (htaCompat) {
        QCOMPARE(first.maxNs, int64_t(26000));
        QCOMPARE(first.stddevNs, 0.0);
        QCOMPARE(others.maxNs, int64_t(8000));  // largest folded sum
        QCOMPARE(others.minNs, int64_t(4000));
        QCOMPARE(others.meanNs, 6000.0);
    } else {
        QCOMPARE(first.maxNs, int64_t(14000));
        QCOMPARE(first.minNs, int64_t(12000));
        QCOMPARE(first.meanNs, 13000.0);
        QVERIFY(std::abs(first.stddevNs - std::sqrt(2.0) * 1000.0) < 1e-6);
        QCOMPARE(others.count, int64_t(6));
        QCOMPARE(others.maxNs, int64_t(5000));
        QCOMPARE(others.minNs, int64_t(1000));
        QCOMPARE(others.meanNs, 3000.0);
    }
}

void TestAnalysisUnits::idleCategories()
{
    auto run = RunBuilder()
                   .rank(0)
                   .launched("k0", 7, 0, 10, 10)     // first kernel: no gap
                   .launched("k1", 7, 5, 25, 10)     // launched before k0 ended, gap 5: kernel wait
                   .launched("k2", 7, 40, 100, 10)   // launched after k1 ended (35): host wait, 65
                   .launched("k3", 7, 50, 150, 10)   // launched early, gap 40 >= 30: other
                   .launched("k4", 7, 60, 155, 10)   // overlaps k3: gap -5, kernel wait (quirk)
                   .build();
    const IdleTime idle = idleTimeBreakdown(*run, {.htaCompat = true});
    QVERIFY(idle.error.empty());
    QCOMPARE(idle.rows.size(), size_t(3));
    QCOMPARE(toString(idle.rows[0].category), "host_wait");
    QCOMPARE(idle.rows[0].idleNs, int64_t(65000));
    QCOMPARE(toString(idle.rows[1].category), "kernel_wait");
    QCOMPARE(idle.rows[1].idleNs, int64_t(0));  // 5 + (-5)
    QCOMPARE(toString(idle.rows[2].category), "other");
    QCOMPARE(idle.rows[2].idleNs, int64_t(40000));
    QCOMPARE(idle.rows[0].ratio, 0.62);
}

void TestAnalysisUnits::idleOneKernelStream()
{
    auto run = RunBuilder().rank(0).launched("k", 7, 0, 10, 45).build();
    const IdleTime idle = idleTimeBreakdown(*run, {.htaCompat = true, .intervalStats = true});
    QCOMPARE(idle.rows.size(), size_t(1));
    QCOMPARE(toString(idle.rows[0].category), "other");
    QCOMPARE(idle.rows[0].idleNs, int64_t(0));
    QVERIFY(std::isnan(idle.rows[0].ratio));
    QCOMPARE(idle.stats.size(), size_t(1));
    QCOMPARE(idle.stats[0].count, int64_t(0));
    QVERIFY(std::isnan(idle.stats[0].meanUs));
}

void TestAnalysisUnits::idleEmptyRank()
{
    auto run = RunBuilder().rank(0).launched("k", 7, 0, 10, 45).rank(1).cpu("x", 0, 1).build();
    const IdleTime compat = idleTimeBreakdown(*run, {.htaCompat = true, .ranks = choiceOfNumbers(*run, {1})});
    QVERIFY(compat.rows.empty());
    QVERIFY(!compat.error.empty());
    const IdleTime missing = idleTimeBreakdown(*run, {.htaCompat = true, .ranks = choiceOfNumbers(*run, {5})});
    QVERIFY(!missing.error.empty());
    const IdleTime lenient = idleTimeBreakdown(*run, {});
    QVERIFY(lenient.error.empty());
    QCOMPARE(lenient.rows.size(), size_t(1));
    QCOMPARE(lenient.notes.size(), size_t(1));
}

void TestAnalysisUnits::idleStats()
{
    RunBuilder builder;
    builder.rank(0);
    // Gaps 1, 2, 3, 4 µs, all kernel waits (launched long before).
    double t = 100;
    for (int n = 0; n < 5; ++n) {
        builder.launched("k", 7, 0.5 * n, t, 10);
        t += 10 + (n + 1);
    }
    auto run = builder.build();
    const IdleTime idle = idleTimeBreakdown(*run, {.htaCompat = true, .intervalStats = true});
    QCOMPARE(idle.stats.size(), size_t(2));
    const IdleIntervalStats& s = idle.stats[0];
    QCOMPARE(toString(s.category), "kernel_wait");
    QCOMPARE(s.count, int64_t(4));
    QCOMPARE(s.meanUs, 2.5);
    QCOMPARE(s.stdUs, 1.29);
    QCOMPARE(s.p25Us, 1.75);
    QCOMPARE(s.maxUs, 4.0);
}

void TestAnalysisUnits::idleHistogramCountsEveryGap()
{
    RunBuilder builder;
    builder.rank(0);
    double t = 0;
    for (int n = 0; n < 20; ++n) {
        builder.launched("k", 7, t - 1, t, 5);
        t += 5 + (n % 4) * 20 + 1;
    }
    auto run = builder.build();
    for (bool logScale : {false, true}) {
        const IdleHistogram h = idleHistogram(*run, {.rank = RankIndex{0}, .bins = 8, .logScale = logScale});
        QVERIFY(h.error.empty());
        QCOMPARE(h.edgesUs.size(), size_t(9));
        int64_t total = 0;
        for (const auto& counts : h.counts)
            for (int64_t c : counts)
                total += c;
        QCOMPARE(total + h.nonPositiveGaps, int64_t(19));
    }
    // The longest gaps, longest first, ties earliest first: four of 61 µs (after kernels 3, 7,
    // 11, 15), then the first of 41 µs (after kernel 2); each ends at the kernel after it.
    const IdleHistogram h = idleHistogram(*run, {.rank = RankIndex{0}, .bins = 8, .longestGaps = 5});
    QCOMPARE(h.longest.size(), size_t(5));
    const EventTable& events = run->ranks[0].events;
    const std::vector<int64_t> lengthsUs = {61, 61, 61, 61, 41};
    for (size_t k = 0; k < h.longest.size(); ++k) {
        const IdleGap& gap = h.longest[k];
        QCOMPARE(gap.endNs - gap.startNs, lengthsUs[k] * 1000);
        QCOMPARE(gap.stream, 7);
        QVERIFY(events.kind[gap.next] == EventKind::Kernel);
        QCOMPARE(events.tsNs[gap.next], gap.endNs);
        if (k > 0 && k < 4)
            QVERIFY(gap.startNs > h.longest[k - 1].startNs);
    }
    QVERIFY(h.longest[4].startNs < h.longest[0].startNs);
    QCOMPARE(h.longest[0].category, IdleCategory::HostWait);  // launched 1 µs before it ran, after the gap began
}

void TestAnalysisUnits::kernelDistributionSpread()
{
    RunBuilder builder;
    for (int r = 0; r < 2; ++r) {
        builder.rank(r);
        for (int n = 0; n < 9; ++n)
            builder.gpu("gemm", 7, n * 100, 10 * (r + 1));
        builder.gpu("gemm", 7, 2000, 500);  // an outlier on each rank
        builder.gpu("balanced", 7, 3000, 5);
    }
    auto run = builder.build();
    const KernelDistributions d = kernelDistributions(*run, {});
    QCOMPARE(d.kernels.size(), size_t(2));
    QCOMPARE(std::string(run->str(d.kernels[0].name)), std::string("gemm"));
    QCOMPARE(d.kernels[0].spread, 2.0);
    QCOMPARE(d.kernels[1].spread, 1.0);
    const KernelRankDistribution& r0 = d.kernels[0].ranks[0];
    QCOMPARE(r0.count, int64_t(10));
    QCOMPARE(r0.medianNs, 10000.0);
    QCOMPARE(r0.whiskerHighNs, 10000.0);
    QCOMPARE(r0.outlierCount, int64_t(1));
    QCOMPARE(r0.outliersNs, std::vector<int64_t>{500000});
    const KernelDistributions only = kernelDistributions(*run, {.nameContains = "bal"});
    QCOMPARE(only.kernels.size(), size_t(1));
}

QTEST_GUILESS_MAIN(TestAnalysisUnits)
#include "tst_analysis_units.moc"
