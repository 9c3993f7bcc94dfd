// Clock offsets between ranks (analysis/collectives/clockskew.h): recovered from synth runs whose
// ranks' clocks were shifted by known offsets (SynthOptions::clockSkewNs, written into the
// truth), chained across process groups in hand-written traces, refused without collectives,
// and printed by kinetoscope-cli clock-skew.

#include "analysis/collectives/clockskew.h"
#include "analysis/collectives/collectives.h"
#include "analysis/criticalpath/criticalpath.h"
#include "model/loader.h"
#include "model/synth/synthrun.h"
#include "support/collectivetrace.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace kscope;
using namespace kscope::test;

namespace {

constexpr int64_t kToleranceNs = 5'000;  // the bar: within 5 us

std::shared_ptr<Run> synthRun(const std::string& name, int64_t clockSkewNs, int ranks, bool nsTimestamps)
{
    SynthOptions options;
    options.ranks = ranks;
    options.steps = 3;
    options.seed = 11;
    options.clockSkewNs = clockSkewNs;
    options.nsTimestamps = nsTimestamps;
    const auto dir = scratchDir("clockskew-" + name);
    const SynthResult written = writeSynthRun(dir, options);
    if (!written.ok)
        qFatal("synth failed: %s", written.error.c_str());
    return loadRun(dir, LoadOptions{});
}

const RankClockOffset* offsetOf(const std::vector<RankClockOffset>& ranks, int rank)
{
    for (const RankClockOffset& o : ranks)
        if (o.rank == rank)
            return &o;
    return nullptr;
}

bool hasNoteWith(const ClockSkew& skew, const std::string& part)
{
    for (const std::string& note : skew.notes)
        if (note.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace

class ClockSkewTest : public QObject {
    Q_OBJECT

private slots:
    void recoversTheOffsetsSynthWrote_data()
    {
        QTest::addColumn<qint64>("skewNs");
        QTest::addColumn<bool>("nsTimestamps");
        QTest::newRow("3 ms, us timestamps") << qint64(3'000'000) << false;
        QTest::newRow("40 us, ns timestamps") << qint64(40'000) << true;
        QTest::newRow("2 s, us timestamps") << qint64(2'000'000'000) << false;
    }

    void recoversTheOffsetsSynthWrote()
    {
        QFETCH(qint64, skewNs);
        QFETCH(bool, nsTimestamps);
        SynthOptions truth;
        truth.ranks = 6;
        truth.seed = 11;
        truth.clockSkewNs = skewNs;
        const auto run = synthRun(QTest::currentDataTag(), skewNs, truth.ranks, nsTimestamps);
        QCOMPARE(run->errors.size(), size_t(0));
        const Collectives collectives = matchCollectives(*run);
        const ClockSkew skew = estimateClockSkew(*run, collectives);
        QVERIFY2(skew.error.empty(), skew.error.c_str());
        QCOMPARE(skew.referenceRank, 0);
        QVERIFY(skew.instances > 3);
        QCOMPARE(skew.ranks.size(), size_t(truth.ranks));
        bool someOffsetIsLarge = false;
        for (int r = 0; r < truth.ranks; ++r) {
            const RankClockOffset* o = offsetOf(skew.ranks, r);
            QVERIFY(o && o->estimated && o->reliable);
            const int64_t expected = synthClockOffsetNs(truth, r);
            QVERIFY2(std::abs(o->offsetNs - expected) <= kToleranceNs,
                     qPrintable(QString("rank %1: estimated %2 ns, written %3 ns").arg(r).arg(o->offsetNs).arg(expected)));
            QVERIFY(o->spreadNs <= kToleranceNs);
            QCOMPARE(o->viaRank, 0);
            QCOMPARE(o->instances, skew.instances);
            someOffsetIsLarge = someOffsetIsLarge || std::abs(expected) > skew.medianWaitNs;
        }
        if (skewNs >= 1'000'000) {
            QVERIFY(someOffsetIsLarge);  // the seed draws offsets past the waits: the note must say so
            QVERIFY(hasNoteWith(skew, "more than the median collective wait"));
        }
        // matchCollectives() carries the same estimate.
        QCOMPARE(collectives.clockSkew.ranks.size(), skew.ranks.size());
        for (size_t i = 0; i < skew.ranks.size(); ++i)
            QCOMPARE(collectives.clockSkew.ranks[i].offsetNs, skew.ranks[i].offsetNs);
        // One process group: its own estimate is the run's.
        QCOMPARE(skew.groups.size(), size_t(1));
        for (const RankClockOffset& o : skew.groups[0].ranks)
            QCOMPARE(o.offsetNs, offsetOf(skew.ranks, o.rank)->offsetNs);
    }

    // --align-clocks: on the reference clock every rank's wait is the truth's (within the
    // estimate's 5 us), where read across the skewed clocks they are off by hundreds of us.
    void alignedClocksGiveTheTrueWaits()
    {
        SynthOptions options;
        options.ranks = 6;
        options.steps = 3;
        options.seed = 11;
        options.clockSkewNs = 3'000'000;
        const auto dir = scratchDir("clockskew-aligned");
        const SynthResult written = writeSynthRun(dir, options);
        QVERIFY2(written.ok, written.error.c_str());
        const auto run = loadRun(dir, LoadOptions{});
        QFile file(QString::fromStdString(written.truthFile.string()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray truth = QJsonDocument::fromJson(file.readAll())
                                     .object()
                                     .value(QLatin1String("collectives"))
                                     .toObject()
                                     .value(QLatin1String("instances"))
                                     .toArray();
        std::vector<QJsonObject> kept;
        for (const QJsonValue v : truth)
            if (v.toObject().value(QLatin1String("kept")).toBool())
                kept.push_back(v.toObject());
        const Collectives raw = matchCollectives(*run, {.compareWithHta = false});
        const Collectives aligned = matchCollectives(*run, {.compareWithHta = false, .alignClocks = true});
        QCOMPARE(aligned.instances.size(), kept.size());
        QCOMPARE(raw.instances.size(), kept.size());
        int64_t worstRaw = 0;
        auto waitError = [&](size_t i, const CollectiveArrival& a) -> int64_t {
            const QJsonArray waits = kept[i].value(QLatin1String("waitNs")).toArray();
            return std::abs(a.waitNs - static_cast<int64_t>(waits[a.rank].toDouble()));
        };
        // Instances are in the order of their earliest arrival: on skewed clocks that order can
        // differ from the truth's, so pair them by Seq.
        auto bySeq = [&](const Collectives& result, int64_t seq) -> const CollectiveInstance* {
            for (const CollectiveInstance& in : result.instances)
                if (in.seq == seq)
                    return &in;
            return nullptr;
        };
        for (size_t i = 0; i < kept.size(); ++i) {
            const int64_t seq = static_cast<int64_t>(kept[i].value(QLatin1String("seq")).toDouble());
            const CollectiveInstance* in = bySeq(aligned, seq);
            const CollectiveInstance* rawIn = bySeq(raw, seq);
            QVERIFY(in && rawIn);
            for (uint32_t k = 0; k < in->arrivalCount; ++k) {
                const CollectiveArrival& a = aligned.arrivals[in->firstArrival + k];
                QVERIFY2(waitError(i, a) <= kToleranceNs,
                         qPrintable(QString("seq %1 rank %2: wait off by %3 ns").arg(seq).arg(a.rank).arg(waitError(i, a))));
                worstRaw = std::max(worstRaw, waitError(i, raw.arrivals[rawIn->firstArrival + k]));
            }
        }
        // Unaligned, far off (a wait is capped by the kernel's own span, so not by the full 3 ms).
        QVERIFY2(worstRaw > 20 * kToleranceNs, qPrintable(QString::number(worstRaw)));
        // The offsets used are kept, and a note says the times are on rank 0's clock.
        QCOMPARE(aligned.clockSkew.ranks.size(), raw.clockSkew.ranks.size());
        for (size_t r = 0; r < raw.clockSkew.ranks.size(); ++r)
            QCOMPARE(aligned.clockSkew.ranks[r].offsetNs, raw.clockSkew.ranks[r].offsetNs);
        bool noted = false;
        for (const std::string& note : aligned.notes)
            noted = noted || note.starts_with("clocks aligned on rank 0's");
        QVERIFY(noted);
        // The CLI's flag.
        const CommandResult cli = runCli("collectives " + dir.string() + " --align-clocks --format csv");
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.err.find("clocks aligned on rank 0's") != std::string::npos, cli.err.c_str());
    }

    // Skewed by up to 3 ms, the recorded clocks name the wrong rank as last to arrive in some
    // collectives (a wait that changes sign), and the answers say so; on the reference clock every
    // last arrival is the truth's, and the cross-rank critical path is the unskewed run's.
    void skewThatChangesWhoArrivedLastIsNotedAndAligned()
    {
        constexpr int kStraggler = 2;
        const auto straggled = [](int64_t skewNs) {
            SynthOptions o;
            o.ranks = 4;
            o.steps = 3;
            o.seed = 5;
            o.stragglerRank = kStraggler;
            o.clockSkewNs = skewNs;
            const auto d = scratchDir("clockskew-straggler-" + std::to_string(skewNs));
            [&] { QVERIFY(writeSynthRun(d, o).ok); }();
            return loadRun(d, LoadOptions{});
        };
        SynthOptions options;
        options.ranks = 4;
        options.steps = 3;
        options.seed = 5;
        options.clockSkewNs = 3'000'000;
        const auto dir = scratchDir("clockskew-sign");
        const SynthResult written = writeSynthRun(dir, options);
        QVERIFY2(written.ok, written.error.c_str());
        const auto run = loadRun(dir, LoadOptions{});
        QFile file(QString::fromStdString(written.truthFile.string()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        std::map<int64_t, int> truthLast;  // by Seq
        for (const QJsonValue v : QJsonDocument::fromJson(file.readAll())
                                      .object().value(QLatin1String("collectives")).toObject()
                                      .value(QLatin1String("instances")).toArray())
            if (v.toObject().value(QLatin1String("kept")).toBool())
                truthLast[int64_t(v.toObject().value(QLatin1String("seq")).toDouble())] =
                    v.toObject().value(QLatin1String("lastRank")).toInt();
        const Collectives raw = matchCollectives(*run, {.compareWithHta = false});
        const Collectives aligned = matchCollectives(*run, {.compareWithHta = false, .alignClocks = true});
        int64_t rawWrong = 0;
        for (const CollectiveInstance& in : raw.instances)
            rawWrong += in.lastRank != truthLast.at(in.seq);
        for (const CollectiveInstance& in : aligned.instances)
            QCOMPARE(in.lastRank, truthLast.at(in.seq));
        QVERIFY2(rawWrong > 0, "the skew should mislead the recorded clocks");
        const std::string counted = std::to_string(rawWrong) + " of " + std::to_string(raw.instances.size());
        auto hasNote = [](const std::vector<std::string>& notes, const std::string& text) {
            return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
        };
        QVERIFY(hasNote(raw.notes, "change the last rank to arrive in " + counted + " collectives"));
        QVERIFY(hasNote(aligned.notes, "another than as recorded in " + counted + " collectives"));

        // The cross-rank critical path, on the truth's straggler run: the same run without skew
        // puts it on the straggler; aligned, the skewed run gives that very path; as recorded, not.
        auto hasPathNote = [&](const CrossRankPath& path, const std::string& text) { return hasNote(path.notes, text); };
        const CrossRankPath truthPath = criticalPathAllRanks(*straggled(0), {});
        const auto skewed = straggled(options.clockSkewNs);
        CriticalPathOptions alignOption;
        alignOption.alignClocks = true;
        const CrossRankPath alignedPath = criticalPathAllRanks(*skewed, alignOption);
        const CrossRankPath rawPath = criticalPathAllRanks(*skewed, {});
        QVERIFY2(truthPath.error.empty() && alignedPath.error.empty() && rawPath.error.empty(), rawPath.error.c_str());
        auto holder = [](const CrossRankPath& path) {
            return std::max_element(path.shares.begin(), path.shares.end(), [](const CrossRankShare& x, const CrossRankShare& y) {
                       return x.durationNs < y.durationNs;
                   })->rank;
        };
        QCOMPARE(holder(truthPath), kStraggler);
        QCOMPARE(holder(alignedPath), kStraggler);
        QVERIFY(std::abs(alignedPath.lengthNs - truthPath.lengthNs) <= kToleranceNs);
        QVERIFY(holder(rawPath) != kStraggler);
        QVERIFY(hasPathNote(alignedPath, "clocks aligned on rank 0's"));
        QVERIFY(hasPathNote(rawPath, "--align-clocks reads them on rank 0's"));
        QVERIFY(!hasPathNote(truthPath, "clock offsets change"));
        const CommandResult cli = runCli("critical-path " + dir.string() + " --all-ranks --align-clocks --format csv");
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.err.find("clocks aligned on rank 0's") != std::string::npos, cli.err.c_str());
        QCOMPARE(runCli("critical-path " + dir.string() + " --align-clocks").exitCode, 1);  // needs --all-ranks
    }

    void aRunWithoutSkewReadsZero()
    {
        const auto run = synthRun("none", 0, 4, false);
        const Collectives collectives = matchCollectives(*run);
        const ClockSkew skew = estimateClockSkew(*run, collectives);
        QVERIFY(skew.error.empty());
        for (const RankClockOffset& o : skew.ranks) {
            QVERIFY(o.estimated);
            QVERIFY2(std::abs(o.offsetNs) <= kToleranceNs, qPrintable(QString::number(o.offsetNs)));
        }
        QVERIFY(!hasNoteWith(skew, "more than the median collective wait"));
    }

    // Ranks 0-1 share group "a", 1-2 group "b", 3-4 group "c" with neither: rank 2 is read through
    // rank 1, and ranks 3 and 4 get no offset for the run but one within their own group.
    void chainsThroughSharedRanksAndLeavesDisjointGroupsOut()
    {
        // Every part of an instance ends at the same true time; rank r's clock is off by off[r].
        const std::vector<double> offUs = {0, 120, -35, 7, 500};
        std::vector<std::vector<Coll>> perRank(5);
        for (int i = 0; i < 4; ++i) {
            const double end = 1000.0 + 400.0 * i;
            auto add = [&](int rank, const std::string& pg, const std::string& members, double arrive) {
                Coll c;
                c.pg = pg;
                c.pgRanks = members;
                c.seq = i;
                c.startUs = end - arrive + offUs[size_t(rank)];
                c.durUs = arrive;
                perRank[size_t(rank)].push_back(c);
            };
            add(0, "a", "[0, 1]", 30 + i);
            add(1, "a", "[0, 1]", 12);
            // Group b's instances on rank 1 come after group a's, 200 us apart.
            auto addB = [&](int rank, double arrive) {
                Coll c;
                c.pg = "b";
                c.pgRanks = "[1, 2]";
                c.seq = i;
                c.startUs = end + 200 - arrive + offUs[size_t(rank)];
                c.durUs = arrive;
                perRank[size_t(rank)].push_back(c);
            };
            addB(1, 25);
            addB(2, 9 + i);
            add(3, "c", "[3, 4]", 18);
            add(4, "c", "[3, 4]", 40);
        }
        const auto run = loadRanks("clockskew-chain", perRank);
        QCOMPARE(run->errors.size(), size_t(0));
        const Collectives collectives = matchCollectives(*run);
        QCOMPARE(collectives.instances.size(), size_t(12));
        const ClockSkew skew = estimateClockSkew(*run, collectives);
        QCOMPARE(skew.referenceRank, 0);
        const RankClockOffset* r1 = offsetOf(skew.ranks, 1);
        const RankClockOffset* r2 = offsetOf(skew.ranks, 2);
        QVERIFY(r1 && r1->estimated && r1->reliable);
        QCOMPARE(r1->offsetNs, int64_t{120'000});
        QCOMPARE(r1->viaRank, 0);
        QVERIFY(r2 && r2->estimated && r2->reliable);
        QCOMPARE(r2->offsetNs, int64_t{-35'000});
        QCOMPARE(r2->viaRank, 1);
        QVERIFY(!offsetOf(skew.ranks, 3)->estimated);
        QVERIFY(!offsetOf(skew.ranks, 4)->estimated);
        QVERIFY(hasNoteWith(skew, "2 rank(s) share no collective"));
        // Per group: "c" has its own reference, rank 3, and rank 4 is 493 us ahead of it.
        QCOMPARE(skew.groups.size(), size_t(3));
        bool sawC = false;
        for (const GroupClockSkew& g : skew.groups) {
            if (run->str(collectives.groups[g.group].name) != "c")
                continue;
            sawC = true;
            QCOMPARE(g.referenceRank, 3);
            QCOMPARE(offsetOf(g.ranks, 3)->offsetNs, int64_t{0});
            QCOMPARE(offsetOf(g.ranks, 4)->offsetNs, int64_t{493'000});
        }
        QVERIFY(sawC);
    }

    void saysWhyWithoutCollectives()
    {
        const auto dir = scratchDir("clockskew-none");
        writeFile(dir / "rank0.json", rankTrace(0, {}));
        const auto run = loadRun(dir, LoadOptions{});
        const Collectives collectives = matchCollectives(*run);
        const ClockSkew skew = estimateClockSkew(*run, collectives);
        QVERIFY(!skew.error.empty());
        QCOMPARE(skew.referenceRank, -1);
        for (const RankClockOffset& o : skew.ranks)
            QVERIFY(!o.estimated);
    }

    void theCliPrintsOneRowPerRank()
    {
        const auto dir = scratchDir("clockskew-cli");
        SynthOptions options;
        options.ranks = 3;
        options.steps = 2;
        options.clockSkewNs = 1'000'000;
        QVERIFY(writeSynthRun(dir, options).ok);
        const CommandResult out = runCli("clock-skew --format csv " + dir.string());
        QCOMPARE(out.exitCode, 0);
        const QStringList lines = QString::fromStdString(out.out).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 4);
        QVERIFY2(lines[0].startsWith("rank,offset (us),spread (us),instances,compared_with,reliable"), qPrintable(lines[0]));
        const int64_t expected = synthClockOffsetNs(options, 2);
        const QStringList rank2 = lines[3].split(',');
        QCOMPARE(rank2[0], QString("2"));
        QVERIFY(std::abs(rank2[1].toDouble() * 1000.0 - double(expected)) <= double(kToleranceNs));
        QVERIFY2(QString::fromStdString(out.err).contains("offsets from rank 0's clock"), out.err.c_str());

        const CommandResult perGroup = runCli("clock-skew --per-group --format csv " + dir.string());
        QCOMPARE(perGroup.exitCode, 0);
        QVERIFY(QString::fromStdString(perGroup.out).startsWith("process_group,group_ranks,rank,offset (us)"));
        const CommandResult typo = runCli("clock-skew --per-grop " + dir.string());
        QCOMPARE(typo.exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(ClockSkewTest)
#include "tst_clockskew.moc"
