// The analyses in default mode (and temporal in HTA-compatible mode) agree with what the synth
// generator placed: truth/truth.json is computed from the generator's own schedule, never by
// analysis/, so these are independent checks of both.

#include <QtTest>

#ifndef Q_MOC_RUN
#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/overlap.h"
#include "analysis/core/temporalbreakdown.h"
#include "model/loader.h"
#include "model/synth/synthrun.h"
#include "testsupport.h"

#include <map>
#endif

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace kscope;

namespace {

QJsonObject readTruth(const std::filesystem::path& file)
{
    QFile f(QString::fromStdString(file.string()));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

qint64 ns(const QJsonObject& o, const char* key)
{
    return static_cast<qint64>(o.value(QLatin1String(key)).toDouble());
}

QJsonObject truthRank(const QJsonObject& truth, int rank)
{
    for (const QJsonValue v : truth.value(QLatin1String("ranks")).toArray())
        if (v.toObject().value(QLatin1String("rank")).toInt() == rank)
            return v.toObject();
    return {};
}

} // namespace

class TestSynthTruth : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<Run> m_run;
    std::shared_ptr<Run> m_compatRun;
    QJsonObject m_truth;

    void generate(int seed, int ranks, bool nsTimestamps, bool amd, int straggler, bool stalls)
    {
        const auto dir = test::scratchDir("truth-" + std::to_string(seed) + "-" + std::to_string(ranks));
        SynthOptions options;
        options.seed = static_cast<uint64_t>(seed);
        options.ranks = ranks;
        options.steps = 3;
        options.nsTimestamps = nsTimestamps;
        options.device = amd ? SynthOptions::Device::Amd : SynthOptions::Device::Nvidia;
        options.stragglerRank = straggler;
        options.gzip = seed % 2 == 0;
        options.idleCauseStalls = stalls;
        const SynthResult written = writeSynthRun(dir, options);
        QVERIFY2(written.ok, written.error.c_str());
        m_truth = readTruth(written.truthFile);
        QVERIFY(!m_truth.isEmpty());
        m_run = loadRun(dir, LoadOptions{});
        LoadOptions compat;
        compat.htaCompat = true;
        m_compatRun = loadRun(dir, compat);
        QVERIFY(m_run->errors.empty());
        QCOMPARE(int(m_run->ranks.size()), ranks);
    }

    // Generates and loads the run of the current data row.
    void generateCurrentRow()
    {
        QFETCH(int, seed);
        QFETCH(int, ranks);
        QFETCH(bool, nsTimestamps);
        QFETCH(bool, amd);
        QFETCH(int, straggler);
        QFETCH(bool, stalls);
        generate(seed, ranks, nsTimestamps, amd, straggler, stalls);
    }

    static void addRows()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<bool>("nsTimestamps");
        QTest::addColumn<bool>("amd");
        QTest::addColumn<int>("straggler");
        QTest::addColumn<bool>("stalls");  // SynthOptions::idleCauseStalls
        QTest::newRow("us, 2 ranks") << 1 << 2 << false << false << -1 << false;
        QTest::newRow("ns, 4 ranks, straggler") << 7 << 4 << true << false << 2 << false;
        QTest::newRow("ns, 8 ranks, gzip") << 42 << 8 << true << false << 5 << false;
        QTest::newRow("us, 3 ranks, amd") << 11 << 3 << false << true << -1 << false;
        QTest::newRow("ns, 1 rank") << 20 << 1 << true << false << -1 << false;
        QTest::newRow("us, 3 ranks, idle-cause stalls") << 13 << 3 << false << false << 1 << true;
    }

