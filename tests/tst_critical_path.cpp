// Critical path (HTA's critical_path_analysis): the five golden cases in HTA's mode (summary,
// breakdown, graph edges, path nodes, the overlaid trace), the errors HTA raises or warns about,
// hand-written traces for each kind of edge, the default mode's nanoseconds, and the path across
// ranks on a synthetic run with a straggler.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/criticalpath/criticalpath.h"
#include "analysis/rankchoice.h"
#include "analysis/criticalpath/criticalpathoverlay.h"
#include "analysis/tables/criticalpathtables.h"
#include "goldentables.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace kscope;
using namespace kscope::test;

namespace {

std::shared_ptr<Run> loadHta(const std::filesystem::path& dir)
{
    LoadOptions options;
    options.htaCompat = true;
    return loadRun(dir, options);
}

CriticalPathOptions optionsOf(const Run& run, const GoldenCall& call, bool htaCompat)
{
    CriticalPathOptions o;
    o.htaCompat = htaCompat;
    o.rank = rankNumbered(run, call.kwargs.value("rank").toInt(0));
    o.annotation = call.kwargs.value("annotation").toString().toStdString();
    const QJsonValue instance = call.kwargs.value("instance_id");
    if (instance.isDouble())
        o.instanceStart = o.instanceEnd = instance.toInt();
    for (const QJsonValue& v : call.kwargs.value("data_load_events").toArray())
        o.dataLoadEvents.push_back(v.toString().toStdString());
    return o;
}

GoldenCase findCase(const std::string& name)
{
    for (const GoldenCase& c : goldenCases())
        if (c.name == name)
            return c;
    return {};
}

int column(const Table& t, const std::string& name)
{
    const auto it = std::find(t.columns.begin(), t.columns.end(), name);
    return it == t.columns.end() ? -1 : static_cast<int>(it - t.columns.begin());
}

// A trace file written from events given as JSON objects.
std::filesystem::path writeTrace(const std::string& name, const std::vector<std::string>& events)
{
    const auto dir = scratchDir("critical_path_" + name);
    std::string text = "{\"schemaVersion\": 1, \"traceEvents\": [\n";
    for (size_t i = 0; i < events.size(); ++i)
        text += (i ? ",\n" : "") + events[i];
    text += "\n]}\n";
    writeFile(dir / "trace.json", text);
    return dir;
}

std::string cpu(const std::string& name, double ts, double dur, const std::string& cat = "cpu_op", int64_t corr = -1)
{
    std::string args = corr >= 0 ? ", \"args\": {\"correlation\": " + std::to_string(corr) + "}" : "";
    return "{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name + "\", \"pid\": 100, \"tid\": 100, \"ts\": "
        + QString::number(ts, 'f', 3).toStdString() + ", \"dur\": " + QString::number(dur, 'f', 3).toStdString() + args + "}";
}

std::string gpu(const std::string& name, int stream, double ts, double dur, int64_t corr, const std::string& cat = "kernel",
                const std::string& extra = "")
{
    return "{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name + "\", \"pid\": 0, \"tid\": "
        + std::to_string(stream < 0 ? -1 : stream) + ", \"ts\": " + QString::number(ts, 'f', 3).toStdString()
        + ", \"dur\": " + QString::number(dur, 'f', 3).toStdString() + ", \"args\": {\"stream\": " + std::to_string(stream)
        + ", \"correlation\": " + std::to_string(corr) + ", \"device\": 0" + extra + "}}";
}

std::set<CpEdgeType> edgeTypes(const CriticalPath& r, bool onPathOnly)
{
    std::set<CpEdgeType> types;
    for (const CpEdge& e : r.edges)
        if (!onPathOnly || e.onPath)
            types.insert(e.type);
    return types;
}

double percentOf(const CriticalPath& r, CpBound bound)
{
    for (const CpSummaryRow& s : r.summary)
        if (s.bound == bound)
            return s.percent;
    return 0.0;
}

bool pathHas(const Run& run, const CriticalPath& r, const std::string& name)
{
    const RankTrace* rank = run.findRank(r.rank);
    for (uint32_t n : r.path)
        if (run.str(rank->events.name[r.nodes[n].event]) == name)
            return true;
    return false;
}

// A GPU-bound step: a launch with an empty queue, a queued kernel, a device synchronize, an op.
std::vector<std::string> gpuBoundEvents()
{
    return {
        cpu("ProfilerStep#1", 0, 1000, "user_annotation"),
        cpu("aten::op", 10, 100),
        cpu("cudaLaunchKernel", 20, 10, "cuda_runtime", 1),
        gpu("k1", 7, 40, 200, 1),
        cpu("cudaLaunchKernel", 50, 10, "cuda_runtime", 2),
        gpu("k2", 7, 245, 300, 2),
        cpu("cudaDeviceSynchronize", 120, 500, "cuda_runtime", 3),
        gpu("Context Sync", -1, 130, 490, 3, "cuda_sync"),
        cpu("aten::after", 630, 50),
    };
}

} // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void overlay_data();
    void overlay();
    void errors();
    void cpuNesting();
    void launchKernelAndSync();
    void streamWaitAndEventSync();
    void defaultModeKeepsNanoseconds();
    void options();
    void allRanksFollowsTheStraggler();
    void allRanksHandBuilt();
    void allRanksDuplicateRankNumber();
    void htaIndexPastInstantEvents();
    void summaryWithClearedNegativeWeight();
    void cli();
};

