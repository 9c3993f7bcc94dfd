// Findings: each rule on a run built to trigger it and on one built not to, the evidence equal
// to the analysis it cites, and the CLI's JSON schema and --fail-on gate.

// moc cannot parse <stop_token>'s concepts (runbuilder.h includes the loader); it needs none of these.
#ifndef Q_MOC_RUN
#include "analysis/findings/findings.h"
#include "model/synth/synthrun.h"
#include "runbuilder.h"
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <climits>

using namespace kscope;
using kscope::test::RunBuilder;

namespace {

const Finding* findingWithId(const Findings& result, const std::string& id)
{
    for (const Finding& f : result.findings)
        if (f.id == id)
            return &f;
    return nullptr;
}

bool anyOfRule(const Findings& result, const std::string& rule)
{
    return std::any_of(result.findings.begin(), result.findings.end(), [&](const Finding& f) { return f.rule == rule; });
}

double evidence(const Finding& f, const std::string& name)
{
    for (const FindingEvidence& e : f.evidence)
        if (e.name == name)
            return e.value;
    qFatal("no evidence %s in %s", name.c_str(), f.id.c_str());
    return 0.0;
}

// 200 kernels of 5 us, each launched only after the one before it ended: the stream idles 15 us
// of every 20 waiting for the host, the queue never holds more than one op.
std::shared_ptr<Run> launchBoundRun()
{
    RunBuilder b;
    b.rank(0);
    for (int k = 0; k < 200; ++k)
        b.launched("void gemm_kernel()", 7, 20.0 * k - 2.0 + 100.0, 20.0 * k + 100.0, 5.0);
    return b.build();
}

// The same 200 kernels launched long before they run, back to back: no host wait, a deep queue.
std::shared_ptr<Run> queuedRun()
{
    RunBuilder b;
    b.rank(0);
    for (int k = 0; k < 200; ++k)
        b.launched("void gemm_kernel()", 7, 1.0 + 0.1 * k, 100.0 + 5.0 * k, 5.0);
    return b.build();
}

// Compute on stream 7 for the first half of the span, an all-reduce on stream 20 for the second:
// half the GPU time is communication and none of it overlaps.
std::shared_ptr<Run> exposedCommRun(bool overlapped)
{
    RunBuilder b;
    b.rank(0);
    for (int k = 0; k < 50; ++k)
        b.launched("void gemm_kernel()", 7, 10.0 * k, 10.0 * k + 1.0, 10.0);
    const double commStart = overlapped ? 1.0 : 501.0;
    b.launched("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", 20, commStart - 1.0, commStart, 480.0);
    return b.build();
}

// Three steps of 1 ms (and the fourth, which the loader trims): in each, a 100 us kernel, then
// loss.item() (aten::item calling cudaStreamSynchronize) on the host, then the next kernel. With
// `gpuIdles` the sync returns 290 us after the GPU drained, and the GPU idles for it; without, it
// returns as the first kernel ends: the host blocked, the GPU did not.
std::shared_ptr<Run> syncRun(bool gpuIdles)
{
    RunBuilder b;
    b.rank(0);
    int64_t correlation = 0;
    auto launch = [&](double launchTs, double ts, double dur) {
        ++correlation;
        b.onThread(1, 1).cpu("cudaLaunchKernel", launchTs, 1, correlation);
        b.onThread(0, 7).gpu("void gemm_kernel()", 7, ts, dur, correlation);
    };
    for (int step = 1; step <= 4; ++step) {
        const double t0 = 1000.0 * (step - 1);
        b.onThread(1, 1).cpu("ProfilerStep#" + std::to_string(step), t0, 1000, -1, "user_annotation");
        if (step == 4)
            break;
        launch(t0 + 1, t0 + 10, 100);  // [10, 110]
        const double syncEnd = gpuIdles ? 400.0 : 110.0;
        b.onThread(1, 1).cpu("aten::item", t0 + 4, syncEnd - 3, -1, "cpu_op");
        b.onThread(1, 1).cpu("cudaStreamSynchronize", t0 + 5, syncEnd - 5, -1, "cuda_runtime");
        launch(t0 + syncEnd + 1, t0 + syncEnd + 5, 100);
    }
    return b.build();
}

std::shared_ptr<Run> synthRun(const std::string& name, int straggler)
{
    SynthOptions options;
    options.ranks = 4;
    options.steps = 4;
    options.seed = 5;
    options.stragglerRank = straggler;
    options.slowKernelRank = -2;
    const auto dir = test::scratchDir("findings-" + name);
    const SynthResult written = writeSynthRun(dir, options);
    if (!written.ok)
        qFatal("synth failed: %s", written.error.c_str());
    return loadRun(dir, LoadOptions{});
}

// A rank's trace with [memory] events on cuda:0 of a 1 GiB GPU (deviceProperties): five steps
// (the loader trims the fifth). In each step an activation of 400 MiB is allocated and freed;
// with `leak` 40 MiB more per step is allocated and never freed, and the allocator reserves 960 MiB.
std::shared_ptr<Run> memoryRun(const std::string& name, bool leak)
{
    constexpr int64_t MiB = 1024 * 1024;
    std::string events;
    auto add = [&events](const std::string& e) { events += (events.empty() ? "\n" : ",\n") + e; };
    auto memory = [&](double ts, int64_t addr, int64_t bytes, int64_t allocated, int64_t reserved) {
        add(R"({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": )"
            + std::to_string(ts) + R"(, "args": {"Total Reserved": )" + std::to_string(reserved)
            + R"(, "Total Allocated": )" + std::to_string(allocated) + R"(, "Bytes": )" + std::to_string(bytes)
            + R"(, "Addr": )" + std::to_string(addr) + R"(, "Device Id": 0, "Device Type": 1}})");
    };
    const int64_t reserved = (leak ? 960 : 512) * MiB;
    int64_t allocated = 100 * MiB;  // the parameters, allocated before the trace
    for (int step = 1; step <= 5; ++step) {
        const double t0 = 1000.0 * step;
        add(R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" + std::to_string(step)
            + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(t0) + R"(, "dur": 1000})");
        add(R"J({"ph": "X", "cat": "kernel", "name": "void gemm_kernel()", "pid": 0, "tid": 7, "ts": )J"
            + std::to_string(t0 + 10) + R"(, "dur": 900, "args": {"stream": 7, "correlation": )" + std::to_string(step) + "}}");
        allocated += 400 * MiB;
        memory(t0 + 100, 1000 + step, 400 * MiB, allocated, reserved);
        if (leak) {
            allocated += 40 * MiB;
            memory(t0 + 200, 2000 + step, 40 * MiB, allocated, reserved);
        }
        allocated -= 400 * MiB;
        memory(t0 + 800, 1000 + step, -400 * MiB, allocated, reserved);
    }
    const std::string trace = R"({"deviceProperties": [{"id": 0, "name": "Test GPU", "totalGlobalMem": )"
        + std::to_string(1024 * MiB) + R"(}], "traceEvents": [)" + events + "\n]}";
    const auto dir = test::scratchDir("findings-" + name);
    test::writeFile(dir / "rank0.json", trace);
    return loadRun(dir, LoadOptions{});
}

