// Loader unit tests: string pool, ns conversion, rank detection, chunk boundaries, links, steps,
// and every kind of bad input.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>/<concepts>; it only needs the test class
#include "model/correlationset.h"
#include "model/jsonscan.h"
#include "model/loader.h"
#include "model/trace.h"
#include "model/metadata.h"
#include "model/runslice.h"
#include "model/stringpool.h"
#include "model/timeconv.h"
#include "testsupport.h"

#include <atomic>
#include <random>
#include <mutex>
#endif

#include <QtTest>

using namespace kscope;

namespace {

// A small Kineto-like trace: one step, a cpu_op launching a kernel, a memcpy, an NCCL kernel.
std::string sampleTrace(int rank, const std::string& extraEvents = {})
{
    return R"J({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100", "totalGlobalMem": 85000000000, "numSms": 132, "computeMajor": 9, "computeMinor": 0}],
"distributedInfo": {"backend": "nccl", "rank": )J" + std::to_string(rank) + R"J(, "world_size": 2, "pg_config": [{"pg_name": "0"}]},
"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 10, "tid": 11, "ts": 1000, "dur": 500},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 10, "tid": 11, "ts": 1010, "dur": 100, "args": {"External id": 5, "Input Dims": [[8, 4], [4, 4]], "Input type": ["float", "float"]}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 10, "tid": 11, "ts": 1020, "dur": 50, "args": {"External id": 6}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1030, "dur": 5, "args": {"External id": 6, "correlation": 77}},
  {"ph": "s", "id": 77, "pid": 10, "tid": 11, "ts": 1030, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 1040.5, "dur": 20.25, "args": {"stream": 7, "correlation": 77, "device": 0, "grid": [4, 2, 1], "block": [128, 1, 1], "registers per thread": 96}},
  {"ph": "f", "id": 77, "pid": 0, "tid": 7, "ts": 1040.5, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 10, "tid": 11, "ts": 1200, "dur": 8, "args": {"correlation": 78}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 1210, "dur": 4, "args": {"stream": 7, "correlation": 78, "bytes": 4096, "memory bandwidth (GB/s))J" R"J(": 1.5}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 20, "ts": 1300, "dur": 40, "args": {"stream": 20, "correlation": 79, "Collective name": "allreduce", "In msg nelems": 1024, "Group size": 2, "dtype": "Float"}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1290, "dur": 4, "args": {"correlation": 79}},
  {"ph": "C", "name": "Memory", "pid": 10, "tid": 11, "ts": 1100, "args": {"Total Allocated": 1024}},
  {"ph": "i", "cat": "cpu_instant_event", "name": "marker", "pid": 10, "tid": 11, "ts": 1400, "s": "t"},
  {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
  {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0))J" R"J(", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 900, "dur": 700})J"
        + extraEvents + R"J(
], "traceName": "rank.json", "displayTimeUnit": "ms", "baseTimeNanoseconds": 1700000000000000000}
)J";
}

EventIndex findByName(const ParsedFile& parsed, std::string_view name)
{
    const StringId id = parsed.strings.find(name);
    const auto& names = parsed.trace.events.name;
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == id)
            return static_cast<EventIndex>(i);
    return kNoEvent;
}

// Whether two ranks hold the same events (each table read through its own run's string pool).
bool sameEvents(const Run& a, const RankTrace& ra, const Run& b, const RankTrace& rb)
{
    const EventTable& x = ra.events;
    const EventTable& y = rb.events;
    if (x.size() != y.size() || ra.rank != rb.rank || ra.file != rb.file || x.gpuRows != y.gpuRows)
        return false;
    for (size_t i = 0; i < x.size(); ++i)
        if (x.tsNs[i] != y.tsNs[i] || x.durNs[i] != y.durNs[i] || x.kind[i] != y.kind[i] || x.link[i] != y.link[i]
            || x.parent[i] != y.parent[i] || x.stream[i] != y.stream[i] || x.step[i] != y.step[i]
            || a.str(x.name[i]) != b.str(y.name[i]) || a.str(x.category[i]) != b.str(y.category[i]))
            return false;
    return ra.steps.size() == rb.steps.size() && ra.threads.size() == rb.threads.size();
}

#ifndef Q_MOC_RUN
// Elements and separators without a backslash (the first eight), elements with one (two), then
// what is irregular between elements.
std::vector<std::string> splitterPieces()
{
    return {"{\"ph\":\"X\",\"name\":\"a{b}\",\"ts\":1}", "[1,2,\"]\"]", "{}", "{\"args\":{\"s\":[\"}\",{}]}}", ",", " ",
            "\n", ",\n  ", "{\"n\":\"q\\\"}{\",\"a\":[1,{\"b\":\"]\"}]}", "{\"x\":\"\\\\\"}", "\"str\"", "12", "]", "}", "x",
            "{\"k\":\"v\""};
}

// The splitter's rules byte by byte, to check the 64-byte path against.
jsonscan::SplitResult referenceSplit(const std::string& d, size_t size, std::vector<jsonscan::Span>& out)
{
    jsonscan::SplitResult r;
    size_t lastEnd = 0, elementStart = 0;
    int depth = 0;
    bool inString = false, escape = false;
    auto clean = [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i)
            if (!jsonscan::isSpace(d[i]) && d[i] != ',')
                return false;
        return true;
    };
    for (size_t i = 0; i < size; ++i) {
        const char c = d[i];
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            if (depth == 0)
                return {lastEnd, false, true};
            inString = true;
        } else if (c == '{' || c == '[') {
            if (depth == 0) {
                if (!clean(lastEnd, i))
                    return {lastEnd, false, true};
                elementStart = i;
            }
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return clean(lastEnd, i) && c == ']' ? jsonscan::SplitResult{i + 1, true, false}
                                                     : jsonscan::SplitResult{lastEnd, false, true};
            if (--depth == 0) {
                out.push_back({elementStart, i + 1});
                lastEnd = i + 1;
            }
        }
    }
    if (depth > 0)
        return {elementStart, false, false};
    return clean(lastEnd, size) ? jsonscan::SplitResult{size, false, false} : jsonscan::SplitResult{lastEnd, false, true};
}

#endif
} // namespace