void TestCriticalPath::golden_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("frame");
    bool any = false;
    for (const GoldenCase& c : goldenCases()) {
        if (!c.name.starts_with("critical_path__"))
            continue;
        any = true;
        for (const char* frame : {"summary", "breakdown", "graph_edges", "path_nodes"})
            QTest::newRow((c.name + "/" + frame).c_str()) << QString::fromStdString(c.name) << frame;
    }
    if (!any)
        QSKIP("no ../shared golden critical-path cases here");
}

void TestCriticalPath::golden()
{
    QFETCH(QString, caseName);
    QFETCH(QString, frame);
    const GoldenCase c = findCase(caseName.toStdString());
    const GoldenCall call = goldenCall(c.goldenDir, "critical_path");
    QVERIFY(call.found);
    static std::map<std::string, std::shared_ptr<Run>> runs;
    auto& run = runs[c.name];
    if (!run)
        run = loadHta(c.traceDir);
    const CriticalPath result = criticalPath(*run, optionsOf(*run, call, true));
    QVERIFY2(result.success, result.error.c_str());
    const GoldenCsv golden = readGoldenCsv(c.goldenDir, "critical_path_" + frame.toStdString());
    QVERIFY(golden.found);
    std::string difference;
    if (frame == "summary") {
        difference = compareWithGolden(golden, criticalPathSummaryTable(result),
                                       {{"bound_by", "bound_by", true}, {"duration", "duration"}});
    } else if (frame == "graph_edges") {
        difference = compareWithGolden(golden, criticalPathEdgesTable(result),
                                       {{"src", "src", true}, {"dst", "dst", true}, {"weight", "weight", true}, {"type", "type", true}});
    } else if (frame == "path_nodes") {
        difference = compareWithGolden(golden, criticalPathNodesTable(*run, result),
                                       {{"node_idx", "node_idx", true},
                                        {"ev_idx", "ev_idx", true},
                                        {"ts", "ts", true},
                                        {"is_start", "is_start", true}});
    } else {
        // HTA's rows come from a set: both sides sorted by (event, type, duration).
        Table ours = criticalPathBreakdownTable(*run, result);
        const int ev = column(ours, "event_idx"), ty = column(ours, "type"), du = column(ours, "duration");
        auto ourKey = [&](const std::vector<Cell>& r) {
            const auto* e = std::get_if<int64_t>(&r[ev]);
            return std::make_tuple(e ? static_cast<double>(*e) : -1.0, std::get<std::string>(r[ty]), std::get<double>(r[du]));
        };
        std::sort(ours.rows.begin(), ours.rows.end(), [&](const auto& a, const auto& b) { return ourKey(a) < ourKey(b); });
        GoldenCsv sorted = golden;
        const int gev = golden.column("event_idx"), gty = golden.column("type"), gdu = golden.column("duration");
        auto goldKey = [&](const std::vector<std::string>& r) {
            return std::make_tuple(r[gev].empty() ? -1.0 : std::stod(r[gev]), r[gty], std::stod(r[gdu]));
        };
        std::sort(sorted.rows.begin(), sorted.rows.end(), [&](const auto& a, const auto& b) { return goldKey(a) < goldKey(b); });
        difference = compareWithGolden(sorted, ours,
                                       {{"event_idx", "event_idx", true},
                                        {"duration", "duration", true},
                                        {"type", "type", true},
                                        {"s_name", "s_name", true},
                                        {"pid", "pid", true},
                                        {"tid", "tid", true},
                                        {"stream", "stream", true},
                                        {"index", "index", true},
                                        {"bound_by", "bound_by", true}});
        // HTA's cat is an id of its symbol table (in hash order): it must name one category each.
        const int gcat = sorted.column("cat"), cat = column(ours, "cat");
        std::map<std::string, std::string> idToName, nameToId;
        for (size_t r = 0; r < sorted.rows.size() && difference.empty(); ++r) {
            const std::string id = sorted.rows[r][gcat];
            const std::string name = cellText(ours.rows[r][cat]);
            const auto [a, newA] = idToName.emplace(id, name);
            const auto [b, newB] = nameToId.emplace(name, id);
            if (a->second != name || b->second != id)
                difference = "row " + std::to_string(r) + ": cat " + id + " is not always " + name;
        }
    }
    QVERIFY2(difference.empty(), qPrintable(caseName + " " + frame + ": " + QString::fromStdString(difference)));
}