// Three steps of 1 ms: in each, an op holds the host for `hostUs` before it launches the step's
// one kernel of `gpuUs`; the path runs through the host when the host's part is the longer.
std::shared_ptr<Run> hostBoundRun(double hostUs, double gpuUs, const std::string& hostName = "aten::to",
                                  const std::string& hostCategory = "cpu_op")
{
    RunBuilder b;
    b.rank(0);
    int64_t correlation = 0;
    double t = 0;
    for (int step = 1; step <= 4; ++step) {
        const double length = hostUs + gpuUs + 20;
        b.onThread(1, 1).cpu("ProfilerStep#" + std::to_string(step), t, length, -1, "user_annotation");
        b.onThread(1, 1).cpu(hostName, t + 1, hostUs, -1, hostCategory);
        b.onThread(1, 1).cpu("aten::mm", t + hostUs + 2, 5, -1, "cpu_op");
        b.onThread(1, 1).cpu("cudaLaunchKernel", t + hostUs + 3, 2, ++correlation);
        b.onThread(0, 7).gpu("void gemm_kernel()", 7, t + hostUs + 8, gpuUs, correlation);
        t += length;
    }
    return b.build();
}

// 20 calls of an op that each launch `kernels` kernels of `kernelUs` back to back, among 20 long
// matmuls named `gemmName` (each 200 us).
std::shared_ptr<Run> kernelRun(int kernels, double kernelUs, const std::string& gemmName)
{
    RunBuilder b;
    b.rank(0);
    int64_t correlation = 0;
    double t = 0;
    for (int call = 0; call < 20; ++call) {
        b.onThread(1, 1).cpu("aten::layer_norm", t, 2.0 * kernels + 1, -1, "cpu_op");
        double gpu = t + 10;
        for (int k = 0; k < kernels; ++k) {
            b.onThread(1, 1).cpu("cudaLaunchKernel", t + 0.5 + 2.0 * k, 1, ++correlation);
            b.onThread(0, 7).gpu("void norm_part" + std::to_string(k) + "_kernel()", 7, gpu, kernelUs, correlation);
            gpu += kernelUs + 1;
        }
        b.onThread(1, 1).cpu("aten::mm", t + 2.0 * kernels + 2, 3, -1, "cpu_op");
        b.onThread(1, 1).cpu("cudaLaunchKernel", t + 2.0 * kernels + 3, 1, ++correlation);
        b.onThread(0, 7).gpu(gemmName, 7, gpu + 1, 200, correlation);
        t = gpu + 202;
    }
    return b.build();
}

} // namespace

