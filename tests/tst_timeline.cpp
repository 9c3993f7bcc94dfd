// The timeline's index (analysis/timeline/timelineindex.h): which row each event is on, exact events
// when zoomed in, and summaries that account for every event at every zoom, checked against the
// events themselves on a crafted trace, the sample run and a synth run.

// moc cannot parse <compare>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/timeline/timelineindex.h"
#include "analysis/timeline/timelinetracks.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "analysis/operators/memory.h"
#include "model/loader.h"
#include "model/runslice.h"
#include "model/synth/synthrun.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <algorithm>
#include <random>

using namespace kscope;
using namespace kscope::test;

namespace {

const char* const kTrace = R"json({"traceEvents": [
 {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": 1, "tid": 1, "ts": 900, "dur": 2000},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 500},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1010, "dur": 100},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1020, "dur": 5, "args": {"correlation": 1}},
 {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused", "pid": 1, "tid": 1, "ts": 1200, "dur": 20, "args": {"stream": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 2, "ts": 1050, "dur": 30},
 {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1015, "s": "t",
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 1, "Bytes": 64, "Total Allocated": 64, "Total Reserved": 1024}},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1030, "dur": 40, "args": {"stream": 7, "correlation": 1}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 1080, "dur": 3, "args": {"stream": 7}},
 {"ph": "X", "cat": "gpu_user_annotation", "name": "forward", "pid": 0, "tid": 7, "ts": 1028, "dur": 60, "args": {"stream": 7}},
 {"ph": "X", "cat": "kernel", "name": "ncclKernel", "pid": 0, "tid": 20, "ts": 1040, "dur": 200, "args": {"stream": 20}}
]})json";

std::vector<std::string> namesOf(const Run& run, const TimelineRow& row)
{
    std::vector<std::string> names;
    for (EventIndex e : row.events)
        names.emplace_back(run.str(run.at(row.rank).events.name[e]));
    return names;
}

bool overlapsWindow(int64_t start, int64_t end, int64_t from, int64_t to)
{
    return start < to && (end > from || (end == start && start >= from));
}

// Time covered by a row's events overlapping the window (each event whole), and whether any two of
// its events overlap (then the summaries' covered time is an upper bound, not exact).
struct Coverage {
    int64_t unionNs = 0;
    size_t events = 0;
    bool overlapping = false;
};
Coverage coverage(const EventTable& t, const TimelineRow& row, int64_t from, int64_t to)
{
    Coverage c;
    int64_t end = INT64_MIN;
    for (EventIndex e : row.events) {
        if (!overlapsWindow(t.tsNs[e], t.endNs(e), from, to))
            continue;
        ++c.events;
        c.overlapping |= t.tsNs[e] < end;
        c.unionNs += std::max<int64_t>(0, t.endNs(e) - std::max(t.tsNs[e], end));
        end = std::max(end, t.endNs(e));
    }
    return c;
}

