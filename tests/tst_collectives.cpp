// Collectives matched across ranks (analysis/collectives/collectives.h): against the synth generator's truth
// (every instance's arrivals, waits and transfer; Seq and order matching; NVIDIA and AMD), and on
// small traces written here: the order fallback, a rank missing from an instance or from the
// run, two process groups interleaved, args only on the CPU side, bandwidth; and the CLI.

#include <QtTest>

#ifndef Q_MOC_RUN
#include "analysis/collectives/collectives.h"
#include "analysis/tables/collectivetables.h"
#include "model/loader.h"
#include "collectivetrace.h"
#include "model/synth/synthrun.h"
#include "testsupport.h"

#include <span>
#endif

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace kscope;
using namespace kscope::test;

namespace {

QJsonObject readTruth(const std::filesystem::path& file)
{
    QFile f(QString::fromStdString(file.string()));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

qint64 ns(const QJsonValue& v)
{
    return static_cast<qint64>(v.toDouble());
}

std::span<const CollectiveArrival> arrivalsOf(const Collectives& r, const CollectiveInstance& in)
{
    return std::span(r.arrivals).subspan(in.firstArrival, in.arrivalCount);
}

const CollectiveRankStats* statsOf(const Collectives& r, int rank)
{
    for (const CollectiveRankStats& s : r.perRank)
        if (s.rank == rank)
            return &s;
    return nullptr;
}

bool anyNoteContains(const Collectives& r, const std::string& text)
{
    for (const std::string& n : r.notes)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestCollectives : public QObject {
    Q_OBJECT

private slots:
    void matchesTruth_data();
    void matchesTruth();
    void orderFallback();
    void missingRankInOneInstance();
    void rankNotInRun();
    void ranksLeftOutByRequest();
    void twoProcessGroupsInterleaved_data();
    void twoProcessGroupsInterleaved();
    void cpuSideOnly();
    void bandwidthAndLink();
    void sizesAndFactors();
    void oversizedMessage();
    void duplicateRankNumber();
    void summary();
    void tables();
    void cli();
};

void TestCollectives::matchesTruth_data()
{
    QTest::addColumn<int>("seed");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<bool>("nsTimestamps");
    QTest::addColumn<bool>("amd");
    QTest::addColumn<int>("straggler");
    QTest::addColumn<bool>("seq");
    QTest::newRow("ns, 8 ranks, straggler 5, seq") << 42 << 8 << true << false << 5 << true;
    QTest::newRow("us, 4 ranks, straggler 2, no seq") << 7 << 4 << false << false << 2 << false;
    QTest::newRow("ns, 3 ranks, amd, straggler 1") << 11 << 3 << true << true << 1 << true;
    QTest::newRow("us, 2 ranks, no straggler") << 1 << 2 << false << false << -1 << true;
    QTest::newRow("ns, 1 rank") << 20 << 1 << true << false << -1 << true;
}

void TestCollectives::matchesTruth()
{
    QFETCH(int, seed);
    QFETCH(int, ranks);
    QFETCH(bool, nsTimestamps);
    QFETCH(bool, amd);
    QFETCH(int, straggler);
    QFETCH(bool, seq);
    const auto dir = test::scratchDir("collectives-truth-" + std::to_string(seed) + "-" + std::to_string(ranks));
    SynthOptions options;
    options.seed = uint64_t(seed);
    options.ranks = ranks;
    options.steps = 3;
    options.nsTimestamps = nsTimestamps;
    options.device = amd ? SynthOptions::Device::Amd : SynthOptions::Device::Nvidia;
    options.stragglerRank = straggler;
    options.collectiveSeq = seq;
    const SynthResult written = writeSynthRun(dir, options);
    QVERIFY2(written.ok, written.error.c_str());
    const QJsonObject truth = readTruth(written.truthFile).value(QLatin1String("collectives")).toObject();
    QVERIFY(!truth.isEmpty());
    const auto run = loadRun(dir, LoadOptions{});
    QCOMPARE(int(run->ranks.size()), ranks);

    const Collectives result = matchCollectives(*run);
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.groups.size(), size_t{1});
    QVERIFY(result.groups[0].rule == (seq ? MatchRule::Seq : MatchRule::Order));
    QCOMPARE(int(result.groups[0].members.size()), ranks);

    // The default load drops the warm-down step: the kept instances, in order.
    std::vector<QJsonObject> kept;
    for (const QJsonValue v : truth.value(QLatin1String("instances")).toArray())
        if (v.toObject().value(QLatin1String("kept")).toBool())
            kept.push_back(v.toObject());
    QCOMPARE(result.instances.size(), kept.size());
    std::vector<int64_t> waitPerRank(size_t(ranks), 0), latePerRank(size_t(ranks), 0), lastPerRank(size_t(ranks), 0);
    for (size_t i = 0; i < kept.size(); ++i) {
        const CollectiveInstance& in = result.instances[i];
        const QJsonObject& t = kept[i];
        QCOMPARE(qint64(in.seq), seq ? ns(t.value(QLatin1String("seq"))) : ns(t.value(QLatin1String("position"))));
        QCOMPARE(in.name, std::string("allreduce"));
        QCOMPARE(qint64(in.bytes), ns(t.value(QLatin1String("bytes"))));
        QCOMPARE(in.groupSize, ranks);
        QCOMPARE(int(in.step), t.value(QLatin1String("step")).toInt());
        QVERIFY(!in.partial());
        QVERIFY(!in.mismatch);
        QCOMPARE(int(in.arrivalCount), ranks);
        QCOMPARE(qint64(in.earliestNs), ns(t.value(QLatin1String("earliestNs"))));
        QCOMPARE(qint64(in.latestNs), ns(t.value(QLatin1String("latestNs"))));
        QCOMPARE(qint64(in.endNs), ns(t.value(QLatin1String("endNs"))));
        QCOMPARE(qint64(in.skewNs), ns(t.value(QLatin1String("skewNs"))));
        QCOMPARE(qint64(in.transferNs), ns(t.value(QLatin1String("transferNs"))));
        QCOMPARE(qint64(in.waitTotalNs), ns(t.value(QLatin1String("waitTotalNs"))));
        QCOMPARE(in.lastRank, t.value(QLatin1String("lastRank")).toInt());
        const QJsonArray arrival = t.value(QLatin1String("arrivalNs")).toArray();
        const QJsonArray wait = t.value(QLatin1String("waitNs")).toArray();
        for (const CollectiveArrival& a : arrivalsOf(result, in)) {
            QCOMPARE(qint64(a.startNs), ns(arrival[a.rank]));
            QCOMPARE(qint64(a.waitNs), ns(wait[a.rank]));
            QCOMPARE(qint64(a.endNs), ns(t.value(QLatin1String("endNs"))));
            waitPerRank[size_t(a.rank)] += a.waitNs;
            latePerRank[size_t(a.rank)] += a.latenessNs;
        }
        if (ranks >= 2)
            ++lastPerRank[size_t(in.lastRank)];
        const double algbw = double(in.bytes) / double(in.transferNs);
        QCOMPARE(in.algbwGBps, algbw);
        QCOMPARE(in.busbwGBps, algbw * 2.0 * (ranks - 1) / ranks);
    }

    // Per rank: wait, lateness (the truth's collectiveLateNs), times last; the straggler.
    const QJsonArray truthRanks = readTruth(written.truthFile).value(QLatin1String("ranks")).toArray();
    for (int r = 0; r < ranks; ++r) {
        const CollectiveRankStats* s = statsOf(result, r);
        QVERIFY(s);
        QCOMPARE(qint64(s->instances), qint64(kept.size()));
        QCOMPARE(qint64(s->waitNs), qint64(waitPerRank[size_t(r)]));
        QCOMPARE(qint64(s->latenessNs), ns(truthRanks[r].toObject().value(QLatin1String("collectiveLateNs"))));
        QCOMPARE(qint64(s->lastCount), qint64(lastPerRank[size_t(r)]));
        QCOMPARE(qint64(s->commNs), qint64(s->waitNs + s->transferNs));
    }
    if (straggler >= 0) {
        QCOMPARE(result.straggler.rank, straggler);
        QCOMPARE(qint64(result.straggler.lastCount), qint64(kept.size()));
        QVERIFY(result.straggler.delayCausedNs >= qint64(kept.size()) * 100'000);
        QCOMPARE(result.straggler.steps, 3);
        QVERIFY(anyNoteContains(result, "straggler: rank " + std::to_string(straggler)));
    }
    if (ranks == 1)
        QCOMPARE(result.straggler.rank, -1);
    QVERIFY(anyNoteContains(result, seq ? "matched by Seq" : "matched by order"));
}

void TestCollectives::orderFallback()
{
    // No Seq: the n-th collective of the group on each rank is one instance, whatever the times.
    std::vector<std::vector<Coll>> ranks(2);
    for (int k = 0; k < 3; ++k) {
        ranks[0].push_back({.nelems = 1000 * (k + 1), .startUs = 1000.0 + 200 * k, .durUs = 50});
        ranks[1].push_back({.nelems = 1000 * (k + 1), .startUs = 1020.0 + 200 * k + 5 * k, .durUs = 30});
    }
    const auto run = loadRanks("order", ranks);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.instances.size(), size_t{3});
    for (int k = 0; k < 3; ++k) {
        const CollectiveInstance& in = r.instances[size_t(k)];
        QVERIFY(in.rule == MatchRule::Order);
        QCOMPARE(qint64(in.seq), qint64(k));
        QCOMPARE(qint64(in.bytes), qint64(4000 * (k + 1)));
        QCOMPARE(in.firstRank, 0);
        QCOMPARE(in.lastRank, 1);
        QCOMPARE(qint64(in.skewNs), qint64((20 + 5 * k) * 1000));
        // Rank 1's kernel ends at 1020 + 205k + 30, rank 0's at 1000 + 200k + 50: the latest end.
        QCOMPARE(qint64(in.endNs), qint64(std::max(1050 + 200 * k + 5 * k, 1050 + 200 * k) * 1000));
        QCOMPARE(qint64(in.transferNs), in.endNs - in.latestNs);
    }
    QVERIFY(anyNoteContains(r, "matched by order within the group on each rank (no Seq)"));
}

void TestCollectives::missingRankInOneInstance()
{
    // Seq 2 never ran on rank 2: that instance is partial and stays out of the per-rank figures.
    const std::string members = "[0, 1, 2]";
    std::vector<std::vector<Coll>> ranks(3);
    for (int r = 0; r < 3; ++r) {
        ranks[size_t(r)].push_back({.pgRanks = members, .seq = 1, .startUs = 1000.0 + 10 * r});
        if (r < 2)
            ranks[size_t(r)].push_back({.pgRanks = members, .seq = 2, .startUs = 2000.0 + 10 * r});
        ranks[size_t(r)].push_back({.pgRanks = members, .seq = 3, .startUs = 3000.0 + 10 * (2 - r)});
    }
    const auto run = loadRanks("missing", ranks);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.instances.size(), size_t{3});
    QVERIFY(r.groups[0].rule == MatchRule::Seq);
    QCOMPARE(r.groups[0].partialInstances, int64_t{1});
    const CollectiveInstance& partial = r.instances[1];
    QCOMPARE(qint64(partial.seq), qint64(2));
    QCOMPARE(partial.missingRanks, std::vector<int>{2});
    QCOMPARE(int(partial.arrivalCount), 2);
    QVERIFY(!r.instances[0].partial() && !r.instances[2].partial());
    QCOMPARE(r.instances[0].lastRank, 2);
    QCOMPARE(r.instances[2].lastRank, 0);
    for (const CollectiveRankStats& s : r.perRank)
        QCOMPARE(s.instances, int64_t{2});
    QVERIFY(anyNoteContains(r, "1 seen on only some ranks"));
    QVERIFY(anyNoteContains(r, "1 partial instances are left out"));
    const Table table = collectivesTable(*run, r);
    QCOMPARE(std::get<std::string>(table.rows[1][6]), std::string("2"));
}

void TestCollectives::rankNotInRun()
{
    // The group names ranks 0-3, the run holds 0 and 1: reported, every instance partial.
    std::vector<std::vector<Coll>> ranks(2);
    for (int r = 0; r < 2; ++r)
        ranks[size_t(r)].push_back({.pgRanks = "[0, 1, 2, 3]", .seq = 7, .startUs = 1000.0 + r});
    const auto run = loadRanks("not-in-run", ranks);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.groups.size(), size_t{1});
    QCOMPARE(r.groups[0].ranksNotInRun, (std::vector<int>{2, 3}));
    QCOMPARE(r.instances.size(), size_t{1});
    QCOMPARE(r.instances[0].missingRanks, (std::vector<int>{2, 3}));
    QCOMPARE(r.instances[0].groupSize, 4);
    QCOMPARE(r.straggler.rank, -1);
    QVERIFY(anyNoteContains(r, "ranks 2, 3 are not in the run"));
}

