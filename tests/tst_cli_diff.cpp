// kinetoscope-cli diff and diff-summary as scripts see them: HTA's golden compare_traces_*.csv and
// ops_diff_*.json reproduced through the command line (--hta-compat, HTA's labels), usage errors,
// runs that do not match, each run's load problems, diff-summary's JSON and --fail-above's exit 5.

#include <QtTest>

#ifndef Q_MOC_RUN
#include "goldencsv.h"
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <set>

using namespace kscope;

namespace {

namespace fs = std::filesystem;

const char* const kCases[] = {"diff__trace_diff", "diff__trace_compare"};

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

std::string quoted(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

QJsonObject caseParams(const std::string& caseName)
{
    const fs::path file = test::sharedDir() / "golden" / caseName / "params.json";
    return QJsonDocument::fromJson(QByteArray::fromStdString(test::readMaybeGzip(file))).object();
}

// A value HTA got as an int or a list of ints, as the CLI takes it: "1010" or "1,2".
std::string listArgument(const QJsonValue& value)
{
    if (value.isDouble())
        return std::to_string(value.toInt());
    std::string out;
    for (const QJsonValue& v : value.toArray())
        out += (out.empty() ? "" : ",") + std::to_string(v.toInt());
    return out;
}

bool parseNumber(const std::string& text, double& value)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

// Empty when the CSVs agree: same header, rows in the same order, text exactly, numbers exactly
// when HTA's is a whole number and to 1e-6 relative otherwise.
std::string compareCsv(const test::GoldenCsv& golden, const test::GoldenCsv& ours)
{
    if (golden.header != ours.header)
        return "header differs";
    if (golden.rows.size() != ours.rows.size())
        return "row count: HTA " + std::to_string(golden.rows.size()) + ", ours " + std::to_string(ours.rows.size());
    for (size_t r = 0; r < golden.rows.size(); ++r) {
        for (size_t c = 0; c < golden.header.size(); ++c) {
            const std::string want = c < golden.rows[r].size() ? golden.rows[r][c] : std::string();
            const std::string got = c < ours.rows[r].size() ? ours.rows[r][c] : std::string();
            const std::string where = "row " + std::to_string(r) + " column " + golden.header[c] + ": HTA '" + want
                + "', ours '" + got + "'";
            double w = 0.0, g = 0.0;
            if (parseNumber(want, w) && parseNumber(got, g)) {
                const double tolerance = w == std::floor(w) ? 0.0 : 1e-6 * std::max(std::abs(w), std::abs(g));
                if (std::abs(w - g) > tolerance)
                    return where;
            } else if (want != got) {
                return where;
            }
        }
    }
    return {};
}

// A run written by hand: ranks x steps, each step one ProfilerStep with an aten::mm that launches
// "gemm" (gemmUs long) and "copy" (5 us) on stream 7; an "nvidia" or "amd" device.
fs::path handRun(const std::string& name, const std::vector<int>& ranks, const std::vector<int>& steps, int gemmUs)
{
    const fs::path dir = test::scratchDir("clidiff-" + name);
    for (int rank : ranks) {
        std::string events;
        auto add = [&events](const std::string& event) { events += (events.empty() ? "  " : ",\n  ") + event; };
        int64_t ts = 1000;
        int correlation = 1;
        for (int step : steps) {
            const std::string at = std::to_string(ts);
            add(R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" + std::to_string(step)
                + R"(", "pid": 1, "tid": 1, "ts": )" + at + R"(, "dur": 190})");
            add(R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts + 1)
                + R"(, "dur": 30})");
            for (const auto& [kernel, dur] : {std::pair<std::string, int>{"gemm", gemmUs}, {"copy", 5}}) {
                const std::string c = std::to_string(correlation++);
                const int64_t launch = ts + 2 + (kernel == "copy" ? 10 : 0);
                add(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )"
                    + std::to_string(launch) + R"(, "dur": 5, "args": {"correlation": )" + c + "}}");
                add(R"({"ph": "X", "cat": "kernel", "name": ")" + kernel + R"(", "pid": 0, "tid": 7, "ts": )"
                    + std::to_string(launch + 40) + R"(, "dur": )" + std::to_string(dur)
                    + R"(, "args": {"stream": 7, "correlation": )" + c + "}}");
            }
            ts += 200;
        }
        test::writeFile(dir / ("rank" + std::to_string(rank) + ".json"),
                        R"({"distributedInfo": {"rank": )" + std::to_string(rank) + "},\n \"traceEvents\": [\n" + events
                            + "\n]}\n");
    }
    return dir;
}