// Every check a frame's items must pass, for one row, window and width.
void checkFrame(const Run& run, const TimelineRow& row, int64_t from, int64_t to, int widthPx)
{
    const EventTable& t = run.at(row.rank).events;
    const double nsPerPixel = double(to - from) / widthPx;
    const std::vector<TimelineItem> items = timelineItems(run, row, from, to, nsPerPixel);
    const Coverage expected = coverage(t, row, from, to);
    size_t count = 0;
    int64_t busy = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        const TimelineItem& item = items[i];
        QVERIFY(item.count >= 1 && item.startNs <= item.endNs);
        QVERIFY(i == 0 || items[i - 1].startNs <= item.startNs);
        QVERIFY(overlapsWindow(item.startNs, item.endNs, from, to));
        QVERIFY(item.longest != kNoEvent);
        if (item.isEvent()) {
            QCOMPARE(item.startNs, t.tsNs[item.longest]);
            QCOMPARE(item.endNs, t.endNs(item.longest));
        }
        count += item.count;
        busy += item.busyNs;
    }
    // Every event in the window is behind exactly one item, none outside it is.
    QCOMPARE(count, expected.events);
    if (!expected.overlapping)
        QCOMPARE(busy, expected.unionNs);
    // Each event overlapping the window lies inside an item.
    for (EventIndex e : row.events) {
        if (!overlapsWindow(t.tsNs[e], t.endNs(e), from, to))
            continue;
        const bool covered = std::any_of(items.begin(), items.end(), [&](const TimelineItem& item) {
            return item.startNs <= t.tsNs[e] && t.endNs(e) <= item.endNs;
        });
        QVERIFY2(covered, qPrintable(QStringLiteral("event %1 of a row not covered").arg(e)));
    }
    // A frame draws a couple of items per pixel column at most.
    if (!expected.overlapping)
        QVERIFY2(items.size() <= size_t(2 * widthPx + 4),
                 qPrintable(QStringLiteral("%1 items for %2 px").arg(items.size()).arg(widthPx)));
}

