// Synthetic runs: determinism, valid Kineto JSON the loader reads without issues, event counts
// equal to the truth's, and a truth that is consistent with itself.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>/<concepts>; it only needs the test class
#include "model/loader.h"
#include "model/synth/synthrun.h"
#include "testsupport.h"
#endif

#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

using namespace kscope;
namespace fs = std::filesystem;

namespace {

std::string readBytes(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

QJsonObject readJson(const fs::path& file)
{
    const std::string text = test::readMaybeGzip(file);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(text.data(), qsizetype(text.size())), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("%s: %s at %d", file.string().c_str(), qPrintable(error.errorString()), error.offset);
    return doc.object();
}

qint64 integer(const QJsonObject& object, const char* key)
{
    return object.value(QLatin1String(key)).toInteger(-1);
}

SynthResult generate(const fs::path& dir, const SynthOptions& options)
{
    const SynthResult result = writeSynthRun(dir, options);
    if (!result.ok)
        qWarning("synth failed: %s", result.error.c_str());
    return result;
}

// The rows most tests run over: devices, timestamp modes, compression, rank counts.
void addVariantColumns()
{
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("steps");
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<bool>("ns");
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<bool>("amd");
    QTest::addColumn<int>("straggler");
}

void addVariantRows()
{
    QTest::newRow("us-8ranks") << 8 << 3 << quint64(1) << false << false << false << 3;
    QTest::newRow("ns-gzip-4ranks") << 4 << 2 << quint64(2) << true << true << false << 1;
    QTest::newRow("ns-1rank") << 1 << 2 << quint64(3) << true << false << false << -1;
    QTest::newRow("amd-us-3ranks") << 3 << 2 << quint64(4) << false << true << true << 2;
    QTest::newRow("seed-99-2ranks") << 2 << 4 << quint64(99) << true << false << false << -1;
}

SynthOptions variantOptions()
{
    QFETCH(int, ranks);
    QFETCH(int, steps);
    QFETCH(quint64, seed);
    QFETCH(bool, ns);
    QFETCH(bool, gzip);
    QFETCH(bool, amd);
    QFETCH(int, straggler);
    SynthOptions options;
    options.ranks = ranks;
    options.steps = steps;
    options.seed = seed;
    options.nsTimestamps = ns;
    options.gzip = gzip;
    options.device = amd ? SynthOptions::Device::Amd : SynthOptions::Device::Nvidia;
    options.stragglerRank = straggler;
    options.layers = 4;
    return options;
}

} // namespace

class TestSynth : public QObject {
    Q_OBJECT

private slots:
    void sameSeedSameBytes_data() { addVariantColumns(); addVariantRows(); }
    void sameSeedSameBytes()
    {
        SynthOptions options = variantOptions();
        const fs::path a = test::scratchDir("synth-same-a");
        const fs::path b = test::scratchDir("synth-same-b");
        QVERIFY(generate(a, options).ok);
        options.threads = 2;  // parallel writing must not change a byte
        QVERIFY(generate(b, options).ok);
        for (const auto& entry : fs::recursive_directory_iterator(a)) {
            if (!entry.is_regular_file())
                continue;
            const fs::path relative = fs::relative(entry.path(), a);
            QVERIFY2(readBytes(entry.path()) == readBytes(b / relative), relative.string().c_str());
        }
    }

    void differentSeedsDiffer()
    {
        SynthOptions options;
        options.ranks = 2;
        options.steps = 2;
        const fs::path a = test::scratchDir("synth-seed-a");
        const fs::path b = test::scratchDir("synth-seed-b");
        QVERIFY(generate(a, options).ok);
        options.seed = 2;
        QVERIFY(generate(b, options).ok);
        QVERIFY(readBytes(a / "rank0.pt.trace.json") != readBytes(b / "rank0.pt.trace.json"));
        QVERIFY(readBytes(a / "truth" / "truth.json") != readBytes(b / "truth" / "truth.json"));
    }