std::string path(const fs::path& p)
{
    return p.string();
}

QJsonObject jsonOf(const std::string& text, bool* ok = nullptr)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (ok)
        *ok = error.error == QJsonParseError::NoError && doc.isObject();
    return doc.object();
}

QStringList sortedKeys(const QJsonObject& object)
{
    QStringList keys = object.keys();
    keys.sort();
    return keys;
}

} // namespace

class TestCliDiff : public QObject {
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void usageErrors_data();
    void usageErrors();
    void labelsDefaultToFolderNames();
    void opsFollowFormat();
    void lastStepDefaultVsHta();
    void mismatchedRuns();
    void differentVendors();
    void loadProblemsNameTheRun();
    void failAbove_data();
    void failAbove();
    void summaryJsonIsStable();
    void summaryTables();
    void help();
};

void TestCliDiff::golden_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("step");
    int rows = 0;
    for (const char* c : kCases) {
        if (!fs::exists(test::sharedDir() / "golden" / c / "params.json"))
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

// Every golden file of both cases through the command line, with HTA's arguments and labels.
void TestCliDiff::golden()
{
    QFETCH(QString, caseName);
    QFETCH(QString, step);
    if (caseName.isEmpty())
        QSKIP("no golden diff case here (../shared is missing)");
    const std::string name = caseName.toStdString();
    const QJsonObject params = caseParams(name);
    QString controlLabel, testLabel, status;
    QJsonObject kwargs;
    for (const QJsonValue& v : params.value("calls").toArray()) {
        const QJsonObject call = v.toObject();
        const QString s = call.value("step").toString();
        if (s == "parse_control")
            controlLabel = call.value("kwargs").toObject().value("label").toString();
        else if (s == "parse_test")
            testLabel = call.value("kwargs").toObject().value("label").toString();
        else if (s == step) {
            kwargs = call.value("kwargs").toObject();
            status = call.value("status").toString();
        }
    }
    const QString device = kwargs.value("device_type").toString();
    const bool ops = step.startsWith("ops_diff_");
    // --ops prints HTA's JSON without --format; the comparison is read as CSV.
    std::string args = std::string("diff --hta-compat") + (ops ? "" : " --format csv") + " --labels "
        + quoted(controlLabel.toStdString() + "," + testLabel.toStdString()) + " --device "
        + (device.contains("CPU") ? "cpu" : device.contains("GPU") ? "gpu" : "all");
    if (kwargs.value("use_short_name").toBool(false))
        args += " --short-names";
    const std::pair<const char*, const char*> lists[] = {{"control_rank", "--control-rank"},
                                                         {"test_rank", "--test-rank"},
                                                         {"control_iteration", "--control-step"},
                                                         {"test_iteration", "--test-step"}};
    for (const auto& [key, option] : lists)
        if (kwargs.contains(key))
            args += std::string(" ") + option + " " + listArgument(kwargs.value(key));
    if (ops)
        args += " --ops";
    args += " " + quoted(path(test::sharedDir() / params.value("control_dir").toString().toStdString())) + " "
        + quoted(path(test::sharedDir() / params.value("test_dir").toString().toStdString()));
    const test::CommandResult result = test::runCli(args);
    if (status == "error") {
        QCOMPARE(result.exitCode, 2);
        return;
    }
    QVERIFY2(result.exitCode == 0, result.err.c_str());
    const fs::path dir = test::sharedDir() / "golden" / name;
    if (ops) {
        const std::string expected = test::readMaybeGzip(dir / (step.toStdString() + ".json"));
        QCOMPARE(QString::fromStdString(result.out), QString::fromStdString(expected + "\n"));
    } else {
        const test::GoldenCsv golden = test::readGoldenCsv(dir, step.toStdString());
        QVERIFY(golden.found);
        const std::string difference = compareCsv(golden, test::parseGoldenCsv(result.out));
        QVERIFY2(difference.empty(), difference.c_str());
    }
}

void TestCliDiff::usageErrors_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("message");
    const std::string a = path(handRun("usage-a", {0}, {1, 2}, 10));
    const QString run = QString::fromStdString(a);
    const QString two = run + " " + run;
    QTest::newRow("one run only") << "diff " + run << "TEST_RUN";
    QTest::newRow("no run") << "diff-summary" << "CONTROL_RUN";
    QTest::newRow("three runs") << "diff " + two + " " + run << "unexpected argument";
    QTest::newRow("unknown option") << "diff --all-rank " + two << "did you mean --all-ranks";
    QTest::newRow("bad device") << "diff --device tpu " + two << "--device";
    QTest::newRow("bad step") << "diff --control-step x " + two << "--control-step";
    QTest::newRow("bad labels") << "diff --labels onlyone " + two << "--labels";
    QTest::newRow("rank and all ranks") << "diff --all-ranks --test-rank 0 " + two << "excludes";
    QTest::newRow("bad fail-above") << "diff-summary --fail-above -3 " + two << "--fail-above";
    QTest::newRow("min without fail-above") << "diff-summary --fail-min-us 5 " + two << "--fail-above";
    QTest::newRow("bad table") << "diff-summary --table idle " + two << "--table";
    QTest::newRow("table and json") << "diff-summary --table kernels --format json " + two << "all three";
}