// One cpu_op on one rank, with the header fields that tell runs apart (moc cannot read raw
// strings with unbalanced braces inside the test class, so this lives out here).
std::string notOneRunTrace(int rank, int world, const std::string& gpu, const std::string& ts)
{
    return R"({"deviceProperties": [{"id": 0, "name": ")" + gpu + R"("}], "distributedInfo": {"rank": )" +
           std::to_string(rank) + R"(, "world_size": )" + std::to_string(world) +
           R"(}, "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": )" + ts +
           R"(, "dur": 10}]})";
}

// Rank 0 of a two-rank run whose earliest events are a metadata row (ts 0, never an event), the
// profiler's span (an event by default, not in HTA's mode) and a complete op; rank 1 starts later.
std::string originTrace(int rank)
{
    const std::string head = R"({"distributedInfo": {"rank": )" + std::to_string(rank) + R"(, "world_size": 2}, "traceEvents": [)";
    if (rank == 0)
        return head + R"J({"name": "process_name", "ph": "M", "ts": 0, "pid": 1, "args": {"name": "python"}},
  {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 1000.5, "dur": 900},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1200.25, "dur": 10}]})J";
    return head + R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1500, "dur": 10}]})";
}


// Many steps of ops, launches, kernels, flows and counters, with an escaped name and a few bad
// events late in the file (the part a second parsing thread takes).
std::string manyEventsTrace(int steps)
{
    std::string events;
    for (int k = 0; k < steps; ++k) {
        const std::string ts = std::to_string(2000 + 100 * k);
        const std::string corr = std::to_string(1000 + k);
        events += ",\n  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\\u0020#" + std::to_string(k % 7)
            + "\", \"pid\": 10, \"tid\": 11, \"ts\": " + ts + ", \"dur\": 50, \"args\": {\"External id\": " + corr + "}}";
        events += ",\n  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": 11, \"ts\": "
            + ts + ".5, \"dur\": 5, \"args\": {\"correlation\": " + corr + "}}";
        events += ",\n  {\"ph\": \"s\", \"id\": " + corr + ", \"pid\": 10, \"tid\": 11, \"ts\": " + ts + ".5, \"cat\": \"ac2g\", \"name\": \"ac2g\"}";
        events += ",\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_" + std::to_string(k % 13) + "\", \"pid\": 0, \"tid\": 7, \"ts\": "
            + ts + ".75, \"dur\": 30.125, \"args\": {\"stream\": 7, \"correlation\": " + corr + ", \"grid\": [4, 2, 1]}}";
        events += ",\n  {\"ph\": \"C\", \"name\": \"Memory\", \"pid\": 10, \"tid\": 11, \"ts\": " + ts + ", \"args\": {\"Total Allocated\": " + corr + "}}";
        if (k == steps - 40)
            events += ",\n  {\"ph\": \"X\", \"ts\": 1x2, \"dur\": 1}";
        if (k == steps - 20)
            events += ",\n  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"x\", \"pid\": 1, \"tid\": 1, \"ts\": \"soon\", \"dur\": 3}";
    }
    return sampleTrace(0, events);
}

class TestLoader : public QObject {
    Q_OBJECT

private slots:
    // [trust] 9: the time origin is the whole run's whatever --ranks loads, in both modes (the
    // files left out are scanned for their earliest event, with the loader's own rules).
    void originIsTheRunsWhateverRanksLoad()
    {
        const auto dir = test::scratchDir("origin-ranks");
        test::writeFile(dir / "rank0.json", originTrace(0));
        test::writeFile(dir / "rank1.json", originTrace(1));
        for (const bool hta : {false, true}) {
            LoadOptions all;
            all.htaCompat = hta;
            LoadOptions one = all;
            one.onlyRanks = RankSet{1};
            const auto whole = loadRun(dir, all);
            const auto part = loadRun(dir, one);
            QCOMPARE(part->ranks.size(), size_t(1));
            QCOMPARE(whole->minTsNs, hta ? int64_t(1'201'000) : int64_t(1'000'500));  // HTA: span out, ceil to us
            QCOMPARE(part->minTsNs, whole->minTsNs);
        }
        const auto shared = test::sharedDir() / "traces" / "trace_filter";
        if (!std::filesystem::exists(shared))
            return;
        for (const bool hta : {false, true}) {
            LoadOptions all;
            all.htaCompat = hta;
            LoadOptions one = all;
            one.onlyRanks = RankSet{1};
            QCOMPARE(loadRun(shared, one)->minTsNs, loadRun(shared, all)->minTsNs);
        }
    }

    // [trust] 11: two files of unrelated runs (clocks hours apart, other GPUs, other world
    // sizes) are named as such; the files of one run are not.
    void filesThatAreNotOneRunWarn()
    {
        const auto mixed = test::scratchDir("not-one-run");
        test::writeFile(mixed / "a.json", notOneRunTrace(0, 2, "NVIDIA H100 80GB HBM3", "1680000000000000"));
        test::writeFile(mixed / "b.json", notOneRunTrace(1, 4, "NVIDIA A100-SXM4-80GB", "1420000000000"));
        const auto run = loadRun(mixed, LoadOptions{});
        QCOMPARE(run->ranks.size(), size_t(2));
        std::string all;
        for (const LoadWarning& w : run->warnings)
            all += w.file.filename().string() + ": " + w.message + "\n";
        QVERIFY2(all.find("a.json: its first event is") != std::string::npos, all.c_str());
        QVERIFY2(all.find("hours after b.json's") != std::string::npos, all.c_str());
        QVERIFY2(all.find("world_size 4 but a.json says 2") != std::string::npos, all.c_str());
        QVERIFY2(all.find("A100-SXM4-80GB but a.json's is NVIDIA H100") != std::string::npos, all.c_str());

        const auto one = test::scratchDir("one-run");
        test::writeFile(one / "a.json", notOneRunTrace(0, 2, "NVIDIA H100 80GB HBM3", "1680000000000000"));
        test::writeFile(one / "b.json", notOneRunTrace(1, 2, "NVIDIA H100 80GB HBM3", "1680000000500000"));
        const auto good = loadRun(one, LoadOptions{});
        QVERIFY(good->warnings.empty());
    }

