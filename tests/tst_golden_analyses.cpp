// Every golden case against HTA's own output: load the trace with --hta-compat semantics, run
// each analysis with the arguments HTA got (params.json), and compare the tables users get
// (analysis/resulttables, as the CLI prints and the GUI exports them) row by row.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/overlap.h"
#include "analysis/tables/resulttables.h"
#include "analysis/core/temporalbreakdown.h"
#include "goldencsv.h"
#include "model/loader.h"
#endif

#include <QtTest>

#include <cmath>
#include <map>
#include <set>
#include <variant>

using namespace kscope;
using namespace kscope::test;

namespace {

using Value = std::variant<std::monostate, double, std::string>;

// Our table as values, found by HTA's column names.
struct OurTable {
    std::vector<std::string> columns;
    std::vector<std::vector<Value>> rows;
    std::set<std::string> exactColumns;  // integers and µs sums: no tolerance
};

bool parseNumber(const std::string& text, double& value)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

// Empty string when the tables agree, else the first difference with its row and column.
std::string compareTables(const GoldenCsv& golden, const OurTable& ours)
{
    if (golden.rows.size() != ours.rows.size())
        return "row count: HTA " + std::to_string(golden.rows.size()) + ", ours " + std::to_string(ours.rows.size());
    for (size_t r = 0; r < golden.rows.size(); ++r) {
        for (size_t gc = 0; gc < golden.header.size(); ++gc) {
            const std::string& column = golden.header[gc];
            if (column.empty())
                continue;  // pandas' index
            const auto it = std::find(ours.columns.begin(), ours.columns.end(), column);
            if (it == ours.columns.end())
                return "column " + column + " missing";
            const Value& mine = ours.rows[r][static_cast<size_t>(it - ours.columns.begin())];
            const std::string expected = gc < golden.rows[r].size() ? golden.rows[r][gc] : std::string();
            const std::string where = "row " + std::to_string(r) + " column '" + column + "': HTA '" + expected + "', ours ";
            double expectedNumber = 0.0;
            if (expected.empty()) {
                if (!std::holds_alternative<std::monostate>(mine))
                    return where + "a value where HTA has none";
            } else if (std::holds_alternative<std::string>(mine)) {
                if (std::get<std::string>(mine) != expected)
                    return where + "'" + std::get<std::string>(mine) + "'";
            } else if (parseNumber(expected, expectedNumber)) {
                if (!std::holds_alternative<double>(mine))
                    return where + "nothing";
                const double got = std::get<double>(mine);
                const bool exact = ours.exactColumns.count(column) > 0;
                const double tolerance = exact ? 0.0 : 1e-6 * std::max(std::abs(got), std::abs(expectedNumber)) + 1e-12;
                if (std::abs(got - expectedNumber) > tolerance)
                    return where + QString::number(got, 'g', 17).toStdString();
            } else {
                return where + "a number";
            }
        }
    }
    return {};
}

// A table users get (analysis/resulttables: what the CLI prints and the GUI exports) as values.
// exactColumns: integers and µs sums, compared without tolerance.
OurTable valuesOf(const Table& table, std::set<std::string> exactColumns)
{
    OurTable ours;
    ours.columns = table.columnNames();
    ours.exactColumns = std::move(exactColumns);
    for (const std::vector<Cell>& row : table.rows) {
        std::vector<Value> values;
        for (const Cell& cell : row) {
            if (const auto* integer = std::get_if<int64_t>(&cell))
                values.emplace_back(static_cast<double>(*integer));
            else if (const auto* number = std::get_if<double>(&cell))
                values.emplace_back(*number);
            else if (const auto* text = std::get_if<std::string>(&cell))
                values.emplace_back(*text);
            else
                values.emplace_back();
        }
        ours.rows.push_back(std::move(values));
    }
    return ours;
}

// The CLI's CSV as a table of values (numbers where they parse).
OurTable tableFromCsv(const GoldenCsv& csv)
{
    OurTable table;
    table.columns = csv.header;
    for (const auto& row : csv.rows) {
        std::vector<Value> values;
        for (const std::string& cell : row) {
            double number = 0.0;
            if (cell.empty())
                values.emplace_back();
            else if (parseNumber(cell, number))
                values.emplace_back(number);
            else
                values.emplace_back(cell);
        }
        values.resize(table.columns.size());
        table.rows.push_back(std::move(values));
    }
    return table;
}

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

} // namespace