void TestCliDiff::usageErrors()
{
    QFETCH(QString, arguments);
    QFETCH(QString, message);
    const test::CommandResult result = test::runCli(arguments.toStdString());
    QCOMPARE(result.exitCode, 1);
    QVERIFY(result.out.empty());
    QVERIFY2(contains(result.err, message.toStdString()), result.err.c_str());
}

void TestCliDiff::labelsDefaultToFolderNames()
{
    const fs::path before = handRun("before", {0}, {1, 2}, 10);
    const fs::path after = handRun("after", {0}, {1, 2}, 15);
    test::CommandResult r = test::runCli("diff --format csv " + path(before) + "/ " + path(after));
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.starts_with("name,kscope-test-clidiff-before_counts,kscope-test-clidiff-before_total_duration (us),"
                               "kscope-test-clidiff-after_counts"),
             r.out.c_str());
    QVERIFY(contains(r.out, "\ngemm,1,10,1,15,0,5,=\n"));
    QVERIFY2(contains(r.err, "note: compared control rank 0, step 1 with test rank 0, step 1"), r.err.c_str());
    // Equal labels: HTA renames the test label.
    r = test::runCli("diff --format csv --labels run,run " + path(before) + " " + path(after));
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("name,run_counts,run_total_duration (us),run_control_test_counts,"));
    QVERIFY(contains(r.err, "run_control_test"));
    // JSON: the table with its notes.
    r = test::runCli("diff --format json --device gpu " + path(before) + " " + path(after));
    QCOMPARE(r.exitCode, 0);
    bool ok = false;
    const QJsonObject json = jsonOf(r.out, &ok);
    QVERIFY(ok);
    QCOMPARE(json.value("rows").toArray().size(), 2);  // copy, gemm
    QVERIFY(!json.value("notes").toArray().isEmpty());
}