    // Valid JSON (Qt's parser, independent of ours), the metadata real traces carry, and as many
    // traceEvents as the truth counts.
    void validJson_data() { addVariantColumns(); addVariantRows(); }
    void validJson()
    {
        const SynthOptions options = variantOptions();
        const fs::path dir = test::scratchDir("synth-json");
        const SynthResult result = generate(dir, options);
        QVERIFY(result.ok);
        const QJsonObject truth = readJson(dir / "truth" / "truth.json");
        QCOMPARE(truth.value("schema").toString(), QString("kinetoscope-synth-truth"));
        const QJsonArray truthRanks = truth.value("ranks").toArray();
        QCOMPARE(truthRanks.size(), qsizetype(options.ranks));
        for (int rank = 0; rank < options.ranks; ++rank) {
            const QJsonObject trace = readJson(result.files[size_t(rank)]);
            QCOMPARE(integer(trace, "schemaVersion"), 1);
            QVERIFY(trace.contains("deviceProperties"));
            QVERIFY(trace.contains("baseTimeNanoseconds"));
            QVERIFY(trace.contains("traceName"));
            const QJsonObject dist = trace.value("distributedInfo").toObject();
            QCOMPARE(integer(dist, "rank"), rank);
            QCOMPARE(integer(dist, "world_size"), options.ranks);
            QVERIFY(dist.value("pg_config").isArray());
            const QJsonObject counts = truthRanks[rank].toObject().value("eventCounts").toObject();
            QCOMPARE(qint64(trace.value("traceEvents").toArray().size()), integer(counts, "total"));
        }
        // Loaders read every *.json of the folder: the truth must not sit beside the traces.
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.is_regular_file())
                QVERIFY(entry.path().filename().string().rfind("rank", 0) == 0);
    }

    void timestampsHaveTheRequestedResolution_data()
    {
        QTest::addColumn<bool>("ns");
        QTest::newRow("us") << false;
        QTest::newRow("ns") << true;
    }
    void timestampsHaveTheRequestedResolution()
    {
        QFETCH(bool, ns);
        SynthOptions options;
        options.ranks = 2;
        options.steps = 2;
        options.nsTimestamps = ns;
        const fs::path dir = test::scratchDir("synth-ts");
        QVERIFY(generate(dir, options).ok);
        const std::string text = readBytes(dir / "rank1.pt.trace.json");
        const QRegularExpression fractional(R"re("(ts|dur)": \d+\.\d)re");
        const qsizetype fractions = QString::fromStdString(text).count(fractional);
        if (ns)
            QVERIFY(fractions > 100);
        else
            QCOMPARE(fractions, qsizetype(0));
    }

    // The project loader reads every generated run without import issues, and what it keeps
    // matches the truth's counts, with and without HTA's last-step trimming.
    void loaderAgreesWithTruth_data() { addVariantColumns(); addVariantRows(); }
    void loaderAgreesWithTruth()
    {
        const SynthOptions options = variantOptions();
        const fs::path dir = test::scratchDir("synth-load");
        QVERIFY(generate(dir, options).ok);
        const QJsonArray truthRanks = readJson(dir / "truth" / "truth.json").value("ranks").toArray();
        for (bool includeLast : {true, false}) {
            LoadOptions loadOptions;
            loadOptions.includeLastStep = includeLast;
            loadOptions.threads = 1;
            const auto run = loadRun(dir, loadOptions);
            QVERIFY(run);
            QVERIFY(run->errors.empty());
            QVERIFY2(run->warnings.empty(), run->warnings.empty() ? "" : run->warnings.front().message.c_str());
            QCOMPARE(run->ranks.size(), size_t(options.ranks));
            for (const RankTrace& rank : run->ranks) {
                QVERIFY(rank.badEvents.empty());
                const QJsonObject truth = truthRanks[rank.rank].toObject();
                QCOMPARE(truth.value("file").toString().toStdString(), rank.file.filename().string());
                std::map<EventKind, qint64> kinds;
                qint64 onStream = 0;
                for (size_t i = 0; i < rank.events.size(); ++i) {
                    ++kinds[rank.events.kind[i]];
                    if (rank.events.stream[i] >= 0)
                        ++onStream;
                }
                const QJsonObject scope = truth.value(includeLast ? "all" : "kept").toObject();
                QCOMPARE(onStream, integer(scope, "gpuEventCount"));
                if (!includeLast)
                    continue;
                const QJsonObject categories =
                    truth.value("eventCounts").toObject().value("category").toObject();
                QCOMPARE(kinds[EventKind::Kernel], integer(categories, "kernel"));
                QCOMPARE(kinds[EventKind::Memcpy], integer(categories, "gpu_memcpy"));
                QCOMPARE(kinds[EventKind::Memset], integer(categories, "gpu_memset"));
                QCOMPARE(kinds[EventKind::CpuOp], integer(categories, "cpu_op"));
                QCOMPARE(kinds[EventKind::Runtime], integer(categories, "cuda_runtime"));
                QCOMPARE(kinds[EventKind::UserAnnotation], integer(categories, "user_annotation"));
                QCOMPARE(kinds[EventKind::GpuUserAnnotation], integer(categories, "gpu_user_annotation"));
                QCOMPARE(kinds[EventKind::CudaSync], qint64(categories.value("cuda_sync").toInteger(0)));
                QCOMPARE(qint64(rank.steps.size()), qint64(truth.value("steps").toArray().size()));
                QCOMPARE(rank.deviceType, options.device == SynthOptions::Device::Amd ? DeviceType::Amd
                                                                                       : DeviceType::Nvidia);
            }
        }
    }