void TestCriticalPath::overlay_data()
{
    QTest::addColumn<QString>("caseName");
    bool any = false;
    for (const GoldenCase& c : goldenCases())
        if (c.name.starts_with("critical_path__")) {
            QTest::newRow(c.name.c_str()) << QString::fromStdString(c.name);
            any = true;
        }
    if (!any)
        QSKIP("no ../shared golden critical-path cases here");
}

void TestCriticalPath::overlay()
{
    QFETCH(QString, caseName);
    const GoldenCase c = findCase(caseName.toStdString());
    const auto run = loadHta(c.traceDir);
    const CriticalPath result = criticalPath(*run, optionsOf(*run, goldenCall(c.goldenDir, "critical_path"), true));
    QVERIFY(result.success);
    const auto dir = scratchDir("critical_path_overlay_" + c.name);
    const CriticalPathOverlay written = writeCriticalPathOverlay(*run, result, dir);
    QVERIFY2(written.error.empty(), written.error.c_str());

    auto counts = [](const std::filesystem::path& file) {
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(readMaybeGzip(file)));
        std::multiset<std::tuple<QString, qint64, QString>> flows;
        int64_t marked = 0, events = 0;
        for (const QJsonValue& v : doc.object().value("traceEvents").toArray()) {
            const QJsonObject e = v.toObject();
            ++events;
            if (e.value("cat").toString() == "critical_path")
                flows.insert({e.value("ph").toString(), e.value("ts").toInteger(),
                              e.value("args").toObject().value("type").toString()});
            else if (e.value("args").toObject().value("critical").toInt() == 1)
                ++marked;
        }
        return std::make_tuple(events, marked, flows);
    };
    std::filesystem::path goldenFile;
    for (const auto& f : std::filesystem::directory_iterator(c.goldenDir / "artifacts"))
        if (f.path().filename().string().starts_with("overlaid_critical_path_"))
            goldenFile = f.path();
    QVERIFY(!goldenFile.empty());
    QCOMPARE(written.output.filename(), goldenFile.filename());
    const auto [events, marked, flows] = counts(written.output);
    const auto [goldenEvents, goldenMarked, goldenFlows] = counts(goldenFile);
    QCOMPARE(events, goldenEvents);
    QCOMPARE(marked, goldenMarked);
    QCOMPARE(flows.size(), goldenFlows.size());
    QVERIFY(flows == goldenFlows);
    QCOMPARE(written.eventsMarked, marked);

    // Our own loader reads it back, with the same events as the original.
    LoadOptions plain;
    plain.keepFlows = true;
    const auto back = loadRun(written.output, plain);
    QVERIFY(back->errors.empty());
    QCOMPARE(back->ranks.size(), size_t{1});
    const auto original = loadRun(c.traceDir, plain);
    QCOMPARE(back->ranks[0].events.size(), original->ranks[0].events.size());
    QCOMPARE(back->ranks[0].flows.size(), original->ranks[0].flows.size() + static_cast<size_t>(2 * written.flows));

    // Only the critical events (and annotations) when asked.
    CriticalPathOverlayOptions only;
    only.onlyCriticalEvents = true;
    const CriticalPathOverlay small = writeCriticalPathOverlay(*run, result, scratchDir("critical_path_only_" + c.name), only);
    QVERIFY(small.error.empty());
    QCOMPARE(small.eventsMarked, written.eventsMarked);
    QVERIFY(std::get<0>(counts(small.output)) < events);
}