void checkEveryZoom(const Run& run, const TimelineIndex& index)
{
    std::mt19937_64 random(7);
    for (const TimelineRow& row : index.rows) {
        for (int width : {1, 37, 400, 1600}) {
            checkFrame(run, row, index.beginNs, index.endNs + 1, width);
            if (QTest::currentTestFailed())
                return;
        }
        // Windows of every size, at random places, edges cutting events.
        for (int k = 0; k < 12; ++k) {
            const int64_t span = std::max<int64_t>(1, index.endNs - index.beginNs);
            const int64_t length = std::max<int64_t>(1, span >> (random() % 20));
            const int64_t from = index.beginNs + int64_t(random() % uint64_t(span));
            checkFrame(run, row, from, from + length, 1 + int(random() % 2000));
            if (QTest::currentTestFailed())
                return;
        }
    }
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void rowsAreStreamsLanesAndCallDepths()
    {
        const auto dir = scratchDir("timeline-rows");
        writeFile(dir / "rank0.json", kTrace);
        const auto run = loadRun(dir, LoadOptions{.includeLastStep = true});  // its one step is its last
        QCOMPARE(run->ranks.size(), size_t(1));
        const TimelineIndex index = buildTimelineIndex(*run);
        std::vector<std::string> shape;
        for (const TimelineRow& row : index.rows) {
            std::string what = row.kind == TimelineRowKind::GpuStream       ? "stream " + std::to_string(row.stream)
                               : row.kind == TimelineRowKind::GpuAnnotation ? "annotations " + std::to_string(row.stream)
                                                                            : "thread " + std::to_string(run->ranks[0].threads[row.thread].tid)
                                                                                  + " depth " + std::to_string(row.depth);
            for (const std::string& name : namesOf(*run, row))
                what += " " + name;
            shape.push_back(what);
        }
        // Streams (GPU work only: the Triton launch with args.stream is a CPU op), then the
        // annotation lane, then each thread by call depth; no instant, no trace span.
        const std::vector<std::string> expected = {
            "stream 7 gemm Memcpy HtoD",
            "stream 20 ncclKernel",
            "annotations 7 forward",
            "thread 1 depth 0 ProfilerStep#1",
            "thread 1 depth 1 aten::mm triton_poi_fused",
            "thread 1 depth 2 cudaLaunchKernel",
            "thread 2 depth 0 aten::copy_",
        };
        QCOMPARE(shape, expected);
        QCOMPARE(index.events, size_t(9));
        QCOMPARE(index.beginNs, run->ranks[0].events.tsNs[0] + 100000);  // ProfilerStep#1, after the trace span
        checkEveryZoom(*run, index);
    }

    void exactEventsWhenZoomedIn()
    {
        const auto run = loadRun(sourceDir() / "resources" / "sample-run", LoadOptions{});
        const TimelineIndex index = buildTimelineIndex(*run);
        const auto stream = std::max_element(index.rows.begin(), index.rows.end(), [](const TimelineRow& a, const TimelineRow& b) {
            return (a.kind == TimelineRowKind::GpuStream) * a.events.size() < (b.kind == TimelineRowKind::GpuStream) * b.events.size();
        });
        QVERIFY(stream->events.size() > 100);
        const EventTable& t = run->at(stream->rank).events;
        // Five kernels in the middle of the row, the window cutting into the first and the last.
        const size_t middle = stream->events.size() / 2;
        const int64_t from = t.tsNs[stream->events[middle]] + 1;
        const int64_t to = t.endNs(stream->events[middle + 4]) - 1;
        const std::vector<TimelineItem> items = timelineItems(*run, *stream, from, to, 1.0);
        QCOMPARE(items.size(), size_t(5));
        for (size_t k = 0; k < items.size(); ++k) {
            QVERIFY(items[k].isEvent());
            QCOMPARE(items[k].longest, stream->events[middle + k]);
            QCOMPARE(items[k].startNs, t.tsNs[stream->events[middle + k]]);  // whole, though cut by the window
        }
        // Zoomed all the way out the same row is a few summaries, each accounting for its events.
        const std::vector<TimelineItem> whole = timelineItems(*run, *stream, index.beginNs, index.endNs + 1, double(index.endNs - index.beginNs) / 200);
        QVERIFY2(whole.size() <= 2 * 200 + 4 && whole.size() < stream->events.size(), qPrintable(QString::number(whole.size())));
        QVERIFY(std::any_of(whole.begin(), whole.end(), [](const TimelineItem& item) { return item.count > 1; }));
    }

    void summariesAccountForEveryEventOnRealAndSynthRuns()
    {
        const auto sample = loadRun(sourceDir() / "resources" / "sample-run", LoadOptions{});
        checkEveryZoom(*sample, buildTimelineIndex(*sample));
        if (QTest::currentTestFailed())
            return;
        const auto dir = scratchDir("timeline-synth");
        SynthOptions options;
        options.ranks = 2;
        options.steps = 3;
        QVERIFY(writeSynthRun(dir, options).ok);
        const auto synth = loadRun(dir, LoadOptions{});
        const TimelineIndex index = buildTimelineIndex(*synth);
        checkEveryZoom(*synth, index);
        // One step slice: rows of the slice's own tables, same checks.
        const int step = synth->ranks[0].steps.at(1).number;
        const auto slice = sliceRunToStep(*synth, step);
        checkEveryZoom(*slice, buildTimelineIndex(*slice));
    }

    // A counter column holds every value the step function takes inside it, the one carried in
    // from before included; before the first point there is none.
    void counterColumnsHoldEveryValueInside()
    {
        CounterTrack track;
        track.tsNs = {100, 150, 160, 400};
        track.value = {2, 9, 1, 4};
        const std::vector<CounterColumn> columns = counterColumns(track, 0, 500, 5);  // 100 ns each
        QCOMPARE(columns.size(), size_t(5));
        QVERIFY(!columns[0].hasValue);
        QVERIFY(columns[1].hasValue);
        QCOMPARE(columns[1].low, 1.0);  // 2, then 9, then 1 inside [100, 200)
        QCOMPARE(columns[1].high, 9.0);
        QCOMPARE(columns[2].low, 1.0);  // 1 carried in, nothing changes
        QCOMPARE(columns[2].high, 1.0);
        QCOMPARE(columns[4].low, 4.0);
        QCOMPARE(columns[4].high, 4.0);
        // A window inside one value's span: that value, in every column.
        for (const CounterColumn& c : counterColumns(track, 200, 300, 3))
            QVERIFY(c.hasValue && c.low == 1.0 && c.high == 1.0);
        QVERIFY(counterColumns(track, 0, 500, 0).empty());
    }

    void counterTracksComeFromQueueAndMemory()
    {
        const auto dir = scratchDir("timeline-counters");
        writeFile(dir / "rank0.json", kTrace);
        const auto run = loadRun(dir, LoadOptions{.includeLastStep = true});
        const QueueLength queue = queueLength(*run, QueueLengthOptions{});
        const MemoryTimeline memory = memoryTimeline(*run, MemoryOptions{});
        const MemoryBandwidth bandwidth = memoryBandwidth(*run, MemoryBandwidthOptions{});
        const std::vector<CounterTrack> tracks = timelineCounterTracks(*run, &queue, &bandwidth, &memory);
        std::vector<std::string> labels;
        for (const CounterTrack& t : tracks)
            labels.push_back(t.label);
        QVERIFY2(std::find(labels.begin(), labels.end(), "queue, stream 7") != labels.end(), labels.empty() ? "none" : labels[0].c_str());
        QVERIFY(std::find(labels.begin(), labels.end(), "cuda:0 allocated") != labels.end());
        QVERIFY(std::find(labels.begin(), labels.end(), "Memcpy HtoD GB/s") != labels.end());
        for (const CounterTrack& t : tracks) {
            QCOMPARE(t.tsNs.size(), t.value.size());
            QVERIFY(std::is_sorted(t.tsNs.begin(), t.tsNs.end()));
            if (t.kind == CounterKind::AllocatedMemory)
                QCOMPARE(t.maxValue, 64.0);  // Total Allocated of the one [memory] event
            if (t.label == "queue, stream 7")
                QCOMPARE(t.maxValue, 1.0);  // one launch waits for its kernel
        }
        QVERIFY(timelineCounterTracks(*run, nullptr, nullptr, nullptr).empty());
    }

    void rowFilterReadsRanksAndStreams()
    {
        ParsedRowFilter f = parseTimelineRowFilter("0-2, 7 s20 stream 7");
        QVERIFY2(f.error.empty(), f.error.c_str());
        QCOMPARE(f.filter.ranks, (std::vector<int>{0, 1, 2, 7}));
        QCOMPARE(f.filter.streams, (std::vector<int>{7, 20}));
        QVERIFY(parseTimelineRowFilter("").filter.empty());
        QVERIFY(parseTimelineRowFilter("  ").error.empty());
        for (const char* bad : {"x", "3-1", "s", "1;2", "-4", "t", "thread x", "t3-4"}) {
            const ParsedRowFilter p = parseTimelineRowFilter(bad);
            QVERIFY2(!p.error.empty(), bad);
            QVERIFY(p.filter.empty());
        }
        QVERIFY(parseTimelineRowFilter("3-x").error.find("character") != std::string::npos);
        // On a run: stream 20 keeps its stream row and every CPU thread, no stream 7 or its lane.
        const auto dir = scratchDir("timeline-filter");
        writeFile(dir / "rank0.json", kTrace);
        const auto run = loadRun(dir, LoadOptions{.includeLastStep = true});
        const TimelineIndex index = buildTimelineIndex(*run);
        const TimelineRowFilter streams = parseTimelineRowFilter("s20").filter;
        size_t kept = 0;
        for (const TimelineRow& row : index.rows)
            if (streams.keeps(*run, row)) {
                ++kept;
                QVERIFY(row.kind == TimelineRowKind::CpuThread || row.stream == 20);
            }
        QCOMPARE(kept, size_t(5));  // stream 20 and four thread depths
        // A thread by tid: every stream stays, thread 1's depths go.
        const ParsedRowFilter thread = parseTimelineRowFilter("t2");
        QVERIFY2(thread.error.empty(), thread.error.c_str());
        QCOMPARE(thread.filter.threads, (std::vector<int64_t>{2}));
        kept = 0;
        for (const TimelineRow& row : index.rows)
            if (thread.filter.keeps(*run, row)) {
                ++kept;
                QVERIFY(row.kind != TimelineRowKind::CpuThread || run->ranks[0].threads[row.thread].tid == 2);
            }
        QCOMPARE(kept, size_t(4));  // streams 7 and 20, the annotation lane, thread 2
        QCOMPARE(parseTimelineRowFilter("thread 4037, 0").filter.threads, (std::vector<int64_t>{4037}));
        QVERIFY(!parseTimelineRowFilter("1").filter.keepsRank(*run, RankIndex{0}));  // the file is rank 0 (no rank given: 0)
        QVERIFY(parseTimelineRowFilter("0").filter.keepsRank(*run, RankIndex{0}));
    }

    void stepStartShiftsAlignTheCommonStep()
    {
        // Rank 1 runs 300 µs behind rank 0, and profiled one step more (#0) before the common #1.
        const auto dir = scratchDir("timeline-align");
        const auto rankTrace = [](int rank, int offsetUs, bool extraStep) {
            std::string events = R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": )"
                                 + std::to_string(1000 + offsetUs) + R"(, "dur": 100})";
            if (extraStep)
                events += R"(, {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": )"
                          + std::to_string(500 + offsetUs) + R"(, "dur": 100})";
            events += R"(, {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )" + std::to_string(1010 + offsetUs)
                      + R"(, "dur": 5, "args": {"stream": 7}})";
            return R"({"distributedInfo": {"rank": )" + std::to_string(rank) + R"(}, "traceEvents": [)" + events + "]}";
        };
        writeFile(dir / "rank0.json", rankTrace(0, 0, false));
        writeFile(dir / "rank1.json", rankTrace(1, 300, true));
        const auto run = loadRun(dir, LoadOptions{.includeLastStep = true});
        QCOMPARE(run->ranks.size(), size_t(2));
        const std::vector<int64_t> shifts = stepStartShifts(*run);
        QCOMPARE(shifts.size(), size_t(2));
        for (size_t r = 0; r < 2; ++r)
            QCOMPARE(shifts[r], run->ranks[r].rank == 1 ? int64_t(300000) : int64_t(0));
    }

    void indexIsSmall()
    {
        const auto dir = scratchDir("timeline-bytes");
        SynthOptions options;
        options.ranks = 1;
        options.eventsPerRank = 200000;
        QVERIFY(writeSynthRun(dir, options).ok);
        const auto run = loadRun(dir, LoadOptions{});
        const TimelineIndex index = buildTimelineIndex(*run);
        QVERIFY(index.events > 100000);
        const double bytesPerEvent = double(index.residentBytes()) / double(index.events);
        QVERIFY2(bytesPerEvent <= 8.0, qPrintable(QString::number(bytesPerEvent)));
        // Summaries exist where a row is long, coarser ones smaller.
        bool levels = false;
        for (const TimelineRow& row : index.rows)
            for (size_t l = 1; l < row.levels.size(); ++l) {
                levels = true;
                QVERIFY(row.levels[l].items.size() * 8 <= row.levels[l - 1].items.size());
                QVERIFY(row.levels[l].gapNs > row.levels[l - 1].gapNs);
            }
        QVERIFY(levels);

        // Many ranks of short rows (a 1,000-rank run's shape): the rows' own overhead stays small.
        const auto many = scratchDir("timeline-bytes-many");
        SynthOptions small;
        small.ranks = 200;
        small.steps = 3;
        QVERIFY(writeSynthRun(many, small).ok);
        const auto wide = loadRun(many, LoadOptions{});
        const TimelineIndex wideIndex = buildTimelineIndex(*wide);
        QVERIFY(wideIndex.rows.size() > 1000);
        const double wideBytes = double(wideIndex.residentBytes()) / double(wideIndex.events);
        QVERIFY2(wideBytes <= 8.0, qPrintable(QString::number(wideBytes)));
        checkEveryZoom(*wide, wideIndex);
    }
};

QTEST_GUILESS_MAIN(TestTimeline)
#include "tst_timeline.moc"
