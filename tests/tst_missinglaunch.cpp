// Kernels whose launching call lies outside the trace window (issue [robustness]): HTA gives
// them index_correlation 0, so they join the trace's first event; --hta-compat replays that in
// the idle-time analysis, the default mode counts them as "launch not in trace".

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>/<concepts>; it only needs the test class
#include "analysis/core/idletime.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QtTest>

using namespace kscope;
namespace fs = std::filesystem;

namespace {

// Row 0 is a ProfilerStep at 100 us. Kernels A and B (stream 7) were launched before the window
// opened: no runtime call carries their correlation. C's launch is at 150 us.
//   A 10..20, B 40..50 (gap 20 us), C 200..210 (gap 150 us, launched at 150 > 50: host wait).
// HTA: B joins row 0 (ts 100 > A's end 20): host wait too. Default: B's gap is kernel wait
// (20 < 30 us) and B is counted as launch not in trace.
std::string missingLaunchTrace(const std::string& first)
{
    return R"J({"schemaVersion": 1, "distributedInfo": {"rank": 0, "world_size": 1}, "traceEvents": [)J" + first + R"J(
  {"ph": "X", "cat": "kernel", "name": "A", "pid": 0, "tid": 7, "ts": 10, "dur": 10, "args": {"stream": 7, "correlation": 10}},
  {"ph": "X", "cat": "kernel", "name": "B", "pid": 0, "tid": 7, "ts": 40, "dur": 10, "args": {"stream": 7, "correlation": 11}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 150, "dur": 5, "args": {"correlation": 12}},
  {"ph": "X", "cat": "kernel", "name": "C", "pid": 0, "tid": 7, "ts": 200, "dur": 10, "args": {"stream": 7, "correlation": 12}}
]})J";
}

const std::string kStepFirst =
    R"J({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 1000},)J";
// Row 0 dropped (a metadata event): HTA's join finds no row 0, the gap is not host wait.
const std::string kMetadataFirst = R"J({"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 1000},)J";

int64_t idleNs(const IdleTime& idle, IdleCategory category)
{
    for (const IdleTimeRow& row : idle.rows)
        if (row.category == category)
            return row.idleNs;
    return -1;
}

} // namespace