void TestCollectives::ranksLeftOutByRequest()
{
    // Loading ranks 0 and 1 of four on purpose (--ranks 0,1): complete among those, with a note.
    std::vector<std::vector<Coll>> ranks(4);
    for (int r = 0; r < 4; ++r)
        ranks[size_t(r)].push_back({.pgRanks = "[0, 1, 2, 3]", .seq = 1, .startUs = 1000.0 + r});
    const auto all = loadRanks("left-out", ranks);
    LoadOptions options;
    options.onlyRanks = RankSet{0, 1};
    const auto run = loadRun(all->folder, options);
    QCOMPARE(int(run->ranks.size()), 2);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.groups[0].ranksLeftOut, (std::vector<int>{2, 3}));
    QVERIFY(r.groups[0].ranksNotInRun.empty());
    QCOMPARE(r.instances.size(), size_t{1});
    QVERIFY(!r.instances[0].partial());
    QCOMPARE(r.instances[0].groupSize, 4);
    QCOMPARE(r.instances[0].lastRank, 1);
    QCOMPARE(r.straggler.rank, 1);
    QVERIFY(anyNoteContains(r, "ranks 2, 3 were not loaded (--ranks)"));
}

void TestCollectives::twoProcessGroupsInterleaved_data()
{
    QTest::addColumn<bool>("withSeq");
    QTest::newRow("seq") << true;
    QTest::newRow("order") << false;
}

