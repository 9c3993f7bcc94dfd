// The memory analysis on a small hand-written trace with [memory] events (two ProfilerSteps,
// three ops, a CUDA and a CPU device): the series, its downsampling, peaks overall and per step,
// bytes per op, allocations not freed, frees of blocks from before the window; the loader's
// MemoryEventArgs; PyTorch's export_memory_timeline by category (HTA's MemoryAnalysis rules) on a
// crafted file and the shared one; the memory command.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/operators/memory.h"
#include "analysis/tables/memorytables.h"
#include "goldencsv.h"
#include "model/loader.h"
#include "model/memorytimeline.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <algorithm>
#include <cstdint>

using namespace kscope;
using namespace kscope::test;

namespace {

std::string memoryEvent(double ts, int64_t addr, int64_t bytes, int64_t allocated, int64_t reserved, int type = 1,
                        int id = 0)
{
    return R"({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": )"
        + std::to_string(ts) + R"(, "args": {"Total Reserved": )" + std::to_string(reserved) + R"(, "Total Allocated": )"
        + std::to_string(allocated) + R"(, "Bytes": )" + std::to_string(bytes) + R"(, "Addr": )" + std::to_string(addr)
        + R"(, "Device Id": )" + std::to_string(id) + R"(, "Device Type": )" + std::to_string(type) + "}}";
}

std::string op(const std::string& cat, const std::string& name, double ts, double dur)
{
    return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )"
        + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + "}";
}

std::string memoryTrace()
{
    const std::vector<std::string> events = {
        op("user_annotation", "ProfilerStep#1", 1000, 100),
        op("user_annotation", "ProfilerStep#2", 1100, 100),
        op("user_annotation", "ProfilerStep#3", 1200, 100),  // the last step is trimmed by default
        op("cpu_op", "aten::empty", 1010, 10),
        memoryEvent(1012, 1, 1000, 1000, 2 << 20),
        op("cpu_op", "aten::mm", 1030, 30),
        memoryEvent(1035, 2, 4000, 5000, 2 << 20),
        memoryEvent(1040, 7, 10, 10, 0, 0, -1),
        memoryEvent(1070, 1, -1000, 4000, 2 << 20),
        op("cpu_op", "aten::add", 1110, 20),
        memoryEvent(1115, 3, 500, 4500, 4 << 20),
        memoryEvent(1150, 2, -4000, 500, 4 << 20),
        memoryEvent(1160, 99, -64, 436, 4 << 20),
    };
    std::string text = R"({"traceEvents": [)";
    for (size_t i = 0; i < events.size(); ++i)
        text += (i ? ",\n" : "\n") + events[i];
    return text + "\n]}";
}

std::shared_ptr<Run> loadMemoryRun()
{
    static std::shared_ptr<Run> run;
    if (!run) {
        const auto dir = scratchDir("memory-trace");
        writeFile(dir / "rank0.json", memoryTrace());
        run = loadRun(dir, LoadOptions{});
    }
    return run;
}

const MemoryDevice* deviceOf(const MemoryTimeline& r, int8_t type)
{
    for (const MemoryDevice& d : r.devices)
        if (d.device.type == type)
            return &d;
    return nullptr;
}

} // namespace

class TestMemory : public QObject {
    Q_OBJECT

private slots:
    void loaderKeepsMemoryEvents()
    {
        const auto run = loadMemoryRun();
        QVERIFY(run && run->ranks.size() == 1);
        const EventTable& t = run->ranks[0].events;
        QCOMPARE(t.memoryEvents.size(), size_t(7));
        const MemoryEventArgs& first = t.memoryEvents[0];
        QCOMPARE(first.addr, int64_t(1));
        QCOMPARE(first.bytes, int64_t(1000));
        QCOMPARE(first.totalAllocated, int64_t(1000));
        QCOMPARE(first.totalReserved, int64_t(2 << 20));
        QCOMPARE(int(first.deviceType), 1);
        QCOMPARE(int(first.deviceId), 0);
        QCOMPARE(t.phase[first.event], Phase::Instant);
        QCOMPARE(t.step[first.event], 1);
        // only events that carry them pay: nothing for the ops
        LoadOptions hta;
        hta.htaCompat = true;
        const auto dir = scratchDir("memory-trace-hta");
        writeFile(dir / "rank0.json", memoryTrace());
        QVERIFY(loadRun(dir, hta)->ranks[0].events.memoryEvents.empty());  // HTA drops instant events
    }