class TestFindings : public QObject {
    Q_OBJECT

private slots:
    void launchBoundFires();
    void launchBoundQuietWhenQueued();
    void exposedCommunication();
    void stragglerRankFound();
    void noStragglerWithoutOne();
    void syncThatIdlesTheGpu();
    void memoryNearCapacityAndGrowth();
    void memoryQuietWhenFreed();
    void memoryFindingsOnSynthMatchTheTruth_data();
    void memoryFindingsOnSynthMatchTheTruth();
    void hostBoundCriticalPath();
    void fusionCandidate();
    void lowTensorCoreUse();
    void sampleRunsFindingsAreListed();
    void traceProblemsComeFirst();
    void diffSaysWhatAppeared();
    void severityNames();
    void cliJsonAndGate();
};

void TestFindings::launchBoundFires()
{
    const auto run = launchBoundRun();
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    const Finding* f = findingWithId(result, "launch_bound/rank0");
    QVERIFY2(f, "launch_bound/rank0 did not fire");
    QVERIFY(f->severity == FindingSeverity::Critical);  // 75% idle: twice the threshold and more
    QCOMPARE(f->ranks, std::vector<int>{0});
    // The evidence is the analyses' own numbers.
    QCOMPARE(evidence(*f, "gpu_idle_pctg"), in.temporal->rows.at(0).idlePctg);
    QVERIFY(std::abs(evidence(*f, "gpu_idle_pctg") - 75.0) < 0.5);
    QCOMPARE(evidence(*f, "host_wait_share"), 1.0);
    QCOMPARE(evidence(*f, "median_gpu_op_duration"), 5.0);
    QVERIFY(evidence(*f, "queue_length_time_weighted_mean") <= 1.0);
    QCOMPARE(f->timeAtStakeUs, 199 * 15.0);  // every gap but the first kernel's, all host wait
    QVERIFY(!f->suggestion.empty() && f->view == "idle");
}

void TestFindings::launchBoundQuietWhenQueued()
{
    const auto run = queuedRun();
    const Findings result = findings(*run);
    QVERIFY2(!anyOfRule(result, "launch_bound"), "launch_bound fired on a run whose queue never drains");
}

void TestFindings::exposedCommunication()
{
    {
        const auto run = exposedCommRun(false);
        const FindingsInputs in = findingsInputs(*run);
        const Findings result = evaluateFindings(in);
        const Finding* f = findingWithId(result, "exposed_communication/rank0");
        QVERIFY2(f, "exposed_communication/rank0 did not fire");
        QCOMPARE(evidence(*f, "comp_comm_overlap_pctg"), in.overlap->rows.at(0).overlapPctg);
        QCOMPARE(evidence(*f, "comp_comm_overlap_pctg"), 0.0);
        QCOMPARE(evidence(*f, "exposed_communication"), 480.0);
        QVERIFY(f->severity == FindingSeverity::Critical);  // 49% of the span exposed
        QCOMPARE(f->timeAtStakeUs, 480.0);
    }
    {
        const auto run = exposedCommRun(true);
        const Findings result = findings(*run);
        QVERIFY2(!anyOfRule(result, "exposed_communication"), "fired though compute covers the all-reduce");
    }
}

