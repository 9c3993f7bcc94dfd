// Findings: each rule on a run built to trigger it and on one built not to, the evidence equal
// to the analysis it cites, and the CLI's JSON schema and --fail-on gate.

// moc cannot parse <stop_token>'s concepts (runbuilder.h includes the loader); it needs none of these.
#ifndef Q_MOC_RUN
#include "analysis/findings/findings.h"
#include "model/synth/synthrun.h"
#include "runbuilder.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <algorithm>

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
                            "\"notes\": ["})
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
