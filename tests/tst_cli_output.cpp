// kinetoscope-cli's results as scripts read them: partial ranks marked in every command, failed
// writes reported, --output replaced atomically, synth refusing to mix runs, the table format for
// people, units in column names, and the default mode's answers (what a kernel is, idle gaps).

#include <QtTest>

#ifndef Q_MOC_RUN
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <set>
#include <sstream>
#include <sys/stat.h>

using namespace kscope;

namespace {

namespace fs = std::filesystem;

fs::path sampleRun()
{
    return test::sourceDir() / "resources" / "sample-run";
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

QJsonObject jsonOf(const std::string& text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    return doc.object();
}

int lineCount(const std::string& text)
{
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

std::vector<std::string> filesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Ranks 0-2 of the sample run, rank 1 cut at 60% of its gzip bytes, and a file that is not JSON.
fs::path partialRun()
{
    static const fs::path dir = [] {
        const fs::path d = test::scratchDir("cli-partial-run");
        for (int r = 0; r < 3; ++r) {
            const std::string name = "rank" + std::to_string(r) + ".pt.trace.json.gz";
            std::string bytes = test::readFileBytes(sampleRun() / name);
            if (r == 1)
                bytes.resize(bytes.size() * 6 / 10);
            test::writeFile(d / name, bytes);
        }
        test::writeFile(d / "rank9.json", "this is not JSON");
        return d;
    }();
    return dir;
}

// Inductor's Triton launch: a cpu_op carrying args.stream 0, with the same name as its kernel; and
// a kernel that starts 5 us before the one before it on stream 7 ends.
fs::path tritonRun()
{
    static const fs::path dir = [] {
        const fs::path d = test::scratchDir("cli-triton-run");
        test::writeFile(d / "rank0.json", R"J({"distributedInfo": {"rank": 0}, "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 1, "tid": 1, "ts": 0, "dur": 50, "args": {"stream": 0}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 100, "dur": 10, "args": {"stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 60, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 105, "dur": 20, "args": {"stream": 7, "correlation": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 70, "dur": 5, "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 140, "dur": 20, "args": {"stream": 7, "correlation": 3}}
]})J");
        return d;
    }();
    return dir;
}

// The first row of a JSON table whose `column` equals `value`.
QJsonObject rowWhere(const QJsonObject& table, const QString& column, const QJsonValue& value)
{
    for (const QJsonValue& row : table.value("rows").toArray())
        if (row.toObject().value(column) == value)
            return row.toObject();
    return {};
}

} // namespace

class TestCliOutput : public QObject {
    Q_OBJECT

private slots:
    // [trust] 12: at 80 columns long names are cut, and the column a table is sorted by (or that
    // names its rows) stays; every line fits.
    // [trust] 14: the kernels table lists rows in the order of the names it shows (short names),
    // within each kernel type.
    void kernelsOrderedByTheNamesShown()
    {
        const test::CommandResult r = test::runCli("kernels --format table --width 0 " + test::sourceDir().string() +
                                                   "/resources/sample-run");
        QCOMPARE(r.exitCode, 0);
        std::istringstream lines(r.out);
        std::string line;
        std::getline(lines, line);  // header
        std::string lastType, lastName;
        int rows = 0;
        while (std::getline(lines, line)) {
            const size_t nameEnd = line.find("  ");
            const std::string name = line.substr(0, nameEnd);
            std::string type;
            for (const char* t : {"COMMUNICATION", "COMPUTATION", "MEMORY"})
                if (line.find(std::string("  ") + t + " ") != std::string::npos)
                    type = t;
            if (type == lastType && name != "others" && lastName != "others")
                QVERIFY2(lastName <= name, (lastName + " before " + name).c_str());
            lastType = type;
            lastName = name;
            ++rows;
        }
        QVERIFY(rows > 10);
    }