void TestCliDiff::opsFollowFormat()
{
    const fs::path a = handRun("ops-a", {0}, {1, 2}, 10);
    const fs::path b = handRun("ops-b", {0}, {1, 2}, 15);
    test::CommandResult r = test::runCli("diff --ops " + path(a) + " " + path(b));
    QCOMPARE(r.exitCode, 0);
    bool ok = false;
    const QJsonObject json = jsonOf(r.out, &ok);
    QVERIFY(ok);
    QCOMPARE(sortedKeys(json), QStringList({"added", "decreased", "deleted", "increased", "unchanged"}));
    QVERIFY(json.value("unchanged").toArray().contains(QJsonValue("gemm")));
    QVERIFY(contains(r.err, "note: "));  // the notes stay on stderr
    QCOMPARE(test::runCli("diff --ops --format json " + path(a) + " " + path(b)).out, r.out);
    r = test::runCli("diff --ops --format csv " + path(a) + " " + path(b));
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("change,name\n"));
    QVERIFY(contains(r.out, "\nunchanged,gemm\n"));
}

// The default mode trims each run's last step like every command; --hta-compat keeps it (HTA's
// LabeledTrace), and so does --include-last-step.
void TestCliDiff::lastStepDefaultVsHta()
{
    const std::string runs = " " + path(test::sharedDir() / "traces/trace_compare/base") + " "
        + path(test::sharedDir() / "traces/trace_compare/test");
    if (!fs::exists(test::sharedDir() / "traces/trace_compare/base"))
        QSKIP("no trace_compare runs here");
    test::CommandResult r = test::runCli("diff --format csv --control-step 1010 --test-step 1010" + runs);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.empty());
    QVERIFY2(contains(r.err, "no ProfilerStep#1010 (it has 1009)"), r.err.c_str());
    QVERIFY(contains(r.err, "--include-last-step"));
    QCOMPARE(test::runCli("diff --format csv --include-last-step --control-step 1010 --test-step 1010" + runs).exitCode, 0);
    QCOMPARE(test::runCli("diff --format csv --hta-compat --control-step 1010 --test-step 1010" + runs).exitCode, 0);
}

void TestCliDiff::mismatchedRuns()
{
    // Control: ranks 0 and 1, steps 1-3 (3 trimmed); test: rank 0, steps 7-9 (9 trimmed).
    const std::string c = path(handRun("mismatch-c", {0, 1}, {1, 2, 3}, 10));
    const std::string t = path(handRun("mismatch-t", {0}, {7, 8, 9}, 10));
    test::CommandResult r = test::runCli("diff --format csv " + c + " " + t);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(contains(r.err, "the runs' ranks differ (control 0-1, test 0)"), r.err.c_str());
    QVERIFY(contains(r.err, "no step is in both runs"));
    r = test::runCli("diff --format csv --all-ranks --all-steps " + c + " " + t);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(contains(r.err, "compared the 1 in both; only in control: 1"), r.err.c_str());
    QVERIFY(contains(r.err, "no ProfilerStep number is in both runs: each run is averaged over its own steps"));
    QVERIFY(contains(r.err, "averages per rank and step"));
    // Asked for what a run lacks: no comparison, and what each run has.
    r = test::runCli("diff --control-rank 1 --test-rank 1 " + c + " " + t);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.empty());
    QVERIFY2(contains(r.err, "error: no comparison: the test run has no rank 1 (it has 0)"), r.err.c_str());
    QVERIFY(contains(r.err, "control run kscope-test-clidiff-mismatch-c: ranks 0-1, steps 1-2"));
    QVERIFY(contains(r.err, "test run kscope-test-clidiff-mismatch-t: ranks 0, steps 7-8"));
    // diff-summary says which ranks and steps it compared.
    r = test::runCli("diff-summary --format csv " + c + " " + t);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(contains(r.err, "the runs have 2 and 1 ranks: compared the 1 in both; only in control: 1"), r.err.c_str());
    QVERIFY(contains(r.err, "no ProfilerStep is in both runs"));
}