    // HTA's identities hold in every scope; the phenomena are where the generator put them.
    void truthIsConsistent_data() { addVariantColumns(); addVariantRows(); }
    void truthIsConsistent()
    {
        const SynthOptions options = variantOptions();
        const fs::path dir = test::scratchDir("synth-truth");
        QVERIFY(generate(dir, options).ok);
        const QJsonObject truth = readJson(dir / "truth" / "truth.json");
        const QJsonArray ranks = truth.value("ranks").toArray();
        QCOMPARE(truth.value("steps").toObject().value("kept").toArray().size(), qsizetype(options.steps));
        QCOMPARE(integer(truth, "stragglerRank"), options.stragglerRank);
        qint64 latestLate = -1;
        int latestRank = -1;
        for (const QJsonValue& rankValue : ranks) {
            const QJsonObject rank = rankValue.toObject();
            for (const char* scopeName : {"all", "kept", "keptHtaRounded"}) {
                const QJsonObject s = rank.value(scopeName).toObject();
                const qint64 span = integer(s, "spanNs");
                QVERIFY(span > 0);
                QCOMPARE(integer(s, "gpuEndNs") - integer(s, "gpuStartNs"), span);
                QCOMPARE(integer(s, "idleNs") + integer(s, "computeNs") + integer(s, "nonComputeNs"), span);
                QCOMPARE(integer(s, "busyNs") + integer(s, "idleNs"), span);
                QVERIFY(integer(s, "nonComputeNs") >= 0);
                QVERIFY(integer(s, "commComputeOverlapNs") <= integer(s, "communicationNs"));
                QVERIFY(integer(s, "commComputeOverlapNs") <= integer(s, "computeNs"));
                qint64 activities = 0;
                std::map<qint64, qint64> perStream;
                for (const QJsonValue& k : s.value("kernels").toArray()) {
                    const QJsonObject kernel = k.toObject();
                    activities += integer(kernel, "count");
                    QVERIFY(integer(kernel, "minNs") <= integer(kernel, "maxNs"));
                    QVERIFY(integer(kernel, "totalNs") >= integer(kernel, "count") * integer(kernel, "minNs"));
                    if (kernel.value("category").toString() != "cuda_sync")
                        perStream[integer(kernel, "stream")] += integer(kernel, "count");
                }
                QCOMPARE(activities, integer(s, "gpuEventCount"));
                // Every gap between consecutive activities on a stream falls in exactly one category.
                for (const QJsonValue& i : s.value("idleByStream").toArray()) {
                    const QJsonObject idle = i.toObject();
                    QCOMPARE(integer(idle, "hostWaitCount") + integer(idle, "kernelWaitCount") +
                                 integer(idle, "otherCount"),
                             perStream[integer(idle, "stream")] - 1);
                    QVERIFY(integer(idle, "kernelWaitNs") < 30000 * (integer(idle, "kernelWaitCount") + 1));
                }
            }
            const QJsonObject all = rank.value("all").toObject();
            const QJsonObject kept = rank.value("kept").toObject();
            QVERIFY(integer(kept, "gpuEventCount") < integer(all, "gpuEventCount"));
            if (!options.nsTimestamps)
                QCOMPARE(rank.value("keptHtaRounded").toObject(), kept);
            // Host waits (data loader, logging stall) and kernel waits exist on the compute stream.
            const QJsonObject computeIdle = kept.value("idleByStream").toArray().first().toObject();
            QCOMPARE(integer(computeIdle, "stream"), 7);
            QVERIFY(integer(computeIdle, "hostWaitNs") > 0);
            QVERIFY(integer(computeIdle, "kernelWaitCount") > 0);
            if (options.ranks > 1)
                QVERIFY(integer(kept, "commComputeOverlapNs") > 0);
            if (integer(rank, "collectiveLateNs") > latestLate) {
                latestLate = integer(rank, "collectiveLateNs");
                latestRank = int(integer(rank, "rank"));
            }
        }
        if (options.stragglerRank >= 0)
            QCOMPARE(latestRank, options.stragglerRank);
        // The slow kernel takes about kSlowKernelFactor times as long on its rank as elsewhere.
        const QJsonObject slow = truth.value("slowKernel").toObject();
        const int slowRank = int(integer(slow, "rank"));
        QCOMPARE(slowRank, options.ranks - 1);
        if (options.ranks > 1 && slowRank != options.stragglerRank) {
            auto meanOf = [&](int r) {
                for (const QJsonValue& k : ranks[r].toObject().value("kept").toObject().value("kernels").toArray())
                    if (k.toObject().value("name") == slow.value("name"))
                        return double(integer(k.toObject(), "totalNs")) / double(integer(k.toObject(), "count"));
                return 0.0;
            };
            const double ratio = meanOf(slowRank) / meanOf(0);
            QVERIFY2(ratio > 1.45 && ratio < 1.75, QByteArray::number(ratio).constData());
        }
    }