void TestFindings::stragglerRankFound()
{
    const auto run = synthRun("straggler", 2);
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    const Finding* f = findingWithId(result, "collective_straggler/rank2");
    QVERIFY2(f, "collective_straggler/rank2 did not fire on a run whose rank 2 arrives last");
    QCOMPARE(evidence(*f, "last_arrivals"), static_cast<double>(in.collectives->straggler.lastCount));
    QCOMPARE(evidence(*f, "instances"), static_cast<double>(in.collectives->straggler.instances));
    QCOMPARE(evidence(*f, "delay_caused"), static_cast<double>(in.collectives->straggler.delayCausedNs) / 1000.0);
    // What it runs differently: synth slows the straggler's backward GEMMs (a throttled GPU).
    QVERIFY2(f->detail.find("; what it runs differently: ampere_sgemm_") != std::string::npos, f->detail.c_str());
    QVERIFY(evidence(*f, "top_kernel_excess") > 0.0);
    for (const Finding& other : result.findings)
        if (other.rule == "collective_straggler" || other.rule == "slow_rank")
            QCOMPARE(other.ranks, std::vector<int>{2});
}

void TestFindings::noStragglerWithoutOne()
{
    const auto run = synthRun("even", -1);
    const Findings result = findings(*run);
    for (const Finding& f : result.findings)
        QVERIFY2(f.rule != "slow_rank" && f.rule != "collective_straggler", f.id.c_str());
}

void TestFindings::syncThatIdlesTheGpu()
{
    const auto run = syncRun(true);
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    const Finding* f = findingWithId(result, "sync_in_step/rank0");
    QVERIFY2(f, "sync_in_step/rank0 did not fire");
    // The GPU idles [110, 405] of each step; the sync holds [110, 400] of it, the launch the rest.
    int64_t syncIdle = 0;
    for (const IdleCauseRow& row : in.idleCauses->byRank)
        if (row.cause == IdleCause::Synchronization)
            syncIdle = row.idleNs;
    QCOMPARE(evidence(*f, "sync_idle"), static_cast<double>(syncIdle) / 1000.0);
    QCOMPARE(evidence(*f, "sync_calls"), 3.0);
    QCOMPARE(f->steps, (std::vector<int>{1, 2, 3}));
    QVERIFY2(f->detail.find("cudaStreamSynchronize called from aten::item (3 calls") != std::string::npos,
             f->detail.c_str());
    QVERIFY(f->severity == FindingSeverity::Critical);  // about 30% of each step
    double stepNs = 0;  // the steps analysis's step times, on the GPU clock as the rule reads them
    for (const StepSpan& span : in.steps->spans)
        stepNs += stepTimeNs(span, StepClock::GpuElseCpu);
    QCOMPARE(in.steps->spans.size(), size_t(3));
    QVERIFY(std::abs(evidence(*f, "sync_idle_share_of_step_pctg") - 100.0 * double(syncIdle) / stepNs) < 1e-9);

    // The same calls while the GPU is busy cost the GPU nothing: no finding, though the host blocked.
    const auto busy = syncRun(false);
    const FindingsInputs busyIn = findingsInputs(*busy);
    QVERIFY(!busyIn.syncs->groups.empty() && busyIn.syncs->groups.front().calls == 3);
    QVERIFY2(!anyOfRule(evaluateFindings(busyIn), "sync_in_step"), "fired on syncs that never idled the GPU");
}