void TestCliDiff::differentVendors()
{
    const fs::path nvidia = test::scratchDir("clidiff-nvidia");
    const fs::path amd = test::scratchDir("clidiff-amd");
    QCOMPARE(test::runCli("synth " + path(nvidia) + " --ranks 1 --steps 2 --force").exitCode, 0);
    QCOMPARE(test::runCli("synth " + path(amd) + " --ranks 1 --steps 2 --device amd --force").exitCode, 0);
    const test::CommandResult r = test::runCli("diff --format csv --device gpu " + path(nvidia) + " " + path(amd));
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(contains(r.err, "the control run ran on NVIDIA GPU, the test run on AMD GPU"), r.err.c_str());
}

void TestCliDiff::loadProblemsNameTheRun()
{
    const fs::path good = handRun("load-good", {0}, {1, 2}, 10);
    const fs::path broken = handRun("load-broken", {0}, {1, 2}, 10);
    test::writeFile(broken / "rank1.json", "this is not JSON");
    test::CommandResult r = test::runCli("diff --format csv " + path(good) + " " + path(broken));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(contains(r.out, "\ngemm,"));  // the result is still written
    QVERIFY2(contains(r.err, "note: test run: not loaded: "), r.err.c_str());
    QVERIFY(contains(r.err, "error: incomplete result: test run: 1 file failed to load"));
    QCOMPARE(test::runCli("diff --allow-partial " + path(good) + " " + path(broken)).exitCode, 0);
    r = test::runCli("diff-summary --format csv " + path(broken) + " " + path(good));
    QCOMPARE(r.exitCode, 3);
    QVERIFY(contains(r.err, "note: control run: not loaded: "));
    QVERIFY(contains(r.err, "error: incomplete result: control run: 1 file failed to load"));
    // A partial rank: marked per run in diff-summary's tables, named by diff.
    const fs::path cut = handRun("load-cut", {0, 1}, {1, 2, 3}, 10);
    const std::string text = test::readFileBytes(cut / "rank1.json");
    test::writeFile(cut / "rank1.json", text.substr(0, text.size() * 7 / 10));
    r = test::runCli("diff-summary --format csv --table temporal " + path(cut) + " " + path(cut));
    QCOMPARE(r.exitCode, 3);
    const test::GoldenCsv temporal = test::parseGoldenCsv(r.out);
    QCOMPARE(temporal.rows.size(), size_t(2));
    QCOMPARE(temporal.rows[1][temporal.column("partial")], std::string("1"));
    QCOMPARE(temporal.rows[1][temporal.column("test_partial")], std::string("1"));
    QCOMPARE(temporal.rows[0][temporal.column("partial")], std::string("0"));
    QVERIFY2(contains(r.err, "note: control run: rank 1 is partial"), r.err.c_str());
    QVERIFY(contains(r.err, "note: test run: rank 1 is partial"));
    r = test::runCli("diff --control-rank 1 --test-rank 0 " + path(cut) + " " + path(good));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(contains(r.err, "the control run's rank 1 is partial"), r.err.c_str());
    r = test::runCli("diff " + path(good) + " /nonexistent/run");
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(contains(r.err, "error: test run: "), r.err.c_str());
    QVERIFY(r.out.empty());
    r = test::runCli("diff-summary --ranks 5 " + path(good) + " " + path(good));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(contains(r.err, "error: control run: no usable rank: --ranks 5"), r.err.c_str());
}

void TestCliDiff::failAbove_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<int>("exitCode");
    // gemm: 10 us -> 15 us per step (+50%, +10 us over the 2 steps kept); copy unchanged.
    QTest::newRow("grew past 40%") << "--fail-above 40" << 5;
    QTest::newRow("not past 50%") << "--fail-above 50" << 0;
    QTest::newRow("not past 60%") << "--fail-above 60" << 0;
    QTest::newRow("past 40% but under 20 us") << "--fail-above 40 --fail-min-us 20" << 0;
    QTest::newRow("past 40% and over 10 us") << "--fail-above 40 --fail-min-us 10" << 5;
    QTest::newRow("only the top kernel shown") << "--fail-above 40 --top 0" << 5;
    QTest::newRow("json") << "--fail-above 40 --format json" << 5;
    QTest::newRow("one table") << "--fail-above 40 --table kernels" << 5;
    QTest::newRow("incomplete wins") << "--fail-above 40 --ranks 0,3" << 3;
    QTest::newRow("allowed partial") << "--fail-above 40 --ranks 0,3 --allow-partial" << 5;
    QTest::newRow("write failed wins") << "--fail-above 40 --format json -o /dev/full" << 4;
}

