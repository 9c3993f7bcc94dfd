// Frequent kernel sequences (and their overlaid traces), ATen op -> kernel delays, user
// annotations, annotated kernels, profiler steps and stragglers against HTA's own output for
// every golden case: the trace loaded in HTA's mode, each analysis run with the arguments HTA got
// (params.json), its table (analysis/patterntables, what the CLI prints) compared column by
// column. Where HTA raised or returned nothing, we have no rows and say why.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/patterns/annotations.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/launch/opkernels.h"
#include "analysis/patterns/patternoverlay.h"
#include "analysis/tables/patterntables.h"
#include "analysis/patterns/steps.h"
#include "goldentables.h"
#include "model/loader.h"
#endif

#include <QtTest>

#include <map>
#include <set>

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

std::vector<std::vector<Cell>> rowsOfRank(const Table& table, int rank)
{
    const size_t at = static_cast<size_t>(std::find(table.columns.begin(), table.columns.end(), "rank") - table.columns.begin());
    std::vector<std::vector<Cell>> rows;
    for (const auto& row : table.rows)
        if (std::get<int64_t>(row[at]) == rank)
            rows.push_back(row);
    return rows;
}

bool hasNote(const Table& table, const std::string& text)
{
    for (const std::string& note : table.notes)
        if (note.find(text) != std::string::npos)
            return true;
    return false;
}

std::string notesOf(const Table& table)
{
    std::string text;
    for (const std::string& note : table.notes)
        text += note + "; ";
    return text;
}

// The golden JSON list (get_profiler_steps.json, get_potential_stragglers.json).
std::vector<int> goldenList(const GoldenCase& c, const std::string& file)
{
    std::vector<int> values;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(readMaybeGzip(c.goldenDir / file)));
    for (const QJsonValue& v : doc.array())
        values.push_back(v.toInt());
    return values;
}

// Events that carry args.Patterns in an overlaid trace: (ts, name, Patterns as text).
std::multiset<std::tuple<double, std::string, std::string>> markedEvents(const std::filesystem::path& file)
{
    std::multiset<std::tuple<double, std::string, std::string>> marked;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(readMaybeGzip(file)));
    for (const QJsonValue& v : doc.object().value("traceEvents").toArray()) {
        const QJsonObject e = v.toObject();
        const QJsonObject patterns = e.value("args").toObject().value("Patterns").toObject();
        if (patterns.isEmpty())
            continue;
        marked.emplace(e.value("ts").toDouble(), e.value("name").toString().toStdString(),
                       QJsonDocument(patterns).toJson(QJsonDocument::Compact).toStdString());
    }
    return marked;
}

const char* const kSteps[] = {"get_frequent_cuda_kernel_sequences", "get_aten_op_kernels_and_delay",
                              "get_gpu_user_annotation_breakdown",  "get_gpu_user_annotation_breakdown_cpu",
                              "get_gpu_kernels_with_user_annotations", "get_profiler_steps",
                              "get_potential_stragglers"};

} // namespace

class TestGoldenPatterns : public QObject {
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void overlay_data();
    void overlay();
};

void TestGoldenPatterns::golden_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("step");
    const auto cases = goldenCases();
    if (cases.empty())
        QSKIP("no ../shared/traces with golden output here");
    for (const GoldenCase& c : cases)
        for (const char* step : kSteps)
            QTest::addRow("%s/%s", c.name.c_str(), step) << QString::fromStdString(c.name) << QString(step);
}