class TestMissingLaunch : public QObject {
    Q_OBJECT

private slots:
    void idleTime_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<bool>("htaCompat");
        QTest::addColumn<qint64>("hostWaitNs");
        QTest::addColumn<qint64>("kernelWaitNs");
        QTest::addColumn<qint64>("notInTrace");
        QTest::newRow("default") << QString::fromStdString(kStepFirst) << false << qint64(150000) << qint64(20000) << qint64(1);
        QTest::newRow("hta joins row 0") << QString::fromStdString(kStepFirst) << true << qint64(170000) << qint64(-1) << qint64(0);
        QTest::newRow("hta, row 0 not kept") << QString::fromStdString(kMetadataFirst) << true << qint64(150000) << qint64(20000) << qint64(0);
        QTest::newRow("default, row 0 not kept") << QString::fromStdString(kMetadataFirst) << false << qint64(150000) << qint64(20000) << qint64(1);
    }
    void idleTime()
    {
        QFETCH(QString, first);
        QFETCH(bool, htaCompat);
        QFETCH(qint64, hostWaitNs);
        QFETCH(qint64, kernelWaitNs);
        QFETCH(qint64, notInTrace);
        const fs::path dir = test::scratchDir("missing-launch");
        test::writeFile(dir / "rank0.json", missingLaunchTrace(first.toStdString()));
        LoadOptions load;
        load.htaCompat = htaCompat;
        const auto run = loadRun(dir, load);
        QVERIFY(run->errors.empty());
        IdleTimeOptions options;
        options.htaCompat = htaCompat;
        const IdleTime idle = idleTimeBreakdown(*run, options);
        QVERIFY2(idle.error.empty(), idle.error.c_str());
        QCOMPARE(idleNs(idle, IdleCategory::HostWait), hostWaitNs);
        QCOMPARE(idleNs(idle, IdleCategory::KernelWait), kernelWaitNs);
        QCOMPARE(idle.launchNotInTrace, notInTrace);
        const bool noted = std::any_of(idle.notes.begin(), idle.notes.end(), [](const std::string& n) {
            return n.find("launch not in trace for 1 GPU op") != std::string::npos;
        });
        QCOMPARE(noted, notInTrace == 1);

        // The CLI says so too (default mode) and gives HTA's numbers with --hta-compat.
        const test::CommandResult r = test::runCli(std::string("idle --format csv ") + (htaCompat ? "--hta-compat " : "") + dir.string());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err.find("launch not in trace for 1 GPU op") != std::string::npos, notInTrace == 1);
    }

    // Launch stats join kernels to launches by correlation: a kernel launched outside the window
    // has no row in either mode (HTA's inner join), and the default mode counts it.
    void launchStats()
    {
        const fs::path dir = test::scratchDir("missing-launch-stats");
        test::writeFile(dir / "rank0.json", missingLaunchTrace(kStepFirst));
        for (const bool htaCompat : {false, true}) {
            const test::CommandResult r =
                test::runCli(std::string("launch-stats --format csv ") + (htaCompat ? "--hta-compat " : "") + dir.string());
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), std::ptrdiff_t(2));  // header + C only
        }
    }

    // [trust] 7, 8: with two ProfilerStep names the last step is trimmed. HTA then also drops GPU
    // work whose launch is not in the trace at all; the default mode keeps it (by its own start)
    // and ops says no op owns it. What the trimming removed, [memory] events included, is said.
    void trimmingKeepsKernelsWithoutLaunch()
    {
        const std::string trace = R"J({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
  {"ph": "X", "cat": "kernel", "name": "early", "pid": 0, "tid": 7, "ts": 110, "dur": 10, "args": {"stream": 7, "correlation": 10}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 130, "dur": 20},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 135, "dur": 5, "args": {"correlation": 12}},
  {"ph": "X", "cat": "kernel", "name": "mm", "pid": 0, "tid": 7, "ts": 150, "dur": 10, "args": {"stream": 7, "correlation": 12}},
  {"ph": "X", "cat": "kernel", "name": "late", "pid": 0, "tid": 7, "ts": 250, "dur": 10, "args": {"stream": 7, "correlation": 13}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 140, "args": {"Bytes": 64, "Addr": 1, "Device Id": 0, "Device Type": 1, "Total Allocated": 64, "Total Reserved": 1024}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 240, "args": {"Bytes": 64, "Addr": 2, "Device Id": 0, "Device Type": 1, "Total Allocated": 128, "Total Reserved": 1024}}
]})J";
        const fs::path dir = test::scratchDir("missing-launch-trim");
        test::writeFile(dir / "rank0.json", trace);
        auto kernelNames = [](const Run& run) {
            std::vector<std::string> names;
            const EventTable& t = run.ranks[0].events;
            for (size_t i = 0; i < t.size(); ++i)
                if (t.kind[i] == EventKind::Kernel)
                    names.emplace_back(run.str(t.name[i]));
            return names;
        };
        LoadOptions defaults;
        const auto run = loadRun(dir, defaults);
        QCOMPARE(kernelNames(*run), (std::vector<std::string>{"early", "mm"}));  // "late" is in the trimmed step
        QCOMPARE(run->ranks[0].memoryEventsTrimmed, uint64_t(1));
        LoadOptions hta;
        hta.htaCompat = true;
        const auto htaRun = loadRun(dir, hta);
        QCOMPARE(kernelNames(*htaRun), std::vector<std::string>{"mm"});

        const test::CommandResult ops = test::runCli("ops --format csv " + dir.string());
        QCOMPARE(ops.exitCode, 0);
        QVERIFY2(ops.err.find("1 GPU events (10 us) have no launch in the trace") != std::string::npos, ops.err.c_str());
        const test::CommandResult memory = test::runCli("memory --format csv " + dir.string());
        QCOMPARE(memory.exitCode, 0);
        QVERIFY2(memory.err.find("1 [memory] events") != std::string::npos, memory.err.c_str());
        QVERIFY2(memory.err.find("--include-last-step keeps them") != std::string::npos, memory.err.c_str());
        const test::CommandResult kernels = test::runCli("kernels --format csv " + dir.string());
        QVERIFY2(kernels.out.find("early") != std::string::npos, kernels.out.c_str());
    }
};

QTEST_APPLESS_MAIN(TestMissingLaunch)
#include "tst_missinglaunch.moc"
