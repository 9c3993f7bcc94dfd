// The bad-input corpus (issue [robustness]): every file of tests/data/bad/ and every case built
// here is put beside a good rank 0 and loaded through the CLI and through loadRun. Each gives its
// exit code, a message that names the file and the problem (with the byte offset where there is
// one), no crash or hang, and rank 0 still loaded whole.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>/<concepts>; it only needs the test class
#include "model/loader.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <atomic>
#include <cstdio>
#include <functional>
#include <thread>
#include <unistd.h>

#include <zlib.h>

using namespace kscope;
namespace fs = std::filesystem;

namespace {

std::string traceOfRank(int rank, const std::string& extraEvents = {})
{
    return R"J({"schemaVersion": 1, "distributedInfo": {"rank": )J" + std::to_string(rank) + R"J(, "world_size": 2},
"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1000, "dur": 5, "args": {"stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 1010, "dur": 5, "args": {"stream": 7, "correlation": 2}})J"
        + extraEvents + "\n]}\n";
}

fs::path corpusDir()
{
    return test::sourceDir() / "tests" / "data" / "bad";
}

// A gzip file of `prefix` then `count` copies of `fill`, written without holding it inflated.
void writeGzipBomb(const fs::path& file, const std::string& prefix, char fill, uint64_t count)
{
    gzFile gz = gzopen(file.c_str(), "wb1");
    QVERIFY(gz);
    gzwrite(gz, prefix.data(), unsigned(prefix.size()));
    const std::string block(1 << 20, fill);
    for (uint64_t done = 0; done < count; done += block.size())
        gzwrite(gz, block.data(), unsigned(std::min<uint64_t>(block.size(), count - done)));
    gzclose(gz);
}

// Everything the model says about a run, as text: errors, skipped files, warnings, bad events.
std::string modelText(const Run& run)
{
    std::string text;
    for (const LoadError& e : run.errors)
        text += describe(e) + "\n";
    for (const SkippedFile& s : run.skippedFiles)
        text += s.file.string() + ": " + s.reason + "\n";
    for (const LoadWarning& w : run.warnings)
        text += w.file.string() + ": " + w.message + "\n";
    for (const RankTrace& r : run.ranks)
        for (const BadEventCounter& c : r.badEvents)
            text += r.file.filename().string() + ": " + std::to_string(c.count) + " " + toString(c.kind) + " at byte "
                + std::to_string(c.samples.empty() ? 0 : c.samples.front().byteOffset) + "\n";
    return text;
}


// A plain trace of about `bytes`: one rank, kernels on one stream, one event per line.
void writeLargeTrace(const fs::path& file, uint64_t bytes)
{
    std::string text = R"J({"schemaVersion": 1, "distributedInfo": {"rank": 1}, "traceEvents": [)J" "\n";
    for (int64_t i = 0; text.size() < bytes; ++i)
        text += R"J(  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": )J" + std::to_string(1000 + 10 * i)
            + R"J(, "dur": 5, "args": {"stream": 7, "correlation": )J" + std::to_string(i) + "}},\n";
    text += R"J(  {"ph": "X", "cat": "kernel", "name": "last", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "args": {"stream": 7}})J" "\n]}\n";
    test::writeFile(file, text);
}

