// Launch statistics, queue length, memory bandwidth, traces with counters and CUPTI counters
// against HTA's own output for every golden case that has it: the trace loaded in HTA's mode,
// each analysis run with the arguments HTA got (params.json), its table (analysis/launchtables,
// what the CLI prints) compared column by column. Where HTA returned nothing, we answer with no
// rows and say why.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/launch/countertrace.h"
#include "analysis/launch/cupticounters.h"
#include "analysis/launch/launchstats.h"
#include "analysis/tables/launchtables.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "goldentables.h"
#include "model/loader.h"
#endif

#include <QtTest>

#include <map>

using namespace kscope;
using namespace kscope::test;

namespace {

std::shared_ptr<Run> loadCase(const GoldenCase& goldenCase)
{
    static std::map<std::string, std::shared_ptr<Run>> cache;
    auto& run = cache[goldenCase.name];
    if (!run) {
        LoadOptions options;
        options.htaCompat = true;
        const GoldenCall parse = goldenCall(goldenCase.goldenDir, "parse");
        options.includeLastStep = parse.kwargs.value("include_last_profiler_step").toBool(false);
        run = loadRun(goldenCase.traceDir, options);
    }
    return run;
}

GoldenCase findCase(const QString& name)
{
    for (const GoldenCase& c : goldenCases())
        if (c.name == name.toStdString())
            return c;
    return {};
}

std::vector<int> ranksOf(const GoldenCall& call)
{
    std::vector<int> ranks;
    for (const QJsonValue& r : call.kwargs.value("ranks").toArray())
        ranks.push_back(r.toInt());
    return ranks.empty() ? std::vector<int>{0} : ranks;
}

// Our rows of one rank (the tables carry a rank column; HTA's frames are per rank).
std::vector<std::vector<Cell>> rowsOfRank(const Table& table, int rank)
{
    const auto it = std::find(table.columns.begin(), table.columns.end(), "rank");
    const size_t at = static_cast<size_t>(it - table.columns.begin());
    std::vector<std::vector<Cell>> rows;
    for (const auto& row : table.rows)
        if (std::get<int64_t>(row[at]) == rank)
            rows.push_back(row);
    return rows;
}

// A golden frame per rank: golden/<case>/<stem>_rank<r>.csv[.gz]; not found when HTA returned {}.
void comparePerRank(const GoldenCase& c, const std::string& stem, const std::vector<int>& ranks, const Table& ours,
                    const std::vector<ColumnMatch>& columns)
{
    for (int rank : ranks) {
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem + "_rank" + std::to_string(rank));
        const auto mine = rowsOfRank(ours, rank);
        if (!golden.found) {
            QVERIFY2(mine.empty(), qPrintable(QString::fromStdString(stem) + ": rows where HTA returned nothing"));
            continue;
        }
        const std::string difference = compareWithGolden(golden, golden.rows, ours, mine, columns);
        QVERIFY2(difference.empty(), qPrintable(QString::fromStdString(c.name + ": " + stem + " rank "
                                                                       + std::to_string(rank) + ": " + difference)));
    }
}

bool hasNote(const Table& table, const std::string& text)
{
    for (const std::string& note : table.notes)
        if (note.find(text) != std::string::npos)
            return true;
    return false;
}

const std::vector<ColumnMatch> kDescribe = {
    {"count", "count", true}, {"mean", "mean"}, {"std", "std"}, {"min", "min"},
    {"25%", "25%"},           {"50%", "50%"},   {"75%", "75%"}, {"max", "max"},
};

std::vector<ColumnMatch> describeColumns(const std::string& key)
{
    std::vector<ColumnMatch> columns = {{"rank", "rank", true}, {key, key, key == "stream"}};
    columns.insert(columns.end(), kDescribe.begin(), kDescribe.end());
    return columns;
}

} // namespace

class TestGoldenLaunch : public QObject {
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void counters_data();
    void counters();
    void defaultModeWhereHtaSeesNothing_data();
    void defaultModeWhereHtaSeesNothing();
};

void TestGoldenLaunch::golden_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("step");
    const auto cases = goldenCases();
    if (cases.empty())
        QSKIP("no ../shared/traces with golden output here");
    for (const GoldenCase& c : cases)
        for (const char* step :
             {"get_cuda_kernel_launch_stats", "get_queue_length_time_series", "get_queue_length_summary",
              "get_queue_length_summary_from_time_series", "get_time_spent_blocked_on_full_queue",
              "get_time_spent_blocked_on_full_queue_maxobs", "get_memory_bw_time_series", "get_memory_bw_summary",
              "get_cupti_counter_data_with_operators"})  // generate_trace_with_counters: counters()
            QTest::addRow("%s/%s", c.name.c_str(), step) << QString::fromStdString(c.name) << QString(step);
}