    void perDevice()
    {
        const auto run = loadMemoryRun();
        const MemoryTimeline r = memoryTimeline(*run);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.devices.size(), size_t(2));
        const MemoryDevice* cuda = deviceOf(r, 1);
        QVERIFY(cuda);
        QCOMPARE(toString(cuda->device), std::string("cuda:0"));
        QCOMPARE(cuda->events, int64_t(6));
        QCOMPARE(cuda->allocations, int64_t(3));
        QCOMPARE(cuda->frees, int64_t(3));
        QCOMPARE(cuda->bytesAllocated, int64_t(5500));
        QCOMPARE(cuda->bytesFreed, int64_t(5064));
        QCOMPARE(cuda->peakAllocated, int64_t(5000));
        QCOMPARE(cuda->peakAllocatedNs - run->minTsNs, int64_t(35000));
        QCOMPARE(cuda->peakReserved, int64_t(4 << 20));
        QCOMPARE(cuda->notFreed, int64_t(1));
        QCOMPARE(cuda->notFreedBytes, int64_t(500));
        QCOMPARE(cuda->freedFromBefore, int64_t(1));
        QCOMPARE(cuda->series.size(), size_t(6));
        QCOMPARE(cuda->series.back().allocated, int64_t(436));
        QCOMPARE(run->str(cuda->series[1].op), std::string_view("aten::mm"));
        QVERIFY(!cuda->series[2].op);  // the free at 1070 us is outside every op
        const MemoryDevice* cpu = deviceOf(r, 0);
        QVERIFY(cpu);
        QCOMPARE(toString(cpu->device), std::string("cpu"));
        QCOMPARE(cpu->notFreedBytes, int64_t(10));