void TestFindings::memoryNearCapacityAndGrowth()
{
    const auto run = memoryRun("memory-leak", true);
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    QCOMPARE(in.memory->devices.size(), size_t(1));
    const MemoryDevice& device = in.memory->devices.front();
    QCOMPARE(device.capacityBytes, int64_t(1024) * 1024 * 1024);

    const Finding* full = findingWithId(result, "memory_near_capacity/rank0");
    QVERIFY2(full, "memory_near_capacity/rank0 did not fire at 960 of 1024 MiB reserved");
    QVERIFY(full->severity == FindingSeverity::Warning);  // 93.75%: below the critical 97%
    QCOMPARE(evidence(*full, "peak_reserved"), double(device.peakReserved) / (1024.0 * 1024.0));
    QCOMPARE(evidence(*full, "peak_reserved"), 960.0);
    QCOMPARE(evidence(*full, "device_memory"), 1024.0);
    QCOMPARE(evidence(*full, "peak_share_of_device_pctg"), 93.75);
    QCOMPARE(full->view, std::string("memory"));

    const Finding* growth = findingWithId(result, "memory_growth/rank0");
    QVERIFY2(growth, "memory_growth/rank0 did not fire on 40 MiB kept every step");
    QCOMPARE(growth->steps, (std::vector<int>{1, 2, 3, 4}));  // the fifth is trimmed
    QCOMPARE(evidence(*growth, "growth_per_step"), 40.0);
    QCOMPARE(evidence(*growth, "growth"), 120.0);  // end of step 1 to end of step 4
    QCOMPARE(evidence(*growth, "not_freed_bytes"), double(device.notFreedBytes) / (1024.0 * 1024.0));
    QCOMPARE(evidence(*growth, "not_freed_bytes"), 160.0);
    // 1024 MiB less the 960 reserved, 40 MiB a step: 1.6 steps.
    QCOMPARE(evidence(*growth, "steps_until_full"), 1.6);
    // The step peaks the rule read are the analysis's.
    double lastEnd = 0;
    for (const MemoryStepPeak& s : in.memory->stepPeaks)
        if (s.step == 4)
            lastEnd = double(s.endAllocated);
    QCOMPARE(lastEnd, (100.0 + 4 * 40.0) * 1024 * 1024);
}

void TestFindings::memoryQuietWhenFreed()
{
    const Findings result = findings(*memoryRun("memory-freed", false));
    QVERIFY2(!anyOfRule(result, "memory_near_capacity"), "fired at half the device's memory");
    QVERIFY2(!anyOfRule(result, "memory_growth"), "fired on steps that free what they allocate");
    // A run without [memory] events says that the memory rules could not look.
    const Findings none = findings(*launchBoundRun());
    QVERIFY(std::any_of(none.notes.begin(), none.notes.end(), [](const std::string& n) {
        return n.starts_with("rules reading memory were not evaluated: the trace has no [memory] events");
    }));
}

// synth --memory: the [memory] events the generator wrote give the peaks its truth states, and
// the memory rules fire exactly where the truth says they must.
void TestFindings::memoryFindingsOnSynthMatchTheTruth_data()
{
    QTest::addColumn<quint64>("baseline");
    QTest::addColumn<quint64>("leak");
    QTest::addColumn<QStringList>("expected");
    const quint64 GiB = 1ull << 30, MiB = 1ull << 20;
    QTest::newRow("quiet") << 2 * GiB << quint64(0) << QStringList{};
    QTest::newRow("leak") << 2 * GiB << 64 * MiB << QStringList{"memory_growth"};
    QTest::newRow("full") << 73 * GiB << quint64(0) << QStringList{"memory_near_capacity"};
    QTest::newRow("full and leaking") << 70 * GiB << GiB << QStringList{"memory_near_capacity", "memory_growth"};
}

