// The operator analysis (ops) on a small hand-written trace: host total and self time, device
// total and self time through nested ops and their launches, grouping by shape and by stack,
// --top folding, user annotations as ops, the Tensor Core name rules and share; HTA's
// get_ops_summary against its golden output (TraceDiff's control and test runs).

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/operators/operators.h"
#include "analysis/tables/operatortables.h"
#include "goldencsv.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <map>
#include <set>
#include <tuple>

using namespace kscope;
using namespace kscope::test;

namespace {

// One CPU thread (1, 1) and one stream (7); times in microseconds.
const char* const kOpsTrace = R"json({"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 1010, "dur": 50,
  "args": {"Input Dims": [[4, 8], [8, 8]], "Input type": ["float", "float"]}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 1012, "dur": 30},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1014, "dur": 2, "args": {"correlation": 1}},
 {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_s1688gemm_64x64", "pid": 0, "tid": 7, "ts": 1020, "dur": 10, "args": {"stream": 7, "correlation": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1045, "dur": 2, "args": {"correlation": 2}},
 {"ph": "X", "cat": "kernel", "name": "elementwise_kernel", "pid": 0, "tid": 7, "ts": 1050, "dur": 4, "args": {"stream": 7, "correlation": 2}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 1070, "dur": 20,
  "args": {"Input Dims": [[2, 8], [8, 8]], "Input type": ["float", "float"]}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 1072, "dur": 3, "args": {"correlation": 3}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 1080, "dur": 6, "args": {"stream": 7, "correlation": 3}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1095, "dur": 1, "args": {"correlation": 4}},
 {"ph": "X", "cat": "kernel", "name": "k_outside", "pid": 0, "tid": 7, "ts": 1096, "dur": 2, "args": {"stream": 7, "correlation": 4}}
]})json";

// torch.compile: a compiled region whose Triton launches are cpu_ops carrying "stream" (Inductor
// writes the CUDA stream index on them), each launching its kernel through cuLaunchKernel.
const char* const kCompiledTrace = R"json({"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 1000, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 1, "tid": 1, "ts": 1010, "dur": 20, "args": {"stream": 7, "kernel_backend": "triton"}},
 {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 1015, "dur": 5, "args": {"correlation": 11}},
 {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 1040, "dur": 30, "args": {"stream": 7, "correlation": 11}},
 {"ph": "X", "cat": "cpu_op", "name": "triton_red_fused_sum_1", "pid": 1, "tid": 1, "ts": 1040, "dur": 30, "args": {"stream": 0, "kernel_backend": "triton"}},
 {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 1050, "dur": 5, "args": {"correlation": 12}},
 {"ph": "X", "cat": "kernel", "name": "triton_red_fused_sum_1", "pid": 0, "tid": 7, "ts": 1075, "dur": 8, "args": {"stream": 7, "correlation": 12}}
]})json";

std::shared_ptr<Run> loadText(const std::string& name, const std::string& text)
{
    const auto dir = scratchDir(name);
    writeFile(dir / "rank0.json", text);
    return loadRun(dir, LoadOptions{});
}

const OperatorRow* find(const Run& run, const Operators& r, const std::string& name, const std::string& dims = {})
{
    for (const OperatorRow& row : r.rows)
        if (row.foldedRows == 0 && run.str(row.name) == name && (dims.empty() || run.str(row.inputDims) == dims))
            return &row;
    return nullptr;
}

} // namespace

class TestOperators : public QObject {
    Q_OBJECT

private slots:
    void tritonOpsOwnTheirKernels()
    {
        // [trust] 1: a cpu_op carrying args.stream was kept off its thread's call stack, so the
        // compiled region took its Triton kernels and their host time.
        const auto run = loadText("ops-compiled", kCompiledTrace);
        QVERIFY(run && run->ranks.size() == 1);
        const Operators r = operatorStats(*run);
        QVERIFY(r.error.empty());
        const OperatorRow* region = find(*run, r, "Torch-Compiled Region: 0/0");
        const OperatorRow* add = find(*run, r, "triton_poi_fused_add_0");
        const OperatorRow* sum = find(*run, r, "triton_red_fused_sum_1");
        QVERIFY(region && add && sum);
        QCOMPARE(add->deviceSelfNs, int64_t(30000));
        QCOMPARE(sum->deviceSelfNs, int64_t(8000));
        QCOMPARE(region->deviceSelfNs, int64_t(0));
        QCOMPARE(region->deviceTotalNs, int64_t(38000));
        QCOMPARE(region->hostSelfNs, int64_t(50000));  // 100 - 20 - 30
        QCOMPARE(add->hostSelfNs, int64_t(20000));
        // The model: the Triton ops nest in the region, the launches in the Triton ops.
        const EventTable& t = run->ranks[0].events;
        for (size_t i = 0; i < t.size(); ++i)
            if (run->str(t.name[i]) == "cuLaunchKernel")
                QVERIFY(run->str(t.name[t.parent[i]]).starts_with("triton_"));
    }