void TestCliDiff::failAbove()
{
    QFETCH(QString, options);
    QFETCH(int, exitCode);
    const fs::path control = handRun("fail-c", {0}, {1, 2, 3}, 10);
    const fs::path test = handRun("fail-t", {0}, {1, 2, 3}, 15);
    const test::CommandResult r =
        test::runCli("diff-summary " + options.toStdString() + " " + path(control) + " " + path(test));
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY(exitCode == 4 || !r.out.empty());  // the summary is written either way
    if (exitCode == 5) {
        QVERIFY2(contains(r.err, "kernel's total time grew by more than 40%"), r.err.c_str());
        QVERIFY(contains(r.err, "rank 0: +50.00% (20 -> 30 us) gemm"));
        QVERIFY(!contains(r.err, " copy\n"));
    }
    if (options.contains("json") && exitCode == 5) {
        bool ok = false;
        const QJsonObject failed = jsonOf(r.out, &ok).value("fail_above").toObject();
        QVERIFY(ok);
        QCOMPARE(failed.value("pctg").toDouble(), 40.0);
        const QJsonArray exceeded = failed.value("exceeded").toArray();
        QCOMPARE(exceeded.size(), 1);
        QCOMPARE(exceeded[0].toObject().value("name").toString(), QString("gemm"));
        QCOMPARE(exceeded[0].toObject().value("diff_total_time_pctg").toDouble(), 50.0);
    }
}

void TestCliDiff::summaryJsonIsStable()
{
    const std::string runs = " " + path(handRun("json-c", {0, 1}, {1, 2, 3}, 10)) + " "
        + path(handRun("json-t", {0, 1}, {1, 2, 3}, 12));
    const test::CommandResult first = test::runCli("diff-summary --format json" + runs);
    QCOMPARE(first.exitCode, 0);
    QVERIFY(first.err.empty());  // in JSON the notes are part of the object
    QCOMPARE(test::runCli("diff-summary --format json" + runs).out, first.out);
    bool ok = false;
    const QJsonObject json = jsonOf(first.out, &ok);
    QVERIFY2(ok, first.out.c_str());
    QCOMPARE(sortedKeys(json), QStringList({"compared_steps", "control", "control_only_ranks", "control_only_steps",
                                            "fail_above", "findings", "kernels", "kind", "notes", "overlap", "temporal", "test",
                                            "test_only_ranks", "test_only_steps", "top_kernels", "version"}));
    QCOMPARE(json.value("kind").toString(), QString("kinetoscope-diff-summary"));
    QCOMPARE(json.value("version").toInt(), 1);
    QVERIFY(json.value("fail_above").isNull());
    const QJsonObject control = json.value("control").toObject();
    QCOMPARE(sortedKeys(control), QStringList({"incomplete", "label", "ranks", "run", "steps"}));
    QCOMPARE(control.value("label").toString(), QString("kscope-test-clidiff-json-c"));
    QCOMPARE(control.value("steps").toArray(), QJsonArray({1, 2}));
    const QJsonObject temporal = json.value("temporal").toObject();
    QCOMPARE(sortedKeys(temporal), QStringList({"columns", "rows", "units"}));
    QCOMPARE(temporal.value("units").toObject().value("diff_idle_time(us)").toString(), QString("us"));
    const QJsonArray columns = temporal.value("columns").toArray();
    QCOMPARE(columns.first().toString(), QString("rank"));
    QVERIFY(columns.contains(QJsonValue("control_idle_time(us)")));
    QVERIFY(columns.contains(QJsonValue("diff_idle_time(us)")));
    QVERIFY(columns.contains(QJsonValue("test_partial")));
    QCOMPARE(temporal.value("rows").toArray().size(), 2);
    QCOMPARE(json.value("overlap").toObject().value("rows").toArray().size(), 2);
    QCOMPARE(sortedKeys(json.value("findings").toObject()), QStringList({"columns", "rows", "units"}));
    const QJsonArray kernels = json.value("kernels").toObject().value("rows").toArray();
    QCOMPARE(kernels.size(), 4);  // gemm and copy on ranks 0 and 1
    const QJsonObject gemm = kernels[0].toObject();
    QCOMPARE(gemm.value("name").toString(), QString("gemm"));
    QCOMPARE(gemm.value("change").toString(), QString("slower"));
    QCOMPARE(gemm.value("control_total_time(us)").toDouble(), 20.0);
    QCOMPARE(gemm.value("test_total_time(us)").toDouble(), 24.0);
    QCOMPARE(gemm.value("diff_total_time_pctg").toDouble(), 20.0);
    // --labels change the labels, never the keys or columns.
    const QJsonObject labelled = jsonOf(test::runCli("diff-summary --format json --labels x,y" + runs).out);
    QCOMPARE(labelled.value("control").toObject().value("label").toString(), QString("x"));
    QCOMPARE(labelled.value("temporal").toObject().value("columns"), temporal.value("columns"));
    QCOMPARE(labelled.value("kernels").toObject().value("columns"), json.value("kernels").toObject().value("columns"));
}

