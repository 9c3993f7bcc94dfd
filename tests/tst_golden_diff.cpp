// HTA's trace diff against its own output: every compare_traces_*.csv and ops_diff_*.json of the
// two diff cases (golden/diff__trace_diff, golden/diff__trace_compare), with the arguments and
// labels HTA got (params.json), the runs loaded as HTA's LabeledTrace loads them (HTA's
// normalisation, no last-step trimming).
//
// Row order: HTA's frame is pandas' outer concat of two groupby results, so its order is fixed,
// not arbitrary: control's names sorted, then the names only test has, sorted (pandas appends
// the other index's new labels). The golden CSVs are in that order and ours must be too, so rows
// are compared in place, not sorted. ops_diff lists follow the same order; the JSON is compared
// byte for byte.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/tables/difftables.h"
#include "analysis/diff/tracediff.h"
#include "goldencsv.h"
#include "model/loader.h"
#endif

#include <QtTest>

#include <cmath>
#include <map>
#include <variant>

using namespace kscope;
using namespace kscope::test;

namespace {

const char* const kCases[] = {"diff__trace_diff", "diff__trace_compare"};

QJsonObject caseParams(const std::string& caseName)
{
    const auto file = sharedDir() / "golden" / caseName / "params.json";
    return QJsonDocument::fromJson(QByteArray::fromStdString(readMaybeGzip(file))).object();
}

std::shared_ptr<Run> loadSide(const std::string& relativeDir)
{
    static std::map<std::string, std::shared_ptr<Run>> cache;
    auto& run = cache[relativeDir];
    if (!run) {
        // LabeledTrace: Trace.parse_traces() only, so HTA's rounding but no last-step trimming.
        LoadOptions options;
        options.htaCompat = true;
        options.includeLastStep = true;
        run = loadRun(sharedDir() / relativeDir, options);
    }
    return run;
}

std::vector<int> intList(const QJsonValue& value)
{
    std::vector<int> out;
    if (value.isArray()) {
        for (const QJsonValue& v : value.toArray())
            out.push_back(v.toInt());
    } else if (value.isDouble()) {
        out.push_back(value.toInt());
    }
    return out;
}

DiffDevice deviceOf(const QString& text)
{
    // "<DeviceType.GPU: 2>"
    if (text.contains("CPU"))
        return DiffDevice::Cpu;
    if (text.contains("GPU"))
        return DiffDevice::Gpu;
    return DiffDevice::All;
}

bool parseNumber(const std::string& text, double& value)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

double cellNumber(const Cell& cell, bool& ok)
{
    ok = true;
    if (const auto* i = std::get_if<int64_t>(&cell))
        return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&cell))
        return *d;
    ok = false;
    return 0.0;
}

// Empty when the tables agree: same header, same rows in the same order, text exactly, numbers
// exactly when HTA's value is an integer (counts, µs sums) and to 1e-6 relative otherwise.
std::string compareFrames(const GoldenCsv& golden, const Table& ours)
{
    if (golden.header != ours.columnNames()) {
        std::string h;
        for (const std::string& c : ours.columns)
            h += c + "|";
        return "header differs; ours: " + h;
    }
    if (golden.rows.size() != ours.rows.size())
        return "row count: HTA " + std::to_string(golden.rows.size()) + ", ours " + std::to_string(ours.rows.size());
    for (size_t r = 0; r < golden.rows.size(); ++r) {
        for (size_t c = 0; c < golden.header.size(); ++c) {
            const std::string expected = c < golden.rows[r].size() ? golden.rows[r][c] : std::string();
            const Cell& mine = ours.rows[r][c];
            const std::string where = "row " + std::to_string(r) + " (" + golden.rows[r][0].substr(0, 60) + ") column '"
                + golden.header[c] + "': HTA '" + expected + "', ours '" + formatCell(mine) + "'";
            if (const auto* text = std::get_if<std::string>(&mine)) {
                if (*text != expected)
                    return where;
                continue;
            }
            double want = 0.0;
            bool ok = false;
            const double got = cellNumber(mine, ok);
            if (!ok || !parseNumber(expected, want))
                return where;
            const bool integral = want == std::floor(want);
            const double tolerance = integral ? 0.0 : 1e-6 * std::max(std::abs(got), std::abs(want));
            if (std::abs(got - want) > tolerance)
                return where;
        }
    }
    return {};
}

} // namespace

class TestGoldenDiff : public QObject {
    Q_OBJECT

private slots:
    void everyGoldenFileHasACall_data();
    void everyGoldenFileHasACall();
    void golden_data();
    void golden();
    void htaParsesTheSameRanksAndIterations_data();
    void htaParsesTheSameRanksAndIterations();
};

void TestGoldenDiff::everyGoldenFileHasACall_data()
{
    QTest::addColumn<QString>("caseName");
    for (const char* c : kCases)
        QTest::newRow(c) << QString(c);
}

// No golden file is left untested: each compare_traces_*.csv / ops_diff_*.json is a call below.
void TestGoldenDiff::everyGoldenFileHasACall()
{
    QFETCH(QString, caseName);
    const auto dir = sharedDir() / "golden" / caseName.toStdString();
    if (!std::filesystem::exists(dir / "params.json"))
        QSKIP("no golden diff case here");
    QStringList steps;
    for (const QJsonValue& call : caseParams(caseName.toStdString()).value("calls").toArray())
        steps << call.toObject().value("step").toString();
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const QString name = QString::fromStdString(entry.path().filename().string());
        if (!name.startsWith("compare_traces_") && !name.startsWith("ops_diff_"))
            continue;
        ++files;
        const QString stem = name.section('.', 0, 0);
        QVERIFY2(steps.contains(stem), qPrintable(name + " has no call in params.json"));
    }
    QVERIFY(files > 0);
}