void TestCriticalPath::errors()
{
    const auto dir = writeTrace("errors", gpuBoundEvents());
    const auto run = loadHta(dir);
    CriticalPathOptions o;
    o.htaCompat = true;
    o.annotation = "NoSuchAnnotation";
    CriticalPath r = criticalPath(*run, o);
    QVERIFY(!r.success);
    QVERIFY(r.error.find("NoSuchAnnotation") != std::string::npos);
    QVERIFY(criticalPathSummaryTable(r).rows.empty());
    QVERIFY(criticalPathBreakdownTable(*run, r).rows.empty());

    o.annotation = "ProfilerStep";
    o.instanceStart = o.instanceEnd = 5;
    r = criticalPath(*run, o);
    QVERIFY(!r.success);
    QVERIFY(r.error.find("instance 5") != std::string::npos);

    o.instanceStart = o.instanceEnd = 0;
    o.rank = rankNumbered(*run, 3);
    r = criticalPath(*run, o);
    QVERIFY(!r.success);
    QVERIFY(r.error.find("not in the run") != std::string::npos);

    // No cuda_sync events: an answer, with HTA's warning.
    const auto noSync = loadHta(writeTrace("nosync", {cpu("ProfilerStep#1", 0, 100, "user_annotation"), cpu("aten::a", 10, 50)}));
    o.rank = rankNumbered(*noSync, 0);
    r = criticalPath(*noSync, o);
    QVERIFY2(r.success, r.error.c_str());
    bool warned = false;
    for (const std::string& n : r.notes)
        warned |= n.find("cuda_sync") != std::string::npos;
    QVERIFY(warned);
}

void TestCriticalPath::cpuNesting()
{
    // aten::a holds aten::b and aten::c, then aten::d at top level.
    const auto run = loadHta(writeTrace("nesting", {cpu("ProfilerStep#1", 0, 1000, "user_annotation"), cpu("aten::a", 10, 300),
                                                    cpu("aten::b", 20, 100), cpu("aten::c", 150, 100), cpu("aten::d", 400, 500),
                                                    gpu("Context Sync", -1, 950, 1, 99, "cuda_sync")}));
    CriticalPathOptions o;
    o.htaCompat = true;
    const CriticalPath r = criticalPath(*run, o);
    QVERIFY2(r.success, r.error.c_str());
    QCOMPARE(r.lengthNs, int64_t{800000});  // 10 + 100 + 30 + 100 + 60 (aten::a and its children) + 500
    QCOMPARE(edgeTypes(r, false), (std::set<CpEdgeType>{CpEdgeType::OperatorKernel, CpEdgeType::Dependency}));
    QCOMPARE(percentOf(r, CpBound::CpuBound), 100.0);
    // The gap between aten::b and aten::c belongs to their parent (HTA's case 4).
    bool gapToParent = false;
    for (const CpSegment& s : r.segments)
        gapToParent |= s.durationNs == 30000 && run->str(run->ranks[0].events.name[s.event]) == "aten::a";
    QVERIFY(gapToParent);
    QVERIFY(pathHas(*run, r, "aten::d"));
}