    void hostAndDeviceTimes()
    {
        const auto run = loadText("ops-times", kOpsTrace);
        QVERIFY(run && run->ranks.size() == 1);
        const Operators r = operatorStats(*run);
        QVERIFY(r.error.empty());
        QCOMPARE(r.rows.size(), size_t(2));
        QCOMPARE(run->str(r.rows[0].name), std::string_view("aten::linear"));  // most device time first
        const OperatorRow* linear = find(*run, r, "aten::linear");
        const OperatorRow* addmm = find(*run, r, "aten::addmm");
        QVERIFY(linear && addmm);
        QCOMPARE(linear->calls, int64_t(2));
        QCOMPARE(linear->hostTotalNs, int64_t(70000));
        QCOMPARE(linear->hostSelfNs, int64_t(40000));     // 50 - 30 (addmm) + 20
        QCOMPARE(linear->deviceTotalNs, int64_t(20000));  // gemm 10 + elementwise 4 + memcpy 6
        QCOMPARE(linear->deviceSelfNs, int64_t(10000));   // elementwise + memcpy: its own calls
        QCOMPARE(linear->tensorCoreTotalNs, int64_t(10000));
        QCOMPARE(linear->tensorCoreSelfNs, int64_t(0));
        QCOMPARE(linear->gpuEvents, int64_t(3));
        QCOMPARE(addmm->hostSelfNs, int64_t(30000));
        QCOMPARE(addmm->deviceTotalNs, int64_t(10000));
        QCOMPARE(addmm->deviceSelfNs, int64_t(10000));
        QCOMPARE(r.tensorCores.size(), size_t(1));
        QCOMPARE(r.tensorCores[0].kernels, int64_t(3));
        QCOMPARE(r.tensorCores[0].kernelNs, int64_t(16000));
        QCOMPARE(r.tensorCores[0].tensorCoreNs, int64_t(10000));
        QCOMPARE(r.tensorCores[0].outsideOpsNs, int64_t(2000));  // k_outside: under no op

        const Table table = operatorsTable(*run, r);
        QCOMPARE(table.rows.size(), size_t(2));
        QCOMPARE(table.columns[2], std::string("calls"));
        QCOMPARE(std::get<double>(table.rows[0][7]), 50.0);  // tensor_core_total_pctg of aten::linear
        QVERIFY(std::any_of(table.notes.begin(), table.notes.end(),
                            [](const std::string& n) { return n.find("62.5% of GPU kernel time") != std::string::npos; }));
    }

    void annotationsAsOps()
    {
        const auto run = loadText("ops-annotations", kOpsTrace);
        const Operators r = operatorStats(*run, {.includeAnnotations = true});
        const OperatorRow* step = find(*run, r, "ProfilerStep#1");
        QVERIFY(step);
        QCOMPARE(step->deviceTotalNs, int64_t(22000));
        QCOMPARE(step->deviceSelfNs, int64_t(2000));
        QCOMPARE(step->hostSelfNs, int64_t(30000));  // 100 - 50 - 20
        QCOMPARE(r.tensorCores[0].outsideOpsNs, int64_t(0));
    }