// Parses `file` while `change` runs on another thread once 1 MiB of it has been read.
ParsedFile parseWhileChanging(const fs::path& file, const std::function<void()>& change)
{
    LoadOptions options;
    options.chunkBytes = 64 << 10;
    LoadProgress progress;
    std::atomic<bool> done{false};
    std::thread changer([&] {
        while (!done.load() && progress.bytesDone.load() < (1u << 20))
            std::this_thread::yield();
        if (!done.load())
            change();
    });
    ParsedFile parsed = parseTraceFile(file, options, &progress);
    done = true;
    changer.join();
    return parsed;
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT

private slots:
    void corpus_data()
    {
        QTest::addColumn<QString>("file");      // in tests/data/bad/, or built by setUpCase
        QTest::addColumn<int>("exitCode");       // of `kinetoscope-cli info`
        QTest::addColumn<QStringList>("says");   // in the CLI's stderr/stdout and in the model's messages
        QTest::addColumn<int>("rank1Events");    // events of the bad file's rank 1; -1 = no rank 1, -2 = any
        QTest::addColumn<QString>("extraArgs");

        auto row = [](const char* file, int exitCode, QStringList says, int rank1Events, QString extra = {}) {
            QTest::newRow(file) << QString(file) << exitCode << says << rank1Events << extra;
        };
        // Tier 1: the file cannot be used; exit 3, rank 0 loads.
        row("empty.json", 3, {"empty.json", "not JSON at byte 0: file is empty"}, -1);
        row("zero-length.json.gz", 3, {"zero-length.json.gz", "not JSON at byte 0: file is empty"}, -1);
        row("truncated.json.gz", 3, {"truncated.json.gz", "truncated at byte 10 of the inflated stream", "gzip stream ends early"}, -1);
        row("bad-crc.json.gz", 3, {"bad-crc.json.gz", "corrupt gzip at byte 346 of the inflated stream", "checksum or length mismatch"}, 2);
        row("not-gzip.json.gz", 3, {"not-gzip.json.gz", "not JSON at byte 0", "found 't'", "named .gz but is not gzip-compressed"}, -1);
        row("gzip-not-json.json.gz", 3, {"gzip-not-json.json.gz", "not JSON at byte 0 of the inflated stream", "found 'h'"}, -1);
        row("binary-junk.json", 3, {"binary-junk.json", "not JSON at byte 0", "found byte 0x0B"}, -1);
        row("cut-mid-event.json", 3, {"cut-mid-event.json", "truncated at byte 292", "file ends inside \"traceEvents\""}, 1);
        row("trace-events-not-array.json", 3, {"trace-events-not-array.json", "at byte 36", "\"traceEvents\" is not an array"}, -1);
        row("gzip-bomb.json.gz", 3, {"gzip-bomb.json.gz", "exceeds the limit of 16 MiB"}, -1, "--max-uncompressed-mb 16");
        row("fuzz-rescan-timeout.json.gz", 3, {"fuzz-rescan-timeout.json.gz", "truncated at byte 1147529 of the inflated stream"}, -2);  // fuzzer: a hang once
        row("huge-value.json", 3, {"huge-value.json", "a single JSON value larger than 256 MiB starts at byte 17"}, -1);
        row("dangling-link.json", 3, {"dangling-link.json", "cannot open: No such file or directory"}, -1);
        row("link-loop.json", 3, {"link-loop.json", "cannot open: Too many levels of symbolic links"}, -1);
        row("unreadable.json", 3, {"unreadable.json", "cannot open: Permission denied"}, -1);
        // Well-formed JSON that is no Kineto trace, or no file: skipped with what it is, exit 0.
        row("top-level-array.json", 0, {"top-level-array.json", "a PyTorch memory timeline"}, -1);
        row("benchmark_simple_add_et.json.gz", 0, {"benchmark_simple_add_et.json.gz", "a PyTorch execution trace (schema 1.0.1)"}, -1);
        row("no-trace-events.json", 0, {"no-trace-events.json", "no \"traceEvents\" in the top-level object (its keys: deviceProperties, schemaVersion)"}, -1);
        row("folder.json", 0, {"folder.json", "a folder, not a trace file"}, -1);
        // Readable files: loaded, odd events counted per kind (tier 2), exit 0.
        row("only-metadata.json", 0, {}, 0);
        row("bom.json", 0, {}, 2);
        row("invalid-utf8.json", 0, {"1 malformed JSON"}, 1);
        row("control-chars.json", 0, {"1 malformed JSON"}, 1);
        row("ts-string.json", 0, {"1 wrong field type"}, 1);
        row("ts-missing.json", 0, {"1 missing ts"}, 1);
        row("dur-negative.json", 0, {"1 negative dur"}, 1);
        row("dur-1e30.json", 0, {"1 bad ts/dur"}, 1);
        row("dur-nan.json", 0, {"1 wrong field type"}, 1);
        row("dur-absurd.json", 0, {"1 dur over 7 days"}, 1);
        row("pid-string.json", 0, {}, 2);
        row("pid-object.json", 0, {"1 wrong field type"}, 1);
        row("unknown-ph.json", 0, {"1 unknown ph"}, 1);
        row("duplicate-keys.json", 0, {}, 2);
        row("deep-args.json", 0, {}, 3);
        row("huge-string.json", 0, {}, 3);
        row("same-rank.json", 0, {"same-rank.json", "rank 0 appears in more than one file; both are loaded"}, -1);
    }

    void corpus()
    {
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        QFETCH(QStringList, says);
        QFETCH(int, rank1Events);
        QFETCH(QString, extraArgs);
        const std::string name = file.toStdString();
        const fs::path dir = test::scratchDir("bad-" + name);
        test::writeFile(dir / "rank0.json", traceOfRank(0));
        const fs::path bad = dir / name;
        if (fs::exists(corpusDir() / name)) {
            fs::copy_file(corpusDir() / name, bad);
        } else if (name == "gzip-bomb.json.gz") {
            writeGzipBomb(bad, "{\"traceEvents\": [", ' ', 64ull << 20);  // 64 MiB of spaces in ~64 KB
        } else if (name == "huge-value.json") {
            writeGzipBomb(bad, "{\"traceEvents\": [{\"name\": \"", 'a', 300ull << 20);  // gzip whatever the name
        } else if (name == "dangling-link.json") {
            fs::create_symlink(dir / "missing-target.json", bad);
        } else if (name == "link-loop.json") {
            fs::create_symlink(bad, bad);
        } else if (name == "unreadable.json") {
            if (geteuid() == 0)
                QSKIP("root reads files whatever their permissions");
            test::writeFile(bad, traceOfRank(1));
            fs::permissions(bad, fs::perms::none);
        } else if (name == "folder.json") {
            fs::create_directory(bad);
        } else if (name == "deep-args.json") {
            const std::string deep = std::string(10000, '[') + std::string(10000, ']');
            test::writeFile(bad, traceOfRank(1, ",\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"deep\", \"pid\": 0, \"tid\": 7, \"ts\": 1020, \"dur\": 5, \"args\": {\"a\": " + deep + "}}"));
        } else if (name == "huge-string.json") {
            const std::string big(100u << 20, 'n');
            test::writeFile(bad, traceOfRank(1, ",\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + big + "\", \"pid\": 0, \"tid\": 7, \"ts\": 1020, \"dur\": 5}"));
        } else if (name == "same-rank.json") {
            test::writeFile(bad, traceOfRank(0));
        } else {
            QFAIL(("no such corpus case: " + name).c_str());
        }

        // Through the CLI.
        const test::CommandResult r = test::runCli("info --format csv " + extraArgs.toStdString() + " " + dir.string());
        const std::string cliText = r.err + r.out;
        QVERIFY2(r.exitCode == exitCode, (std::to_string(r.exitCode) + ": " + r.err).c_str());
        for (const QString& part : says)
            QVERIFY2(cliText.find(part.toStdString()) != std::string::npos, (part.toStdString() + " not in: " + cliText).c_str());
        QVERIFY2(r.out.find("\n0,rank0.json,2,2,") != std::string::npos, r.out.c_str());  // rank 0 loaded whole

        // Through the model API.
        LoadOptions options;
        if (!extraArgs.isEmpty())
            options.maxUncompressedBytes = 16ull << 20;
        const auto run = loadRun(dir, options);
        const std::string text = modelText(*run);
        for (const QString& part : says) {
            std::string wanted = part.toStdString();
            if (wanted.rfind("1 ", 0) == 0)
                wanted = wanted.substr(2);
            QVERIFY2(text.find(wanted) != std::string::npos, (wanted + " not in: " + text).c_str());
        }
        QCOMPARE(run->errors.empty(), exitCode == 0);
        const RankTrace* rank0 = run->findRank(0);
        QVERIFY(rank0);
        QCOMPARE(rank0->events.size(), size_t(2));
        const RankTrace* rank1 = run->findRank(1);
        if (rank1Events != -2)  // -2: whatever the file's rank keeps
            QCOMPARE(rank1 ? int(rank1->events.size()) : -1, rank1Events);
        if (name == "same-rank.json")
            QCOMPARE(run->ranks.size(), size_t(2));
    }

    // Every file of the corpus (fuzzer findings included) with tiny chunks, as the fuzzer reads
    // them: no crash, no hang, an answer in well under a second each.
    void everyCorpusFileWithTinyChunks()
    {
        int files = 0;
        for (const fs::directory_entry& entry : fs::directory_iterator(corpusDir())) {
            for (const uint64_t chunk : {64ull, 1000ull}) {
                LoadOptions options;
                options.chunkBytes = chunk;
                options.maxUncompressedBytes = 32u << 20;
                QElapsedTimer timer;
                timer.start();
                const ParsedFile parsed = parseTraceFile(entry.path(), options);
                QVERIFY2(timer.elapsed() < 5000, entry.path().c_str());
                if (parsed.error)
                    QVERIFY(!parsed.error->message.empty());
            }
            ++files;
        }
        QVERIFY(files >= 25);
    }

    // A file that changes under the loader: cut short, overwritten, deleted. The rank gets an error
    // (or, deleted, loads whole from the open file), never a crash; what was read before is kept.
    void fileChangesWhileLoading()
    {
        const fs::path dir = test::scratchDir("bad-changing");
        const fs::path file = dir / "rank1.json";
        constexpr uint64_t kBytes = 48u << 20;

        writeLargeTrace(file, kBytes);
        ParsedFile parsed = parseWhileChanging(file, [&] { fs::resize_file(file, 2u << 20); });
        QVERIFY(parsed.error);
        QVERIFY2(parsed.error->kind == LoadErrorKind::Truncated, toString(parsed.error->kind));
        QVERIFY(parsed.error->partial);
        QVERIFY(parsed.trace.events.size() > 1000);
        QVERIFY2(describe(*parsed.error).find("rank1.json") != std::string::npos, describe(*parsed.error).c_str());

        writeLargeTrace(file, kBytes);
        parsed = parseWhileChanging(file, [&] {
            std::FILE* f = std::fopen(file.c_str(), "r+b");
            std::fseek(f, long(kBytes / 2), SEEK_SET);
            std::fputs("\x01\x02 not json any more {{{", f);
            std::fclose(f);
        });
        QVERIFY(parsed.error);
        // Junk that opens objects and never closes them reads as a file cut short there.
        QVERIFY2(parsed.error->kind == LoadErrorKind::NotJson || parsed.error->kind == LoadErrorKind::Truncated,
                 describe(*parsed.error).c_str());
        QVERIFY(parsed.error->partial);
        QVERIFY(parsed.error->byteOffset >= kBytes / 2 - 1024);  // where the junk is, or the end it ran to

        writeLargeTrace(file, kBytes);
        const size_t whole = parseTraceFile(file, LoadOptions{}).trace.events.size();
        parsed = parseWhileChanging(file, [&] { fs::remove(file); });
        QVERIFY(!parsed.error);
        QCOMPARE(parsed.trace.events.size(), whole);

        // Gone between listing the folder and opening it: that file's error, the others load.
        test::writeFile(dir / "rank0.json", traceOfRank(0));
        writeLargeTrace(file, 1 << 20);
        const DiscoveredFiles listed = discoverRunFiles(dir);
        QCOMPARE(listed.traces.size(), size_t(2));
        fs::remove(file);
        std::vector<ParsedFile> files;
        for (const RunFile& f : listed.traces)
            files.push_back(parseTraceFile(f.path, LoadOptions{}));
        QVERIFY(files[1].error);
        QVERIFY2(files[1].error->kind == LoadErrorKind::Unreadable, describe(*files[1].error).c_str());
        Run run;
        assembleRun(run, std::move(files), LoadOptions{});
        QCOMPARE(run.ranks.size(), size_t(1));
        QCOMPARE(run.ranks[0].rank, 0);
        QVERIFY2(modelText(run).find("rank1.json: cannot open: No such file or directory") != std::string::npos, modelText(run).c_str());
    }

    // Folders as a whole: no trace at all, ranks with gaps, HTA's execution_trace and
    // memory_analysis folders.
    void folders()
    {
        const fs::path none = test::scratchDir("bad-no-trace");
        test::writeFile(none / "notes.txt", "hello");
        test::CommandResult r = test::runCli("info " + none.string());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.find("holds no trace file (*.json, *.json.gz); skipped, not trace file names: notes.txt") != std::string::npos,
                 r.err.c_str());

        const fs::path gaps = test::scratchDir("bad-rank-gaps");
        test::writeFile(gaps / "a.json", traceOfRank(0));
        test::writeFile(gaps / "b.json", traceOfRank(5));
        r = test::runCli("info --format csv " + gaps.string());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.find("\n0,a.json,2,") != std::string::npos && r.out.find("\n5,b.json,2,") != std::string::npos);

        const fs::path et = test::sharedDir() / "traces" / "execution_trace";
        if (!fs::exists(et))
            QSKIP("../shared/traces/execution_trace is missing");
        r = test::runCli("info --format csv " + et.string());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.find("benchmark_simple_add_et.json.gz: a PyTorch execution trace") != std::string::npos, r.err.c_str());
        QVERIFY(r.out.find("\n0,benchmark_simple_add_trace.json.gz,") != std::string::npos);
        // HTA's launch stats for that folder's Kineto rank: four kernels.
        r = test::runCli("launch-stats --hta-compat --format csv " + et.string());
        QCOMPARE(r.exitCode, 0);

        // The memory timeline as HTA's test ships it (.raw.gz) and as JSON beside a trace.
        const fs::path mem = test::scratchDir("bad-memory-timeline");
        test::writeFile(mem / "rank0.json", traceOfRank(0));
        test::writeFile(mem / "memory_timeline.json.gz",
                        test::readFileBytes(test::sharedDir() / "traces" / "memory_analysis" / "memory_timeline.raw.gz"));
        r = test::runCli("info --format csv " + mem.string());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.find("memory_timeline.json.gz: a PyTorch memory timeline") != std::string::npos, r.err.c_str());
    }
};

QTEST_APPLESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