void TestCriticalPath::launchKernelAndSync()
{
    const auto run = loadHta(writeTrace("launch", gpuBoundEvents()));
    CriticalPathOptions o;
    o.htaCompat = true;
    const CriticalPath r = criticalPath(*run, o);
    QVERIFY2(r.success, r.error.c_str());
    const auto onPath = edgeTypes(r, true);
    QVERIFY(onPath.count(CpEdgeType::KernelLaunchDelay));  // k1: empty queue, launched after the stream went idle
    QVERIFY(onPath.count(CpEdgeType::KernelKernelDelay));  // k2: queued behind k1
    QVERIFY(onPath.count(CpEdgeType::SyncDependency));     // k2's end -> cudaDeviceSynchronize's end
    QVERIFY(pathHas(*run, r, "k1") && pathHas(*run, r, "k2"));
    QVERIFY(percentOf(r, CpBound::GpuComputeBound) > 80.0);
    QVERIFY(percentOf(r, CpBound::GpuKernelLaunchOverhead) > 0.0);
    QVERIFY(percentOf(r, CpBound::GpuKernelKernelOverhead) > 0.0);
    // The blocking call's exit edge weighs nothing: its wait is the GPU's time.
    for (const CpEdge& e : r.edges)
        if (e.type == CpEdgeType::OperatorKernel && !r.nodes[e.dst].isStart
            && run->str(run->ranks[0].events.name[r.nodes[e.dst].event]) == "cudaDeviceSynchronize")
            QCOMPARE(e.weightNs, int64_t{0});
    // A zero-weight launch edge for every kernel when asked (CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE).
    o.addZeroWeightLaunchEdges = true;
    const CriticalPath z = criticalPath(*run, o);
    int launches = 0;
    for (const CpEdge& e : z.edges)
        launches += e.type == CpEdgeType::KernelLaunchDelay;
    QCOMPARE(launches, 2);
}

void TestCriticalPath::streamWaitAndEventSync()
{
    const std::string wait = ", \"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 12";
    const auto run = loadHta(writeTrace(
        "wait", {cpu("ProfilerStep#1", 0, 1000, "user_annotation"), cpu("cudaLaunchKernel", 10, 5, "cuda_runtime", 11),
                 gpu("k1", 7, 30, 400, 11), cpu("cudaEventRecord", 20, 2, "cuda_runtime", 12),
                 cpu("cudaStreamWaitEvent", 25, 2, "cuda_runtime", 13),
                 gpu("Stream Wait Event", 8, 26, 1, 13, "cuda_sync", wait),
                 cpu("cudaLaunchKernel", 30, 5, "cuda_runtime", 14), gpu("k2", 8, 431, 50, 14),
                 cpu("cudaEventSynchronize", 50, 400, "cuda_runtime", 15), gpu("Event Sync", -1, 60, 380, 15, "cuda_sync", wait),
                 cpu("aten::after", 460, 100)}));
    CriticalPathOptions o;
    o.htaCompat = true;
    const CriticalPath r = criticalPath(*run, o);
    QVERIFY2(r.success, r.error.c_str());
    const EventTable& t = run->ranks[0].events;
    bool gpuToGpu = false, gpuToCpu = false;
    for (const CpEdge& e : r.edges) {
        if (e.type != CpEdgeType::SyncDependency)
            continue;
        const std::string_view from = run->str(t.name[r.nodes[e.src].event]);
        const std::string_view to = run->str(t.name[r.nodes[e.dst].event]);
        gpuToGpu |= from == "k1" && to == "k2" && r.nodes[e.dst].isStart;
        gpuToCpu |= from == "k1" && to == "cudaEventSynchronize" && !r.nodes[e.dst].isStart;
    }
    QVERIFY(gpuToGpu);
    QVERIFY(gpuToCpu);
    QVERIFY(pathHas(*run, r, "k1"));
}