    void sizeOptionsDecideSteps()
    {
        SynthOptions options;
        options.ranks = 2;
        options.eventsPerRank = 20000;
        const fs::path dir = test::scratchDir("synth-events");
        SynthResult result = generate(dir, options);
        QVERIFY(result.ok);
        QVERIFY(result.events >= 2 * 20000);
        QVERIFY(result.events < 2 * 20000 + 2 * 2000);  // at most one step more than needed

        options.eventsPerRank = 0;
        options.sizePerRank = 3u << 20;
        fs::remove_all(dir);
        result = generate(dir, options);
        QVERIFY(result.ok);
        const double perRank = double(result.jsonBytes) / 2.0;
        QVERIFY2(perRank > 0.95 * double(3u << 20) && perRank < 1.1 * double(3u << 20),
                 QByteArray::number(perRank).constData());

        uint64_t bytes = 0;
        QVERIFY(parseByteSize("100M", bytes));
        QCOMPARE(bytes, uint64_t(100) << 20);
        QVERIFY(parseByteSize("2GiB", bytes));
        QCOMPARE(bytes, uint64_t(2) << 30);
        QVERIFY(!parseByteSize("lots", bytes));
    }

    void badOptionsAndPathsAreErrors()
    {
        SynthOptions options;
        options.stragglerRank = 9;  // only 8 ranks
        SynthResult result = writeSynthRun(test::scratchDir("synth-bad"), options);
        QVERIFY(!result.ok);
        QVERIFY(!result.error.empty());

        const fs::path file = test::scratchDir("synth-bad-path") / "a-file";
        test::writeFile(file, "x");
        result = writeSynthRun(file / "run", SynthOptions{});
        QVERIFY(!result.ok);
        QVERIFY(!result.error.empty());
    }

    void cliWritesARun()
    {
        const fs::path dir = test::scratchDir("synth-cli");
        std::string output;
        const std::string command = test::cliPath().string() + " synth " + (dir / "run").string() +
                                    " --ranks 3 --steps 2 --seed 5 --gzip --ns-timestamps --straggler 1 2>&1";
        QCOMPARE(test::runCommand(command, output), 0);
        QVERIFY(fs::exists(dir / "run" / "rank2.pt.trace.json.gz"));
        QVERIFY(fs::exists(dir / "run" / "truth" / "truth.json"));
        QVERIFY(test::runCommand(test::cliPath().string() + " synth " + (dir / "x").string() +
                                     " --device tpu 2>&1", output) != 0);
    }

    // The committed sample run is what synth writes today (regenerate it when the generator changes).
    void bundledSampleRunIsCurrent()
    {
        const fs::path sample = test::sourceDir() / "resources" / "sample-run";
        if (!fs::exists(sample))
            QSKIP("resources/sample-run is not there");
        const fs::path dir = test::scratchDir("synth-sample");
        QVERIFY(generate(dir, sampleRunOptions()).ok);
        uint64_t total = 0;
        for (const auto& entry : fs::recursive_directory_iterator(dir)) {
            if (!entry.is_regular_file())
                continue;
            const fs::path relative = fs::relative(entry.path(), dir);
            QVERIFY2(readBytes(entry.path()) == readBytes(sample / relative), relative.string().c_str());
            total += entry.file_size();
        }
        QVERIFY(total < 2'000'000);
    }

private:
    // The sample run is written by:
    //   kinetoscope-cli synth resources/sample-run --ranks 8 --steps 4 --seed 42 --gzip --ns-timestamps --straggler 5
    static SynthOptions sampleRunOptions()
    {
        SynthOptions options;
        options.ranks = 8;
        options.steps = 4;
        options.seed = 42;
        options.gzip = true;
        options.nsTimestamps = true;
        options.stragglerRank = 5;
        return options;
    }
};

QTEST_GUILESS_MAIN(TestSynth)
#include "tst_synth.moc"