void TestGoldenLaunch::golden()
{
    QFETCH(QString, caseName);
    QFETCH(QString, step);
    const GoldenCase c = findCase(caseName);
    const GoldenCall call = goldenCall(c.goldenDir, step);
    if (!call.found)
        QSKIP("HTA never made this call (its parse failed)");
    QCOMPARE(call.status, QString("ok"));  // HTA raised in none of these cases
    const auto run = loadCase(c);
    QVERIFY2(!run->ranks.empty(), "the run did not load");
    const std::string stem = step.toStdString();
    const QJsonObject& kw = call.kwargs;

    if (step == "get_cuda_kernel_launch_stats") {
        LaunchStatsOptions options;
        options.htaCompat = true;
        options.ranks = choiceOfNumbers(*run, ranksOf(call));
        options.runtimeCutoffUs = kw.value("runtime_cutoff").toDouble(50);
        options.launchDelayCutoffUs = kw.value("launch_delay_cutoff").toDouble(100);
        options.includeMemoryEvents = kw.value("include_memory_events").toBool(true);
        const Table table = launchStatsTable(*run, kernelLaunchStats(*run, options));
        comparePerRank(c, stem, ranksOf(call), table,
                       {{"correlation", "correlation", true},
                        {"cpu_duration", "cpu_duration", true},
                        {"gpu_duration", "gpu_duration", true},
                        {"launch_delay", "launch_delay", true}});
        return;
    }
    if (step.startsWith("get_queue_length") || step.startsWith("get_time_spent_blocked")) {
        QueueLengthOptions options;
        options.htaCompat = true;
        const std::vector<int> ranks = ranksOf(goldenCall(c.goldenDir, "get_queue_length_time_series"));
        options.ranks = choiceOfNumbers(*run, ranks);
        if (kw.value("max_queue_length").isDouble())
            options.maxQueueLength = kw.value("max_queue_length").toInt();
        const QueueLength result = queueLength(*run, options);
        if (step == "get_queue_length_time_series") {
            const Table table = queueSeriesTable(*run, result);
            comparePerRank(c, stem, ranks, table,
                           {{"ts", "ts", true}, {"pid", "pid", true}, {"tid", "tid", true},
                            {"stream", "stream", true}, {"queue_length", "queue_length", true}});
            if (!readGoldenCsv(c.goldenDir, stem + "_rank" + std::to_string(ranks.front())).found)
                QVERIFY2(hasNote(table, "no result:"), "HTA returned no series: we should say why");
            return;
        }
        if (step.startsWith("get_queue_length_summary")) {
            const Table table = queueSummaryTable(result);
            const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem);
            if (!golden.found) {  // HTA returned None
                QVERIFY(table.rows.empty());
                QVERIFY2(hasNote(table, "no result:"), "no reason given");
                return;
            }
            const std::string difference = compareWithGolden(goldenDescribe(golden), table, describeColumns("stream"));
            QVERIFY2(difference.empty(), difference.c_str());
            return;
        }
        const Table table = queueBlockedTable(result);
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem);
        QVERIFY(golden.found);
        const std::string difference = compareWithGolden(
            golden, table,
            {{"rank", "rank", true},
             {"stream", "stream", true},
             {"duration_at_max_queue_length", "duration_at_max_queue_length", true},
             {"relative_duration_at_max_queue_length", "relative_duration_at_max_queue_length"}});
        QVERIFY2(difference.empty(), difference.c_str());
        return;
    }
    if (step.startsWith("get_memory_bw")) {
        const MemoryBandwidth result = memoryBandwidth(*run, {.htaCompat = true, .ranks = choiceOfNumbers(*run, ranksOf(call))});
        if (step == "get_memory_bw_time_series") {
            const Table table = memoryBwSeriesTable(*run, result);
            comparePerRank(c, stem, ranksOf(call), table,
                           {{"ts", "ts", true}, {"pid", "pid", true}, {"name", "name"},
                            {"memory_bw_gbps", "memory_bw_gbps"}});
            return;
        }
        const Table table = memoryBwSummaryTable(result);
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem);
        if (!golden.found) {  // HTA returned None: no copies
            QVERIFY(table.rows.empty());
            QVERIFY2(hasNote(table, "no result:"), "no reason given");
            return;
        }
        const std::string difference = compareWithGolden(goldenDescribe(golden), table, describeColumns("name"));
        QVERIFY2(difference.empty(), difference.c_str());
        return;
    }
    // get_cupti_counter_data_with_operators: one frame per rank that has profiled kernels.
    const CuptiCounters result = cuptiCounters(*run, {.htaCompat = true, .ranks = choiceOfNumbers(*run, ranksOf(call))});
    const Table table = cuptiCountersTable(*run, result);
    const std::vector<int> ranks = ranksOf(call);
    size_t frames = 0;
    for (size_t k = 0; k < ranks.size(); ++k) {
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem + "_" + std::to_string(k));
        if (!golden.found)
            continue;
        ++frames;
        std::vector<ColumnMatch> columns = {{"name", "name"}, {"ts", "ts", true}, {"dur", "dur", true},
                                            {"op_stack", "op_stack", false, pythonListToSemicolons},
                                            {"top_level_op", "top_level_op"}, {"bottom_level_op", "bottom_level_op"}};
        // Every CUPTI metric HTA has (their names hold "__": smsp__..., dram__...).
        size_t counters = 0;
        for (const std::string& column : golden.header)
            if (column.find("__") != std::string::npos && column != "__missing__") {
                columns.push_back({column, column, true});
                ++counters;
            }
        QVERIFY2(counters > 0 && counters == result.counterNames.size(), "the counter columns differ from HTA's");
        const std::string difference =
            compareWithGolden(golden, golden.rows, table, rowsOfRank(table, ranks[k]), columns);
        QVERIFY2(difference.empty(), difference.c_str());
    }
    if (frames == 0) {  // HTA returned []: no cuda_profiler_range events
        QVERIFY(table.rows.empty());
        QVERIFY2(hasNote(table, "cuda_profiler_range"), "no reason given");
    }
}