    // [load-speed] progressive loading: each snapshot is the files read so far, assembled as the
    // whole run has them (same ranks, same events), at least doubling each time; the whole run
    // is the same as a load without snapshots; none past the fraction read; a one-file run, a
    // tiny budget and a load quicker than the first snapshot give none.
    void progressiveSnapshotsAreTheRanksReadSoFar()
    {
        const auto dir = test::scratchDir("progressive");
        for (int r = 0; r < 8; ++r)
            test::writeFile(dir / ("rank" + std::to_string(r) + ".json"), sampleTrace(r));
        for (const unsigned threads : {1u, 2u}) {
            std::mutex mutex;
            std::vector<std::shared_ptr<Run>> snapshots;
            ProgressiveLoad progressive;
            progressive.firstAfterSeconds = 0;
            progressive.minIntervalSeconds = 0;
            progressive.deliver = [&](std::shared_ptr<Run> run) {
                const std::lock_guard lock(mutex);
                snapshots.push_back(std::move(run));
            };
            LoadOptions options;
            options.threads = threads;
            const auto whole = loadRun(dir, options, nullptr, {}, &progressive);
            const auto plain = loadRun(dir, options);
            QVERIFY(!whole->isPartial());
            QCOMPARE(whole->ranks.size(), size_t(8));
            for (size_t k = 0; k < whole->ranks.size(); ++k)
                QVERIFY(sameEvents(*whole, whole->ranks[k], *plain, plain->ranks[k]));
            if (threads == 1) {
                // One file at a time: after 1, 2 and 4 files (the 8th brings the whole run).
                QCOMPARE(snapshots.size(), size_t(3));
                for (size_t k = 0; k < 3; ++k)
                    QCOMPARE(snapshots[k]->ranks.size(), size_t(1) << k);
            }
            QVERIFY(!snapshots.empty());
            size_t before = 0;
            for (const auto& snapshot : snapshots) {
                QVERIFY(snapshot->isPartial());
                QCOMPARE(snapshot->ranks.size() + snapshot->filesStillLoading, size_t(8));
                QVERIFY(snapshot->ranks.size() >= 2 * before);
                before = snapshot->ranks.size();
                QVERIFY(std::is_sorted(snapshot->ranks.begin(), snapshot->ranks.end(),
                                       [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; }));
                for (const RankTrace& rank : snapshot->ranks) {
                    const RankTrace* same = whole->findRank(rank.rank);
                    QVERIFY(same);
                    QVERIFY(sameEvents(*snapshot, rank, *whole, *same));
                }
                QCOMPARE(sliceRunToStep(*snapshot, 3)->filesStillLoading, snapshot->filesStillLoading);
            }
        }
        // None once more than the fraction of the run's bytes is read: one file at a time, 8 alike.
        std::atomic<int> early{0};
        ProgressiveLoad quarter;
        quarter.firstAfterSeconds = 0;
        quarter.minIntervalSeconds = 0;
        quarter.maxFractionRead = 0.25;
        quarter.deliver = [&](std::shared_ptr<Run> run) {
            QVERIFY(run->ranks.size() <= 2);
            ++early;
        };
        LoadOptions oneThread;
        oneThread.threads = 1;
        LoadProgress progress;
        QCOMPARE(loadRun(dir, oneThread, &progress, {}, &quarter)->ranks.size(), size_t(8));
        QCOMPARE(early.load(), 2);  // after 1 and 2 files of 8

        std::atomic<int> delivered{0};
        ProgressiveLoad none;
        none.firstAfterSeconds = 0;
        none.minIntervalSeconds = 0;
        none.deliver = [&](std::shared_ptr<Run>) { ++delivered; };
        none.maxBytes = 0;  // every file read is already past the budget
        QCOMPARE(loadRun(dir, LoadOptions{}, nullptr, {}, &none)->ranks.size(), size_t(8));
        none.maxBytes = ProgressiveLoad::defaultMaxSnapshotBytes();
        QVERIFY(!loadRun(dir / "rank3.json", LoadOptions{}, nullptr, {}, &none)->isPartial());
        none.firstAfterSeconds = 3600;  // a load quicker than the first snapshot shows only its whole run
        QCOMPARE(loadRun(dir, LoadOptions{}, nullptr, {}, &none)->ranks.size(), size_t(8));
        QCOMPARE(delivered.load(), 0);
    }

    void stringPoolInterns()
    {
        StringPool pool;
        const StringId a = pool.intern("aten::mm");
        const StringId b = pool.intern(std::string(5000, 'k'));  // beyond a block's small-string limit
        QCOMPARE(pool.intern("aten::mm"), a);
        QVERIFY(a != b);
        QCOMPARE(pool.view(b).size(), size_t(5000));
        QCOMPARE(pool.find("missing"), StringId{});
        QCOMPARE(pool.view(a), std::string_view("aten::mm"));
        for (int i = 0; i < 20000; ++i)
            pool.intern("name" + std::to_string(i));
        QCOMPARE(pool.view(a), std::string_view("aten::mm"));  // views stay valid as the pool grows
        QCOMPARE(pool.size(), size_t(20003));
        for (int i = 0; i < 20000; i += 997)  // every id found again after the index grew
            QCOMPARE(pool.view(pool.find("name" + std::to_string(i))), std::string_view("name" + std::to_string(i)));
        const StringId empty = pool.intern("");
        QVERIFY(bool(empty));
        QCOMPARE(pool.intern(""), empty);
        QCOMPARE(pool.find("name"), StringId{});  // a prefix of interned strings is not one
    }

    void microsToNanos_data()
    {
        QTest::addColumn<QString>("token");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("nanos");
        QTest::newRow("integer") << "1682725898236567" << true << qint64(1682725898236567000);
        QTest::newRow("ns fraction") << "1712195495507783.055" << true << qint64(1712195495507783055);
        QTest::newRow("short fraction") << "68.5" << true << qint64(68500);
        QTest::newRow("float dur") << "68.0" << true << qint64(68000);
        QTest::newRow("sub-ns rounds") << "1.0005" << true << qint64(1001);
        QTest::newRow("trailing space") << "12 \n" << true << qint64(12000);
        QTest::newRow("negative") << "-3.25" << true << qint64(-3250);
        QTest::newRow("exponent") << "1.5e3" << true << qint64(1500000);
        QTest::newRow("text") << "abc" << false << qint64(0);
        QTest::newRow("dot only") << "1." << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
    }
    void microsToNanos()
    {
        QFETCH(QString, token);
        QFETCH(bool, ok);
        QFETCH(qint64, nanos);
        int64_t value = 0;
        const std::string text = token.toStdString();
        QCOMPARE(kscope::microsToNanos(text, value), ok);
        if (ok)
            QCOMPARE(qint64(value), nanos);
    }