    void groupByShapeAndStack()
    {
        const auto run = loadText("ops-groups", kOpsTrace);
        const Operators shapes = operatorStats(*run, {.groupBy = OpGroupBy::Shape});
        QCOMPARE(shapes.rows.size(), size_t(3));
        const OperatorRow* big = find(*run, shapes, "aten::linear", "[[4, 8], [8, 8]]");
        const OperatorRow* small = find(*run, shapes, "aten::linear", "[[2, 8], [8, 8]]");
        QVERIFY(big && small);
        QCOMPARE(big->deviceTotalNs, int64_t(14000));
        QCOMPARE(small->deviceTotalNs, int64_t(6000));
        QCOMPARE(operatorsTable(*run, shapes).columns.back(), std::string("input_dims"));

        const Operators stacks = operatorStats(*run, {.groupBy = OpGroupBy::Stack, .includeAnnotations = true});
        const OperatorRow* addmm = find(*run, stacks, "aten::addmm");
        QVERIFY(addmm);
        QCOMPARE(addmm->stack.size(), size_t(2));
        const Table table = operatorsTable(*run, stacks);
        QCOMPARE(table.columns.back(), std::string("stack"));
        bool seen = false;
        for (const auto& row : table.rows)
            if (std::get<std::string>(row[1]) == "aten::addmm")
                seen = std::get<std::string>(row.back()) == "ProfilerStep#1 > aten::linear";
        QVERIFY(seen);
    }

    void topFoldsTheRest()
    {
        const auto run = loadText("ops-top", kOpsTrace);
        const Operators r = operatorStats(*run, {.top = 1});
        QCOMPARE(r.rows.size(), size_t(2));
        QCOMPARE(r.rows[1].foldedRows, int64_t(1));
        QCOMPARE(r.rows[1].deviceTotalNs, int64_t(10000));
        QCOMPARE(std::get<std::string>(operatorsTable(*run, r).rows[1][1]), std::string("others (1)"));
    }