void TestGoldenLaunch::counters_data()
{
    QTest::addColumn<QString>("caseName");
    const auto cases = goldenCases();
    if (cases.empty())
        QSKIP("no ../shared/traces with golden output here");
    for (const GoldenCase& c : cases)
        if (goldenCall(c.goldenDir, "generate_trace_with_counters_counter_events").found)
            QTest::addRow("%s", c.name.c_str()) << QString::fromStdString(c.name);
}

// HTA's counter events: its trace copies re-read, the "ph": "C" events listed (file, name, id,
// pid, tid, ts, args). Ours must be the same events in the same order, and each copy a trace that
// JSON parsers and our loader read.
void TestGoldenLaunch::counters()
{
    QFETCH(QString, caseName);
    const GoldenCase c = findCase(caseName);
    const GoldenCall call = goldenCall(c.goldenDir, "generate_trace_with_counters_counter_events");
    const auto run = loadCase(c);
    CounterTraceOptions options;
    options.htaCompat = true;
    options.ranks = choiceOfNumbers(*run, ranksOf(call));
    options.outputDir = scratchDir("golden-counters-" + c.name);
    const CounterTraces result = writeTracesWithCounters(*run, options);
    QVERIFY2(result.error.empty(), result.error.c_str());
    const GoldenCsv golden = readGoldenCsv(c.goldenDir, "generate_trace_with_counters_counter_events");
    QVERIFY(golden.found);
    const int fileColumn = golden.column("file"), nameColumn = golden.column("name"), idColumn = golden.column("id"),
              pidColumn = golden.column("pid"), tsColumn = golden.column("ts"), argsColumn = golden.column("args");
    size_t goldenRow = 0;
    for (const CounterTraceFile& file : result.files) {
        QVERIFY2(file.error.empty(), file.error.c_str());
        QCOMPARE(file.output.filename().string(), counterTraceName(file.input, "_with_counters").string());
        const std::string text = readMaybeGzip(file.output);
        QJsonArray events;
        if (text.size() < (8u << 20)) {
            // Small copies: the whole file through a strict JSON parser.
            QJsonParseError parseError;
            const QJsonDocument whole = QJsonDocument::fromJson(QByteArray::fromStdString(text), &parseError);
            QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));
            events = whole.object().value("traceEvents").toArray();
        } else {
            // Large ones (seconds for QJsonDocument): the spliced lines, one event each.
            for (size_t at = text.find(R"({"ph": "C")"); at != std::string::npos; at = text.find(R"({"ph": "C")", at + 1)) {
                const size_t end = text.find('\n', at);
                std::string line = text.substr(at, end - at);
                if (!line.empty() && line.back() == ',')
                    line.pop_back();
                events.append(QJsonDocument::fromJson(QByteArray::fromStdString(line)).object());
            }
        }
        int64_t counters = 0;
        for (const QJsonValue& value : events) {
            const QJsonObject e = value.toObject();
            if (e.value("ph").toString() != "C")
                continue;
            ++counters;
            QVERIFY2(goldenRow < golden.rows.size(), "more counter events than HTA wrote");
            const auto& row = golden.rows[goldenRow++];
            const std::string where = file.output.filename().string() + " event " + std::to_string(counters);
            QCOMPARE(row[fileColumn], file.output.filename().string());
            QCOMPARE(e.value("name").toString().toStdString(), row[nameColumn]);
            double number = 0.0;
            if (parseGoldenNumber(row[idColumn], number))
                QCOMPARE(e.value("id").toDouble(), number);
            else
                QVERIFY2(!e.contains("id"), where.c_str());
            QVERIFY(parseGoldenNumber(row[pidColumn], number));
            QCOMPARE(e.value("pid").toDouble(), number);
            QVERIFY(parseGoldenNumber(row[tsColumn], number));
            QVERIFY2(e.value("ts").toDouble() == number, qPrintable(QString::fromStdString(where) + " ts "
                                                                     + QString::number(e.value("ts").toDouble(), 'f', 3)));
            const QJsonObject hta = QJsonDocument::fromJson(QByteArray::fromStdString(row[argsColumn])).object();
            const QJsonObject ours = e.value("args").toObject();
            QCOMPARE(ours.keys(), hta.keys());
            for (const QString& key : hta.keys()) {
                const double want = hta.value(key).toDouble(), got = ours.value(key).toDouble();
                QVERIFY2(std::abs(got - want) <= 1e-6 * std::max(std::abs(got), std::abs(want)) + 1e-12,
                         qPrintable(QString::fromStdString(where) + " " + key));
            }
        }
        QCOMPARE(counters, file.counterEvents);
        if (text.size() >= (8u << 20))
            continue;  // reading copies back is checked on the small ones (seconds saved)
        // Our own loader reads the copy: the same events, plus the counters as counter samples.
        LoadOptions load;
        load.htaCompat = true;
        const auto copy = loadRun(file.output, load);
        QVERIFY(copy->errors.empty());
        QCOMPARE(copy->ranks.size(), size_t{1});
        const RankTrace* original = run->findRank(file.rank);
        QCOMPARE(copy->ranks[0].eventsRead, original->eventsRead + static_cast<uint64_t>(counters));
        QCOMPARE(static_cast<int64_t>(copy->ranks[0].counters.size()),
                 static_cast<int64_t>(original->counters.size()) + counters);
    }
    QCOMPARE(goldenRow, golden.rows.size());
}