void TestCliDiff::summaryTables()
{
    const std::string runs = " --labels before,after " + path(handRun("tables-c", {0}, {1, 2, 3}, 10)) + " "
        + path(handRun("tables-t", {0}, {1, 2, 3}, 12));
    test::CommandResult r = test::runCli("diff-summary --format csv" + runs);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.starts_with("# temporal\nrank,test_rank,before_idle_time(us),after_idle_time(us),"), r.out.c_str());
    QVERIFY(contains(r.out, "\n\n# overlap\nrank,test_rank,before_comm_time(us)"));
    QVERIFY(contains(r.out, "\n\n# kernels\nrank,test_rank,name,change,before_count,after_count,diff_count,"));
    r = test::runCli("diff-summary --format csv --table kernels --top 1" + runs);
    QCOMPARE(r.exitCode, 0);
    const test::GoldenCsv kernels = test::parseGoldenCsv(r.out);
    QCOMPARE(kernels.rows.size(), size_t(1));
    QCOMPARE(kernels.rows[0][kernels.column("name")], std::string("gemm"));
    QCOMPARE(kernels.rows[0][kernels.column("diff_total_time(us)")], std::string("4"));
    r = test::runCli("diff-summary --format table --width 0" + runs);
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("Temporal breakdown per rank"));
    QVERIFY(contains(r.out, "Top 20 kernels per rank"));
}

void TestCliDiff::help()
{
    test::CommandResult r = test::runCli("diff --help");
    QCOMPARE(r.exitCode, 0);
    for (const char* part : {"--include-last-step keeps it", "--hta-compat keeps it", "--ops", "5 diff-summary --fail-above"})
        QVERIFY2(contains(r.out, part), part);
    r = test::runCli("diff-summary --help");
    QCOMPARE(r.exitCode, 0);
    for (const char* part : {"\"version\": 1", "fail_above", "--fail-above PCT", "--table NAME"})
        QVERIFY2(contains(r.out, part), part);
    r = test::runCli("--help");
    QVERIFY(contains(r.out, "  diff ") && contains(r.out, "  diff-summary "));
    QVERIFY(contains(r.out, "CONTROL_RUN TEST_RUN"));
}

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_cli_diff.moc"