private slots:
    void temporalBreakdownMatchesTruth_data() { addRows(); }
    void temporalBreakdownMatchesTruth()
    {
        generateCurrentRow();
        if (QTest::currentTestFailed())
            return;
        const int ranks = int(m_run->ranks.size());
        const TemporalBreakdown result = temporalBreakdown(*m_run, TemporalOptions{});
        QCOMPARE(int(result.rows.size()), ranks);
        for (const TemporalBreakdownRow& row : result.rows) {
            const QJsonObject kept = truthRank(m_truth, row.rank).value(QLatin1String("kept")).toObject();
            QCOMPARE(qint64(row.spanNs), ns(kept, "spanNs"));
            QCOMPARE(qint64(row.idleNs), ns(kept, "idleNs"));
            QCOMPARE(qint64(row.computeNs), ns(kept, "computeNs"));
            QCOMPARE(qint64(row.nonComputeNs), ns(kept, "nonComputeNs"));
        }
        // HTA's microsecond rounding, also predicted by the generator.
        TemporalOptions compat;
        compat.htaCompat = true;
        const TemporalBreakdown rounded = temporalBreakdown(*m_compatRun, compat);
        QCOMPARE(int(rounded.rows.size()), ranks);
        for (const TemporalBreakdownRow& row : rounded.rows) {
            const QJsonObject kept = truthRank(m_truth, row.rank).value(QLatin1String("keptHtaRounded")).toObject();
            QCOMPARE(qint64(row.idleNs), ns(kept, "idleNs"));
            QCOMPARE(qint64(row.computeNs), ns(kept, "computeNs"));
        }
    }

    void overlapMatchesTruth_data() { addRows(); }
    void overlapMatchesTruth()
    {
        generateCurrentRow();
        if (QTest::currentTestFailed())
            return;
        const int ranks = int(m_run->ranks.size());
        const Overlap result = commCompOverlap(*m_run, OverlapOptions{});
        QCOMPARE(int(result.rows.size()), ranks);
        for (const OverlapRow& row : result.rows) {
            const QJsonObject kept = truthRank(m_truth, row.rank).value(QLatin1String("kept")).toObject();
            QCOMPARE(qint64(row.communicationNs), ns(kept, "communicationNs"));
            QCOMPARE(qint64(row.overlapNs), ns(kept, "commComputeOverlapNs"));
            QCOMPARE(row.hasCommunication, ns(kept, "communicationNs") > 0);
        }
    }

    void idleTimeMatchesTruth_data() { addRows(); }
    void idleTimeMatchesTruth()
    {
        generateCurrentRow();
        if (QTest::currentTestFailed())
            return;
        const int ranks = int(m_run->ranks.size());
        const IdleTime result = idleTimeBreakdown(*m_run, IdleTimeOptions{});
        std::map<std::tuple<int, int, IdleCategory>, int64_t> ours;
        for (const IdleTimeRow& row : result.rows)
            ours[{row.rank, row.stream, row.category}] += row.idleNs;
        int checked = 0;
        for (int rank = 0; rank < ranks; ++rank) {
            const QJsonObject kept = truthRank(m_truth, rank).value(QLatin1String("kept")).toObject();
            for (const QJsonValue v : kept.value(QLatin1String("idleByStream")).toArray()) {
                const QJsonObject s = v.toObject();
                const int stream = s.value(QLatin1String("stream")).toInt();
                QCOMPARE(qint64(ours[{rank, stream, IdleCategory::HostWait}]), ns(s, "hostWaitNs"));
                QCOMPARE(qint64(ours[{rank, stream, IdleCategory::KernelWait}]), ns(s, "kernelWaitNs"));
                QCOMPARE(qint64(ours[{rank, stream, IdleCategory::Other}]), ns(s, "otherNs"));
                ++checked;
            }
        }
        QVERIFY(checked >= ranks);
    }

    void kernelStatisticsMatchTruth_data() { addRows(); }
    void kernelStatisticsMatchTruth()
    {
        generateCurrentRow();
        if (QTest::currentTestFailed())
            return;
        const int ranks = int(m_run->ranks.size());
        KernelBreakdownOptions options;
        options.durationRatio = 1.0;
        options.numKernels = 1000000;  // nothing folded into "others"
        const KernelBreakdown result = kernelBreakdown(*m_run, options);
        struct Stats {
            int64_t count = 0, sum = 0, min = INT64_MAX, max = 0;
        };
        std::map<std::pair<int, std::string>, Stats> ours, truth;
        for (const KernelStatsRow& row : result.kernels) {
            QVERIFY(!row.isOthers());
            ours[{row.rank, std::string(rowName(*m_run, row))}] = {row.count, row.sumNs, row.minNs, row.maxNs};
        }
        for (int rank = 0; rank < ranks; ++rank) {
            const QJsonObject kept = truthRank(m_truth, rank).value(QLatin1String("kept")).toObject();
            for (const QJsonValue v : kept.value(QLatin1String("kernels")).toArray()) {
                const QJsonObject k = v.toObject();
                if (k.value(QLatin1String("type")).toString() == QLatin1String("OTHER"))
                    continue;  // syncs are not in the kernel breakdown, as in HTA
                Stats& s = truth[{rank, k.value(QLatin1String("name")).toString().toStdString()}];
                s.count += ns(k, "count");
                s.sum += ns(k, "totalNs");
                s.min = std::min<int64_t>(s.min, ns(k, "minNs"));
                s.max = std::max<int64_t>(s.max, ns(k, "maxNs"));
            }
        }
        QCOMPARE(ours.size(), truth.size());
        for (const auto& [key, expected] : truth) {
            QVERIFY2(ours.count(key), key.second.c_str());
            const Stats& got = ours[key];
            QCOMPARE(got.count, expected.count);
            QCOMPARE(got.sum, expected.sum);
            QCOMPARE(got.min, expected.min);
            QCOMPARE(got.max, expected.max);
        }
    }
};

QTEST_APPLESS_MAIN(TestSynthTruth)
#include "tst_synth_truth.moc"
