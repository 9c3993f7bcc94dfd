// kinetoscope-cli as scripts see it: exit codes, strict options (unknown ones, bad values, extra
// arguments), --help per command, rank selection, idle-hist, messages that name the culprit.
// Results, partial ranks, writes and table format: tst_cli_output.cpp.

#include <QtTest>

#ifndef Q_MOC_RUN
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <chrono>
#include <map>
#include <sstream>

using namespace kscope;

namespace {

int cli(const std::string& arguments, std::string& output)
{
    return test::runCommand(test::cliPath().string() + " " + arguments + " 2>/dev/null", output);
}

std::string sampleRun()
{
    return (test::sourceDir() / "resources" / "sample-run").string();
}

int lineCount(const std::string& text)
{
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

QString sample()
{
    return QString::fromStdString(sampleRun());
}

bool contains(const std::string& text, const QString& part)
{
    return text.find(part.toStdString()) != std::string::npos;
}

QJsonObject jsonOf(const std::string& text)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    // bench load reads the same files with the bare pass (inflate, cut, eight fields) and says how
    // close the loader comes to it: both count every event of the files.
    void benchLoadComparesWithTheBarePass()
    {
        std::string output;
        QCOMPARE(cli("bench load --format csv " + sampleRun(), output), 0);
        std::map<std::string, double> rows;
        std::istringstream lines(output);
        for (std::string line; std::getline(lines, line);) {
            const size_t comma = line.find(',');
            if (comma != std::string::npos && line.compare(0, comma, "metric") != 0)
                rows[line.substr(0, comma)] = std::atof(line.c_str() + comma + 1);
        }
        QVERIFY2(rows.count("events_read") && rows.count("bare_pass_events") && rows.count("fraction_of_bare_pass"), output.c_str());
        QVERIFY(rows["events_read"] > 8000);
        QCOMPARE(rows["bare_pass_events"], rows["events_read"]);
        QVERIFY(rows["bare_pass_throughput"] > 0);
        QVERIFY(rows["fraction_of_bare_pass"] > 0);
    }
    void exitCodes_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<int>("exitCode");
        const auto empty = test::scratchDir("cli-empty");
        const auto broken = test::scratchDir("cli-broken");
        test::writeFile(broken / "rank0.json", R"J({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}]})J");
        test::writeFile(broken / "rank1.json", "this is not JSON");
        const QString brokenDir = QString::fromStdString(broken.string());
        QTest::newRow("ok") << "info " + sample() << 0;
        QTest::newRow("help") << "info --help" << 0;
        QTest::newRow("no command") << "" << 1;
        QTest::newRow("unknown command") << "frobnicate " + sample() << 1;
        QTest::newRow("missing run") << "info" << 1;
        QTest::newRow("bad format") << "info --format xml " + sample() << 1;
        QTest::newRow("bad ranks") << "info --ranks 3-1 " + sample() << 1;
        QTest::newRow("no usable rank") << "info " + QString::fromStdString(empty.string()) << 2;
        QTest::newRow("missing folder") << "info /nonexistent/run" << 2;
        QTest::newRow("some ranks failed") << "info " + brokenDir << 3;
        QTest::newRow("allow partial") << "info --allow-partial " + brokenDir << 0;
        QTest::newRow("missing rank") << "info --ranks 0,9 " + sample() << 3;
        QTest::newRow("missing rank allowed") << "info --ranks 0,9 --allow-partial " + sample() << 0;
        QTest::newRow("no requested rank") << "info --ranks 9 " + sample() << 2;
        QTest::newRow("stdout full") << "info --format csv " + sample() + " > /dev/full" << 4;
    }
    void exitCodes()
    {
        QFETCH(QString, arguments);
        QFETCH(int, exitCode);
        std::string output;
        QCOMPARE(cli(arguments.toStdString(), output), exitCode);
    }