void TestFindings::memoryFindingsOnSynthMatchTheTruth()
{
    QFETCH(quint64, baseline);
    QFETCH(quint64, leak);
    QFETCH(QStringList, expected);
    SynthOptions options;
    options.ranks = 2;
    options.steps = 4;
    options.seed = 11;
    options.memoryEvents = true;
    options.memoryBaselineBytes = baseline;
    options.memoryLeakPerStep = leak;
    const auto dir = test::scratchDir("findings-memory-" + std::string(QTest::currentDataTag()).substr(0, 4));
    const SynthResult written = writeSynthRun(dir, options);
    QVERIFY2(written.ok, written.error.c_str());
    QFile file(QString::fromStdString(written.truthFile.string()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray ranks = QJsonDocument::fromJson(file.readAll()).object().value("ranks").toArray();
    QCOMPARE(ranks.size(), 2);

    const auto run = loadRun(dir, LoadOptions{});
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    for (const QJsonValue& value : ranks) {
        const QJsonObject rank = value.toObject();
        const QJsonObject memory = rank.value("memory").toObject();
        const int number = rank.value("rank").toInt();
        const MemoryDevice* device = nullptr;
        for (const MemoryDevice& d : in.memory->devices)
            if (d.device.rank == number)
                device = &d;
        QVERIFY(device);
        QCOMPARE(device->events, qint64(memory.value("events").toDouble()));
        QCOMPARE(device->peakAllocated, qint64(memory.value("peakAllocated").toDouble()));
        QCOMPARE(device->peakReserved, qint64(memory.value("peakReserved").toDouble()));
        QCOMPARE(device->capacityBytes, qint64(memory.value("deviceMemory").toDouble()));
        QStringList truth;
        for (const QJsonValue& rule : memory.value("findings").toArray())
            truth << rule.toString();
        QCOMPARE(truth, expected);
        for (const char* rule : {"memory_near_capacity", "memory_growth"}) {
            const Finding* f = nullptr;
            for (const Finding& candidate : result.findings)
                if (candidate.rule == rule)
                    f = &candidate;
            const bool fires = f && std::find(f->ranks.begin(), f->ranks.end(), number) != f->ranks.end();
            QVERIFY2(fires == truth.contains(QLatin1String(rule)), (std::string(rule) + " on rank " + std::to_string(number)).c_str());
        }
    }
    if (leak > 0) {
        const Finding* growth = nullptr;
        for (const Finding& f : result.findings)
            if (f.rule == "memory_growth")
                growth = &f;
        QVERIFY(growth);
        QCOMPARE(evidence(*growth, "growth_per_step"), double(leak) / (1024.0 * 1024.0));
    }
}

void TestFindings::hostBoundCriticalPath()
{
    const auto run = hostBoundRun(800, 100);
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    const Finding* f = findingWithId(result, "host_bound_critical_path/rank0");
    QVERIFY2(f, "host_bound_critical_path/rank0 did not fire on a step 800 us on the CPU, 100 us on the GPU");
    const RankPathSummaries::Summary& path = in.criticalPaths->ranks.at(0);
    double cpu = 0;
    for (const CpSummaryRow& row : path.rows)
        if (row.bound == CpBound::CpuBound)
            cpu = row.percent;
    QCOMPARE(evidence(*f, "cpu_bound_pctg"), cpu);
    QVERIFY2(cpu >= 80.0, std::to_string(cpu).c_str());
    QCOMPARE(evidence(*f, "critical_path_length"), double(path.lengthNs) / 1000.0);
    // The ops on the path are named, the longest first.
    QVERIFY(!path.hostEvents.empty() && path.hostEvents.front().name == "aten::to");
    QVERIFY2(f->detail.find("on it the longest: aten::to 800.0 us") != std::string::npos, f->detail.c_str());
    QCOMPARE(f->view, std::string("critical-path"));

    QCOMPARE(evidence(*f, "host_work_pctg"), cpu);  // no call on the path waits for the GPU
    QCOMPARE(evidence(*f, "gpu_wait_in_cpu_bound"), 0.0);

    const Findings gpuBound = findings(*hostBoundRun(20, 800));
    QVERIFY2(!anyOfRule(gpuBound, "host_bound_critical_path"), "fired on a step the GPU bounds");
    // A memcpy that holds the host is cpu_bound to HTA, but the host waits in it: no finding.
    const auto waiting = hostBoundRun(800, 100, "cudaMemcpyAsync", "cuda_runtime");
    const FindingsInputs waitingIn = findingsInputs(*waiting);
    QVERIFY(waitingIn.criticalPaths->ranks.at(0).hostWaitNs >= 790'000);
    QVERIFY2(!anyOfRule(evaluateFindings(waitingIn), "host_bound_critical_path"), "fired on a host waiting in cudaMemcpyAsync");
}

void TestFindings::fusionCandidate()
{
    const auto run = kernelRun(6, 4.0, "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_tn");
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    QCOMPARE(in.patterns->operatorName, std::string("aten::layer_norm"));
    const Finding* f = findingWithId(result, "fusion_candidate/rank0");
    QVERIFY2(f, "fusion_candidate/rank0 did not fire on 20 calls of 6 kernels of 4 us");
    QCOMPARE(evidence(*f, "occurrences"), 20.0);
    QCOMPARE(evidence(*f, "kernels_per_occurrence"), 6.0);
    QCOMPARE(evidence(*f, "mean_kernel_duration"), 4.0);
    QCOMPARE(evidence(*f, "sequence_gpu_time"), 20 * 6 * 4.0);
    QCOMPARE(f->timeAtStakeUs, 20 * 5 * 4.0);  // all but one kernel of each call
    QVERIFY2(f->title.find("aten::layer_norm runs the same 6 short kernels 20 times") != std::string::npos, f->title.c_str());

    const Findings longKernels = findings(*kernelRun(6, 60.0, "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_tn"));
    QVERIFY2(!anyOfRule(longKernels, "fusion_candidate"), "fired on kernels of 60 us");
    QVERIFY2(!anyOfRule(longKernels, "low_tensor_core_use"), "fired on bf16 Tensor Core GEMMs");
}

void TestFindings::lowTensorCoreUse()
{
    const auto run = kernelRun(3, 60.0, "volta_sgemm_128x64_nn");
    const FindingsInputs in = findingsInputs(*run);
    const Findings result = evaluateFindings(in);
    const Finding* f = findingWithId(result, "low_tensor_core_use/rank0");
    QVERIFY2(f, "low_tensor_core_use/rank0 did not fire on fp32 SGEMMs");
    // 20 GEMMs of 200 us against 20 x 3 kernels of 60 us.
    QCOMPARE(evidence(*f, "matmul_without_tensor_cores"), 4000.0);
    QCOMPARE(evidence(*f, "tensor_core_share_of_matmul_pctg"), 0.0);
    QVERIFY(std::abs(evidence(*f, "matmul_share_of_kernel_time_pctg") - 100.0 * 4000.0 / 7600.0) < 1e-9);
    QCOMPARE(f->timeAtStakeUs, 2000.0);
    QVERIFY2(f->detail.find("most in volta_sgemm_128x64_nn (20 launches, 4.00 ms)") != std::string::npos, f->detail.c_str());
    QCOMPARE(f->command, std::string("ops --kernels"));
}

// The README lists the sample run's findings: they are these.
void TestFindings::sampleRunsFindingsAreListed()
{
    const auto run = loadRun(test::sourceDir() / "resources" / "sample-run", LoadOptions{});
    const Findings result = findings(*run);
    std::vector<std::string> ids;
    for (const Finding& f : result.findings)
        ids.push_back(f.id + " " + toString(f.severity));
    const std::vector<std::string> expected = {"low_tensor_core_use warning", "collective_straggler/rank5 critical",
                                               "exposed_communication warning", "slow_step/step101 info",
                                               "slow_step/step103 info"};
    std::string got;
    for (const std::string& id : ids)
        got += id + "; ";
    QVERIFY2(ids == expected, got.c_str());
    // Each is placed on the timeline at its step: a slow step at its span over every rank.
    const ProfilerSteps steps = profilerSteps(*run);
    int64_t start = INT64_MAX, end = INT64_MIN;
    for (const StepSpan& span : steps.spans)
        if (span.step == 101) {
            start = std::min({start, span.cpuStartNs, span.gpuStartNs});
            end = std::max({end, span.cpuEndNs, span.gpuEndNs});
        }
    const Finding* slow = findingWithId(result, "slow_step/step101");
    QVERIFY(slow);
    QCOMPARE(slow->windowStartNs, start);
    QCOMPARE(slow->windowEndNs, end);
    for (const Finding& f : result.findings)
        QVERIFY2(f.windowEndNs > f.windowStartNs, f.id.c_str());
}

void TestFindings::traceProblemsComeFirst()
{
    // A GPU op without its launch in the trace is a warning about the trace, listed before any
    // finding about the job however much time that one has at stake.
    RunBuilder b;
    b.rank(0);
    for (int k = 0; k < 200; ++k)
        b.launched("void gemm_kernel()", 7, 20.0 * k - 2.0 + 100.0, 20.0 * k + 100.0, 5.0);
    b.gpu("void orphan_kernel()", 7, 5000.0, 5.0, 99999);
    const auto run = b.build();
    const Findings result = findings(*run);
    QVERIFY(result.findings.size() >= 2);
    QVERIFY2(result.findings.front().traceProblem, result.findings.front().id.c_str());
    QCOMPARE(result.findings.front().id, std::string("trace_problem/gpu_op_without_launch"));
    QVERIFY(anyOfRule(result, "launch_bound"));
}

void TestFindings::diffSaysWhatAppeared()
{
    const auto even = synthRun("diff-even", -1);
    const auto late = synthRun("diff-late", 2);
    const Findings before = findings(*even), after = findings(*late);
    const auto changeOf = [](const std::vector<FindingDiffRow>& rows, const std::string& subject) {
        for (const FindingDiffRow& r : rows)
            if (r.subject == subject)
                return std::string(toString(r.change));
        return std::string("absent");
    };
    const std::vector<FindingDiffRow> forward = diffFindings(before, after);
    QCOMPARE(changeOf(forward, "collective_straggler"), std::string("appeared"));
    QCOMPARE(changeOf(diffFindings(after, before), "collective_straggler"), std::string("disappeared"));
    for (const FindingDiffRow& r : diffFindings(after, after))
        QVERIFY2(r.change == FindingChange::Unchanged, r.subject.c_str());
    // Appeared rows come first, and point at the test run's finding.
    QVERIFY(!forward.empty() && forward.front().change == FindingChange::Appeared && forward.front().test
            && !forward.front().control);

    // synthRun wrote the runs to these folders (scratchDir's names).
    const auto folder = [](const char* name) { return (std::filesystem::temp_directory_path() / name).string(); };
    const test::CommandResult cli = test::runCli("diff-summary --table findings --format csv "
                                                 + folder("kscope-test-findings-diff-even") + " "
                                                 + folder("kscope-test-findings-diff-late"));
    QVERIFY2(cli.exitCode == 0, cli.err.c_str());
    QVERIFY2(cli.out.starts_with("change,subject,"), cli.out.c_str());
    QVERIFY2(cli.out.find("\nappeared,collective_straggler,,warning,,2,") != std::string::npos
                 || cli.out.find("\nappeared,collective_straggler,,critical,,2,") != std::string::npos,
             cli.out.c_str());
}

void TestFindings::severityNames()
{
    FindingSeverity s = FindingSeverity::Info;
    QVERIFY(parseFindingSeverity("critical", s) && s == FindingSeverity::Critical);
    QVERIFY(parseFindingSeverity("warning", s) && s == FindingSeverity::Warning);
    QVERIFY(!parseFindingSeverity("Warning", s));
    QVERIFY(!parseFindingSeverity("", s));
}

void TestFindings::cliJsonAndGate()
{
    const std::string sample = (test::sourceDir() / "resources" / "sample-run").string();
    const test::CommandResult json = test::runCli("findings --format json " + sample);
    QCOMPARE(json.exitCode, 0);
    QVERIFY(json.out.starts_with("{\"kind\": \"kinetoscope-findings\", \"version\": 1, \"ranks\": 8"));
    for (const char* key : {"\"findings\": [", "\"evidence\": [", "\"suggestion\": ", "\"selection\": {\"rank\": ",
                            "\"notes\": [", "\"time_range_us\": ["})
        QVERIFY2(json.out.find(key) != std::string::npos, key);
    // The sample run's straggler (rank 5) is found.
    QVERIFY2(json.out.find("\"id\": \"collective_straggler/rank5\"") != std::string::npos, json.out.c_str());

    const test::CommandResult gated = test::runCli("findings --fail-on warning " + sample);
    QCOMPARE(gated.exitCode, 6);
    QVERIFY2(gated.err.find("error: --fail-on warning: ") != std::string::npos, gated.err.c_str());
    QVERIFY(gated.out.find("collective_straggler") != std::string::npos);

    const test::CommandResult bad = test::runCli("findings --fail-on severe " + sample);
    QCOMPARE(bad.exitCode, 1);
    QVERIFY(bad.out.empty());
    QVERIFY2(bad.err.find("--fail-on: expects info, warning or critical, got 'severe'") != std::string::npos,
             bad.err.c_str());
}

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