void TestCriticalPath::defaultModeKeepsNanoseconds()
{
    const auto dir = writeTrace("ns", {cpu("ProfilerStep#1", 0, 1000, "user_annotation"), cpu("aten::a", 10.25, 100.5),
                                       cpu("aten::b", 200.75, 50.125), gpu("Context Sync", -1, 950, 1, 99, "cuda_sync")});
    const auto run = loadRun(dir, LoadOptions{});
    const CriticalPath exact = criticalPath(*run, CriticalPathOptions{});
    QVERIFY2(exact.success, exact.error.c_str());
    QCOMPARE(exact.lengthNs, int64_t{100500 + 50125});
    const Table summary = criticalPathSummaryTable(exact);
    QCOMPARE(summary.columnNames(), (std::vector<std::string>{"bound_by", "duration (us)", "percent"}));
    // HTA rounds each event to whole microseconds first (start up, end down).
    const auto hta = loadHta(dir);
    CriticalPathOptions o;
    o.htaCompat = true;
    QCOMPARE(criticalPath(*hta, o).lengthNs, int64_t{(110 - 11 + 250 - 201) * 1000});
    // The breakdown names our own event index too; the default mode's event_idx is ours.
    const Table breakdown = criticalPathBreakdownTable(*run, exact);
    QVERIFY(column(breakdown, "event") >= 0);
    // Units on every time column; each segment's start from the run's first event, in path order.
    QCOMPARE(breakdown.columnNames()[1], std::string("start (us)"));
    QCOMPARE(breakdown.columnNames()[2], std::string("duration (us)"));
    double previous = -1.0;
    for (const auto& row : breakdown.rows) {
        const double start = std::get<double>(row[1]);
        QVERIFY(start >= previous);
        previous = start;
    }
    // The window is named by its own event; no blank bound row in the default mode.
    QCOMPARE(exact.windowName, std::string("ProfilerStep#1"));
    for (const auto& row : summary.rows)
        QVERIFY(!std::get<std::string>(row[0]).empty());
}

void TestCriticalPath::options()
{
    // data_load_events: CPU spans whose name contains one of them are data_loading.
    const auto run = loadHta(writeTrace("dataload", {cpu("ProfilerStep#1", 0, 1000, "user_annotation"),
                                                     cpu("my_data_loader", 10, 300), cpu("aten::mm", 400, 100),
                                                     gpu("Context Sync", -1, 950, 1, 99, "cuda_sync")}));
    CriticalPathOptions o;
    o.htaCompat = true;
    o.dataLoadEvents = {"data_load"};
    const CriticalPath r = criticalPath(*run, o);
    QVERIFY2(r.success, r.error.c_str());
    QCOMPARE(percentOf(r, CpBound::DataLoading), 75.0);
    QCOMPARE(percentOf(r, CpBound::CpuBound), 25.0);
    // The whole trace with annotation "".
    o.annotation = "";
    QVERIFY(criticalPath(*run, o).success);
}

void TestCriticalPath::allRanksFollowsTheStraggler()
{
    const auto dir = scratchDir("critical_path_straggler");
    CommandResult synth = runCli("synth " + (dir / "run").string() + " --ranks 4 --steps 3 --straggler 2");
    QCOMPARE(synth.exitCode, 0);
    const auto run = loadRun(dir / "run", LoadOptions{});
    QVERIFY(run->errors.empty());
    CriticalPathOptions o;
    o.annotation = "ProfilerStep#";
    o.instanceStart = o.instanceEnd = 1;
    const CrossRankPath r = criticalPathAllRanks(*run, o);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(r.collectivesLinked > 0);
    bool throughStraggler = false;
    for (const CrossRankSegment& s : r.segments)
        throughStraggler |= s.rank == 2 && s.type != CpEdgeType::CrossRank && s.durationNs > 0;
    QVERIFY(throughStraggler);
    const CrossRankShare* biggest = nullptr;
    for (const CrossRankShare& s : r.shares)
        if (!biggest || s.durationNs > biggest->durationNs)
            biggest = &s;
    QVERIFY(biggest);
    QCOMPARE(biggest->rank, 2);
    QVERIFY(!crossRankPathTable(*run, r).rows.empty());
    QCOMPARE(crossRankSharesTable(r).rows.size(), r.shares.size());
}