class TestGoldenAnalyses : public QObject {
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void cliMatchesGolden_data();
    void cliMatchesGolden();
};

void TestGoldenAnalyses::golden_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("step");
    const auto cases = goldenCases();
    if (cases.empty())
        QSKIP("no ../shared/traces with golden output here");
    for (const GoldenCase& c : cases)
        for (const char* step : {"get_temporal_breakdown", "get_gpu_kernel_breakdown", "get_gpu_kernel_breakdown_nomem",
                                 "get_gpu_kernel_breakdown_all", "get_idle_time_breakdown",
                                 "get_idle_time_breakdown_stats", "get_comm_comp_overlap"})
            QTest::addRow("%s/%s", c.name.c_str(), step) << QString::fromStdString(c.name) << QString(step);
}

void TestGoldenAnalyses::golden()
{
    QFETCH(QString, caseName);
    QFETCH(QString, step);
    GoldenCase goldenCase;
    for (const GoldenCase& c : goldenCases())
        if (c.name == caseName.toStdString())
            goldenCase = c;
    const GoldenCall call = goldenCall(goldenCase.goldenDir, step);
    if (!call.found)
        QSKIP("HTA never made this call (its parse failed)");
    const auto run = loadCase(goldenCase);
    QVERIFY2(!run->ranks.empty(), "the run did not load");

    // (file stem, our table) per frame HTA returned; error: our message where HTA raised.
    std::vector<std::pair<std::string, OurTable>> frames;
    std::string error;
    const std::string stem = step.toStdString();
    const QJsonObject& kw = call.kwargs;
    if (step == "get_temporal_breakdown") {
        const TemporalBreakdown t = temporalBreakdown(*run, {.htaCompat = true});
        error = t.error;
        frames.emplace_back(stem, valuesOf(temporalTable(t), {"rank", "idle_time(us)", "compute_time(us)",
                                                             "non_compute_time(us)", "kernel_time(us)"}));
    } else if (step.startsWith("get_gpu_kernel_breakdown")) {
        KernelBreakdownOptions options;
        options.htaCompat = true;
        options.durationRatio = kw.value("duration_ratio").toDouble(0.8);
        options.numKernels = kw.value("num_kernels").toInt(10);
        options.includeMemoryKernels = kw.value("include_memory_kernels").toBool(true);
        const KernelBreakdown k = kernelBreakdown(*run, options);
        error = k.error;
        frames.emplace_back(stem + "_kernel_type", valuesOf(kernelTypesTable(k), {"sum"}));
        frames.emplace_back(stem + "_kernel",
                            valuesOf(kernelsTable(*run, k), {"sum (us)", "max (us)", "min (us)", "rank"}));
    } else if (step.startsWith("get_idle_time_breakdown")) {
        IdleTimeOptions options;
        options.htaCompat = true;
        std::vector<int> ranks;
        for (const QJsonValue& r : kw.value("ranks").toArray())
            ranks.push_back(r.toInt());
        options.ranks = choiceOfNumbers(*run, ranks.empty() ? std::vector<int>{0} : ranks);  // HTA's default: 0
        for (const QJsonValue& s : kw.value("streams").toArray())
            options.streams.push_back(s.toInt());
        options.consecutiveKernelDelayUs = kw.value("consecutive_kernel_delay").toDouble(30);
        options.intervalStats = kw.value("show_idle_interval_stats").toBool(false);
        const IdleTime idle = idleTimeBreakdown(*run, options);
        error = idle.error;
        frames.emplace_back(stem + "_idle_time", valuesOf(idleTable(idle), {"rank", "stream", "idle_time"}));
        if (options.intervalStats)
            frames.emplace_back(stem + "_interval_stats", valuesOf(idleStatsTable(idle), {"rank", "stream", "count"}));
    } else {
        const Overlap o = commCompOverlap(*run, {.htaCompat = true});
        error = o.error;
        frames.emplace_back(stem, valuesOf(overlapTable(o), {"rank"}));
    }

    if (call.status == "error") {
        // HTA raised: we answer with nothing and say why.
        QVERIFY2(!error.empty(), qPrintable("HTA raised (" + call.error + ") but we returned a result"));
        for (const auto& [name, table] : frames)
            QVERIFY2(table.rows.empty(), qPrintable(QString::fromStdString(name) + ": rows despite the error"));
        return;
    }
    QVERIFY2(error.empty(), error.c_str());
    for (const auto& [name, table] : frames) {
        const GoldenCsv golden = readGoldenCsv(goldenCase.goldenDir, name);
        QVERIFY2(golden.found, qPrintable(QString::fromStdString(name) + ".csv missing though HTA returned it"));
        const std::string difference = compareTables(golden, table);
        QVERIFY2(difference.empty(), qPrintable(caseName + ": " + QString::fromStdString(name) + ": "
                                                + QString::fromStdString(difference)));
    }
}

