// diffSummary (declared in tracediff.h): the per-rank two-run view beyond HTA's trace diff.

#include "analysis/diff/tracediff.h"

#include "analysis/diff/diffsupport.h"
#include "analysis/core/gpuactivity.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string_view>
#include <unordered_map>

namespace kscope {

namespace {

using diffsupport::intersect;
using diffsupport::joinNumbers;
using diffsupport::minus;

// "1009-1012" for a run of consecutive numbers, else the list.
std::string stepRange(const std::vector<int>& steps)
{
    if (steps.size() > 2 && steps.back() - steps.front() == static_cast<int>(steps.size()) - 1)
        return std::to_string(steps.front()) + "-" + std::to_string(steps.back());
    return joinNumbers(steps);
}

// The GPU activity of the given steps, as a run: all that the temporal breakdown, the overlap
// and the kernel totals read (GPU activity by isGpuActivity, whose launches and parents are left
// out, so links are null). Copying every column of every event to cut them would cost several
// times the analyses (fresh pages for hundreds of MB).
std::shared_ptr<Run> gpuActivityOfSteps(const Run& run, const std::vector<int>& steps, bool htaCompat)
{
    auto out = std::make_shared<Run>();
    out->folder = run.folder;
    out->strings = run.strings.share();  // same ids, no copy
    out->htaCompat = run.htaCompat;
    out->minTsNs = run.minTsNs;
    out->ranks.reserve(run.ranks.size());
    const diffsupport::StepSet stepSet(steps);
    for (const RankTrace& rank : run.ranks) {
        RankTrace& cut = out->ranks.emplace_back();
        cut.rank = rank.rank;
        cut.file = rank.file;
        cut.metadata = rank.metadata;
        cut.deviceType = rank.deviceType;
        cut.threads = rank.threads;
        cut.streamsInFileOrder = rank.streamsInFileOrder;
        const EventTable& t = rank.events;
        EventTable& e = cut.events;
        for (const EventIndex i : t.gpuRows) {
            if (!stepSet.has(t.step[i]) || !isGpuActivityRow(t, i, htaCompat))
                continue;
            e.tsNs.push_back(t.tsNs[i]);
            e.durNs.push_back(t.durNs[i]);
            e.name.push_back(t.name[i]);
            e.category.push_back(t.category[i]);
            e.thread.push_back(t.thread[i]);
            e.stream.push_back(t.stream[i]);
            e.correlation.push_back(t.correlation[i]);
            e.externalId.push_back(t.externalId[i]);
            e.link.push_back(kNoEvent);
            e.parent.push_back(kNoEvent);
            e.step.push_back(t.step[i]);
            e.phase.push_back(t.phase[i]);
            e.kind.push_back(t.kind[i]);
            e.depth.push_back(t.depth[i]);
        }
        e.indexGpuRows();
        for (const ProfilerStep& s : rank.steps)
            if (stepSet.has(s.number))
                cut.steps.push_back({s.number, kNoEvent, s.startNs, s.endNs});
    }
    return out;
}

// Count and total time per GPU activity name on one rank, accumulated by string id.
class KernelTotals {
public:
    void collect(const Run& run, const RankTrace& rank, bool htaCompat)
    {
        m_count.assign(run.strings.size(), 0);
        m_total.assign(run.strings.size(), 0);
        m_touched.clear();
        const EventTable& t = rank.events;
        for (const EventIndex i : t.gpuRows) {
            if (!t.name[i] || !isGpuActivityRow(t, i, htaCompat))
                continue;
            const uint32_t id = t.name[i].value;
            if (m_count[id] == 0)
                m_touched.push_back(id);
            ++m_count[id];
            m_total[id] += t.durNs[i];
        }
    }
    const std::vector<uint32_t>& touched() const { return m_touched; }
    int64_t count(uint32_t id) const { return m_count[id]; }
    int64_t total(uint32_t id) const { return m_total[id]; }

private:
    std::vector<int64_t> m_count;
    std::vector<int64_t> m_total;
    std::vector<uint32_t> m_touched;
};

std::vector<KernelChange> kernelChanges(const Run& control, const RankTrace* c, const Run& test, const RankTrace* t,
                                        const DiffSummaryOptions& options)
{
    KernelTotals ct;
    KernelTotals tt;
    if (c)
        ct.collect(control, *c, options.htaCompat);
    if (t)
        tt.collect(test, *t, options.htaCompat);
    std::vector<KernelChange> changes;
    std::unordered_map<std::string_view, size_t> byName;
    byName.reserve(ct.touched().size() + tt.touched().size());
    for (uint32_t id : ct.touched()) {
        const std::string_view name = control.strings.view(StringId{id});
        byName.emplace(name, changes.size());
        changes.push_back({.name = std::string(name), .controlCount = ct.count(id), .controlTotalNs = ct.total(id)});
    }
    for (uint32_t id : tt.touched()) {
        const std::string_view name = test.strings.view(StringId{id});
        const auto [it, added] = byName.emplace(name, changes.size());
        if (added)
            changes.push_back({.name = std::string(name)});
        changes[it->second].testCount = tt.count(id);
        changes[it->second].testTotalNs = tt.total(id);
    }
    auto larger = [](const KernelChange& a, const KernelChange& b) {
        const int64_t da = std::abs(a.deltaNs());
        const int64_t db = std::abs(b.deltaNs());
        return da != db ? da > db : a.name < b.name;
    };
    const size_t keep = std::min(options.topKernels, changes.size());
    std::partial_sort(changes.begin(), changes.begin() + static_cast<std::ptrdiff_t>(keep), changes.end(), larger);
    changes.resize(keep);
    return changes;
}

template <typename Row>
std::optional<Row> rowOfRank(const std::vector<Row>& rows, int rank)
{
    for (const Row& row : rows)
        if (row.rank == rank)
            return row;
    return std::nullopt;
}

template <typename Result>
void carryOutcome(const Result& r, const char* what, const char* side, std::vector<std::string>& notes)
{
    if (!r.error.empty())
        notes.push_back(std::string(what) + " of the " + side + " run: " + r.error);
    for (const std::string& note : r.notes)
        notes.push_back(std::string(what) + " of the " + side + " run: " + note);
}

} // namespace

DiffSummary diffSummary(const Run& control, const Run& test, const DiffSummaryOptions& options)
{
    DiffSummary result;
    if (control.ranks.empty() || test.ranks.empty()) {
        result.error = control.ranks.empty() ? "the control run has no rank" : "the test run has no rank";
        return result;
    }
    if (std::string note = deviceMismatchNote(control, test); !note.empty())
        result.notes.push_back(std::move(note));

    // Steps: like with like. Equal step sets compare the whole runs; different ones are cut to
    // the steps both have, when there are any.
    const Run* c = &control;
    const Run* t = &test;
    std::shared_ptr<Run> cutControl;
    std::shared_ptr<Run> cutTest;
    const std::vector<int> cs = runSteps(control);
    const std::vector<int> ts = runSteps(test);
    if (cs != ts) {
        const std::vector<int> both = intersect(cs, ts);
        result.controlOnlySteps = minus(cs, ts);
        result.testOnlySteps = minus(ts, cs);
        if (!both.empty() && options.commonStepsOnly) {
            cutControl = gpuActivityOfSteps(control, both, options.htaCompat);
            cutTest = gpuActivityOfSteps(test, both, options.htaCompat);
            c = cutControl.get();
            t = cutTest.get();
            result.steps = both;
            result.notes.push_back("compared the " + std::to_string(both.size()) + " steps in both runs ("
                                   + stepRange(both) + ")"
                                   + (result.controlOnlySteps.empty() ? "" : "; only in control: " + stepRange(result.controlOnlySteps))
                                   + (result.testOnlySteps.empty() ? "" : "; only in test: " + stepRange(result.testOnlySteps)));
        } else if (!both.empty()) {
            result.notes.push_back("the runs have different steps (" + std::to_string(cs.size()) + " and "
                                   + std::to_string(ts.size()) + "): whole runs compared, totals depend on their length");
        } else {
            result.notes.push_back("no ProfilerStep is in both runs (control has " + std::to_string(cs.size())
                                   + ", test " + std::to_string(ts.size())
                                   + "): whole runs compared, totals depend on their length");
        }
    }

    // Ranks: the same numbers, else paired in order.
    const std::vector<int> cr = runRanks(*c);
    const std::vector<int> tr = runRanks(*t);
    const std::vector<int> bothRanks = intersect(cr, tr);
    std::vector<std::pair<int, int>> pairs;
    if (!bothRanks.empty()) {
        for (int r : bothRanks)
            pairs.emplace_back(r, r);
        result.controlOnlyRanks = minus(cr, tr);
        result.testOnlyRanks = minus(tr, cr);
        if (cr.size() != tr.size() || !result.controlOnlyRanks.empty() || !result.testOnlyRanks.empty())
            result.notes.push_back(
                "the runs have " + std::to_string(cr.size()) + " and " + std::to_string(tr.size()) + " ranks: compared the "
                + std::to_string(bothRanks.size()) + " in both"
                + (result.controlOnlyRanks.empty() ? "" : "; only in control: " + joinNumbers(result.controlOnlyRanks))
                + (result.testOnlyRanks.empty() ? "" : "; only in test: " + joinNumbers(result.testOnlyRanks)));
    } else {
        const size_t n = std::min(cr.size(), tr.size());
        for (size_t k = 0; k < n; ++k)
            pairs.emplace_back(cr[k], tr[k]);
        result.controlOnlyRanks.assign(cr.begin() + static_cast<std::ptrdiff_t>(n), cr.end());
        result.testOnlyRanks.assign(tr.begin() + static_cast<std::ptrdiff_t>(n), tr.end());
        std::string paired;
        for (const auto& [a, b] : pairs)
            paired += (paired.empty() ? "" : ", ") + std::to_string(a) + "/" + std::to_string(b);
        result.notes.push_back("no rank number is in both runs: ranks paired in order (control/test: " + paired + ")"
                               + (result.controlOnlyRanks.empty() ? "" : "; left out of control: " + joinNumbers(result.controlOnlyRanks))
                               + (result.testOnlyRanks.empty() ? "" : "; left out of test: " + joinNumbers(result.testOnlyRanks)));
    }

    const TemporalBreakdown controlTemporal = temporalBreakdown(*c, {.htaCompat = options.htaCompat});
    const TemporalBreakdown testTemporal = temporalBreakdown(*t, {.htaCompat = options.htaCompat});
    const Overlap controlOverlap = commCompOverlap(*c, {.htaCompat = options.htaCompat});
    const Overlap testOverlap = commCompOverlap(*t, {.htaCompat = options.htaCompat});
    carryOutcome(controlTemporal, "temporal breakdown", "control", result.notes);
    carryOutcome(testTemporal, "temporal breakdown", "test", result.notes);
    carryOutcome(controlOverlap, "overlap", "control", result.notes);
    carryOutcome(testOverlap, "overlap", "test", result.notes);

    for (const auto& [controlRank, testRank] : pairs) {
        RankDiff diff;
        diff.controlRank = controlRank;
        diff.testRank = testRank;
        diff.controlTemporal = rowOfRank(controlTemporal.rows, controlRank);
        diff.testTemporal = rowOfRank(testTemporal.rows, testRank);
        diff.controlOverlap = rowOfRank(controlOverlap.rows, controlRank);
        diff.testOverlap = rowOfRank(testOverlap.rows, testRank);
        diff.kernels = kernelChanges(*c, c->findRank(controlRank), *t, t->findRank(testRank), options);
        result.ranks.push_back(std::move(diff));
    }
    return result;
}

TemporalChange temporalChange(const DiffSummary& summary)
{
    TemporalChange change;
    const auto add = [](TemporalBreakdownRow& sum, const TemporalBreakdownRow& row) {
        sum.idleNs += row.idleNs;
        sum.computeNs += row.computeNs;
        sum.nonComputeNs += row.nonComputeNs;
        sum.spanNs += row.spanNs;
    };
    for (const RankDiff& r : summary.ranks) {
        if (!r.controlTemporal || !r.testTemporal)
            continue;
        ++change.rankPairs;
        add(change.control, *r.controlTemporal);
        add(change.test, *r.testTemporal);
        const int64_t idle = r.testTemporal->idleNs - r.controlTemporal->idleNs;
        if (change.largestIdleChangeControlRank < 0 || std::abs(idle) > std::abs(change.largestIdleChangeNs)) {
            change.largestIdleChangeControlRank = r.controlRank;
            change.largestIdleChangeTestRank = r.testRank;
            change.largestIdleChangeNs = idle;
        }
    }
    for (TemporalBreakdownRow* sum : {&change.control, &change.test}) {
        sum->rank = -1;
        const double span = static_cast<double>(sum->spanNs);
        if (span > 0) {
            sum->idlePctg = 100.0 * static_cast<double>(sum->idleNs) / span;
            sum->computePctg = 100.0 * static_cast<double>(sum->computeNs) / span;
            sum->nonComputePctg = 100.0 * static_cast<double>(sum->nonComputeNs) / span;
        }
    }
    return change;
}

} // namespace kscope