    void narrowTerminalKeepsTheAnswer_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("column");
        QTest::newRow("kernels") << "kernels" << "trace_filter" << "sum (us)";
        QTest::newRow("ops") << "ops" << "triton_example" << "device_total (us)";
        QTest::newRow("launch-stats --by-api") << "launch-stats --by-api" << "trace_filter" << "launch_api";
        QTest::newRow("collectives") << "collectives" << "trace_filter" << "collective";
        QTest::newRow("kernel-dist") << "kernel-dist" << "trace_filter" << "spread";
    }
    void narrowTerminalKeepsTheAnswer()
    {
        QFETCH(QString, command);
        QFETCH(QString, trace);
        QFETCH(QString, column);
        const auto dir = test::sharedDir() / "traces" / trace.toStdString();
        if (!std::filesystem::exists(dir))
            QSKIP("../shared/traces is not here");
        const test::CommandResult r = test::runCli(command.toStdString() + " --format table --width 80 " + dir.string());
        QCOMPARE(r.exitCode, 0);
        const std::string header = r.out.substr(0, r.out.find('\n'));
        QVERIFY2(header.find(column.toStdString()) != std::string::npos, r.out.c_str());
        std::istringstream lines(r.out);
        for (std::string line; std::getline(lines, line);) {
            size_t shown = 0;
            for (unsigned char c : line)
                shown += (c & 0xC0) != 0x80;
            QVERIFY2(shown <= 80, line.c_str());
        }
    }

    // Item 3: every command marks the partial rank (column and note with reason and offset) and
    // lists the failed file; without --allow-partial the exit code is 3.
    void partialRankInEveryCommand_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("perRank");  // has a rank column
        QTest::newRow("info") << "info" << true;
        QTest::newRow("temporal") << "temporal" << true;
        QTest::newRow("kernel-types") << "kernel-types" << false;
        QTest::newRow("kernels") << "kernels" << true;
        QTest::newRow("kernel-dist") << "kernel-dist" << true;
        QTest::newRow("idle") << "idle" << true;
        QTest::newRow("idle --stats") << "idle --stats" << true;
        QTest::newRow("idle-hist") << "idle-hist" << true;
        QTest::newRow("overlap") << "overlap" << true;
        QTest::newRow("temporal --hta-compat") << "temporal --hta-compat" << true;
    }
    void partialRankInEveryCommand()
    {
        QFETCH(QString, command);
        QFETCH(bool, perRank);
        const std::string run = partialRun().string();
        test::CommandResult r = test::runCli(command.toStdString() + " --format json --allow-partial " + run);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject table = jsonOf(r.out);
        QVERIFY2(!table.isEmpty(), r.out.c_str());
        QStringList notes;
        for (const QJsonValue& n : table.value("notes").toArray())
            notes << n.toString();
        const QString all = notes.join('\n');
        QVERIFY2(all.contains(QRegularExpression("rank 1 is partial.*truncated at byte \\d+ of the inflated stream")),
                 qPrintable(all));
        QVERIFY2(all.contains("not loaded: ") && all.contains("rank9.json") && all.contains("not JSON at byte 0"),
                 qPrintable(all));
        if (perRank) {
            QVERIFY(table.value("columns").toArray().contains(QJsonValue("partial")));
            QCOMPARE(rowWhere(table, "rank", 1).value("partial").toInt(-1), 1);
            QCOMPARE(rowWhere(table, "rank", 0).value("partial").toInt(-1), 0);
            QCOMPARE(rowWhere(table, "rank", 2).value("partial").toInt(-1), 0);
        }
        r = test::runCli(command.toStdString() + " --format csv " + run);
        QCOMPARE(r.exitCode, 3);
        QVERIFY(!r.out.empty());
        QVERIFY2(contains(r.err, "note: rank 1 is partial") && contains(r.err, "error: incomplete result"), r.err.c_str());
    }

    // HTA's own columns stay exact on a whole run; the partial column appears only when needed.
    void htaColumnsStayExactOnWholeRuns()
    {
        const test::CommandResult r = test::runCli("temporal --hta-compat --format csv " + sampleRun().string());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.rfind("rank,idle_time(us),compute_time(us),non_compute_time(us),kernel_time(us),idle_time_pctg,"
                            "compute_time_pctg,non_compute_time_pctg\n", 0) == 0);
    }

    // Item 5: a failed write is an error naming the path and the reason, never a silent exit 0.
    void writeFailures_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("culprit");
        const QString run = QString::fromStdString(sampleRun().string());
        QTest::newRow("json to /dev/full") << "info --format json -o /dev/full " + run << "cannot write /dev/full: No space left on device";
        QTest::newRow("csv to /dev/full") << "info --format csv -o /dev/full " + run << "cannot write /dev/full: No space left on device";
        QTest::newRow("stdout is full") << "temporal --format json " + run + " >/dev/full" << "cannot write the result to standard output";
        QTest::newRow("no such folder") << "temporal -o /nonexistent/dir/t.csv " + run << "cannot write /nonexistent/dir/t.csv";
        QTest::newRow("a folder") << "temporal -o /tmp " + run << "cannot write /tmp: is a folder";
    }
    void writeFailures()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, culprit);
        const test::CommandResult r = test::runCli(arguments.toStdString());
        QCOMPARE(r.exitCode, 4);
        QVERIFY(r.out.empty());
        QVERIFY2(contains(r.err, culprit.toStdString()), r.err.c_str());
    }

    // --output goes to a temporary file renamed over the target: a reader holding the old file
    // (here a hard link to it) never sees it change, and a failed write leaves it whole.
    void outputIsReplacedAtomically()
    {
        const fs::path dir = test::scratchDir("cli-atomic");
        const fs::path target = dir / "kernels.csv";
        test::writeFile(target, "old\n");
        ::chmod(target.c_str(), 0640);
        fs::create_hard_link(target, dir / "reader.csv");
        test::CommandResult r = test::runCli("kernels -o " + target.string() + " " + sampleRun().string());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(test::readFileBytes(target).rfind("name,sum (us)", 0) == 0);
        QCOMPARE(test::readFileBytes(dir / "reader.csv"), std::string("old\n"));  // renamed over, not truncated
        QCOMPARE(fs::status(target).permissions() & fs::perms::all, fs::perms(0640));
        QCOMPARE(filesIn(dir), (std::vector<std::string>{"kernels.csv", "reader.csv"}));  // no temporary left

        // A write that fails half-way (file size limit): the old file stays whole, nothing left behind.
        const std::string before = test::readFileBytes(target);
        const std::string command = "sh -c \"trap '' XFSZ; ulimit -f 1; " + test::cliPath().string() + " kernels -o "
            + target.string() + " --format json " + sampleRun().string() + "\"";
        std::string out;
        QCOMPARE(test::runCommand(command + " 2>/dev/null", out), 4);
        QCOMPARE(test::readFileBytes(target), before);
        QCOMPARE(filesIn(dir), (std::vector<std::string>{"kernels.csv", "reader.csv"}));
    }

    // No output ever replaces an input trace: not by its path, a link to it, or a second name.
    void outputsNeverReplaceInputs()
    {
        const fs::path dir = test::scratchDir("cli-keep-inputs");
        const fs::path run = dir / "run";
        fs::create_directories(run);
        fs::copy_file(sampleRun() / "rank0.pt.trace.json.gz", run / "r0.json.gz");
        // A previous counters output lying in the run folder is one of its ranks now.
        fs::copy_file(sampleRun() / "rank1.pt.trace.json.gz", run / "r0_with_counters.json.gz");
        fs::create_symlink(run / "r0.json.gz", dir / "link.csv");
        fs::create_hard_link(run / "r0.json.gz", dir / "second-name.csv");
        const std::string before = test::readFileBytes(run / "r0.json.gz");
        for (const fs::path& target : {run / "r0.json.gz", dir / "link.csv", dir / "second-name.csv", run / "." / "r0.json.gz"}) {
            const test::CommandResult r = test::runCli("kernels -o " + target.string() + " " + run.string());
            QCOMPARE(r.exitCode, 4);
            QVERIFY2(contains(r.err, "it is an input trace of this run"), r.err.c_str());
        }
        QCOMPARE(test::readFileBytes(run / "r0.json.gz"), before);

        const std::string second = test::readFileBytes(run / "r0_with_counters.json.gz");
        const test::CommandResult r = test::runCli("counters --out " + run.string() + " " + run.string());
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(contains(r.out + r.err, "it is an input trace of this run"), (r.out + r.err).c_str());
        QCOMPARE(test::readFileBytes(run / "r0_with_counters.json.gz"), second);
        for (const std::string& name : filesIn(run))
            QVERIFY2(name.find(".tmp-") == std::string::npos, name.c_str());
    }

    // Item 8: synth refuses a non-empty folder; --force removes the old ranks and truth first.
    void synthRefusesToMixRuns()
    {
        const fs::path dir = test::scratchDir("cli-synth-mix");
        const std::string out = (dir / "run").string();
        test::CommandResult r = test::runCli("synth " + out + " --ranks 4 --steps 1");
        QCOMPARE(r.exitCode, 0);
        const std::vector<std::string> four = filesIn(dir / "run");
        QCOMPARE(four.size(), size_t(5));  // 4 ranks + truth/
        r = test::runCli("synth " + out + " --ranks 2 --steps 1");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(contains(r.err, "is not empty") && contains(r.err, "--force"), r.err.c_str());
        QCOMPARE(filesIn(dir / "run"), four);
        test::writeFile(dir / "run" / "README.txt", "mine");
        r = test::runCli("synth " + out + " --ranks 2 --steps 1 --force");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(filesIn(dir / "run"),
                 (std::vector<std::string>{"README.txt", "rank0.pt.trace.json", "rank1.pt.trace.json", "truth"}));
        r = test::runCli("info --format csv " + out);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(lineCount(r.out), 3);
    }

    // Item 10: the table format rounds, shortens kernel names without making two alike, fits
    // the width and says what it left out; CSV keeps full precision and names.
    void tableFormatIsForPeople()
    {
        const std::string run = sampleRun().string();
        test::CommandResult csv = test::runCli("kernels --format csv " + run);
        test::CommandResult table = test::runCli("kernels --format table --width 0 " + run);
        QCOMPARE(table.exitCode, 0);
        QVERIFY(QString::fromStdString(csv.out).contains(QRegularExpression("\\.\\d{6,}")));
        QVERIFY(!QString::fromStdString(table.out).contains(QRegularExpression("\\.\\d{4,}")));
        QCOMPARE(lineCount(table.out), lineCount(csv.out));
        std::set<std::string> fullNames, shownNames;
        const QStringList csvLines = QString::fromStdString(csv.out).split('\n', Qt::SkipEmptyParts);
        const QStringList tableLines = QString::fromStdString(table.out).split('\n', Qt::SkipEmptyParts);
        for (int i = 1; i < csvLines.size(); ++i) {
            // Names precede the numbers: the CSV's first field (quoted when it has commas), the table's first column.
            const QString line = csvLines[i];
            fullNames.insert((line.startsWith('"') ? line.section('"', 1, 1) : line.section(',', 0, 0)).toStdString());
            shownNames.insert(tableLines[i].section(QRegularExpression("\\s{2,}"), 0, 0).trimmed().toStdString());
        }
        QCOMPARE(shownNames.size(), fullNames.size());  // shortened, but told apart
        const auto withArguments = std::find_if(fullNames.begin(), fullNames.end(),
                                                [](const std::string& n) { return n.rfind("void ", 0) == 0; });
        QVERIFY(withArguments != fullNames.end());
        QVERIFY2(!contains(table.out, *withArguments), withArguments->c_str());  // HTA's short name instead
        const test::CommandResult full = test::runCli("kernels --format table --width 0 --full-names " + run);
        for (const std::string& name : fullNames)
            QVERIFY2(contains(full.out, name), name.c_str());

        const test::CommandResult narrow = test::runCli("kernel-dist --format table --width 110 " + run);
        QCOMPARE(narrow.exitCode, 0);
        for (const QString& line : QString::fromStdString(narrow.out).split('\n', Qt::SkipEmptyParts))
            QVERIFY2(line.size() <= 110, qPrintable(line));
        QVERIFY2(contains(narrow.err, "left out to fit 110 characters: partial, outliers (us), whisker_low (us)"),
                 narrow.err.c_str());
        QVERIFY(contains(narrow.out, "name") && contains(narrow.out, "rank") && contains(narrow.out, "spread"));
    }

    // Item 11: every duration column names its unit in the default mode; HTA's names in HTA's.
    void unitsInColumnNames_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("defaultHeader");
        QTest::addColumn<QString>("htaHeader");
        QTest::newRow("idle") << "idle" << "rank,stream,idle_category,idle_time(us),idle_time_ratio,partial"
                              << "rank,stream,idle_category,idle_time,idle_time_ratio";
        QTest::newRow("idle --stats")
            << "idle --stats"
            << "rank,stream,idle_category,count,mean (us),std (us),min (us),25% (us),50% (us),75% (us),max (us),partial"
            << "rank,stream,idle_category,count,mean,std,min,25%,50%,75%,max";
        QTest::newRow("kernel-types") << "kernel-types" << "kernel_type,sum (us),percentage" << "kernel_type,sum,percentage";
        QTest::newRow("kernels") << "kernels" << "name,sum (us),max (us),min (us),stddev (us),mean (us),kernel_type,rank,partial"
                                 << "name,sum (us),max (us),min (us),stddev,mean (us),kernel_type,rank";
    }
    void unitsInColumnNames()
    {
        QFETCH(QString, command);
        QFETCH(QString, defaultHeader);
        QFETCH(QString, htaHeader);
        const std::string run = sampleRun().string();
        const test::CommandResult ours = test::runCli(command.toStdString() + " --format csv " + run);
        const test::CommandResult hta = test::runCli(command.toStdString() + " --hta-compat --format csv " + run);
        QCOMPARE(QString::fromStdString(ours.out.substr(0, ours.out.find('\n'))), defaultHeader);
        QCOMPARE(QString::fromStdString(hta.out.substr(0, hta.out.find('\n'))), htaHeader);
    }

    // Two files claiming one rank are two rank traces: per-rank tables name each row's file, and
    // the notes say which files share the number.
    void twoFilesClaimingOneRankAreNamedByFile()
    {
        const fs::path dir = fs::temp_directory_path() / "kscope-cli-two-files-one-rank";
        fs::remove_all(dir);
        fs::create_directories(dir);
        fs::copy_file(sampleRun() / "rank0.pt.trace.json.gz", dir / "rank0.pt.trace.json.gz");
        fs::copy_file(sampleRun() / "rank1.pt.trace.json.gz", dir / "rank1.pt.trace.json.gz");
        fs::copy_file(sampleRun() / "rank1.pt.trace.json.gz", dir / "rerun-rank1.pt.trace.json.gz");
        for (const std::string command : {"temporal", "overlap", "kernels"}) {
            const QJsonObject table = jsonOf(test::runCli(command + " --format json " + dir.string()).out);
            QVERIFY2(table.value("columns").toArray().contains(QJsonValue("file")), command.c_str());
            QSet<QString> filesOfRank1;
            for (const QJsonValue& row : table.value("rows").toArray())
                if (row.toObject().value("rank").toInt() == 1)
                    filesOfRank1.insert(row.toObject().value("file").toString());
            QCOMPARE(filesOfRank1, (QSet<QString>{"rank1.pt.trace.json.gz", "rerun-rank1.pt.trace.json.gz"}));
            QStringList notes;
            for (const QJsonValue& n : table.value("notes").toArray())
                notes << n.toString();
            QVERIFY2(notes.join('\n').contains("rank 1 is claimed by several files (rank1.pt.trace.json.gz, rerun-rank1.pt.trace.json.gz)"),
                     qPrintable(notes.join('\n')));
        }
        // Without a shared number nothing changes.
        const QJsonObject plain = jsonOf(test::runCli("temporal --format json " + sampleRun().string()).out);
        QVERIFY(!plain.value("columns").toArray().contains(QJsonValue("file")));
        fs::remove_all(dir);
    }

    // JSON says each column's unit, in HTA's mode too, where the names carry none.
    void jsonNamesUnitsInBothModes()
    {
        const std::string run = sampleRun().string();
        const QJsonObject temporal = jsonOf(test::runCli("temporal --format json " + run).out);
        QCOMPARE(temporal.value("units").toObject().value("idle_time(us)").toString(), QString("us"));
        QCOMPARE(temporal.value("units").toObject().value("idle_time_pctg").toString(), QString("percent"));
        QVERIFY(!temporal.value("units").toObject().contains("rank"));
        const QJsonObject ours = jsonOf(test::runCli("idle --format json " + run).out);
        const QJsonObject hta = jsonOf(test::runCli("idle --hta-compat --format json " + run).out);
        QCOMPARE(ours.value("units").toObject().value("idle_time(us)").toString(), QString("us"));
        QCOMPARE(hta.value("units").toObject().value("idle_time").toString(), QString("us"));
        for (const QJsonObject& table : {temporal, ours, hta})
            for (const QString& column : table.value("units").toObject().keys())
                QVERIFY2(table.value("columns").toArray().contains(QJsonValue(column)), qPrintable(column));
    }

    // Default mode: the category decides what a kernel is, in every command; HTA's rule
    // (args.stream) in --hta-compat.
    void cpuOpWithStreamIsNoKernel()
    {
        const std::string run = tritonRun().string();
        QJsonObject kernels = jsonOf(test::runCli("kernels --format json " + run).out);
        QCOMPARE(rowWhere(kernels, "name", "triton_poi_fused_add_0").value("sum (us)").toDouble(), 10.0);
        QJsonObject hta = jsonOf(test::runCli("kernels --hta-compat --format json " + run).out);
        QCOMPARE(rowWhere(hta, "name", "triton_poi_fused_add_0").value("sum (us)").toDouble(), 60.0);

        QJsonObject dist = jsonOf(test::runCli("kernel-dist --format json " + run).out);
        QCOMPARE(rowWhere(dist, "name", "triton_poi_fused_add_0").value("count").toInt(), 1);

        QJsonObject temporal = jsonOf(test::runCli("temporal --format json " + run).out);
        QCOMPARE(rowWhere(temporal, "rank", 0).value("compute_time(us)").toDouble(), 45.0);
        QCOMPARE(rowWhere(temporal, "rank", 0).value("kernel_time(us)").toDouble(), 60.0);
        temporal = jsonOf(test::runCli("temporal --hta-compat --format json " + run).out);
        QCOMPARE(rowWhere(temporal, "rank", 0).value("compute_time(us)").toDouble(), 95.0);

        QJsonObject info = jsonOf(test::runCli("info --format json " + run).out);
        QCOMPARE(rowWhere(info, "rank", 0).value("streams").toInt(), 1);
        QCOMPARE(rowWhere(info, "rank", 0).value("gpu_kernels").toInt(), 3);
        info = jsonOf(test::runCli("info --hta-compat --format json " + run).out);
        QCOMPARE(rowWhere(info, "rank", 0).value("streams").toInt(), 2);
    }

    // Default mode: an overlap on a stream is no negative gap; it is counted in a note.
    void idleGapsAreNeverNegative()
    {
        const std::string run = tritonRun().string();
        test::CommandResult r = test::runCli("idle --stats --format json " + run);
        QCOMPARE(r.exitCode, 0);
        QJsonObject stats = jsonOf(r.out);
        const QJsonObject wait = rowWhere(stats, "idle_category", "kernel_wait");
        QCOMPARE(wait.value("count").toInt(), 1);
        QCOMPARE(wait.value("min (us)").toDouble(), 15.0);
        QVERIFY2(stats.value("notes").toArray().first().toString().contains(
                     "rank 0: 1 GPU op started before the previous work on its stream had ended (stream 7: 1, 5.000 us "
                     "overlapped)"),
                 r.out.c_str());
        stats = jsonOf(test::runCli("idle --stats --hta-compat --format json " + run).out);
        QCOMPARE(rowWhere(stats, "idle_category", "kernel_wait").value("min").toDouble(), -5.0);
        const QJsonObject idle = jsonOf(test::runCli("idle --format json " + run).out);
        QCOMPARE(rowWhere(idle, "idle_category", "kernel_wait").value("idle_time(us)").toDouble(), 15.0);
    }
};

QTEST_APPLESS_MAIN(TestCliOutput)
#include "tst_cli_output.moc"