void TestGoldenAnalyses::cliMatchesGolden_data()
{
    QTest::addColumn<QString>("arguments");  // after "kinetoscope-cli", before the run folder
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("golden");  // golden/<case>/<stem>.csv; empty: HTA raised
    QTest::newRow("temporal") << "temporal" << "trace_filter" << "trace_filter/get_temporal_breakdown";
    QTest::newRow("kernel-types") << "kernel-types" << "trace_filter"
                                  << "trace_filter/get_gpu_kernel_breakdown_kernel_type";
    QTest::newRow("kernels nomem") << "kernels --no-memory-kernels" << "df_index_resolver"
                                   << "df_index_resolver/get_gpu_kernel_breakdown_nomem_kernel";
    QTest::newRow("idle") << "idle --ranks 0,1" << "trace_filter" << "trace_filter/get_idle_time_breakdown_idle_time";
    QTest::newRow("overlap") << "overlap" << "mtia_inference_trace" << "mtia_inference_trace/get_comm_comp_overlap";
    QTest::newRow("temporal where HTA raised") << "temporal" << "cpu_only" << "";
}

void TestGoldenAnalyses::cliMatchesGolden()
{
    QFETCH(QString, arguments);
    QFETCH(QString, trace);
    QFETCH(QString, golden);
    if (!std::filesystem::exists(sharedDir() / "traces" / trace.toStdString()))
        QSKIP("../shared/traces is not here");
    const std::string command = cliPath().string() + " " + arguments.toStdString() + " --hta-compat --format csv "
        + (sharedDir() / "traces" / trace.toStdString()).string() + " 2>/dev/null";
    std::string output;
    QCOMPARE(runCommand(command, output), 0);
    const GoldenCsv ours = parseGoldenCsv(output);
    if (golden.isEmpty()) {
        QVERIFY(!ours.header.empty());
        QVERIFY(ours.rows.empty());
        return;
    }
    const std::filesystem::path file = sharedDir() / "golden" / golden.toStdString();
    const GoldenCsv expected = readGoldenCsv(file.parent_path(), file.filename().string());
    QVERIFY(expected.found);
    const std::string difference = compareTables(expected, tableFromCsv(ours));
    QVERIFY2(difference.empty(), difference.c_str());
}

QTEST_GUILESS_MAIN(TestGoldenAnalyses)
#include "tst_golden_analyses.moc"
