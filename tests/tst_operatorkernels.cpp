// The GPU work of one operator (analysis/operatorkernels.h), as the Operators view lists it when
// an op is picked: it adds up to the operator table's device times, total and self.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "analysis/operatorkernels.h"
#include "analysis/operators.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QtTest>

using namespace kscope;

class TestOperatorKernels : public QObject {
    Q_OBJECT

private slots:
    void addsUpToTheOperatorTable()
    {
        const auto run = loadRun(test::sourceDir() / "resources" / "sample-run", LoadOptions{});
        QVERIFY(!run->ranks.empty());
        const int rank = run->ranks[1].rank;
        const Operators ops = operatorStats(*run, {.ranks = {rank}});
        int checked = 0;
        for (const OperatorRow& row : ops.rows) {
            if (row.foldedRows > 0 || row.deviceTotalNs == 0)
                continue;
            for (const bool self : {false, true}) {
                const OperatorKernels kernels = operatorKernels(*run, {.rank = rank, .op = row.name, .selfOnly = self});
                QVERIFY2(kernels.error.empty(), kernels.error.c_str());
                QCOMPARE(kernels.opCalls, row.calls);
                int64_t total = 0, events = 0;
                for (const OperatorKernelRow& k : kernels.rows) {
                    total += k.totalNs;
                    events += self ? 0 : k.count;
                    QVERIFY(k.minNs <= k.maxNs && k.count > 0);
                }
                QCOMPARE(total, self ? row.deviceSelfNs : row.deviceTotalNs);
                if (!self)
                    QCOMPARE(events, row.gpuEvents);
            }
            ++checked;
        }
        QVERIFY(checked >= 5);
    }

    void saysWhatIsMissing()
    {
        const auto run = loadRun(test::sourceDir() / "resources" / "sample-run", LoadOptions{});
        QCOMPARE(operatorKernels(*run, {.rank = 99, .op = run->strings.find("aten::mm")}).error, std::string("rank 99 is not in the run"));
        QVERIFY(operatorKernels(*run, {.rank = 0, .op = run->strings.find("ProfilerStep#100")}).error.empty());
        const OperatorKernels none = operatorKernels(*run, {.rank = 0, .op = run->strings.find("cudaLaunchKernel")});
        QVERIFY2(none.error.find("has no call of cudaLaunchKernel") != std::string::npos, none.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestOperatorKernels)
#include "tst_operatorkernels.moc"
