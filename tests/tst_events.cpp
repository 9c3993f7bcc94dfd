// `kinetoscope-cli events`: the filters (kind, name, time window, rank) and formats on a small
// hand-written trace, and --hta-compat against HTA's parsed frames (golden trace_df_rank<r>.csv):
// the same rows, keyed by HTA's row index, and the same value in every column both have.

// moc cannot parse <stop_token>'s concepts; it needs none of the engine headers.
#ifndef Q_MOC_RUN
#include "analysis/operators/eventquery.h"
#include "goldencsv.h"
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <sqlite3.h>

#include <cstdlib>
#include <map>

using namespace kscope::test;

namespace {

const char* const kTrace = R"json({"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1010, "dur": 50, "args": {"Input Dims": [[4, 8], [8, 8]]}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1014, "dur": 2, "args": {"correlation": 1}},
 {"ph": "X", "cat": "kernel", "name": "gemm, \u0022quoted\u0022", "pid": 0, "tid": 7, "ts": 1020, "dur": 10.5, "args": {"stream": 7, "correlation": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1015, "s": "t",
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 1234, "Bytes": 4096, "Total Allocated": 8192, "Total Reserved": 20971520}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 1200, "dur": 3, "args": {"stream": 7, "bytes": 64}}
]})json";

std::filesystem::path sample()
{
    static std::filesystem::path dir;
    if (dir.empty()) {
        dir = scratchDir("events-sample");
        writeFile(dir / "rank0.json", kTrace);
    }
    return dir;
}

GoldenCsv run(const std::string& arguments);
GoldenCsv run_(const std::string& filters)
{
    return run(sample().string() + " " + filters);
}

GoldenCsv run(const std::string& arguments)
{
    const CommandResult r = runCli("events " + arguments);
    if (r.exitCode != 0)
        qWarning("exit %d: %s", r.exitCode, r.err.c_str());
    return parseGoldenCsv(r.out);
}

// The rows of a query on an SQLite file, each as "a|b|c".
std::vector<std::string> query(const std::filesystem::path& file, const std::string& sql)
{
    std::vector<std::string> rows;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_exec(
            db, sql.c_str(),
            [](void* out, int n, char** values, char**) {
                std::string row;
                for (int k = 0; k < n; ++k)
                    row += (k ? "|" : "") + std::string(values[k] ? values[k] : "NULL");
                static_cast<std::vector<std::string>*>(out)->push_back(row);
                return 0;
            },
            &rows, nullptr);
    }
    sqlite3_close(db);
    return rows;
}

bool sameValue(const std::string& a, const std::string& b)
{
    if (a == b)
        return true;
    char* endA = nullptr;
    char* endB = nullptr;
    const double x = std::strtod(a.c_str(), &endA);
    const double y = std::strtod(b.c_str(), &endB);
    return !a.empty() && !b.empty() && *endA == 0 && *endB == 0 && x == y;
}

} // namespace

class TestEvents : public QObject {
    Q_OBJECT

private slots:
    void everyEvent()
    {
        const GoldenCsv csv = run(sample().string());
        QCOMPARE(csv.rows.size(), size_t(6));
        const int kind = csv.column("kind"), name = csv.column("name"), ts = csv.column("ts (us)");
        QVERIFY(kind >= 0 && name >= 0 && ts >= 0);
        QCOMPARE(csv.rows[0][ts], std::string("0"));  // since the run's first event
        std::map<std::string, std::string> kindOf;
        for (const auto& row : csv.rows)
            kindOf[row[name]] = row[kind];
        QCOMPARE(kindOf["gemm, \"quoted\""], std::string("kernel"));
        QCOMPARE(kindOf["[memory]"], std::string("memory"));
        QCOMPARE(kindOf["aten::mm"], std::string("cpu-op"));
        QCOMPARE(kindOf["ProfilerStep#1"], std::string("annotation"));
    }