    void rankFromFileName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("rank");
        QTest::newRow("rank-") << "rank-3.Apr_03.pt.trace.json.gz" << 3;
        QTest::newRow("rank") << "rank12.json" << 12;
        QTest::newRow("rank_") << "sampled_rank_7.json" << 7;
        QTest::newRow("worker") << "worker5.pt.trace.json" << 5;
        QTest::newRow("none") << "trace.json" << -1;
        QTest::newRow("word without number") << "rank_not_found.json.gz" << -1;
    }
    void rankFromFileName()
    {
        QFETCH(QString, name);
        QFETCH(int, rank);
        QCOMPARE(kscope::rankFromFileName(name.toStdString()), rank);
    }

    void parsesEventsArgsAndLinks()
    {
        LoadOptions options;
        options.keepKernelLaunchArgs = true;
        options.keepFlows = true;
        const ParsedFile parsed = parseTraceText(sampleTrace(1), options);
        QVERIFY(!parsed.error);
        const RankTrace& r = parsed.trace;
        QCOMPARE(parsed.rankFromContent, 1);
        QCOMPARE(r.metadata.devices.size(), size_t(1));
        QCOMPARE(r.metadata.devices[0].name, std::string("NVIDIA H100"));
        QCOMPARE(r.metadata.devices[0].numSms, 132);
        QCOMPARE(r.metadata.distributed->worldSize, 2);
        QCOMPARE(r.metadata.baseTimeNanoseconds, int64_t(1700000000000000000));
        QCOMPARE(r.metadata.displayTimeUnit, std::string("ms"));
        QVERIFY(r.metadata.fractionalTimestamps);
        QVERIFY2(r.deviceType == DeviceType::Nvidia, toString(r.deviceType));
        QCOMPARE(r.flows.size(), size_t(2));
        QCOMPARE(r.counters.size(), size_t(1));
        QCOMPARE(r.eventsRead, uint64_t(15));
        // 9 X events + the Trace span + 1 instant; M, C and flows are kept elsewhere.
        QCOMPARE(r.events.size(), size_t(11));
        QVERIFY(std::is_sorted(r.events.tsNs.begin(), r.events.tsNs.end()));

        const EventIndex kernel = findByName(parsed, "sm90_gemm");
        QVERIFY(kernel != kNoEvent);
        QCOMPARE(r.events.tsNs[kernel], int64_t(1040500));
        QCOMPARE(r.events.durNs[kernel], int64_t(20250));
        QCOMPARE(r.events.stream[kernel], 7);
        QCOMPARE(r.events.kind[kernel], EventKind::Kernel);
        const EventIndex launch = r.events.link[kernel];
        QVERIFY(launch != kNoEvent);
        QCOMPARE(parsed.strings.view(r.events.name[launch]), std::string_view("cudaLaunchKernel"));
        QCOMPARE(r.events.link[launch], kernel);
        QCOMPARE(r.events.step[kernel], 3);  // through its launch
        const KernelLaunchArgs* geometry = findSparse(r.events.kernelLaunchArgs, kernel);
        QVERIFY(geometry);
        QCOMPARE(geometry->grid[0], 4);
        QCOMPARE(geometry->registersPerThread, 96);

        const EventIndex addmm = findByName(parsed, "aten::addmm");
        const EventIndex linear = findByName(parsed, "aten::linear");
        QCOMPARE(r.events.parent[addmm], linear);
        QCOMPARE(r.events.depth[addmm], uint8_t(2));
        QCOMPARE(r.events.parent[launch], addmm);
        QCOMPARE(r.events.step[linear], 3);
        const ShapeArgs* shapes = findSparse(r.events.shapeArgs, linear);
        QVERIFY(shapes);
        QCOMPARE(parsed.strings.view(r.events.shapeOf(*shapes).inputDims), std::string_view("[[8, 4], [4, 4]]"));

        const EventIndex memcpy = findByName(parsed, "Memcpy HtoD");
        const MemoryArgs* mem = findSparse(r.events.memoryArgs, memcpy);
        QVERIFY(mem);
        QCOMPARE(mem->bytes, int64_t(4096));
        QCOMPARE(mem->bandwidthGBps, 1.5);
        const EventIndex nccl = findByName(parsed, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
        const CollectiveArgs* coll = findSparse(r.events.collectiveArgs, nccl);
        QVERIFY(coll);
        QCOMPARE(coll->inMsgNelems, int64_t(1024));
        QCOMPARE(parsed.strings.view(coll->collectiveName), std::string_view("allreduce"));
        const EventIndex span = findByName(parsed, "PyTorch Profiler (0)");
        QCOMPARE(parsed.strings.view(r.threads[r.events.thread[span]].pidName), std::string_view("Spans"));
    }

    void htaCompatRoundsAndDrops()
    {
        LoadOptions options;
        options.htaCompat = true;
        const ParsedFile parsed = parseTraceText(sampleTrace(0), options);
        QVERIFY(!parsed.error);
        // Instants and the Trace span are gone; ts rounded up, end rounded down.
        QCOMPARE(parsed.trace.events.size(), size_t(9));
        const EventIndex kernel = findByName(parsed, "sm90_gemm");
        QCOMPARE(parsed.trace.events.tsNs[kernel], int64_t(1041000));
        QCOMPARE(parsed.trace.events.durNs[kernel], int64_t(19000));  // floor(1060.75) - 1041
    }

    void chunkBoundaries_data()
    {
        QTest::addColumn<int>("chunk");
        for (int chunk : {1, 2, 3, 7, 16, 64, 333, 4096})
            QTest::newRow(qPrintable(QString::number(chunk))) << chunk;
    }
    void chunkBoundaries()
    {
        QFETCH(int, chunk);
        LoadOptions whole;
        const ParsedFile reference = parseTraceText(sampleTrace(0), whole);
        LoadOptions small;
        small.chunkBytes = static_cast<uint64_t>(chunk);
        const ParsedFile parsed = parseTraceText(sampleTrace(0), small);
        QVERIFY(!parsed.error);
        QCOMPARE(parsed.trace.events.size(), reference.trace.events.size());
        QVERIFY(parsed.trace.events.tsNs == reference.trace.events.tsNs);
        QVERIFY(parsed.trace.events.durNs == reference.trace.events.durNs);
        QVERIFY(parsed.trace.events.link == reference.trace.events.link);
        QCOMPARE(parsed.trace.metadata.devices.size(), size_t(1));
        QVERIFY(parsed.trace.badEvents.empty());
    }

    void splitterMatchesByteByByteRules()
    {
        // Compact elements put the next element's quotes right after a close in the same 64-byte
        // block; strings, numbers, stray bytes and escapes between and inside elements take the
        // splitter off its fast path. Whatever the bytes, it must find what the byte rules find.
        std::mt19937 random(7);
        const std::vector<std::string> pieces = splitterPieces();
        for (int round = 0; round < 3000; ++round) {
            std::string json;
            const int count = 1 + static_cast<int>(random() % 24);
            for (int k = 0; k < count; ++k) {
                // Mostly elements and separators without escapes (a backslash sends a whole block
                // byte by byte), now and then escapes or something irregular.
                const unsigned dice = random() % 100;
                const size_t pick = dice < 85 ? random() % 8 : dice < 93 ? 8 + random() % 2 : 10 + random() % (pieces.size() - 10);
                json += pieces[pick];
            }
            const size_t size = json.size();
            json.append(64, ' ');  // the splitter reads up to 64 bytes past the end
            std::vector<jsonscan::Span> fast, slow;
            const jsonscan::SplitResult a = jsonscan::splitElements(json.data(), 0, size, size_t(1) << 30, fast);
            const jsonscan::SplitResult b = referenceSplit(json, size, slow);
            const std::string context = "input: " + json.substr(0, size);
            QVERIFY2(a.resume == b.resume && a.closed == b.closed && a.irregular == b.irregular, context.c_str());
            QVERIFY2(fast.size() == slow.size(), context.c_str());
            for (size_t k = 0; k < fast.size(); ++k)
                QVERIFY2(fast[k].begin == slow[k].begin && fast[k].end == slow[k].end, context.c_str());
        }
    }

    void correlationSetAnswersLikeASortedList()
    {
        // Dense ids (a bitmap), sparse ones (the hash table), extremes and repeats: every answer
        // is that of a binary search in the sorted ids.
        std::mt19937_64 random(11);
        for (int round = 0; round < 200; ++round) {
            std::vector<int64_t> ids;
            const bool dense = round % 2 == 0;
            const size_t count = random() % 300;
            for (size_t k = 0; k < count; ++k)
                ids.push_back(dense ? 1000 + static_cast<int64_t>(random() % 500) : static_cast<int64_t>(random()));
            if (round % 5 == 1)
                ids.insert(ids.end(), {INT64_MIN, INT64_MAX, -7, -7, 0});
            const CorrelationSet set(ids);
            std::vector<int64_t> sorted = ids;
            std::sort(sorted.begin(), sorted.end());
            std::vector<int64_t> asked = ids;
            for (int k = 0; k < 300; ++k)
                asked.push_back(dense ? 900 + static_cast<int64_t>(random() % 700) : static_cast<int64_t>(random()));
            asked.insert(asked.end(), {INT64_MIN, INT64_MAX, -1, 0, 1});
            for (int64_t id : asked)
                QCOMPARE(set.contains(id), std::binary_search(sorted.begin(), sorted.end(), id));
        }
        QVERIFY(!CorrelationSet().contains(0));
    }

    void minifiedAndEscapedTrace()
    {
        const std::string json =
            "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\\\"b\\\\c\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":2},"
            R"J({"ph":"X","cat":"kernel","name":"k,[x]","pid":0,"tid":7,"ts":6,"dur":1,"args":{"stream":"7"}}],"distributedInfo":{"rank":4}})J";
        LoadOptions options;
        options.chunkBytes = 5;
        const ParsedFile parsed = parseTraceText(json, options);
        QVERIFY(!parsed.error);
        QCOMPARE(parsed.rankFromContent, 4);
        QCOMPARE(parsed.trace.events.size(), size_t(2));
        QVERIFY(findByName(parsed, "a\"b\\c") != kNoEvent);
        const EventIndex k = findByName(parsed, "k,[x]");
        QVERIFY(k != kNoEvent);
        QCOMPARE(parsed.trace.events.stream[k], 7);  // numeric strings become numbers, as in pandas
    }

    void threadsPastTheIndexWidthShareTheLast()
    {
        // One event, one counter sample and one flow on each of kMaxThreads + 2 threads: every
        // stored thread index stays a valid index into RankTrace::threads.
        const size_t threads = kMaxThreads + 2;
        std::string json = "{\"traceEvents\":[";
        for (size_t tid = 0; tid < threads; ++tid) {
            const std::string where = "\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ts\":" + std::to_string(tid);
            json += (tid ? "," : "") + std::string("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op\",") + where
                + ",\"dur\":1},{\"ph\":\"C\",\"name\":\"c\"," + where + ",\"args\":{\"v\":1}},"
                + "{\"ph\":\"s\",\"id\":1,\"name\":\"f\"," + where + "}";
        }
        json += "]}";
        LoadOptions options;
        options.keepFlows = true;
        const ParsedFile parsed = parseTraceText(json, options);
        QVERIFY(!parsed.error);
        const RankTrace& trace = parsed.trace;
        QCOMPARE(trace.threads.size(), kMaxThreads);
        QCOMPARE(trace.events.size(), threads);
        for (size_t i = 0; i < trace.events.size(); ++i)
            QVERIFY(trace.events.thread[i] < trace.threads.size());
        QCOMPARE(trace.events.thread[trace.events.size() - 1], ThreadIndex(kMaxThreads - 1));
        QCOMPARE(trace.counters.size(), threads);
        QCOMPARE(trace.counters.back().thread, ThreadIndex(kMaxThreads - 1));
        QCOMPARE(trace.flows.size(), threads);
        QCOMPARE(trace.flows.back().thread, ThreadIndex(kMaxThreads - 1));
    }

    void badEvents_data()
    {
        QTest::addColumn<QString>("event");
        QTest::addColumn<int>("kind");
        QTest::newRow("missing ts") << R"J({"ph": "X", "cat": "cpu_op", "name": "x", "pid": 1, "tid": 1, "dur": 3})J" << int(BadEventKind::MissingTimestamp);
        QTest::newRow("text ts") << R"J({"ph": "X", "cat": "cpu_op", "name": "x", "pid": 1, "tid": 1, "ts": "soon", "dur": 3})J" << int(BadEventKind::WrongType);
        QTest::newRow("negative dur") << R"J({"ph": "X", "cat": "cpu_op", "name": "x", "pid": 1, "tid": 1, "ts": 5, "dur": -3})J" << int(BadEventKind::NegativeDuration);
        QTest::newRow("unknown ph") << R"J({"ph": "Q", "cat": "cpu_op", "name": "x", "pid": 1, "tid": 1, "ts": 5})J" << int(BadEventKind::UnknownPhase);
        QTest::newRow("not an object") << R"J([1, 2, 3])J" << int(BadEventKind::NotAnObject);
        QTest::newRow("number") << R"J(42)J" << int(BadEventKind::NotAnObject);
        QTest::newRow("broken value") << R"J({"ph": "X", "ts": 1x2, "dur": 1})J" << int(BadEventKind::BadTimestamp);
    }
    void badEvents()
    {
        QFETCH(QString, event);
        QFETCH(int, kind);
        LoadOptions options;
        const ParsedFile parsed = parseTraceText(sampleTrace(0, ",\n  " + event.toStdString()), options);
        QVERIFY(!parsed.error);
        QCOMPARE(parsed.trace.badEvents.size(), size_t(1));
        QCOMPARE(int(parsed.trace.badEvents[0].kind), kind);
        QCOMPARE(parsed.trace.badEvents[0].count, uint64_t(1));
        QCOMPARE(parsed.trace.badEvents[0].samples.size(), size_t(1));
        QVERIFY(parsed.trace.badEvents[0].samples[0].byteOffset > 100);
        QCOMPARE(parsed.trace.events.size(), size_t(11));  // the good events all survive
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("partial");
        const std::string good = sampleTrace(0);
        QTest::newRow("empty") << QByteArray() << int(LoadErrorKind::NotJson) << false;
        QTest::newRow("not json") << QByteArray("hello world") << int(LoadErrorKind::NotJson) << false;
        QTest::newRow("array top") << QByteArray("[1,2]") << int(LoadErrorKind::NotATrace) << false;
        QTest::newRow("no traceEvents") << QByteArray(R"J({"schemaVersion": 1})J") << int(LoadErrorKind::NotATrace) << false;
        QTest::newRow("traceEvents not an array") << QByteArray(R"J({"traceEvents": 3})J") << int(LoadErrorKind::NoTraceEvents) << false;
        QTest::newRow("truncated") << QByteArray::fromStdString(good.substr(0, good.size() / 2)) << int(LoadErrorKind::Truncated) << true;
        QTest::newRow("garbage after events") << QByteArray(R"J({"traceEvents": [{"ph":"X","ts":1,"dur":1,"cat":"a","name":"b"} } ]})J") << int(LoadErrorKind::NotJson) << true;
    }
    void badFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(int, kind);
        QFETCH(bool, partial);
        const auto dir = test::scratchDir("badfile");
        test::writeFile(dir / "rank0.json", std::string_view(content.constData(), size_t(content.size())));
        const ParsedFile parsed = parseTraceFile(dir / "rank0.json", LoadOptions{});
        QVERIFY(parsed.error);
        QCOMPARE(int(parsed.error->kind), kind);
        QCOMPARE(parsed.error->partial, partial);
        QVERIFY(!parsed.error->message.empty());
    }

    void runWithBrokenAndDuplicateRanks()
    {
        const auto dir = test::scratchDir("run");
        test::writeGzipFile(dir / "rank0.pt.trace.json.gz", sampleTrace(0));
        test::writeFile(dir / "rank1.pt.trace.json", sampleTrace(1));
        test::writeFile(dir / "dup.json", sampleTrace(1));
        test::writeFile(dir / "worker3.json", R"J({"traceEvents": []})J");
        test::writeFile(dir / "broken.json.gz", std::string("\x1f\x8b\x08\x00garbage that is not deflate", 31));
        test::writeFile(dir / "notes.txt", "not a trace");
        LoadProgress progress;
        const auto run = loadRun(dir, LoadOptions{}, &progress);
        QCOMPARE(run->ranks.size(), size_t(4));
        QCOMPARE(run->ranks[0].rank, 0);
        QCOMPARE(run->ranks[1].rank, 1);
        QCOMPARE(run->ranks[2].rank, 1);  // duplicates both load, with a warning
        QCOMPARE(run->ranks[3].rank, 3);  // from the file name
        QCOMPARE(run->errors.size(), size_t(1));
        QCOMPARE(run->errors[0].file.filename().string(), std::string("broken.json.gz"));
        QVERIFY2(run->errors[0].kind == LoadErrorKind::CorruptGzip, toString(run->errors[0].kind));
        QCOMPARE(run->skippedFiles.size(), size_t(1));
        QVERIFY(std::any_of(run->warnings.begin(), run->warnings.end(),
                            [](const LoadWarning& w) { return w.message.find("more than one file") != std::string::npos; }));
        QCOMPARE(progress.filesDone.load(), 5u);
        QCOMPARE(progress.filesTotal.load(), 5u);
        QCOMPARE(progress.bytesDone.load(), progress.bytesTotal.load());  // the bar ends full, failures included
        // One ProfilerStep name in the run: HTA does not trim.
        QCOMPARE(run->ranks[0].eventsTrimmed, uint64_t(0));
        const RankTrace* rank0 = run->findRank(0);
        QVERIFY(rank0);
        QCOMPARE(run->str(rank0->events.name[0]), std::string_view("PyTorch Profiler (0)"));
    }

    // [load-speed] One file read on two threads (a run with a core to spare per file: each
    // batch's later part parsed by a helper) gives the same table, strings, bad events and
    // counters as one thread, bad events in the later part included.
    void twoThreadsReadOneFileAsOne_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("json") << "rank0.json";
        QTest::newRow("gzip") << "rank0.json.gz";
    }
    void twoThreadsReadOneFileAsOne()
    {
        QFETCH(QString, file);
        const auto dir = test::scratchDir("two-threads");
        const std::filesystem::path path = dir / file.toStdString();
        if (file.endsWith(".gz"))
            test::writeGzipFile(path, manyEventsTrace(3000));
        else
            test::writeFile(path, manyEventsTrace(3000));
        LoadOptions options;
        options.chunkBytes = 1 << 20;  // several batches, each shared
        const ParsedFile one = parseTraceFile(path, options, nullptr, {}, 1);
        const ParsedFile two = parseTraceFile(path, options, nullptr, {}, 2);
        QVERIFY(!one.error && !two.error);
        QVERIFY(one.trace.events.size() > 9000);
        const EventTable& a = one.trace.events;
        const EventTable& b = two.trace.events;
        QCOMPARE(b.size(), a.size());
        QVERIFY(a.tsNs == b.tsNs && a.durNs == b.durNs && a.name == b.name && a.category == b.category);
        QVERIFY(a.thread == b.thread && a.stream == b.stream && a.correlation == b.correlation);
        QVERIFY(a.externalId == b.externalId && a.link == b.link && a.parent == b.parent && a.step == b.step);
        QCOMPARE(two.strings.size(), one.strings.size());
        for (uint32_t id = 0; id < one.strings.size(); ++id)
            QCOMPARE(two.strings.view(StringId{id}), one.strings.view(StringId{id}));
        QVERIFY(one.strings.find("aten::mm #3") != StringId{});
        QCOMPARE(two.trace.counters.size(), one.trace.counters.size());
        QCOMPARE(two.trace.flows.size(), one.trace.flows.size());
        QCOMPARE(two.trace.eventsRead, one.trace.eventsRead);
        QCOMPARE(two.trace.badEvents.size(), size_t(2));
        QCOMPARE(two.trace.badEvents.size(), one.trace.badEvents.size());
        for (size_t k = 0; k < one.trace.badEvents.size(); ++k) {
            QCOMPARE(two.trace.badEvents[k].kind, one.trace.badEvents[k].kind);
            QCOMPARE(two.trace.badEvents[k].count, one.trace.badEvents[k].count);
            QCOMPARE(two.trace.badEvents[k].samples[0].byteOffset, one.trace.badEvents[k].samples[0].byteOffset);
            QCOMPARE(two.trace.badEvents[k].samples[0].excerpt, one.trace.badEvents[k].samples[0].excerpt);
        }
    }

    void gzipVariants()
    {
        const auto dir = test::scratchDir("gzip");
        const std::string text = sampleTrace(0);
        test::writeGzipFile(dir / "whole.json.gz", text);
        const ParsedFile whole = parseTraceFile(dir / "whole.json.gz", LoadOptions{});
        QVERIFY(!whole.error);
        QCOMPARE(whole.trace.events.size(), size_t(11));

        // Two gzip members back to back (what `cat a.gz b.gz` gives) are one stream.
        test::writeGzipFile(dir / "a.gz", text.substr(0, 700));
        test::writeGzipFile(dir / "b.gz", text.substr(700));
        const std::string joined = test::readFileBytes(dir / "a.gz") + test::readFileBytes(dir / "b.gz");
        test::writeFile(dir / "members.json.gz", joined);
        const ParsedFile members = parseTraceFile(dir / "members.json.gz", LoadOptions{});
        QVERIFY(!members.error);
        QVERIFY(members.trace.events.tsNs == whole.trace.events.tsNs);

        // A flipped bit in the trailer's CRC is corruption, not silence.
        std::string bytes = test::readFileBytes(dir / "whole.json.gz");
        bytes[bytes.size() - 6] ^= 0x10;
        test::writeFile(dir / "crc.json.gz", bytes);
        const ParsedFile crc = parseTraceFile(dir / "crc.json.gz", LoadOptions{});
        QVERIFY(crc.error);
        QVERIFY2(crc.error->kind == LoadErrorKind::CorruptGzip, toString(crc.error->kind));

        // Cut in the middle: the events before the cut are kept, the error says truncated.
        bytes = test::readFileBytes(dir / "whole.json.gz");
        test::writeFile(dir / "cut.json.gz", bytes.substr(0, bytes.size() * 2 / 3));
        const ParsedFile cut = parseTraceFile(dir / "cut.json.gz", LoadOptions{});
        QVERIFY(cut.error);
        QVERIFY2(cut.error->kind == LoadErrorKind::Truncated, toString(cut.error->kind));
    }

    void onlyRanksSkipsOtherFiles()
    {
        const auto dir = test::scratchDir("only-ranks");
        test::writeGzipFile(dir / "a.json.gz", sampleTrace(0));
        test::writeFile(dir / "b.json", sampleTrace(1));
        // Declares rank 2 up front, then breaks: with --ranks 1 it is never read.
        const std::string good = sampleTrace(2);
        test::writeFile(dir / "c.json", good.substr(0, good.find("traceEvents")) + "traceEvents\": [ {{{");
        QCOMPARE(peekDeclaredRank(dir / "a.json.gz"), 0);
        QCOMPARE(peekDeclaredRank(dir / "b.json"), 1);
        QCOMPARE(peekDeclaredRank(dir / "c.json"), 2);
        LoadOptions options;
        options.onlyRanks = {1};
        const auto run = loadRun(dir, options);
        QCOMPARE(run->ranks.size(), size_t(1));
        QCOMPARE(run->ranks[0].rank, 1);
        QVERIFY(run->errors.empty());
    }

    void lastStepTrimming()
    {
        // Two steps: the kernel launched in the last step is dropped unless includeLastStep.
        const std::string json = R"J({"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 120, "dur": 5, "args": {"stream": 7, "correlation": 2}}
]})J";
        const auto dir = test::scratchDir("trim");
        test::writeFile(dir / "rank0.json", json);
        LoadOptions options;
        auto run = loadRun(dir, options);
        QCOMPARE(run->ranks.size(), size_t(1));
        QCOMPARE(run->ranks[0].events.size(), size_t(3));
        QCOMPARE(run->ranks[0].eventsTrimmed, uint64_t(3));
        QCOMPARE(run->ranks[0].steps.size(), size_t(1));
        options.includeLastStep = true;
        run = loadRun(dir, options);
        QCOMPARE(run->ranks[0].events.size(), size_t(6));
        QCOMPARE(run->ranks[0].steps.size(), size_t(2));
        const auto& t = run->ranks[0].events;
        QCOMPARE(t.step[t.size() - 1], 2);  // k2 inherits its launch's step
    }

    void sliceToStep()
    {
        // Three steps, one kernel each; the last is trimmed, so steps 1 and 2 remain.
        // Single quotes keep the JSON readable here (and moc's lexer calm); swapped below.
        std::string json = "{'traceEvents': [";
        for (int s = 1; s <= 3; ++s) {
            const int base = (s - 1) * 100;
            const std::string t0 = std::to_string(base), t1 = std::to_string(base + 10), t2 = std::to_string(base + 20);
            const std::string n = std::to_string(s);
            json += (s > 1 ? "," : "");
            json += "{'ph': 'X', 'cat': 'user_annotation', 'name': 'ProfilerStep#" + n + "', 'pid': 1, 'tid': 1, 'ts': " + t0 + ", 'dur': 100},";
            json += "{'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': 1, 'tid': 1, 'ts': " + t1 + ", 'dur': 5, 'args': {'correlation': " + n + "}},";
            json += "{'ph': 'X', 'cat': 'kernel', 'name': 'k', 'pid': 0, 'tid': 7, 'ts': " + t2 + ", 'dur': 5, 'args': {'stream': 7, 'correlation': " + n + "}}";
        }
        json += "]}";
        std::replace(json.begin(), json.end(), '\'', '"');
        const auto dir = test::scratchDir("slice");
        test::writeFile(dir / "rank0.json", json);
        const auto run = loadRun(dir, LoadOptions{});
        QCOMPARE(run->ranks[0].events.size(), size_t(6));
        const auto slice = sliceRunToStep(*run, 2);
        const EventTable& t = slice->ranks[0].events;
        QCOMPARE(t.size(), size_t(3));
        QCOMPARE(t.tsNs[0], int64_t(100000));
        QCOMPARE(slice->ranks[0].steps.size(), size_t(1));
        QCOMPARE(slice->ranks[0].steps[0].number, 2);
        QCOMPARE(slice->str(t.name[2]), std::string_view("k"));
        QCOMPARE(t.link[2], EventIndex(1));  // the kernel still points at its launch
        QCOMPARE(t.link[1], EventIndex(2));
        QCOMPARE(t.parent[1], EventIndex(0));
        QCOMPARE(slice->ranks[0].streamsInFileOrder, std::vector<int32_t>{7});
        QCOMPARE(sliceRunToStep(*run, 9)->ranks[0].events.size(), size_t(0));
        // A slice holds only its rows (no copy of the whole table first) and shares the run's
        // strings; a string interned into a slice is its own (copy on write), the run's pool is
        // never written.
        QVERIFY(slice->strings.sharesStorageWith(run->strings));
        QVERIFY(slice->ranks[0].events.tsNs.capacity() < run->ranks[0].events.size());
        QCOMPARE(slice->ranks[0].file, run->ranks[0].file);
        auto writable = sliceRunToStep(*run, 2);
        const size_t strings = run->strings.size();
        const StringId added = writable->strings.intern("only in the slice");
        QVERIFY(!writable->strings.sharesStorageWith(run->strings));
        QCOMPARE(run->strings.size(), strings);
        QVERIFY(!run->strings.find("only in the slice"));
        QCOMPARE(writable->str(added), std::string_view("only in the slice"));
        QCOMPARE(writable->str(t.name[2]), std::string_view("k"));  // the same ids
    }

    void mutatedTracesNeverCrash()
    {
        // A small deterministic fuzz: structural characters sprayed into a valid trace, cuts at
        // random places, tiny chunks. Every outcome must be a value (events, bad-event counts or
        // an error), never a crash; the sanitizer build runs this too.
        const std::string original = sampleTrace(0);
        const char alphabet[] = "{}[]\",:\\ 0123456789.-eEtrufalsn\n";
        uint64_t state = 0x9E3779B97F4A7C15ull;
        auto next = [&state] {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            return state;
        };
        int errors = 0, withBadEvents = 0;
        for (int round = 0; round < 400; ++round) {
            std::string text = original;
            const int flips = 1 + int(next() % 6);
            for (int f = 0; f < flips; ++f)
                text[next() % text.size()] = alphabet[next() % (sizeof alphabet - 1)];
            if (round % 3 == 0)
                text.resize(next() % text.size());
            LoadOptions options;
            options.htaCompat = round % 2 == 0;
            options.chunkBytes = 1 + next() % 97;
            const ParsedFile parsed = parseTraceText(text, options);
            errors += parsed.error.has_value();
            withBadEvents += !parsed.trace.badEvents.empty();
            QVERIFY(parsed.trace.events.size() <= 11);
            if (parsed.error)
                QVERIFY(!parsed.error->message.empty());
        }
        QVERIFY(errors > 0);
        QVERIFY(withBadEvents > 0);
    }

    void cancellation()
    {
        const auto dir = test::scratchDir("cancel");
        test::writeFile(dir / "rank0.json", sampleTrace(0));
        std::stop_source stop;
        stop.request_stop();
        const auto run = loadRun(dir, LoadOptions{}, nullptr, stop.get_token());
        QVERIFY(run->ranks.empty());
        QCOMPARE(run->errors.size(), size_t(1));
        QVERIFY2(run->errors[0].kind == LoadErrorKind::Cancelled, toString(run->errors[0].kind));
    }
};

QTEST_APPLESS_MAIN(TestLoader)
#include "tst_loader.moc"