void TestGoldenPatterns::golden()
{
    QFETCH(QString, caseName);
    QFETCH(QString, step);
    const GoldenCase c = findCase(caseName);
    const GoldenCall call = goldenCall(c.goldenDir, step);
    if (!call.found)
        QSKIP("HTA never made this call (its parse failed)");
    const auto run = loadCase(c);
    QVERIFY2(!run->ranks.empty(), "the run did not load");
    const std::string stem = step.toStdString();
    const QJsonObject& kw = call.kwargs;
    const bool raised = call.status != "ok";

    if (step == "get_frequent_cuda_kernel_sequences") {
        KernelPatternOptions options;
        options.htaCompat = true;
        options.operatorName = kw.value("operator_name").toString().toStdString();
        options.minPatternLength = kw.value("min_pattern_len").toInt(3);
        options.topK = kw.value("top_k").toInt(5);
        const int rank = kw.value("rank").toInt(0);
        options.ranks = choiceOfNumbers(*run, {rank});
        const Table table = patternsTable(*run, frequentKernelSequences(*run, options));
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem);
        if (raised) {
            QVERIFY(call.error.contains("Unexpected case"));
            QVERIFY(table.rows.empty());
            QVERIFY2(hasNote(table, "Unexpected case"), qPrintable(QString::fromStdString(notesOf(table))));
            return;
        }
        QVERIFY(golden.found);
        if (golden.header.size() <= 1) {  // HTA's empty frame
            QVERIFY2(table.rows.empty(), "patterns where HTA found none");
            QVERIFY2(hasNote(table, "no result:"), "no reason given");
            return;
        }
        // HTA's frame exactly: its columns after the index, no rank column ([trust] 10).
        QCOMPARE(table.columnNames(), std::vector<std::string>(golden.header.begin() + 1, golden.header.end()));
        const std::string difference = compareWithGolden(golden, golden.rows, table, table.rows,
                                                         {{"pattern", "pattern"},
                                                          {"count", "count", true},
                                                          {"GPU kernel duration (us)", "GPU kernel duration (us)", true},
                                                          {"CPU op duration (us)", "CPU op duration (us)", true}});
        QVERIFY2(difference.empty(), difference.c_str());
        return;
    }
    if (step == "get_aten_op_kernels_and_delay") {
        OpKernelsOptions options;
        options.htaCompat = true;
        std::vector<int> ranks;
        for (const QJsonValue& r : kw.value("ranks").toArray())
            ranks.push_back(r.toInt());
        options.ranks = choiceOfNumbers(*run, ranks.empty() ? std::vector<int>{0} : ranks);
        const Table table = opKernelsTable(*run, opKernelDelays(*run, options));
        if (raised) {
            QVERIFY(table.rows.empty());
            const std::string why = call.error.contains("KeyError") ? "KeyError" : "ValueError";
            QVERIFY2(hasNote(table, why), qPrintable(QString::fromStdString(notesOf(table))));
            return;
        }
        for (int rank : ranks.empty() ? std::vector<int>{0} : ranks) {
            const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem + "_rank" + std::to_string(rank));
            QVERIFY(golden.found);
            const std::string difference =
                compareWithGolden(golden, golden.rows, table, rowsOfRank(table, rank),
                                  {{"aten_op_name", "aten_op_name"},
                                   {"kernel_sequence", "kernel_sequence"},
                                   {"occurrence_count", "occurrence_count", true},
                                   {"avg_aten_op_launch_delay", "avg_aten_op_launch_delay"},
                                   {"avg_runtime_delay", "avg_runtime_delay"}});
            QVERIFY2(difference.empty(), qPrintable(QString::fromStdString("rank " + std::to_string(rank) + ": " + difference)));
        }
        return;
    }
    if (step == "get_potential_stragglers") {
        StragglerOptions options;
        options.htaCompat = true;
        options.candidates = kw.value("num_candidates").toInt(2);
        for (const QJsonValue& s : kw.value("profiler_steps").toArray())
            options.steps.push_back(s.toInt());
        const Stragglers result = potentialStragglers(*run, options);
        const Table table = stragglersTable(*run, result);
        if (raised) {
            QVERIFY(result.ranks.empty());
            QVERIFY2(hasNote(table, "HTA raises"), qPrintable(QString::fromStdString(notesOf(table))));
            return;
        }
        QCOMPARE(result.ranks, goldenList(c, stem + ".json"));
        return;
    }
    QVERIFY2(!raised, qPrintable(call.error));
    if (step.startsWith("get_gpu_user_annotation_breakdown")) {
        AnnotationOptions options;
        options.htaCompat = true;
        options.cpu = !kw.value("use_gpu_annotation").toBool(true);
        options.durationRatio = kw.value("duration_ratio").toDouble(0.8);
        options.numKernels = kw.value("num_kernels").toInt(1000);
        for (const QJsonValue& p : kw.value("allowlist_patterns").toArray())
            options.allow.push_back(p.toString().toStdString());
        const Table table = annotationsTable(*run, userAnnotationBreakdown(*run, options));
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem);
        if (!golden.found) {  // HTA returned None
            QVERIFY(table.rows.empty());
            QVERIFY2(hasNote(table, "no result:"), "no reason given");
            return;
        }
        const std::string difference = compareWithGolden(
            golden, table,
            {{"name", "name"}, {"sum (us)", "sum (us)", true}, {"max (us)", "max (us)", true},
             {"min (us)", "min (us)", true}, {"stddev", "stddev"}, {"mean (us)", "mean (us)"}, {"rank", "rank", true}});
        QVERIFY2(difference.empty(), difference.c_str());
        return;
    }
    if (step == "get_gpu_kernels_with_user_annotations") {
        const int rank = kw.value("rank").toInt(0);
        const Table table = annotatedKernelsTable(*run, kernelsWithAnnotations(*run, {.htaCompat = true, .ranks = choiceOfNumbers(*run, {rank})}));
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, stem);
        if (!golden.found) {  // HTA returned None: no gpu_user_annotation
            QVERIFY(table.rows.empty());
            QVERIFY2(hasNote(table, "no result:"), "no reason given");
            return;
        }
        const std::string difference = compareWithGolden(
            golden, golden.rows, table, rowsOfRank(table, rank),
            {{"ts", "ts", true}, {"dur", "dur", true}, {"stream", "stream", true}, {"correlation", "correlation", true},
             {"s_name", "s_name"}, {"s_user_annotation", "s_user_annotation"}});
        QVERIFY2(difference.empty(), difference.c_str());
        return;
    }
    if (step == "get_profiler_steps") {
        const ProfilerSteps steps = profilerSteps(*run);
        QCOMPARE(steps.steps, goldenList(c, stem + ".json"));
        return;
    }
    QFAIL("unknown step");
}