void TestGoldenDiff::golden_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("step");
    int rows = 0;
    for (const char* c : kCases) {
        if (!std::filesystem::exists(sharedDir() / "golden" / c / "params.json"))
            continue;
        for (const QJsonValue& call : caseParams(c).value("calls").toArray()) {
            const QString step = call.toObject().value("step").toString();
            if (step.startsWith("compare_traces_") || step.startsWith("ops_diff_")) {
                QTest::addRow("%s/%s", c, qPrintable(step)) << QString(c) << step;
                ++rows;
            }
        }
    }
    // Without ../shared there are no cases: one row that skips (Qt Test aborts on an empty table).
    if (rows == 0)
        QTest::newRow("no shared goldens") << QString() << QString();
}

void TestGoldenDiff::golden()
{
    QFETCH(QString, caseName);
    QFETCH(QString, step);
    if (caseName.isEmpty())
        QSKIP("no golden diff case here (../shared is missing)");
    const std::string name = caseName.toStdString();
    const QJsonObject params = caseParams(name);
    const auto control = loadSide(params.value("control_dir").toString().toStdString());
    const auto test = loadSide(params.value("test_dir").toString().toStdString());
    QVERIFY(!control->ranks.empty());
    QVERIFY(!test->ranks.empty());

    QString controlLabel, testLabel;
    QJsonObject kwargs;
    QString status;
    for (const QJsonValue& v : params.value("calls").toArray()) {
        const QJsonObject call = v.toObject();
        const QString s = call.value("step").toString();
        if (s == "parse_control")
            controlLabel = call.value("kwargs").toObject().value("label").toString();
        if (s == "parse_test")
            testLabel = call.value("kwargs").toObject().value("label").toString();
        if (s == step) {
            kwargs = call.value("kwargs").toObject();
            status = call.value("status").toString();
        }
    }
    TraceDiffOptions options;
    options.htaCompat = true;
    options.controlRanks = intList(kwargs.value("control_rank"));
    options.testRanks = intList(kwargs.value("test_rank"));
    options.controlSteps = intList(kwargs.value("control_iteration"));
    options.testSteps = intList(kwargs.value("test_iteration"));
    options.device = deviceOf(kwargs.value("device_type").toString());
    options.shortNames = kwargs.value("use_short_name").toBool(false);
    const TraceComparison comparison = compareTraces(*control, *test, options);
    if (status == "error") {
        QVERIFY2(!comparison.error.empty(), "HTA raised but we returned a result");
        return;
    }
    QVERIFY2(comparison.error.empty(), comparison.error.c_str());

    const auto dir = sharedDir() / "golden" / name;
    if (step.startsWith("compare_traces_")) {
        const GoldenCsv golden = readGoldenCsv(dir, step.toStdString());
        QVERIFY2(golden.found, "golden CSV missing");
        const Table table = compareTracesTable(comparison, controlLabel.toStdString(), testLabel.toStdString());
        const std::string difference = compareFrames(golden, table);
        QVERIFY2(difference.empty(), difference.c_str());
    } else {
        const std::string expected = readMaybeGzip(dir / (step.toStdString() + ".json"));
        QVERIFY2(!options.shortNames, "HTA's ops_diff has no short names");
        const std::string ours = opsDiffJson(opsDiff(comparison));
        if (ours != expected) {
            size_t at = 0;
            while (at < ours.size() && at < expected.size() && ours[at] == expected[at])
                ++at;
            QFAIL(qPrintable(QString("JSON differs at byte %1: HTA '%2', ours '%3'")
                                 .arg(at)
                                 .arg(QString::fromStdString(expected.substr(at > 40 ? at - 40 : 0, 120)))
                                 .arg(QString::fromStdString(ours.substr(at > 40 ? at - 40 : 0, 120)))));
        }
    }
}

void TestGoldenDiff::htaParsesTheSameRanksAndIterations_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("step");
    for (const char* c : kCases)
        for (const char* s : {"parse_control", "parse_test"})
            QTest::addRow("%s/%s", c, s) << QString(c) << QString(s);
}

// The LabeledTrace HTA built: its ranks() and iterations() are ours.
void TestGoldenDiff::htaParsesTheSameRanksAndIterations()
{
    QFETCH(QString, caseName);
    QFETCH(QString, step);
    if (!std::filesystem::exists(sharedDir() / "golden" / caseName.toStdString() / "params.json"))
        QSKIP("no golden diff case here");
    const QJsonObject params = caseParams(caseName.toStdString());
    for (const QJsonValue& v : params.value("calls").toArray()) {
        const QJsonObject call = v.toObject();
        if (call.value("step").toString() != step)
            continue;
        const auto run = loadSide(call.value("kwargs").toObject().value("trace_dir").toString().toStdString());
        const QJsonObject output = call.value("output").toObject();
        QCOMPARE(runRanks(*run), intList(output.value("ranks")));
        QCOMPARE(runSteps(*run), intList(output.value("iterations")));
        return;
    }
    QFAIL("no such call");
}

QTEST_GUILESS_MAIN(TestGoldenDiff)
#include "tst_golden_diff.moc"