    // Items 1, 2, 6 and 9: a bad command line is exit 1 with nothing on stdout and a message that
    // names the culprit (and, for a misspelt option, the one meant).
    void usageErrors_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("culprit");
        QTest::addColumn<QString>("notMentioned");  // an option the message must not blame
        const auto synthDir = test::scratchDir("cli-usage-synth");
        const QString s = sample();
        QTest::newRow("misspelt option") << "kernels " + s + " --hta_compat --num-kernels 3"
                                         << "'--hta_compat' for 'kernels'; did you mean --hta-compat?" << "";
        QTest::newRow("unknown option before RUN") << "temporal --frobnicate " + s << "'--frobnicate'" << "RUN";
        QTest::newRow("unknown option, no RUN") << "temporal --frobnicate" << "'--frobnicate'" << "";
        QTest::newRow("unknown option with value") << "temporal --frob=3 " + s << "'--frob'" << "";
        QTest::newRow("idle-hist --rank") << "idle-hist " + s + " --rank 3" << "did you mean --ranks?" << "";
        QTest::newRow("fraction for a count") << "kernels " + s + " --num-kernels 1.5" << "--num-kernels: expects a whole number" << "";
        QTest::newRow("negative delay") << "idle " + s + " --consecutive-kernel-delay -5" << "--consecutive-kernel-delay: expects a number >= 0" << "";
        QTest::newRow("negative top") << "kernel-dist " + s + " --top -1" << "--top:" << "";
        QTest::newRow("negative outliers") << "kernel-dist " + s + " --max-outliers -1" << "--max-outliers:" << "";
        QTest::newRow("zero repeats") << "bench load " + s + " --repeat 0" << "--repeat: expects a whole number from 1" << "";
        QTest::newRow("ratio out of range") << "kernels " + s + " --duration-ratio 2" << "--duration-ratio:" << "--num-kernels";
        QTest::newRow("count out of range") << "kernels " + s + " --num-kernels -1" << "--num-kernels:" << "--duration-ratio";
        QTest::newRow("bins") << "idle-hist " + s + " --bins 0" << "--bins:" << "";
        QTest::newRow("format") << "info " + s + " --format xml" << "--format: expects table, csv or json, got 'xml'" << "";
        QTest::newRow("rank range") << "info " + s + " --ranks 3-1" << "--ranks: the range '3-1' ends before it starts" << "";
        QTest::newRow("rank text") << "info " + s + " --ranks one" << "--ranks:" << "";
        QTest::newRow("streams") << "idle " + s + " --streams 7,x" << "--streams:" << "";
        QTest::newRow("log level") << "info " + s + " --log-level loud" << "--log-level:" << "";
        QTest::newRow("missing value") << "info " + s + " --format" << "--format" << "";
        QTest::newRow("straggler past the ranks")
            << "synth " + QString::fromStdString((synthDir / "run").string()) + " --ranks 4 --straggler 9"
            << "--straggler: expects a rank from -1 to 3" << "";
        QTest::newRow("two OUT_DIRs") << "synth /tmp/a /tmp/b" << "unexpected argument '/tmp/b'" << "";
        QTest::newRow("two folders") << "temporal " + s + " " + s << "is a folder: a run is one folder, or one or more trace files" << "";
        QTest::newRow("misspelt command") << "tempral " + s << "did you mean temporal?" << "";
        QTest::newRow("bench without load") << "bench " + s << "MODE" << "";
    }
    void usageErrors()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, culprit);
        QFETCH(QString, notMentioned);
        const test::CommandResult r = test::runCli(arguments.toStdString());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.empty(), r.out.c_str());
        QVERIFY2(contains(r.err, culprit), r.err.c_str());
        if (!notMentioned.isEmpty())
            QVERIFY2(!contains(r.err, notMentioned), r.err.c_str());
    }

    // Item 9: `temporal -h` is help, not a path; every command has its own --help with the
    // analyses' defaults.
    void helpPerCommand_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("temporal -h") << "temporal -h" << "Usage: kinetoscope-cli temporal [OPTIONS] RUN...";
        QTest::newRow("common options") << "temporal --help" << "--hta-compat";
        QTest::newRow("kernels defaults") << "kernels -h" << "--num-kernels N=10";
        QTest::newRow("ratio default") << "kernel-types -h" << "--duration-ratio R=0.8";
        QTest::newRow("idle default") << "idle -h" << "--consecutive-kernel-delay US=30";
        QTest::newRow("bins default") << "idle-hist -h" << "--bins N=50";
        QTest::newRow("top default") << "kernel-dist -h" << "--top N=20";
        QTest::newRow("help COMMAND") << "help overlap" << "Usage: kinetoscope-cli overlap";
        QTest::newRow("bench") << "bench --help" << "--repeat N=1";
        QTest::newRow("synth") << "synth -h" << "--force";
        QTest::newRow("several files") << "info -h" << "one or more trace";
        QTest::newRow("top level") << "--help" << "idle-hist";
    }
    void helpPerCommand()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, expected);
        const test::CommandResult r = test::runCli(arguments.toStdString());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(contains(r.out, expected), r.out.c_str());
    }

    void infoCsvHasOneRowPerRank()
    {
        std::string output;
        QCOMPARE(cli("info --format csv " + sampleRun(), output), 0);
        QCOMPARE(lineCount(output), 9);  // header + 8 ranks
        QVERIFY(output.rfind("rank,file,events,gpu_kernels,memcpy,memset,cpu_ops,runtime_calls,streams,", 0) == 0);
    }

    // Item 2: several files are one run, never silently the first.
    void severalFilesFormOneRun()
    {
        const std::string dir = sampleRun();
        std::string output;
        QCOMPARE(cli("temporal --format csv " + dir + "/rank2.pt.trace.json.gz " + dir + "/rank5.pt.trace.json.gz", output), 0);
        QCOMPARE(lineCount(output), 3);
        QVERIFY(output.find("\n2,") != std::string::npos && output.find("\n5,") != std::string::npos);
        QCOMPARE(cli("info --format csv " + dir + "/rank*.json.gz", output), 0);  // the shell's glob
        QCOMPARE(lineCount(output), 9);
        // The same file twice is read once.
        QCOMPARE(cli("info --format csv " + dir + "/rank1.pt.trace.json.gz " + dir + "/rank1.pt.trace.json.gz", output), 0);
        QCOMPARE(lineCount(output), 2);
    }

    void rankSelection()
    {
        std::string output;
        QCOMPARE(cli("temporal --format csv --ranks 1,3-4 " + sampleRun(), output), 0);
        QCOMPARE(lineCount(output), 4);
        QVERIFY(output.find("\n1,") != std::string::npos);
        QVERIFY(output.find("\n3,") != std::string::npos);
        QVERIFY(output.find("\n4,") != std::string::npos);
    }

    // Item 4: ranks that are not in the run are named with the ranks present; a huge range is
    // checked against the run, not expanded.
    void missingRanksAreNamed()
    {
        test::CommandResult r = test::runCli("info --format csv --ranks 0,9,12 " + sampleRun());
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(lineCount(r.out), 2);  // rank 0 only
        QVERIFY2(contains(r.err, "ranks 9, 12 asked for with --ranks are not in the run, which has ranks 0-7"), r.err.c_str());

        r = test::runCli("temporal --format json --allow-partial --ranks 0,9,12 " + sampleRun());
        QCOMPARE(r.exitCode, 0);
        const QJsonArray notes = jsonOf(r.out).value("notes").toArray();
        QVERIFY(!notes.isEmpty());
        QVERIFY(notes.first().toString().contains("ranks 9, 12"));

        r = test::runCli("info --ranks 9 " + sampleRun());
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.empty());
        QVERIFY2(contains(r.err, "--ranks 9 matches none of the ranks") && contains(r.err, "(0-7)"), r.err.c_str());

        const auto start = std::chrono::steady_clock::now();
        r = test::runCli("overlap --format csv --ranks 0-2000000000 " + sampleRun());
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(lineCount(r.out), 9);
        QVERIFY2(contains(r.err, "ranks 8-2000000000 asked for"), r.err.c_str());
    }

    // Item 7: idle-hist takes --ranks like every command, has a rank column, exit 2/3 for ranks
    // that are not there.
    void idleHistogramRanks()
    {
        test::CommandResult r = test::runCli("idle-hist --format csv --bins 4 --ranks 2,5 " + sampleRun());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.rfind("rank,idle_category,bin_start (us),bin_end (us),count,partial\n", 0) == 0, r.out.c_str());
        QCOMPARE(lineCount(r.out), 1 + 2 * 3 * 4);
        QVERIFY(r.out.find("\n2,host_wait,") != std::string::npos && r.out.find("\n5,other,") != std::string::npos);
        QVERIFY(r.out.find("\n0,") == std::string::npos);

        r = test::runCli("idle-hist --format csv " + sampleRun());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(lineCount(r.out), 1 + 8 * 3 * 50);  // every rank by default

        r = test::runCli("idle-hist --ranks 99 " + sampleRun());
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.empty());
        QVERIFY(contains(r.err, "--ranks 99"));
        r = test::runCli("idle-hist --format csv --ranks 1,99 " + sampleRun());
        QCOMPARE(r.exitCode, 3);
        QVERIFY(contains(r.err, "rank 99 asked for with --ranks is not in the run"));
    }

    // Item 9: what a folder held when nothing in it could be used; missing paths; JSON that is
    // no trace is skipped, not a failed rank; gzip offsets say they are in the inflated stream.
    void errorMessages()
    {
        const auto empty = test::scratchDir("cli-msg-empty");
        test::CommandResult r = test::runCli("info " + empty.string());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(contains(r.err, "no usable rank in " + QString::fromStdString(empty.string())
                                     + ": it holds no trace file (*.json, *.json.gz)"), r.err.c_str());

        const auto others = test::scratchDir("cli-msg-others");
        test::writeFile(others / "notes.txt", "hello");
        test::writeFile(others / "data.csv", "a,b");
        r = test::runCli("info " + others.string());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(contains(r.err, "skipped, not trace file names: data.csv, notes.txt"), r.err.c_str());

        r = test::runCli("temporal /nonexistent/run");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(contains(r.err, "/nonexistent/run: no such file or folder"), r.err.c_str());
        QVERIFY(!contains(r.err, "byte 0"));

        const auto array = test::scratchDir("cli-msg-array");
        test::writeFile(array / "a.json", "[1,2,3]");
        r = test::runCli("info " + (array / "a.json").string());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(contains(r.err, "JSON, but not a trace: the top level is an array"), r.err.c_str());
        QVERIFY(!contains(r.err, "not JSON"));

        // config.json beside the traces: skipped with a note, the run is whole (exit 0).
        const auto withConfig = test::scratchDir("cli-msg-config");
        for (const char* file : {"rank0.pt.trace.json.gz", "rank1.pt.trace.json.gz"})
            test::writeFile(withConfig / file, test::readFileBytes(test::sourceDir() / "resources" / "sample-run" / file));
        test::writeFile(withConfig / "config.json", R"J({"lr": 0.1, "batch_size": 32})J");
        r = test::runCli("temporal --format csv " + withConfig.string());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(lineCount(r.out), 3);
        QVERIFY2(contains(r.err, "config.json: JSON, but not a trace: no \"traceEvents\"") && contains(r.err, "batch_size, lr"),
                 r.err.c_str());

        // A gzip file cut short: the offset is one of the inflated stream, and says so.
        const auto cut = test::scratchDir("cli-msg-cut");
        const std::string bytes = test::readFileBytes(test::sourceDir() / "resources" / "sample-run" / "rank0.pt.trace.json.gz");
        test::writeFile(cut / "rank0.pt.trace.json.gz", bytes.substr(0, bytes.size() / 2));
        r = test::runCli("info --format csv " + cut.string());
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(contains(r.err, "truncated at byte ") && contains(r.err, " of the inflated stream"), r.err.c_str());
        QVERIFY(contains(r.out, "of the inflated stream"));  // info's import_issues column
    }

    void jsonOutputParses()
    {
        std::string output;
        QCOMPARE(cli("overlap --format json " + sampleRun(), output), 0);
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(output));
        QVERIFY(doc.isObject());
        QCOMPARE(doc.object().value("columns").toArray().first().toString(), QString("rank"));
        const QJsonArray rows = doc.object().value("rows").toArray();
        QCOMPARE(rows.size(), 8);
        QVERIFY(rows.first().toObject().value("comp_comm_overlap_pctg").toDouble() > 0.0);
        QCOMPARE(rows.first().toObject().value("partial").toInt(-1), 0);
    }

    void outputFile()
    {
        const auto dir = test::scratchDir("cli-out");
        std::string output;
        QCOMPARE(cli("temporal -o " + (dir / "t.csv").string() + " " + sampleRun(), output), 0);
        QVERIFY(output.empty());
        const std::string written = test::readFileBytes(dir / "t.csv");
        QVERIFY(written.rfind("rank,idle_time(us),compute_time(us),non_compute_time(us),kernel_time(us)", 0) == 0);
        QCOMPARE(lineCount(written), 9);
    }

    void infoReportsImportIssues()
    {
        const auto dir = test::scratchDir("cli-issues");
        test::writeFile(dir / "rank0.json", R"J({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "bad", "pid": 0, "tid": 7, "dur": 2},
  {"ph": "X", "cat": "kernel", "name": "worse", "pid": 0, "tid": 7, "ts": 5, "dur": -1}
]})J");
        std::string output;
        QCOMPARE(cli("info --format csv " + dir.string(), output), 0);
        QVERIFY(output.find("1 missing ts") != std::string::npos);
        QVERIFY(output.find("1 negative dur") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