    void noOpsAndMissingRank()
    {
        const auto run = loadText("ops-none", R"({"traceEvents": [
 {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}]})");
        const Operators r = operatorStats(*run);
        QVERIFY(r.rows.empty());
        QVERIFY(!r.notes.empty());
        QVERIFY(!operatorStats(*run, {.ranks = choiceOfNumbers(*run, {5})}).error.empty());
    }

    void tensorCoreNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("uses");
        QTest::newRow("volta h884") << "volta_h884gemm_64x64_ldg8_nn" << true;
        QTest::newRow("ampere s16816") << "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_nn" << true;
        QTest::newRow("cutlass tensorop") << "void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8>" << true;
        QTest::newRow("hopper wgmma") << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas" << true;
        QTest::newRow("cutlass3 gmma") << "void cutlass::device_kernel<cutlass3x_sm90_tensorop_gemm_f16_f16_f32_void_f16_128x256x64_2x1x1_0_tnt_align8_warpspecialized_cooperative_epi_tma>" << true;
        QTest::newRow("cudnn xmma conv") << "sm80_xmma_fprop_implicit_gemm_indexed_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_tensor16x8x16_kernel" << true;
        QTest::newRow("amd tensile mfma") << "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_GRVW8" << true;
        QTest::newRow("amd mfma") << "void ck::kernel_gemm_xdl_cshuffle_v3<mfma_f32_32x32x8f16>" << true;
        QTest::newRow("volta sgemm") << "volta_sgemm_128x64_nn" << false;
        QTest::newRow("elementwise") << "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>" << false;
        QTest::newRow("nccl") << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)" << false;
        QTest::newRow("tensile without MI") << "Cijk_Ailk_Bljk_SB_MT64x64x8_SN_MIDDLE" << false;
        QTest::newRow("memcpy") << "Memcpy HtoD (Pageable -> Device)" << false;
    }

    void tensorCoreNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, uses);
        QCOMPARE(usesTensorCores(name.toStdString()), uses);
    }

    void kernelList()
    {
        const auto run = loadText("ops-kernels", kOpsTrace);
        const auto rows = kernelTensorCores(*run);
        QCOMPARE(rows.size(), size_t(3));  // memcpy is no kernel
        QCOMPARE(run->str(rows[0].name), std::string_view("ampere_sgemm_s1688gemm_64x64"));
        QVERIFY(rows[0].tensorCores);
        QVERIFY(!rows[1].tensorCores);
        QCOMPARE(kernelTensorCoresTable(*run, rows).rows.size(), size_t(3));
    }

    void command()
    {
        const auto dir = scratchDir("ops-cli");
        writeFile(dir / "rank0.json", kOpsTrace);
        const CommandResult r = runCli("ops " + dir.string() + " --format csv");
        QCOMPARE(r.exitCode, 0);
        const GoldenCsv csv = parseGoldenCsv(r.out);
        QCOMPARE(csv.rows.size(), size_t(2));
        QCOMPARE(csv.rows[0][csv.column("device_total (us)")], std::string("20"));
        QVERIFY(r.err.find("62.5% of GPU kernel time uses Tensor Cores") != std::string::npos);
        QCOMPARE(parseGoldenCsv(runCli("ops " + dir.string() + " --format csv --group-by shape").out).rows.size(), size_t(3));
        QCOMPARE(parseGoldenCsv(runCli("ops " + dir.string() + " --format csv --top 1").out).rows.size(), size_t(2));
        QCOMPARE(parseGoldenCsv(runCli("ops " + dir.string() + " --format csv --kernels").out).rows.size(), size_t(3));
        const GoldenCsv tc = parseGoldenCsv(runCli("ops " + dir.string() + " --format csv --tensor-cores").out);
        QCOMPARE(tc.rows.size(), size_t(1));
        QCOMPARE(tc.rows[0][tc.column("tensor_core_pctg")], std::string("62.5"));
        QCOMPARE(runCli("ops " + dir.string() + " --group-by nope").exitCode, 1);
    }

    // HTA's get_ops_summary of TraceDiff's runs (first rank, first iteration), as a set of
    // (cat, name) rows: HTA's row order follows its hash-seeded symbol ids.
    void goldenOpsSummary_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("side");
        QTest::addColumn<QString>("traceDir");
        QTest::newRow("trace_diff control") << "diff__trace_diff" << "control" << "trace_diff/control";
        QTest::newRow("trace_diff test") << "diff__trace_diff" << "test" << "trace_diff/test";
        QTest::newRow("trace_compare control") << "diff__trace_compare" << "control" << "trace_compare/base";
        QTest::newRow("trace_compare test") << "diff__trace_compare" << "test" << "trace_compare/test";
    }

    void goldenOpsSummary()
    {
        QFETCH(QString, caseName);
        QFETCH(QString, side);
        QFETCH(QString, traceDir);
        const auto goldenFile = sharedDir() / "golden" / caseName.toStdString() / ("get_ops_summary_" + side.toStdString() + ".csv");
        if (!std::filesystem::exists(goldenFile))
            QSKIP("no golden get_ops_summary for this case (../shared missing?)");
        const GoldenCsv golden = parseGoldenCsv(readMaybeGzip(goldenFile));
        LoadOptions options;
        options.htaCompat = true;
        options.includeLastStep = true;
        const auto run = loadRun(sharedDir() / "traces" / traceDir.toStdString(), options);
        QVERIFY(run && !run->ranks.empty());
        const OpsSummary summary = opsSummary(*run);
        QVERIFY2(summary.error.empty(), summary.error.c_str());
        const Table table = opsSummaryTable(*run, summary);
        QCOMPARE(table.columnNames(), (std::vector<std::string>{"cat", "name", "short_name", "counts", "total_duration", "cat_id", "name_id"}));

        using Key = std::pair<std::string, std::string>;
        std::map<Key, std::tuple<std::string, int64_t, double>> expected;
        const int cat = golden.column("cat"), name = golden.column("name"), shortName = golden.column("short_name");
        const int counts = golden.column("counts"), total = golden.column("total_duration");
        for (const auto& row : golden.rows)
            expected[{row[cat], row[name]}] = {row[shortName], std::stoll(row[counts]), std::stod(row[total])};
        QCOMPARE(table.rows.size(), expected.size());
        std::map<std::string, int64_t> idOfName;
        for (const auto& row : table.rows) {
            const Key key{std::get<std::string>(row[0]), std::get<std::string>(row[1])};
            const auto it = expected.find(key);
            QVERIFY2(it != expected.end(), qPrintable(QString::fromStdString("not in HTA's summary: " + key.second)));
            QCOMPARE(std::get<std::string>(row[2]), std::get<0>(it->second));
            QCOMPARE(std::get<int64_t>(row[3]), std::get<1>(it->second));
            QCOMPARE(std::get<double>(row[4]), std::get<2>(it->second));
            // ids are ours, but one name has one id whatever its category
            const auto [at, added] = idOfName.try_emplace(key.second, std::get<int64_t>(row[6]));
            QVERIFY(added || at->second == std::get<int64_t>(row[6]));
        }
    }
};

QTEST_GUILESS_MAIN(TestOperators)
#include "tst_operators.moc"