        const Table summary = memorySummaryTable(*run, r);
        QCOMPARE(summary.rows.size(), size_t(2));
        QCOMPARE(memorySeriesTable(*run, r).rows.size(), size_t(7));
    }

    void stepsOpsUnfreed()
    {
        const auto run = loadMemoryRun();
        const MemoryTimeline r = memoryTimeline(*run);
        std::vector<const MemoryStepPeak*> cudaSteps;
        for (const MemoryStepPeak& s : r.stepPeaks)
            if (s.device.type == 1)
                cudaSteps.push_back(&s);
        QCOMPARE(cudaSteps.size(), size_t(2));
        QCOMPARE(cudaSteps[0]->step, 1);
        QCOMPARE(cudaSteps[0]->events, int64_t(3));
        QCOMPARE(cudaSteps[0]->startAllocated, int64_t(0));
        QCOMPARE(cudaSteps[0]->peakAllocated, int64_t(5000));
        QCOMPARE(cudaSteps[0]->endAllocated, int64_t(4000));
        QCOMPARE(cudaSteps[1]->startAllocated, int64_t(4000));
        QCOMPARE(cudaSteps[1]->peakAllocated, int64_t(4500));
        QCOMPARE(cudaSteps[1]->endAllocated, int64_t(436));

        std::vector<std::pair<std::string, int64_t>> cudaOps;
        for (const MemoryOpRow& o : r.ops)
            if (o.device.type == 1)
                cudaOps.emplace_back(std::string(run->str(o.op)), o.bytes);
        QCOMPARE(cudaOps, (std::vector<std::pair<std::string, int64_t>>{{"aten::mm", 4000}, {"aten::empty", 1000}, {"aten::add", 500}}));
        for (const MemoryOpRow& o : r.ops)
            if (o.device.type == 1 && run->str(o.op) == "aten::add")
                QCOMPARE(o.notFreedBytes, int64_t(500));
        QCOMPARE(r.unfreed.size(), size_t(2));  // cuda addr 3, cpu addr 7
        const Table unfreed = memoryUnfreedTable(*run, r);
        for (const auto& row : unfreed.rows)  // devices in order: cpu, cuda:0
            QCOMPARE(std::get<std::string>(row[5]), std::string(std::get<std::string>(row[1]) == "cpu" ? "aten::mm" : "aten::add"));
        QCOMPARE(memoryOpsTable(*run, r).rows.size(), size_t(4));
        QCOMPARE(memoryStepsTable(r).rows.size(), size_t(3));
    }

    void downsampleKeepsPeaks()
    {
        std::vector<MemoryPoint> series;
        for (int i = 0; i < 1000; ++i)
            series.push_back({i * 1000, (i * 7919) % 1000 + (i == 613 ? 5000 : 0), 0, kNoEvent});
        const auto thin = downsampleMemory(series, 50);
        QVERIFY(thin.size() <= 50);
        QCOMPARE(thin.front().tsNs, series.front().tsNs);
        QCOMPARE(thin.back().tsNs, series.back().tsNs);
        QVERIFY(std::any_of(thin.begin(), thin.end(), [](const MemoryPoint& p) { return p.tsNs == 613000; }));
        QVERIFY(std::is_sorted(thin.begin(), thin.end(), [](const MemoryPoint& a, const MemoryPoint& b) { return a.tsNs < b.tsNs; }));
        QCOMPARE(downsampleMemory(series, 0).size(), series.size());
        const auto run = loadMemoryRun();
        const MemoryTimeline r = memoryTimeline(*run, {.maxPoints = 4});
        QVERIFY(deviceOf(r, 1)->series.size() <= 4);
        QCOMPARE(deviceOf(r, 1)->peakAllocated, int64_t(5000));
    }

    void downsampleKeepsThePeakAtEveryCount()
    {
        // [trust] 5: with 3 points or fewer the first points were kept and the peak lost.
        std::vector<MemoryPoint> series;
        for (int i = 0; i < 100; ++i)
            series.push_back({i * 1000, i == 40 ? 9000 : i, 0, kNoEvent});
        for (size_t n = 1; n <= 60; ++n) {
            const auto thin = downsampleMemory(series, n);
            QVERIFY2(thin.size() <= n && !thin.empty(), std::to_string(n).c_str());
            QVERIFY2(std::any_of(thin.begin(), thin.end(), [](const MemoryPoint& p) { return p.allocated == 9000; }),
                     std::to_string(n).c_str());
            QVERIFY(std::is_sorted(thin.begin(), thin.end(), [](const MemoryPoint& a, const MemoryPoint& b) { return a.tsNs < b.tsNs; }));
            if (n >= 2)
                QCOMPARE(thin.back().tsNs, series.back().tsNs);
            if (n >= 3)
                QCOMPARE(thin.front().tsNs, series.front().tsNs);
        }
        const auto run = loadMemoryRun();
        for (size_t n = 1; n <= 4; ++n) {
            const MemoryTimeline r = memoryTimeline(*run, {.maxPoints = n});
            const MemoryDevice* d = deviceOf(r, 1);
            QVERIFY(std::any_of(d->series.begin(), d->series.end(), [d](const MemoryPoint& p) { return p.allocated == d->peakAllocated; }));
        }
    }

    void eventsWithoutAddrOrTotals()
    {
        // [trust] 6: older PyTorch writes [memory] events with Bytes only (resnet50_w0a): what
        // needs Addr or the allocator's totals is unknown, not invented.
        auto bare = [](double ts, int64_t bytes) {
            return R"({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": )"
                + std::to_string(ts) + R"(, "args": {"Bytes": )" + std::to_string(bytes) + R"(, "Device Id": 0, "Device Type": 1}})";
        };
        const std::string text = R"({"traceEvents": [)" + op("cpu_op", "aten::empty", 1000, 50) + ",\n" + bare(1010, 512)
            + ",\n" + bare(1020, 256) + ",\n" + bare(1030, -512) + ",\n" + bare(1040, -1024) + "\n]}";
        const auto dir = scratchDir("memory-bare");
        writeFile(dir / "rank0.json", text);
        const auto run = loadRun(dir, LoadOptions{});
        QVERIFY(run);
        const MemoryTimeline r = memoryTimeline(*run);
        const MemoryDevice* d = deviceOf(r, 1);
        QVERIFY(d);
        QVERIFY(!d->addressesKnown && !d->allocatedTotalsKnown && !d->reservedKnown);
        QCOMPARE(d->notFreed, int64_t(-1));
        QCOMPARE(d->freedFromBefore, int64_t(-1));
        QCOMPARE(d->peakReserved, int64_t(-1));
        QCOMPARE(d->peakAllocated, int64_t(768));  // net of the window from 0
        QVERIFY(r.unfreed.empty());
        bool addrNote = false, totalNote = false, allocatorNote = false;
        for (const std::string& n : r.notes) {
            addrNote |= n.find("carry no Addr") != std::string::npos;
            totalNote |= n.find("carry no Total Allocated") != std::string::npos;
            allocatorNote |= n.find("are the caching allocator's totals") != std::string::npos;
        }
        QVERIFY(addrNote && totalNote && !allocatorNote);
        const Table summary = memorySummaryTable(*run, r);
        const auto column = [&](const std::string& name) {
            return size_t(std::find(summary.columns.begin(), summary.columns.end(), name) - summary.columns.begin());
        };
        QVERIFY(std::holds_alternative<std::monostate>(summary.rows[0][column("not_freed")]));
        QVERIFY(std::holds_alternative<std::monostate>(summary.rows[0][column("freed_from_before")]));
        QVERIFY(std::holds_alternative<std::monostate>(summary.rows[0][column("peak_reserved")]));
        // The complete trace keeps its totals note.
        const MemoryTimeline full = memoryTimeline(*loadMemoryRun());
        QVERIFY(std::any_of(full.notes.begin(), full.notes.end(),
                            [](const std::string& n) { return n.find("caching allocator's totals") != std::string::npos; }));
    }

    void deviceNames()
    {
        QCOMPARE(toString(MemoryDeviceId{0, 1, 2}), std::string("cuda:2"));
        QCOMPARE(toString(MemoryDeviceId{0, 6, 0}), std::string("hip:0"));  // ROCm ([trust] 14)
        QCOMPARE(toString(MemoryDeviceId{0, 0, -1}), std::string("cpu"));
        QCOMPARE(toString(MemoryDeviceId{0, 8, 1}), std::string("type8:1"));
    }

    void noMemoryEvents()
    {
        const auto dir = scratchDir("memory-none");
        writeFile(dir / "rank0.json", R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]})");
        const MemoryTimeline r = memoryTimeline(*loadRun(dir, LoadOptions{}));
        QVERIFY(r.error.find("profile_memory") != std::string::npos);
    }

    // HTA's _process_raw_events: one point per distinct time, pre-existing blocks (t < 0) moved
    // to the earliest positive time, bytes summed per category.
    void categoryTimelineRules()
    {
        const auto dir = scratchDir("memory-timeline");
        writeGzipFile(dir / "timeline.raw.gz", "[[-1, 1, 100, 0], [5, 2, 50, 4], [5, 2, 25, 3],\n [9, 4, -50, 4]]");
        QVERIFY(looksLikeMemoryTimeline(dir / "timeline.raw.gz"));
        const MemoryTimelineFile file = readMemoryTimeline(dir / "timeline.raw.gz");
        QVERIFY2(file.error.empty(), file.error.c_str());
        QCOMPARE(file.rows.size(), size_t(4));
        const CategoryTimeline c = categoryTimeline(file.rows);
        QCOMPARE(c.timesNs, (std::vector<int64_t>{5, 5, 9}));
        QCOMPARE(c.bytes[0][0], int64_t(100));
        QCOMPARE(c.bytes[1][4], int64_t(50));
        QCOMPARE(c.bytes[1][3], int64_t(25));
        QCOMPARE(c.bytes[2][4], int64_t(0));
        QCOMPARE(c.peakTotal, int64_t(175));
        const Table table = categoryTimelineTable(c);
        QCOMPARE(table.columns.size(), size_t(10));
        QCOMPARE(table.columns[1], std::string("Parameter"));
        writeFile(dir / "bad.json", "[[1, 2, 3]]");
        QVERIFY(!readMemoryTimeline(dir / "bad.json").error.empty());
        writeFile(dir / "trace.json", R"({"traceEvents": []})");
        QVERIFY(!looksLikeMemoryTimeline(dir / "trace.json"));
    }

    // Values a double holds but the row's integers do not (from_chars takes nan, inf, 1e300):
    // an error naming the row's byte offset, never a cast out of range.
    void categoryTimelineOutOfRange()
    {
        const auto dir = scratchDir("memory-timeline-range");
        for (const char* row : {"[1e300, 2, 3, 0]", "[nan, 2, 3, 0]", "[1, inf, 3, 0]", "[1, 2, -1e19, 0]", "[1, 3e9, 3, 0]"}) {
            writeFile(dir / "t.json", std::string("[[1, 2, 3, 0], ") + row + "]");
            const MemoryTimelineFile file = readMemoryTimeline(dir / "t.json");
            QVERIFY2(file.error.find("out of range") != std::string::npos, row);
            QVERIFY2(file.error.find("at byte 15") != std::string::npos, file.error.c_str());
            QVERIFY(file.rows.empty());
        }
    }

    // memory FILE -o FILE with an export_memory_timeline file: the input is never replaced.
    void timelineNotOverwritten()
    {
        const auto file = scratchDir("memory-timeline-self") / "tl.json";
        const std::string text = "[[1, 2, 100, 0], [5, 4, -100, 0]]";
        writeFile(file, text);
        const CommandResult r = runCli("memory " + file.string() + " -o " + file.string());
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.find("cannot write") != std::string::npos, r.err.c_str());
        QCOMPARE(readFileBytes(file), text);
    }

    // A crafted Bytes of INT64_MIN (|Bytes| > 2^62): left out as a bad event and said so, not
    // negated into an overflow.
    void absurdBytesLeftOut()
    {
        const auto dir = scratchDir("memory-absurd");
        writeFile(dir / "rank0.json", "{\"traceEvents\": [" + memoryEvent(10, 1, 1000, 1000, 2 << 20) + ",\n"
                                          + memoryEvent(20, 1, INT64_MIN, 0, 2 << 20) + ",\n"
                                          + memoryEvent(30, 2, INT64_MAX, 1000, 2 << 20) + "]}");
        const MemoryTimeline r = memoryTimeline(*loadRun(dir, LoadOptions{}));
        QCOMPARE(r.devices.size(), size_t(1));
        const MemoryDevice& d = r.devices[0];
        QCOMPARE(d.events, int64_t(1));
        QCOMPARE(d.frees, int64_t(0));
        QCOMPARE(d.bytesFreed, int64_t(0));
        QCOMPARE(d.bytesAllocated, int64_t(1000));
        QVERIFY(std::any_of(r.notes.begin(), r.notes.end(),
                            [](const std::string& n) { return n.find("2 [memory] events with |Bytes| over 2^62") != std::string::npos; }));
    }

    void sharedMemoryTimeline()
    {
        const auto file = sharedDir() / "traces" / "memory_analysis" / "memory_timeline.raw.gz";
        if (!std::filesystem::exists(file))
            QSKIP("../shared missing");
        const MemoryTimelineFile raw = readMemoryTimeline(file);
        QVERIFY2(raw.error.empty(), raw.error.c_str());
        QCOMPARE(raw.rows.size(), size_t(16845));
        const CategoryTimeline c = categoryTimeline(raw.rows);
        QVERIFY(c.peakTotal > 0);
        for (size_t k = 0; k < c.timesNs.size(); ++k)
            for (int64_t b : c.bytes[k])
                QVERIFY(b >= 0);  // every destroy follows its create
        QVERIFY(categoryTimeline(raw.rows, 100).timesNs.size() <= 100);
        // the command: RUN may be the timeline file itself
        const CommandResult r = runCli("memory " + file.string() + " --format csv");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(parseGoldenCsv(r.out).rows.size(), size_t(9));
    }

    void command()
    {
        const auto dir = scratchDir("memory-cli");
        writeFile(dir / "rank0.json", memoryTrace());
        const CommandResult summary = runCli("memory " + dir.string() + " --format csv");
        QCOMPARE(summary.exitCode, 0);
        QCOMPARE(parseGoldenCsv(summary.out).rows.size(), size_t(2));
        QCOMPARE(parseGoldenCsv(runCli("memory " + dir.string() + " --series --format csv").out).rows.size(), size_t(7));
        QCOMPARE(parseGoldenCsv(runCli("memory " + dir.string() + " --per-op --format csv").out).rows.size(), size_t(4));
        QCOMPARE(parseGoldenCsv(runCli("memory " + dir.string() + " --steps --format csv").out).rows.size(), size_t(3));
        QCOMPARE(runCli("memory " + dir.string() + " --series --per-op").exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestMemory)
#include "tst_memory.moc"