void TestCollectives::twoProcessGroupsInterleaved()
{
    // Ranks 0 and 1 run a data-parallel group "0" and a second group "1" on the same stream, in
    // different interleavings; each group's collectives match among themselves.
    QFETCH(bool, withSeq);
    // The parts of one instance end together (the last arrival releases all): start, end.
    auto dp = [&](int64_t seq, double start, double end) {
        return Coll{.pg = "0", .pgRanks = "[0, 1]", .seq = withSeq ? seq : -1, .nelems = 4096, .startUs = start,
                    .durUs = end - start};
    };
    auto tp = [&](int64_t seq, double start, double end) {
        return Coll{.pg = "1", .pgRanks = "[0, 1]", .seq = withSeq ? seq : -1, .name = "allgather", .nelems = 256,
                    .startUs = start, .durUs = end - start,
                    .kernel = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"};
    };
    std::vector<std::vector<Coll>> ranks = {
        {dp(1, 1000, 1170), tp(1, 1100, 1120), dp(2, 1200, 1420), tp(2, 1300, 1320)},
        {tp(1, 1010, 1120), dp(1, 1150, 1170), tp(2, 1250, 1320), dp(2, 1400, 1420)},
    };
    const auto run = loadRanks(withSeq ? "two-groups-seq" : "two-groups-order", ranks);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.groups.size(), size_t{2});
    QCOMPARE(r.instances.size(), size_t{4});
    for (const CollectiveInstance& in : r.instances) {
        QVERIFY(!in.partial());
        QVERIFY(!in.mismatch);
        QVERIFY(in.rule == (withSeq ? MatchRule::Seq : MatchRule::Order));
        const std::string group(run->str(r.groups[in.group].name));
        QCOMPARE(in.name, std::string(group == "0" ? "allreduce" : "allgather"));
    }
    // In order of first arrival: dp 1 (1000 / 1150), tp 1 (1100 / 1010 -> 1010), ...
    auto find = [&](const std::string& group, int64_t position) -> const CollectiveInstance* {
        for (const CollectiveInstance& in : r.instances)
            if (run->str(r.groups[in.group].name) == group && in.seq == (withSeq ? position + 1 : position))
                return &in;
        return nullptr;
    };
    const CollectiveInstance* dp1 = find("0", 0);
    const CollectiveInstance* tp1 = find("1", 0);
    const CollectiveInstance* dp2 = find("0", 1);
    const CollectiveInstance* tp2 = find("1", 1);
    QVERIFY(dp1 && tp1 && dp2 && tp2);
    QCOMPARE(qint64(dp1->skewNs), qint64(150'000));
    QCOMPARE(dp1->lastRank, 1);
    QCOMPARE(qint64(tp1->skewNs), qint64(90'000));
    QCOMPARE(tp1->lastRank, 0);
    QCOMPARE(qint64(dp2->skewNs), qint64(200'000));
    QCOMPARE(qint64(tp2->skewNs), qint64(50'000));
    QCOMPARE(tp2->lastRank, 0);
    QCOMPARE(qint64(dp1->bytes), qint64(4096 * 4));
    QCOMPARE(qint64(tp1->bytes), qint64(256 * 4));
    QCOMPARE(r.instances.front().earliestNs, tp1->earliestNs < dp1->earliestNs ? tp1->earliestNs : dp1->earliestNs);
}

void TestCollectives::cpuSideOnly()
{
    // Old traces: no args on the kernel; the CPU op has them (Seq included), or only nccl:* is there.
    std::vector<std::vector<Coll>> ranks(2);
    for (int r = 0; r < 2; ++r) {
        ranks[size_t(r)].push_back({.seq = 4, .nelems = 100, .dtype = "BFloat16", .startUs = 500.0 + r * 3,
                                    .kernelArgs = false});
        ranks[size_t(r)].push_back({.name = "all_to_all", .startUs = 900.0 + r, .kernelArgs = false, .cpuArgs = false,
                                    .kernel = "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"});
    }
    const auto run = loadRanks("cpu-side", ranks);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.groups.size(), size_t{2});  // group "0" and no group
    QCOMPARE(r.instances.size(), size_t{2});
    const CollectiveInstance& a = r.instances[0];
    QVERIFY(a.rule == MatchRule::Seq);
    QCOMPARE(qint64(a.seq), qint64(4));
    QCOMPARE(qint64(a.bytes), qint64(200));
    QCOMPARE(a.name, std::string("allreduce"));
    const CollectiveInstance& b = r.instances[1];
    QVERIFY(b.rule == MatchRule::Order);
    QVERIFY(!r.groups[b.group].name);
    QCOMPARE(b.name, std::string("all_to_all"));
    QCOMPARE(qint64(b.bytes), qint64(-1));
    QCOMPARE(b.busbwGBps, -1.0);
    QCOMPARE(int(b.arrivalCount), 2);
    QCOMPARE(qint64(b.skewNs), qint64(1000));
}

void TestCollectives::bandwidthAndLink()
{
    // 2^30 bytes moved in 1 ms on 2 ranks: algbw 1073.7 GB/s, busbw the same (2(n-1)/n = 1);
    // above an H100's 450 GB/s; the same on an unknown device is not flagged.
    for (const std::string device : {"NVIDIA H100 80GB HBM3", "Some GPU"}) {
        std::vector<std::vector<Coll>> ranks(2);
        for (int r = 0; r < 2; ++r)
            ranks[size_t(r)].push_back({.seq = 1, .nelems = int64_t(1) << 28, .startUs = 1000.0 + r * 10,
                                        .durUs = 1000.0 - r * 10});
        const auto run = loadRanks(device == "Some GPU" ? "bw-unknown" : "bw-h100", ranks, device);
        const Collectives r = matchCollectives(*run);
        QCOMPARE(r.instances.size(), size_t{1});
        const CollectiveInstance& in = r.instances[0];
        QCOMPARE(qint64(in.transferNs), qint64(990'000));
        QCOMPARE(in.algbwGBps, double(int64_t(1) << 30) / 990'000.0);
        QCOMPARE(in.busbwGBps, in.algbwGBps);
        QCOMPARE(in.aboveLinkBandwidth, device != "Some GPU");
    }
}

void TestCollectives::sizesAndFactors()
{
    QCOMPARE(dtypeBytes("Float"), 4);
    QCOMPARE(dtypeBytes("BFloat16"), 2);
    QCOMPARE(dtypeBytes("Half"), 2);
    QCOMPARE(dtypeBytes("Long"), 8);
    QCOMPARE(dtypeBytes("Byte"), 1);
    QCOMPARE(dtypeBytes("Float8_e4m3fn"), 1);
    QCOMPARE(dtypeBytes("ComplexDouble"), 16);
    QCOMPARE(dtypeBytes("Nonsense"), -1);
    QCOMPARE(busBandwidthFactor("allreduce", 8), 2.0 * 7 / 8);
    QCOMPARE(busBandwidthFactor("all_reduce", 4), 1.5);
    QCOMPARE(busBandwidthFactor("_allgather_base", 4), 0.75);
    QCOMPARE(busBandwidthFactor("reduce_scatter_tensor", 2), 0.5);
    QCOMPARE(busBandwidthFactor("all_to_all", 8), 7.0 / 8);
    QCOMPARE(busBandwidthFactor("broadcast", 8), 1.0);
    QCOMPARE(busBandwidthFactor("reduce", 8), 1.0);
    QCOMPARE(busBandwidthFactor("barrier", 8), -1.0);
    QCOMPARE(linkBandwidthGBps("NVIDIA A100-SXM4-80GB"), 300.0);
    QCOMPARE(linkBandwidthGBps("NVIDIA H100 80GB HBM3"), 450.0);
    QCOMPARE(linkBandwidthGBps("NVIDIA A100-PCIE-40GB"), 0.0);
    QCOMPARE(linkBandwidthGBps("AMD Instinct MI250X"), 0.0);
}

void TestCollectives::oversizedMessage()
{
    // 2^62 Long elements: 2^65 bytes do not fit in int64; the size is unknown, with a note.
    std::vector<std::vector<Coll>> ranks(2);
    for (int r = 0; r < 2; ++r)
        ranks[size_t(r)].push_back({.seq = 1, .nelems = int64_t(1) << 62, .dtype = "Long", .startUs = 1000.0 + r});
    const auto run = loadRanks("oversized", ranks);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.instances.size(), size_t{1});
    QCOMPARE(qint64(r.instances[0].bytes), qint64(-1));
    QCOMPARE(r.instances[0].algbwGBps, -1.0);
    QVERIFY(anyNoteContains(r, "too large"));
}

void TestCollectives::duplicateRankNumber()
{
    // Two files of rank 0 (the loader keeps both): one arrival each, never merged into one.
    const auto dir = test::scratchDir("collectives-duplicate-rank");
    test::writeFile(dir / "a.json", rankTrace(0, {{.pgRanks = "[0]", .seq = 1, .startUs = 1000}}));
    test::writeFile(dir / "b.json", rankTrace(0, {{.pgRanks = "[0]", .seq = 1, .startUs = 1300}}));
    const auto run = loadRun(dir, LoadOptions{});
    QCOMPARE(run->ranks.size(), size_t{2});
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.instances.size(), size_t{1});
    const auto arrivals = arrivalsOf(r, r.instances[0]);
    QCOMPARE(arrivals.size(), size_t{2});
    for (size_t k = 0; k < arrivals.size(); ++k) {
        QCOMPARE(arrivals[k].rankIndex, uint32_t(k));
        QCOMPARE(int(arrivals[k].kernels), 1);
        const RankTrace& rank = run->ranks[arrivals[k].rankIndex];
        QCOMPARE(rank.events.tsNs[arrivals[k].kernel], arrivals[k].startNs);
    }
    QCOMPARE(qint64(r.instances[0].skewNs), qint64(300'000));
}

void TestCollectives::summary()
{
    // Five all-reduces of 4 KiB with transfers 10..50 us: median 30, p95 48 (linear).
    std::vector<std::vector<Coll>> ranks(2);
    for (int k = 0; k < 5; ++k)
        for (int r = 0; r < 2; ++r)
            ranks[size_t(r)].push_back({.seq = k, .nelems = 1024, .startUs = 1000.0 + 1000 * k + r * k,
                                        .durUs = 10.0 * (k + 1) - r * k});
    const auto run = loadRanks("summary", ranks);
    const Collectives r = matchCollectives(*run);
    const std::vector<CollectiveSummaryRow> rows = collectiveSummary(*run, r);
    QCOMPARE(rows.size(), size_t{1});
    QCOMPARE(rows[0].name, std::string("allreduce"));
    QCOMPARE(qint64(rows[0].bucketLowBytes), qint64(4096));
    QCOMPARE(qint64(rows[0].count), qint64(5));
    QCOMPARE(rows[0].transferMedianNs, 30'000.0 - 2'000.0);  // transfer = 10(k+1) - k us
    QCOMPARE(rows[0].skewMedianNs, 2'000.0);
    QCOMPARE(rows[0].skewP95Ns, 3'800.0);
}

void TestCollectives::tables()
{
    std::vector<std::vector<Coll>> ranks(2);
    for (int r = 0; r < 2; ++r)
        ranks[size_t(r)].push_back({.seq = 1, .startUs = 1000.0 + r * 10});
    const auto run = loadRanks("tables", ranks);
    const Collectives r = matchCollectives(*run);
    const Table instances = collectivesTable(*run, r);
    QCOMPARE(instances.rows.size(), size_t{1});
    QCOMPARE(instances.columns.size(), instances.rows[0].size());
    QCOMPARE(instances.columns[9], std::string("skew (us)"));
    QCOMPARE(std::get<int64_t>(instances.rows[0][9]), int64_t{10});
    const Table arrivals = collectiveArrivalsTable(*run, r);
    QCOMPARE(arrivals.rows.size(), size_t{2});
    const Table perRank = collectiveRanksTable(r);
    QCOMPARE(perRank.rows.size(), size_t{2});
    QCOMPARE(perRank.columns.size(), perRank.rows[0].size());
    const Table perStep = collectiveRanksTable(r, true);
    QCOMPARE(perStep.columns[1], std::string("step"));
    const Table summary = collectiveSummaryTable(*run, r);
    QCOMPARE(summary.rows.size(), size_t{1});
    QCOMPARE(std::get<std::string>(summary.rows[0][1]), std::string("4 KiB"));
}

void TestCollectives::cli()
{
    const auto dir = test::scratchDir("collectives-cli");
    SynthOptions options;
    options.ranks = 4;
    options.steps = 2;
    options.stragglerRank = 3;
    QVERIFY(writeSynthRun(dir, options).ok);
    test::CommandResult r = test::runCli("collectives --format csv " + dir.string());
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("process_group,seq,match,collective,bytes,ranks"));
    QVERIFY(r.err.find("matched by Seq") != std::string::npos);
    r = test::runCli("collectives --per-rank --format csv " + dir.string());
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.find("\n3,") != std::string::npos);
    QVERIFY(r.err.find("straggler: rank 3") != std::string::npos);
    r = test::runCli("collectives --summary --format csv --step 101 " + dir.string());
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.starts_with("collective,size_bucket"));
    r = test::runCli("collectives --per-rank --summary " + dir.string());
    QCOMPARE(r.exitCode, 1);
    r = test::runCli("collectives --help");
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.find("--per-rank") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestCollectives)
#include "tst_collectives.moc"