    void filters()
    {
        const std::string in = sample().string();
        QCOMPARE(run(in + " --kind kernel").rows.size(), size_t(1));
        QCOMPARE(run(in + " --kind kernel,memcpy").rows.size(), size_t(2));
        const GoldenCsv memory = run(in + " --kind memory");
        QCOMPARE(memory.rows.size(), size_t(1));
        QCOMPARE(memory.rows[0][memory.column("bytes")], std::string("4096"));
        QCOMPARE(memory.rows[0][memory.column("total_reserved")], std::string("20971520"));
        QCOMPARE(memory.rows[0][memory.column("device")], std::string("cuda:0"));
        QCOMPARE(run(in + " --name '^aten::'").rows.size(), size_t(1));
        // [20, 25] us: the kernel (20-30.5), the step (0-100), the op (10-60)
        const GoldenCsv window = run(in + " --from-us 20 --to-us 25");
        QCOMPARE(window.rows.size(), size_t(3));
        QCOMPARE(window.rows[2][window.column("dur (us)")], std::string("10.5"));
        QCOMPARE(run(in + " --rank 0 --kind memcpy").rows.size(), size_t(1));
        QCOMPARE(runCli("events " + in + " --rank 3").exitCode, 3);
        const CommandResult bad = runCli("events " + in + " --name '('");
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.find("regular expression") != std::string::npos);
    }

    // What a GUI model shows (selectEvents + eventCells) is what the CLI writes.
    void cellsMatchTheCli()
    {
        const auto run = kscope::loadRun(sample(), kscope::LoadOptions{});
        QVERIFY(run && run->ranks.size() == 1);
        kscope::EventFilter filter;
        filter.classes = (1u << unsigned(kscope::EventClass::Kernel)) | (1u << unsigned(kscope::EventClass::Memory));
        const auto rows = kscope::selectEvents(*run, run->ranks[0], filter);
        QCOMPARE(rows.size(), size_t(2));
        const GoldenCsv csv = run_("--kind kernel,memory");
        QCOMPARE(csv.header, std::vector<std::string>(kscope::eventColumns().begin(), kscope::eventColumns().end()));
        QCOMPARE(csv.rows.size(), rows.size());
        for (size_t k = 0; k < rows.size(); ++k) {
            const auto cells = kscope::eventCells(*run, run->ranks[0], rows[k]);
            QCOMPARE(cells.size(), csv.header.size());
            for (size_t c = 0; c < cells.size(); ++c)
                QVERIFY2(sameValue(kscope::formatCell(cells[c]), csv.rows[k][c]) || (kscope::formatCell(cells[c]).empty() && csv.rows[k][c].empty()),
                         csv.header[c].c_str());
        }
    }

    void jsonAndOutputFile()
    {
        const CommandResult r = runCli("events " + sample().string() + " --format json --kind cpu-op,kernel");
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(r.out), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(doc.array().size(), 2);
        QCOMPARE(doc.array()[1].toObject().value("name").toString(), QString("gemm, \"quoted\""));
        const auto out = scratchDir("events-out") / "events.csv";
        QCOMPARE(runCli("events " + sample().string() + " -o " + out.string()).exitCode, 0);
        QCOMPARE(parseGoldenCsv(readFileBytes(out)).rows.size(), size_t(6));
    }

    // The SQLite file: SQLite's header, the schema's tables and views (the engine is not linked
    // into the tests; the schema text lives in the file's first pages).
    void sqlite()
    {
        const auto out = scratchDir("events-sqlite") / "run.db";
        const CommandResult r = runCli("events " + sample().string() + " --format sqlite -o " + out.string());
        QCOMPARE(r.exitCode, 0);
        const std::string bytes = readFileBytes(out);
        QVERIFY(bytes.size() > 4096);
        QCOMPARE(bytes.substr(0, 16), std::string("SQLite format 3\0", 16));
        for (const char* table : {"CREATE TABLE events", "CREATE TABLE kernels", "CREATE TABLE ops", "CREATE TABLE memory",
                                  "CREATE TABLE strings", "CREATE INDEX events_by_time", "CREATE VIEW events_named"})
            QVERIFY2(bytes.find(table) != std::string::npos, table);
        QCOMPARE(runCli("events " + sample().string() + " --format sqlite").exitCode, 1);  // needs --output
        QCOMPARE(query(out, "SELECT count(*) FROM events"), std::vector<std::string>{"6"});
        // The kernels table says which rows are memcpys and memsets ([trust] 14).
        for (const std::string& kind : query(out, "SELECT DISTINCT n.name FROM kernels k JOIN kinds n ON n.id = k.kind"))
            QVERIFY2(kind == "kernel" || kind == "memcpy" || kind == "memset", kind.c_str());
        QCOMPARE(query(out, "SELECT count(*) FROM kernels WHERE kind IS NULL"), std::vector<std::string>{"0"});
    }

    // Two files of one rank (both loaded): told apart by the file column, not a key collision.
    void sqliteDuplicateRank()
    {
        const auto dir = scratchDir("events-sqlite-duplicate");
        std::string trace = kTrace;
        trace.insert(1, R"("distributedInfo": {"rank": 0}, )");
        writeFile(dir / "a.json", trace);
        writeFile(dir / "b.json", trace);
        const auto out = scratchDir("events-sqlite-duplicate-out") / "run.db";
        const CommandResult r = runCli("events " + dir.string() + " --format sqlite -o " + out.string());
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        QCOMPARE(query(out, "SELECT rank, file, count(*) FROM events GROUP BY rank, file"),
                 (std::vector<std::string>{"0|0|6", "0|1|6"}));
        QCOMPARE(query(out, "SELECT count(*) FROM threads"), std::vector<std::string>{"4"});
        QCOMPARE(query(out, "SELECT count(*) FROM kernels k JOIN events e USING (rank, file, row)"),
                 std::vector<std::string>{"4"});
        QCOMPARE(query(out, "SELECT count(*) FROM files WHERE rank = 0"), std::vector<std::string>{"2"});
    }

    // --rank R: only that rank's rows; a rank not in the run is said (exit 3), as for CSV.
    void sqliteOneRank()
    {
        const auto dir = scratchDir("events-sqlite-ranks");
        writeFile(dir / "rank0.json", kTrace);
        writeFile(dir / "rank1.json", kTrace);
        const auto out = scratchDir("events-sqlite-ranks-out") / "run.db";
        const CommandResult r = runCli("events " + dir.string() + " --rank 1 --format sqlite -o " + out.string());
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        for (const char* table : {"events", "threads", "kernels", "memory", "ops", "files"})
            QCOMPARE(query(out, std::string("SELECT DISTINCT rank FROM ") + table), std::vector<std::string>{"1"});
        const CommandResult missing = runCli("events " + dir.string() + " --rank 3 --format sqlite -o " + out.string());
        QCOMPARE(missing.exitCode, 3);
        QVERIFY2(missing.err.find("rank 3 is not in the run") != std::string::npos, missing.err.c_str());
    }

    // [trust] 13: SIGINT (or TERM, HUP) while the SQLite file or a CSV is being written removes
    // the temporary file; the process still dies of the signal. Waits until the temporary exists.
    void interruptedExportLeavesNoTemporary_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("signal");
        QTest::newRow("sqlite-int") << "sqlite" << "INT";
        QTest::newRow("sqlite-term") << "sqlite" << "TERM";
        QTest::newRow("csv-int") << "csv" << "INT";
    }

    void interruptedExportLeavesNoTemporary()
    {
        QFETCH(QString, format);
        QFETCH(QString, signal);
        static const std::filesystem::path run = [] {
            const auto dir = scratchDir("events-interrupt-run");
            runCli("synth --ranks 1 --size-per-rank 150MB --force " + dir.string());
            return dir;
        }();
        const auto out = scratchDir("events-interrupt-out-" + format.toStdString() + signal.toStdString());
        const std::string command = "sh -c '" + cliPath().string() + " events " + run.string() + " --format " +
                                    format.toStdString() + " -o " + (out / "run.out").string() +
                                    " 2>/dev/null & pid=$!; saw=0; i=0; while [ $i -lt 1200 ]; do "
                                    "if ls -a " + out.string() + " | grep -q tmp-; then saw=1; break; fi; "
                                    "sleep 0.05; i=$((i+1)); done; kill -" + signal.toStdString() +
                                    " $pid; wait $pid; echo status=$? saw=$saw; ls -a " + out.string() + "'";
        std::string output;
        runCommand(command, output);
        QVERIFY2(output.find("saw=1") != std::string::npos, output.c_str());
        const int expected = 128 + (signal == "INT" ? 2 : 15);
        QVERIFY2(output.find("status=" + std::to_string(expected)) != std::string::npos, output.c_str());
        QVERIFY2(output.find("tmp-") == std::string::npos, output.c_str());
        QVERIFY2(output.find("run.out") == std::string::npos, output.c_str());
    }

    // A window bound whose ns do not fit int64 (llround would return LLONG_MIN): a usage error.
    void hugeTimeWindow()
    {
        const CommandResult r = runCli("events " + sample().string() + " --from-us 1e300");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.find("--from-us") != std::string::npos, r.err.c_str());
        QCOMPARE(runCli("events " + sample().string() + " --to-us -1e300").exitCode, 1);
        QCOMPARE(run_("--from-us 9e15").rows.size(), size_t(0));
    }

    void goldenFrames_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("traceDir");
        QTest::addColumn<int>("rank");
        QTest::addColumn<bool>("lastStep");
        const auto golden = sharedDir() / "golden";
        if (!std::filesystem::exists(golden))
            return;
        for (const auto& entry : std::filesystem::directory_iterator(golden)) {
            const std::string caseName = entry.path().filename().string();
            QFile file(QString::fromStdString((entry.path() / "params.json").string()));
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QJsonObject params = QJsonDocument::fromJson(file.readAll()).object();
            bool lastStep = false;
            for (const QJsonValue& call : params.value("calls").toArray())
                if (call.toObject().value("step").toString() == "parse")
                    lastStep = call.toObject().value("kwargs").toObject().value("include_last_profiler_step").toBool(false);
            for (const auto& f : std::filesystem::directory_iterator(entry.path())) {
                const std::string name = f.path().filename().string();
                if (!name.starts_with("trace_df_rank"))
                    continue;
                const int rank = std::atoi(name.c_str() + 13);
                QTest::newRow((caseName + " rank " + std::to_string(rank)).c_str())
                    << QString::fromStdString(caseName) << params.value("trace_dir").toString() << rank << lastStep;
            }
        }
    }

    void goldenFrames()
    {
        QFETCH(QString, caseName);
        QFETCH(QString, traceDir);
        QFETCH(int, rank);
        QFETCH(bool, lastStep);
        const std::string stem = "trace_df_rank" + std::to_string(rank) + ".csv";
        const auto dir = sharedDir() / "golden" / caseName.toStdString();
        const auto file = std::filesystem::exists(dir / stem) ? dir / stem : dir / (stem + ".gz");
        const GoldenCsv golden = parseGoldenCsv(readMaybeGzip(file));
        const GoldenCsv ours = run((sharedDir() / traceDir.toStdString()).string() + " --hta-compat --rank "
                                   + std::to_string(rank) + (lastStep ? " --include-last-step" : ""));
        QCOMPARE(ours.rows.size(), golden.rows.size());
        std::vector<std::pair<int, int>> columns;  // (ours, golden)
        for (size_t c = 0; c < ours.header.size(); ++c)
            if (ours.header[c] != "rank" && golden.column(ours.header[c]) >= 0)
                columns.emplace_back(int(c), golden.column(ours.header[c]));
        QVERIFY(columns.size() >= 20);
        const int goldenIndex = golden.column("index");
        const int ourIndex = ours.column("index");
        std::map<std::string, const std::vector<std::string>*> byIndex;
        for (const auto& row : golden.rows)
            byIndex[row[goldenIndex]] = &row;
        for (const auto& row : ours.rows) {
            const auto it = byIndex.find(row[ourIndex]);
            QVERIFY2(it != byIndex.end(), qPrintable(QString::fromStdString("row index not in HTA's frame: " + row[ourIndex])));
            for (const auto& [o, g] : columns)
                QVERIFY2(sameValue(row[o], (*it->second)[g]),
                         qPrintable(QString::fromStdString("index " + row[ourIndex] + " " + ours.header[o] + ": ours "
                                                           + row[o] + ", HTA " + (*it->second)[g])));
        }
    }
};

QTEST_GUILESS_MAIN(TestEvents)
#include "tst_events.moc"
