// The GPU work of one operator (analysis/operators/operatorkernels.h), as the Operators view lists it when
// an op is picked: it adds up to the operator table's device times, total and self.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "analysis/operators/operatorkernels.h"
#include "analysis/operators/operators.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QtTest>

using namespace kscope;

namespace {

// A record_function region inside an op launches a kernel: with annotations as ops the region
// owns it (device self), the op only through it (device total).
const char* const kNested = R"json({"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::outer", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "user_annotation", "name": "region", "pid": 1, "tid": 1, "ts": 10, "dur": 50},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 2, "args": {"correlation": 1}},
 {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 30, "dur": 4, "args": {"stream": 7, "correlation": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 70, "dur": 2, "args": {"correlation": 2}},
 {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 80, "dur": 3, "args": {"stream": 7, "correlation": 2}}
]})json";

// operatorKernels() of every row of the operator table adds up to it, total and self.
int checkAgainstTable(const Run& run, int rank, bool annotations)
{
    const Operators ops = operatorStats(run, {.includeAnnotations = annotations, .ranks = choiceOfNumbers(run, {rank})});
    int checked = 0;
    for (const OperatorRow& row : ops.rows) {
        if (row.foldedRows > 0 || row.deviceTotalNs == 0)
            continue;
        for (const bool self : {false, true}) {
            const OperatorKernels kernels = operatorKernels(
                run, {.rank = rankNumbered(run, rank), .op = row.name, .selfOnly = self, .includeAnnotations = annotations});
            const std::string what = std::string(run.str(row.name)) + (self ? " self" : " total")
                + (annotations ? " with annotations" : "");
            if (!kernels.error.empty() || kernels.opCalls != row.calls) {
                qWarning("%s: %s, %lld calls", what.c_str(), kernels.error.c_str(), (long long)kernels.opCalls);
                return -1;
            }
            int64_t total = 0, events = 0;
            for (const OperatorKernelRow& k : kernels.rows) {
                total += k.totalNs;
                events += k.count;
                if (k.minNs > k.maxNs || k.count <= 0)
                    return -1;
            }
            if (total != (self ? row.deviceSelfNs : row.deviceTotalNs) || (!self && events != row.gpuEvents)) {
                qWarning("%s: %lld ns, table %lld", what.c_str(), (long long)total,
                         (long long)(self ? row.deviceSelfNs : row.deviceTotalNs));
                return -1;
            }
        }
        ++checked;
    }
    return checked;
}

} // namespace

class TestOperatorKernels : public QObject {
    Q_OBJECT

private slots:
    void addsUpToTheOperatorTable()
    {
        const auto run = loadRun(test::sourceDir() / "resources" / "sample-run", LoadOptions{});
        QVERIFY(!run->ranks.empty());
        const int rank = run->ranks[1].rank;
        QVERIFY(checkAgainstTable(*run, rank, false) >= 5);
        QVERIFY(checkAgainstTable(*run, rank, true) >= 5);
    }

    void annotationsInsideOps()
    {
        const auto dir = test::scratchDir("opkernels-nested");
        test::writeFile(dir / "rank0.json", kNested);
        const auto run = loadRun(dir, LoadOptions{});
        QVERIFY(run && run->ranks.size() == 1);
        QCOMPARE(checkAgainstTable(*run, 0, false), 1);
        QCOMPARE(checkAgainstTable(*run, 0, true), 2);
        const StringId outer = run->strings.find("aten::outer");
        const OperatorKernels self = operatorKernels(*run, {.rank = RankIndex{0}, .op = outer, .selfOnly = true, .includeAnnotations = true});
        QCOMPARE(self.rows.size(), size_t(1));  // k2 only: the region launched k1
        QCOMPARE(self.rows[0].totalNs, int64_t(3000));
        // not an op unless annotations count as ops
        QVERIFY(!operatorKernels(*run, {.rank = RankIndex{0}, .op = run->strings.find("region")}).error.empty());
    }

    void saysWhatIsMissing()
    {
        const auto run = loadRun(test::sourceDir() / "resources" / "sample-run", LoadOptions{});
        QVERIFY(operatorKernels(*run, {.rank = RankIndex{99}, .op = run->strings.find("aten::mm")})
                    .error.starts_with("rank position 99 is not in the run"));
        QVERIFY(operatorKernels(*run, {.rank = RankIndex{0}, .op = run->strings.find("ProfilerStep#100"), .includeAnnotations = true}).error.empty());
        const OperatorKernels none = operatorKernels(*run, {.rank = RankIndex{0}, .op = run->strings.find("cudaLaunchKernel")});
        QVERIFY2(none.error.find("has no call of cudaLaunchKernel") != std::string::npos, none.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestOperatorKernels)
#include "tst_operatorkernels.moc"