void TestCriticalPath::allRanksHandBuilt()
{
    // Two ranks, one all-reduce: rank 1's kernel starts 390 us after rank 0's; both end together.
    const auto dir = scratchDir("critical_path_two_ranks");
    for (int rank : {0, 1}) {
        const double ncclStart = rank == 1 ? 600 : 210;
        const std::vector<std::string> events = {
            cpu("ProfilerStep#1", 0, 1000, "user_annotation"),
            cpu("aten::mm", 10, 20),
            cpu("cudaLaunchKernel", 15, 5, "cuda_runtime", 1),
            gpu("gemm", 7, 30, 100, 1),
            cpu("nccl:all_reduce", 200, 10),
            cpu("cudaLaunchKernel", 202, 5, "cuda_runtime", 2),
            gpu("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 20, ncclStart, 710 - ncclStart, 2),
            cpu("cudaDeviceSynchronize", 215, 555, "cuda_runtime", 3),
            gpu("Context Sync", -1, 216, 553, 3, "cuda_sync"),
        };
        std::string text = "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": " + std::to_string(rank)
            + ", \"world_size\": 2}, \"traceEvents\": [\n";
        for (size_t i = 0; i < events.size(); ++i)
            text += (i ? ",\n" : "") + events[i];
        writeFile(dir / ("rank" + std::to_string(rank) + ".json"), text + "\n]}\n");
    }
    const auto run = loadRun(dir, LoadOptions{});
    QCOMPARE(run->ranks.size(), size_t{2});
    const CrossRankPath r = criticalPathAllRanks(*run, CriticalPathOptions{});
    QVERIFY2(r.error.empty(), r.error.c_str());
    QCOMPARE(r.collectivesLinked, int64_t{1});
    QCOMPARE(r.shares.size(), size_t{2});
    QVERIFY(r.shares[1].durationNs > r.shares[0].durationNs);
    bool lateLaunch = false;
    for (const CrossRankSegment& s : r.segments)
        lateLaunch |= s.rank == 1 && s.type == CpEdgeType::KernelLaunchDelay && s.durationNs >= 390000;
    QVERIFY(lateLaunch);
    // One rank alone is HTA's analysis: rank 0's own path never leaves it.
    const CriticalPath alone = criticalPath(*run, CriticalPathOptions{});
    QVERIFY(alone.success);
}

void TestCriticalPath::allRanksDuplicateRankNumber()
{
    // Two files of rank 0 (both loaded): a short one, and a longer one whose events sit at higher
    // indices; the path (in b.json) must name b.json's events.
    const auto dir = scratchDir("critical_path_duplicate_rank");
    auto write = [&](const std::string& file, const std::string& prefix, int filler, double opDur) {
        std::vector<std::string> events;
        for (int i = 0; i < filler; ++i)
            events.push_back(cpu(prefix + "filler", 2000 + i, 0.5));
        events.push_back(cpu("ProfilerStep#1", 0, 1000, "user_annotation"));
        events.push_back(cpu(prefix + "op", 10, opDur));
        events.push_back(gpu("Context Sync", -1, 950, 1, 99, "cuda_sync"));
        std::string text = "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": 0}, \"traceEvents\": [\n";
        for (size_t i = 0; i < events.size(); ++i)
            text += (i ? ",\n" : "") + events[i];
        writeFile(dir / file, text + "\n]}\n");
    };
    write("a.json", "a_", 0, 100);
    write("b.json", "b_", 500, 800);
    const auto run = loadRun(dir, LoadOptions{});
    QCOMPARE(run->ranks.size(), size_t{2});
    const CrossRankPath r = criticalPathAllRanks(*run, CriticalPathOptions{});
    QVERIFY2(r.error.empty(), r.error.c_str());
    QCOMPARE(r.shares.size(), size_t{2});
    bool named = false;
    for (const CrossRankSegment& s : r.segments)
        if (s.event != kNoEvent) {
            QCOMPARE(run->at(s.rankIndex).file.filename().string(), std::string("b.json"));
            named |= run->str(run->at(s.rankIndex).events.name[s.event]) == "b_op";
        }
    QVERIFY(named);
    const Table table = crossRankPathTable(*run, r);
    const int name = column(table, "name");
    for (const auto& row : table.rows)
        if (const auto* text = std::get_if<std::string>(&row[static_cast<size_t>(name)]))
            QVERIFY2(text->starts_with("b_"), text->c_str());
}