void TestGoldenPatterns::overlay_data()
{
    QTest::addColumn<QString>("caseName");
    const auto cases = goldenCases();
    if (cases.empty())
        QSKIP("no ../shared/traces with golden output here");
    for (const GoldenCase& c : cases) {
        const GoldenCall call = goldenCall(c.goldenDir, "get_frequent_cuda_kernel_sequences");
        const GoldenCsv golden = readGoldenCsv(c.goldenDir, "get_frequent_cuda_kernel_sequences");
        if (call.found && call.status == "ok" && golden.rows.size() > 0)
            QTest::addRow("%s", c.name.c_str()) << QString::fromStdString(c.name);
    }
}

// HTA's overlaid trace marks every event of the top patterns' occurrences with args.Patterns:
// ours marks the same events with the same patterns and counts.
void TestGoldenPatterns::overlay()
{
    QFETCH(QString, caseName);
    const GoldenCase c = findCase(caseName);
    const GoldenCall call = goldenCall(c.goldenDir, "get_frequent_cuda_kernel_sequences");
    const auto run = loadCase(c);
    KernelPatternOptions options;
    options.htaCompat = true;
    options.operatorName = call.kwargs.value("operator_name").toString().toStdString();
    options.minPatternLength = call.kwargs.value("min_pattern_len").toInt(3);
    options.topK = call.kwargs.value("top_k").toInt(5);
    options.ranks = choiceOfNumbers(*run, {call.kwargs.value("rank").toInt(0)});
    const KernelPatterns patterns = frequentKernelSequences(*run, options);
    const PatternOverlay overlay = writePatternOverlays(*run, patterns, scratchDir("golden-overlay-" + c.name));
    QVERIFY2(overlay.error.empty(), overlay.error.c_str());
    QCOMPARE(overlay.files.size(), size_t{1});
    const PatternOverlayFile& file = overlay.files.front();
    QVERIFY2(file.error.empty(), file.error.c_str());
    const std::filesystem::path hta = c.goldenDir / "artifacts" / file.output.filename();
    QVERIFY2(std::filesystem::exists(hta), hta.string().c_str());
    const auto ours = markedEvents(file.output);
    const auto theirs = markedEvents(hta);
    QCOMPARE(static_cast<int64_t>(ours.size()), file.eventsMarked);
    QCOMPARE(ours.size(), theirs.size());
    QVERIFY(ours == theirs);
}

QTEST_GUILESS_MAIN(TestGoldenPatterns)
#include "tst_golden_patterns.moc"