void TestGoldenLaunch::defaultModeWhereHtaSeesNothing_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("analysis");
    QTest::addColumn<int>("rows");          // ours, default mode
    QTest::addColumn<QString>("launchApi"); // of every launch row; empty: no rows
    // HTA sees no ROCm, driver-API or graph launches: its frames are empty here.
    QTest::newRow("amd launches") << "amd_trace" << "launch-stats" << 16 << "hip";
    QTest::newRow("triton launches") << "triton_example" << "launch-stats" << 1 << "cuLaunchKernel";
    // No GPU at all: no rows, and a reason (HTA returns {} / None without one).
    QTest::newRow("cpu only launches") << "cpu_only" << "launch-stats" << 0 << "";
    QTest::newRow("cpu only queue") << "cpu_only" << "queue-length" << 0 << "";
    QTest::newRow("cpu only bandwidth") << "cpu_only" << "memory-bw" << 0 << "";
    QTest::newRow("cpu only cupti") << "cpu_only" << "cupti-counters" << 0 << "";
    QTest::newRow("range profiler queue") << "cupti_profiler" << "queue-length" << 0 << "";
}

void TestGoldenLaunch::defaultModeWhereHtaSeesNothing()
{
    QFETCH(QString, caseName);
    QFETCH(QString, analysis);
    QFETCH(int, rows);
    QFETCH(QString, launchApi);
    const GoldenCase c = findCase(caseName);
    if (c.name.empty())
        QSKIP("../shared/traces is not here");
    const auto run = loadRun(c.traceDir, LoadOptions{});
    Table table;
    if (analysis == "launch-stats")
        table = launchStatsTable(*run, kernelLaunchStats(*run, {}));
    else if (analysis == "queue-length")
        table = queueSeriesTable(*run, queueLength(*run, {}));
    else if (analysis == "memory-bw")
        table = memoryBwSeriesTable(*run, memoryBandwidth(*run, {}));
    else
        table = cuptiCountersTable(*run, cuptiCounters(*run, {}));
    QCOMPARE(static_cast<int>(table.rows.size()), rows);
    if (rows == 0) {
        QVERIFY2(hasNote(table, "no result:"), "no reason given");
        return;
    }
    const auto api = std::find(table.columns.begin(), table.columns.end(), "launch_api") - table.columns.begin();
    for (const auto& row : table.rows)
        QVERIFY(std::get<std::string>(row[api]).starts_with(launchApi.toStdString()));
    QVERIFY2(hasNote(table, "launches HTA does not count"), "the launches HTA misses are not reported");
}

QTEST_GUILESS_MAIN(TestGoldenLaunch)
#include "tst_golden_launch.moc"