void TestCriticalPath::htaIndexPastInstantEvents()
{
    // HTA's ev_idx is the position in traceEvents (the loader's element offsets): an instant
    // [memory] event and a flow event, neither in HTA's table, still count.
    const auto run = loadHta(writeTrace(
        "instant", {cpu("ProfilerStep#1", 0, 1000, "user_annotation"),
                    "{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 100, "
                    "\"tid\": 100, \"ts\": 5, \"args\": {\"Addr\": 1, \"Bytes\": 512, \"Total Allocated\": 512, "
                    "\"Total Reserved\": 2048, \"Device Type\": 1, \"Device Id\": 0}}",
                    cpu("aten::a", 10, 100),
                    "{\"ph\": \"s\", \"id\": 1, \"pid\": 100, \"tid\": 100, \"ts\": 12, \"cat\": \"fwdbwd\", \"name\": \"fwdbwd\"}",
                    cpu("aten::b", 200, 50), gpu("Context Sync", -1, 950, 1, 99, "cuda_sync")}));
    CriticalPathOptions o;
    o.htaCompat = true;
    const CriticalPath r = criticalPath(*run, o);
    QVERIFY2(r.success, r.error.c_str());
    const EventTable& t = run->ranks[0].events;
    std::map<std::string, int64_t> ids;
    for (const CpNode& n : r.nodes)
        ids[std::string(run->str(t.name[n.event]))] = r.eventId(n.event);
    QCOMPARE(ids["aten::a"], int64_t{2});
    QCOMPARE(ids["aten::b"], int64_t{4});
}

void TestCriticalPath::summaryWithClearedNegativeWeight()
{
    // my_data_loader ends 180 us after its parent aten::a: the edge back to aten::a's end weighs
    // -180 us, which the path counts as 0. The default mode's shares are of the path's length;
    // HTA's summary() divides the raw weights (its breakdown's durations) by their own sum.
    const auto dir = writeTrace("negative", {cpu("ProfilerStep#1", 0, 1000, "user_annotation"), cpu("aten::a", 10, 10),
                                             cpu("my_data_loader", 12, 188), cpu("aten::mm", 400, 100),
                                             gpu("Context Sync", -1, 950, 1, 99, "cuda_sync")});
    CriticalPathOptions o;
    o.dataLoadEvents = {"data_load"};
    const CriticalPath exact = criticalPath(*loadRun(dir, LoadOptions{}), o);
    QVERIFY2(exact.success, exact.error.c_str());
    QCOMPARE(exact.lengthNs, int64_t{290000});  // 2 + 188 + 0 + 100
    double sum = 0;
    for (const CpSummaryRow& row : exact.summary) {
        QVERIFY(row.percent >= 0.0 && row.percent <= 100.0);
        sum += row.percent;
    }
    QVERIFY(std::abs(sum - 100.0) < 1e-9);
    QCOMPARE(percentOf(exact, CpBound::DataLoading), 188.0 / 290.0 * 100.0);

    o.htaCompat = true;
    const CriticalPath hta = criticalPath(*loadHta(dir), o);
    QVERIFY2(hta.success, hta.error.c_str());
    QCOMPARE(hta.lengthNs, int64_t{290000});
    QCOMPARE(percentOf(hta, CpBound::DataLoading), 188.0 / 110.0 * 100.0);  // 2 + 188 - 180 + 100 = 110
}

void TestCriticalPath::cli()
{
    const GoldenCase c = findCase("critical_path__cuda_event_sync");
    if (c.name.empty())
        QSKIP("no ../shared golden critical-path cases here");
    const std::string run = "'" + c.traceDir.string() + "' --hta-compat --annotation ProfilerStep --instance-id 0";
    CommandResult r = runCli("critical-path " + run + " --format csv");
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("bound_by,duration\n"));
    r = runCli("critical-path " + run + " --format csv --breakdown");
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("event_idx,duration,type,s_name,cat,pid,tid,stream,index,bound_by,event\n"));
    const auto out = scratchDir("critical_path_cli_overlay");
    r = runCli("critical-path " + run + " --format csv --overlay '" + out.string() + "'");
    QCOMPARE(r.exitCode, 0);
    QVERIFY(std::filesystem::exists(out / "overlaid_critical_path_event_sync_trace.json.gz"));
    r = runCli("critical-path " + run + " --format csv --overlay /proc/nope");
    QCOMPARE(r.exitCode, 4);  // kExitOutputFailed
    QVERIFY(r.err.find("no overlay") != std::string::npos);
    r = runCli("critical-path '" + c.traceDir.string() + "' --annotation NoSuchThing --format csv");
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.find("no result") != std::string::npos);
    r = runCli("critical-path '" + c.traceDir.string() + "' --instance-id 2,1");
    QCOMPARE(r.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_critical_path.moc"
