// How collectives are matched across ranks when the trace does not say (no Seq), and what an
// instance is missing: parts paired by order that never overlap in time are re-matched by end
// time (HTA's trace_filter: 2 sampled ranks of a 128-rank job); distributedInfo.world_size and
// Group size larger than the ranks loaded make instances partial (df_index_resolver: 1 of 2
// ranks); one definition of a rank's wait for --arrivals and --per-rank.

#include <QtTest>

#ifndef Q_MOC_RUN
#include "analysis/collectives/collectives.h"
#include "analysis/tables/collectivetables.h"
#include "collectivetrace.h"
#include "model/loader.h"
#include "testsupport.h"

#include <span>
#endif

using namespace kscope;
using namespace kscope::test;

namespace {

std::span<const CollectiveArrival> arrivalsOf(const Collectives& r, const CollectiveInstance& in)
{
    return std::span(r.arrivals).subspan(in.firstArrival, in.arrivalCount);
}

bool anyNoteContains(const Collectives& r, const std::string& text)
{
    for (const std::string& n : r.notes)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

// Every instance of two parts or more: its parts share a moment (latest start <= earliest end).
bool partsOverlap(const Collectives& r, const CollectiveInstance& in)
{
    int64_t latestStart = INT64_MIN, earliestEnd = INT64_MAX;
    for (const CollectiveArrival& a : arrivalsOf(r, in)) {
        latestStart = std::max(latestStart, a.startNs);
        earliestEnd = std::min(earliestEnd, a.endNs);
    }
    return latestStart <= earliestEnd;
}

const CollectiveInstance* instanceWithKernelStartingAt(const Collectives& r, int rank, int64_t startNs)
{
    for (const CollectiveInstance& in : r.instances)
        for (const CollectiveArrival& a : arrivalsOf(r, in))
            if (a.rank == rank && a.startNs == startNs)
                return &in;
    return nullptr;
}

std::shared_ptr<Run> loadShared(const std::string& folder)
{
    const auto dir = sharedDir() / "traces" / folder;
    if (!std::filesystem::exists(dir))
        return nullptr;
    return loadRun(dir, LoadOptions{});
}

} // namespace

class TestCollectivesMatching : public QObject {
    Q_OBJECT

private slots:
    void orderPairsThatNeverOverlapAreMatchedByEnd();
    void orderPairsThatOverlapStayByOrder();
    void worldSizeMakesInstancesPartial();
    void groupSizeLargerThanTheRanksKnown();
    void waitIsOneDefinition();
    void traceFilterPairsOverlap();
    void dfIndexResolverIsOneRankOfTwo();
};

void TestCollectivesMatching::orderPairsThatNeverOverlapAreMatchedByEnd()
{
    // Rank 0's profile starts earlier: its first collective has no partner on rank 1. By order,
    // rank 0's first (ends 1100) pairs rank 1's first (starts 2250), and rank 0's second (ends
    // 2300) rank 1's second (starts 5100): neither pair overlaps.
    const Coll base{.pg = "0", .pgRanks = "[0, 1]"};
    auto at = [&](double start, double dur) {
        Coll c = base;
        c.startUs = start;
        c.durUs = dur;
        return c;
    };
    const auto run = loadRanks("never-overlap", {{at(1000, 100), at(2000, 300), at(5000, 200)},
                                                 {at(2250, 50), at(5100, 100.001)}});
    const Collectives r = matchCollectives(*run);
    QVERIFY(r.error.empty());
    QCOMPARE(r.groups.size(), size_t{1});
    QVERIFY2(r.groups[0].rule == MatchRule::EndTime, toString(r.groups[0].rule));
    QCOMPARE(r.groups[0].orderInstancesRejected, int64_t{2});
    QCOMPARE(r.groups[0].unpairedParts, int64_t{1});
    QCOMPARE(r.instances.size(), size_t{3});
    for (const CollectiveInstance& in : r.instances)
        QVERIFY(partsOverlap(r, in));
    QVERIFY(r.instances[0].partial());  // rank 0's lone first part
    QCOMPARE(r.instances[0].missingRanks, std::vector<int>{1});
    const CollectiveInstance* second = instanceWithKernelStartingAt(r, 0, 2'000'000);
    QVERIFY(second && second == instanceWithKernelStartingAt(r, 1, 2'250'000));
    QCOMPARE(second->skewNs, int64_t{250'000});
    // The straggler answer counts the two true instances only.
    QCOMPARE(r.straggler.rank, 1);
    QCOMPARE(r.straggler.lastCount, int64_t{2});
    QCOMPARE(r.straggler.instances, int64_t{2});
    QCOMPARE(r.straggler.delayCausedNs, int64_t{350'000});
    QVERIFY(anyNoteContains(r, "matched by end time (no Seq)"));
    QVERIFY(anyNoteContains(r, "never overlap in time in 2 instances"));
    QCOMPARE(std::string(toString(MatchRule::EndTime)), std::string("end-time"));
}

void TestCollectivesMatching::orderPairsThatOverlapStayByOrder()
{
    const auto run = loadRanks("overlap-order", {{{.startUs = 1000}, {.startUs = 3000}},
                                                 {{.startUs = 1004}, {.startUs = 3002}}});
    const Collectives r = matchCollectives(*run);
    QVERIFY2(r.groups[0].rule == MatchRule::Order, toString(r.groups[0].rule));
    QCOMPARE(r.groups[0].orderInstancesRejected, int64_t{0});
    QCOMPARE(r.instances.size(), size_t{2});
    QVERIFY(!r.instances[0].partial() && !r.instances[1].partial());
}

void TestCollectivesMatching::worldSizeMakesInstancesPartial()
{
    // No process group in the trace (only nccl:* annotations): the default group, whose size is
    // distributedInfo.world_size (4); two of four ranks loaded.
    std::vector<std::vector<Coll>> ranks(2);
    for (int r = 0; r < 2; ++r)
        ranks[size_t(r)].push_back({.startUs = 1000.0 + r, .kernelArgs = false, .cpuArgs = false});
    const auto run = loadRanks("world-size", ranks, {}, {}, 4);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.groups.size(), size_t{1});
    QCOMPARE(r.groups[0].members, (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(r.groups[0].ranksNotInRun, (std::vector<int>{2, 3}));
    QCOMPARE(r.instances.size(), size_t{1});
    QVERIFY(r.instances[0].partial());
    QCOMPARE(r.instances[0].groupSize, 4);
    QCOMPARE(r.straggler.rank, -1);
    QVERIFY(r.perRank.empty() || r.perRank[0].instances == 0);
    QVERIFY(anyNoteContains(r, "ranks 2, 3 are not in the run (world_size 4)"));
    QVERIFY(anyNoteContains(r, "1 partial instances are left out"));

    // world_size equal to the ranks loaded: complete.
    const auto whole = loadRanks("world-size-whole", ranks, {}, {}, 2);
    const Collectives w = matchCollectives(*whole);
    QVERIFY(!w.instances[0].partial());
    QCOMPARE(w.straggler.rank, 1);
}

void TestCollectivesMatching::groupSizeLargerThanTheRanksKnown()
{
    // A named group with no ranks list whose Group size (8) exceeds the ranks seen (2).
    std::vector<std::vector<Coll>> ranks(2);
    for (int r = 0; r < 2; ++r)
        ranks[size_t(r)].push_back({.pg = "7", .pgRanks = "", .seq = 3, .startUs = 1000.0 + r, .groupSize = 8});
    const auto run = loadRanks("group-size", ranks);
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.groups.size(), size_t{1});
    QCOMPARE(r.groups[0].unnamedMembers, 6);
    QVERIFY(r.instances[0].partial());
    QCOMPARE(r.instances[0].unnamedMissing, 6);
    QCOMPARE(r.straggler.rank, -1);
    QVERIFY(anyNoteContains(r, "Group size says 6 more ranks take part"));
}

void TestCollectivesMatching::waitIsOneDefinition()
{
    // Rank 1's clock runs late: its kernel starts after rank 0's ended. A rank waits while its
    // own kernels run: rank 0 waited 100 us (its whole kernel), not the 150 us between arrivals.
    const auto run = loadRanks("wait-definition", {{{.seq = 1, .startUs = 1000, .durUs = 100}, {.seq = 2, .startUs = 2000, .durUs = 100}},
                                                   {{.seq = 1, .startUs = 1150, .durUs = 10}, {.seq = 2, .startUs = 2040, .durUs = 60}}});
    const Collectives r = matchCollectives(*run);
    QCOMPARE(r.instances.size(), size_t{2});
    const CollectiveArrival& rank0 = arrivalsOf(r, r.instances[0])[0];
    QCOMPARE(rank0.rank, 0);
    QCOMPARE(rank0.waitNs, int64_t{100'000});
    QCOMPARE(r.instances[0].waitTotalNs, int64_t{100'000});
    // --per-rank sums the same waits that --arrivals lists.
    for (const CollectiveRankStats& s : r.perRank) {
        int64_t sum = 0;
        for (const CollectiveInstance& in : r.instances)
            for (const CollectiveArrival& a : arrivalsOf(r, in))
                if (a.rank == s.rank)
                    sum += a.waitNs;
        QCOMPARE(s.waitNs, sum);
        QCOMPARE(s.transferNs, s.commNs - s.waitNs);
    }
    QCOMPARE(r.perRank[0].waitNs, int64_t{140'000});
}

void TestCollectivesMatching::traceFilterPairsOverlap()
{
    const auto run = loadShared("trace_filter");
    if (!run)
        QSKIP("../shared/traces/trace_filter is not here");
    const Collectives r = matchCollectives(*run);
    QVERIFY(r.error.empty());
    // Every instance of two ranks shares a moment; the true partners end within 1 us.
    int paired = 0;
    for (const CollectiveInstance& in : r.instances) {
        if (in.arrivalCount < 2)
            continue;
        ++paired;
        QVERIFY(partsOverlap(r, in));
    }
    QVERIFY(paired >= 3);
    // Times are absolute in the engine: the rank-0 kernel of 125,052 pairs rank 1's of 129,911.
    const CollectiveInstance* a = instanceWithKernelStartingAt(r, 0, 1682725898125052000);
    QVERIFY(a && a == instanceWithKernelStartingAt(r, 1, 1682725898129911000));
    // 2 ranks of a 128-rank world: every instance is partial and no straggler is named.
    for (const CollectiveInstance& in : r.instances)
        QVERIFY(in.partial());
    QCOMPARE(r.straggler.rank, -1);
    QVERIFY(anyNoteContains(r, "(world_size 128)"));
    for (const std::string& n : r.notes)
        QVERIFY2(n.find("straggler: rank") == std::string::npos, n.c_str());
}

void TestCollectivesMatching::dfIndexResolverIsOneRankOfTwo()
{
    const auto run = loadShared("df_index_resolver");
    if (!run)
        QSKIP("../shared/traces/df_index_resolver is not here");
    const Collectives r = matchCollectives(*run);
    QVERIFY(r.error.empty());
    QVERIFY(!r.instances.empty());
    for (const CollectiveInstance& in : r.instances) {
        QVERIFY(in.partial());
        QCOMPARE(in.missingRanks, std::vector<int>{0});
    }
    for (const CollectiveRankStats& s : r.perRank)
        QCOMPARE(s.instances, int64_t{0});
    QVERIFY(anyNoteContains(r, "rank 0 is not in the run (world_size 2)"));
}

QTEST_GUILESS_MAIN(TestCollectivesMatching)
#include "tst_collectives_matching.moc"
