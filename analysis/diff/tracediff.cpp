#include "analysis/diff/tracediff.h"

#include "analysis/diff/diffsupport.h"
#include "analysis/core/gpuactivity.h"
#include "analysis/core/kerneltype.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <limits>
#include <string_view>

// HTA's rules (hta/trace_diff.py): LabeledTrace parses the trace without aligning or trimming it
// (load with LoadOptions{.htaCompat = true, .includeLastStep = true} to get its events); an
// event belongs to iteration N by the loader's step column (ProfilerStep#N containment for CPU
// events, the launch's step for GPU work); get_ops_summary counts events and sums `dur` per
// (cat, name), compare_traces regroups by name (or short name) and outer-joins the two sides
// with missing values 0.

namespace kscope {

namespace {

using diffsupport::intersect;
using diffsupport::joinNumbers;
using diffsupport::minus;
using diffsupport::StepSet;

bool contains(const std::vector<int>& sorted, int value)
{
    return std::binary_search(sorted.begin(), sorted.end(), value);
}

bool onDevice(const EventTable& t, size_t i, DiffDevice device, bool htaCompat)
{
    if (device == DiffDevice::All)
        return true;
    bool gpu = false;
    if (htaCompat) {
        gpu = t.stream[i] != -1;
    } else {
        const EventKind kind = t.kind[i];
        gpu = isGpuKind(kind) || kind == EventKind::GpuUserAnnotation;
    }
    return device == DiffDevice::Gpu ? gpu : !gpu;
}

struct NameTotals {
    std::string_view name;
    int64_t count = 0;
    int64_t durNs = 0;
};

// "ProfilerStep#16" -> "ProfilerStep#N": a name ending in '#' and a number is a numbered
// annotation (a step, an iteration), the same thing in both runs whatever its number. Else "".
std::string unnumberedName(std::string_view name)
{
    size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
        --digits;
    if (digits == name.size() || digits == 0 || name[digits - 1] != '#')
        return {};
    return std::string(name.substr(0, digits)) + "N";
}

// Count and total duration per name (or short name) over the given ranks and steps, sorted by
// name. Short names are kept in `store`. The default mode folds numbered annotations into one
// name (and says so in `numbered`); HTA compares ProfilerStep#5 with nothing in a run of #16.
std::vector<NameTotals> sideTotals(const Run& run, const std::vector<int>& ranks, const std::vector<int>& steps,
                                   const TraceDiffOptions& options, std::deque<std::string>& store, bool& numbered)
{
    const StepSet stepSet(steps);
    std::vector<int64_t> count(run.strings.size(), 0);
    std::vector<int64_t> dur(run.strings.size(), 0);
    std::vector<uint32_t> touched;
    for (int number : ranks) {
        const RankTrace* rank = run.findRank(number);
        if (!rank)
            continue;
        const EventTable& t = rank->events;
        for (size_t i = 0; i < t.size(); ++i) {
            if (!t.name[i] || !isHtaVisible(t, i) || !stepSet.has(t.step[i])
                || !onDevice(t, i, options.device, options.htaCompat))
                continue;
            const uint32_t id = t.name[i].value;
            if (count[id] == 0)
                touched.push_back(id);
            ++count[id];
            dur[id] += t.durNs[i];
        }
    }
    std::vector<NameTotals> totals;
    totals.reserve(touched.size());
    for (uint32_t id : touched) {
        std::string_view name = run.strings.view(StringId{id});
        if (!options.htaCompat) {
            if (std::string folded = unnumberedName(name); !folded.empty()) {
                name = store.emplace_back(std::move(folded));
                numbered = true;
            }
        }
        if (options.shortNames)
            name = store.emplace_back(shortenKernelName(name));
        totals.push_back({name, count[id], dur[id]});
    }
    std::sort(totals.begin(), totals.end(), [](const NameTotals& a, const NameTotals& b) { return a.name < b.name; });
    if (options.shortNames || !options.htaCompat) {  // several names can share a short or folded name
        size_t out = 0;
        for (size_t i = 0; i < totals.size(); ++i) {
            if (out > 0 && totals[out - 1].name == totals[i].name) {
                totals[out - 1].count += totals[i].count;
                totals[out - 1].durNs += totals[i].durNs;
            } else {
                totals[out++] = totals[i];
            }
        }
        totals.resize(out);
    }
    return totals;
}

// The ranks of one side: given (checked), or the run's first.
bool pickRanks(const Run& run, const std::vector<int>& given, const char* side, std::vector<int>& ranks,
               std::string& error)
{
    const std::vector<int> all = runRanks(run);
    if (given.empty()) {
        if (all.empty()) {
            error = std::string("the ") + side + " run has no rank";
            return false;
        }
        ranks = {all.front()};
        return true;
    }
    for (int r : given) {
        if (!contains(all, r)) {
            error = std::string("the ") + side + " run has no rank " + std::to_string(r) + " (it has "
                + joinNumbers(all) + ")";
            return false;
        }
    }
    ranks = given;
    return true;
}

// The steps of one side: given (checked), or the run's first; none at all means the whole trace
// in the default mode and HTA's ValueError in its mode.
bool pickSteps(const Run& run, const std::vector<int>& given, const char* side, bool htaCompat,
               std::vector<int>& steps, TraceComparison& result)
{
    const std::vector<int> all = runSteps(run);
    if (given.empty()) {
        if (all.empty()) {
            if (htaCompat) {
                result.error = std::string("the ") + side
                    + " run has no ProfilerStep; HTA raises ValueError (no iteration), no result";
                return false;
            }
            result.notes.push_back(std::string("the ") + side + " run has no ProfilerStep: its whole trace is compared");
            steps.clear();
            return true;
        }
        steps = {all.front()};
        return true;
    }
    for (int s : given) {
        if (!contains(all, s)) {
            result.error = std::string("the ") + side + " run has no ProfilerStep#" + std::to_string(s)
                + (all.empty() ? std::string(" (it has no step)") : " (it has " + joinNumbers(all) + ")");
            return false;
        }
    }
    steps = given;
    return true;
}

// allRanks: the rank numbers in both runs, else the first ones of each paired by position.
void commonRanks(const Run& control, const Run& test, TraceComparison& result)
{
    const std::vector<int> c = runRanks(control);
    const std::vector<int> t = runRanks(test);
    const std::vector<int> both = intersect(c, t);
    if (!both.empty()) {
        result.controlRanks = both;
        result.testRanks = both;
        const std::vector<int> onlyC = minus(c, t);
        const std::vector<int> onlyT = minus(t, c);
        if (!onlyC.empty() || !onlyT.empty())
            result.notes.push_back("the runs have " + std::to_string(c.size()) + " and " + std::to_string(t.size())
                                   + " ranks: compared the " + std::to_string(both.size()) + " in both"
                                   + (onlyC.empty() ? "" : "; only in control: " + joinNumbers(onlyC))
                                   + (onlyT.empty() ? "" : "; only in test: " + joinNumbers(onlyT)));
        return;
    }
    const size_t n = std::min(c.size(), t.size());
    result.controlRanks.assign(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(n));
    result.testRanks.assign(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n));
    if (n > 0)
        result.notes.push_back("no rank number is in both runs: compared control's ranks " + joinNumbers(result.controlRanks)
                               + " with test's " + joinNumbers(result.testRanks) + " (paired in order)");
}

// allSteps: the steps in both runs; without any, each run over its own steps (or whole trace).
void commonSteps(const Run& control, const Run& test, TraceComparison& result)
{
    const std::vector<int> c = runSteps(control);
    const std::vector<int> t = runSteps(test);
    const std::vector<int> both = intersect(c, t);
    if (!both.empty()) {
        result.controlSteps = both;
        result.testSteps = both;
        const std::vector<int> onlyC = minus(c, t);
        const std::vector<int> onlyT = minus(t, c);
        if (!onlyC.empty())
            result.notes.push_back("steps only in control, left out: " + joinNumbers(onlyC));
        if (!onlyT.empty())
            result.notes.push_back("steps only in test, left out: " + joinNumbers(onlyT));
        return;
    }
    result.controlSteps = c;
    result.testSteps = t;
    if (!c.empty() && !t.empty())
        result.notes.push_back("no ProfilerStep number is in both runs: each run is averaged over its own steps ("
                               + std::to_string(c.size()) + " and " + std::to_string(t.size()) + ")");
    if (c.empty())
        result.notes.push_back("the control run has no ProfilerStep: its whole trace is compared");
    if (t.empty())
        result.notes.push_back("the test run has no ProfilerStep: its whole trace is compared");
}

} // namespace

const char* toString(DiffDevice device)
{
    switch (device) {
    case DiffDevice::Cpu:
        return "CPU";
    case DiffDevice::Gpu:
        return "GPU";
    case DiffDevice::All:
        break;
    }
    return "ALL";
}

std::vector<int> runRanks(const Run& run)
{
    std::vector<int> ranks;
    for (const RankTrace& r : run.ranks)
        ranks.push_back(r.rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

std::vector<int> runSteps(const Run& run)
{
    std::vector<int> steps;
    for (const RankTrace& r : run.ranks)
        for (const ProfilerStep& s : r.steps)
            steps.push_back(s.number);
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    return steps;
}

std::string deviceMismatchNote(const Run& control, const Run& test)
{
    auto deviceOf = [](const Run& run) {
        DeviceType type = DeviceType::Unknown;
        for (const RankTrace& r : run.ranks)
            if (r.deviceType != DeviceType::Unknown)
                type = r.deviceType;
        return type;
    };
    const DeviceType c = deviceOf(control);
    const DeviceType t = deviceOf(test);
    if (c == t || c == DeviceType::Unknown || t == DeviceType::Unknown)
        return {};
    return std::string("the control run ran on ") + toString(c) + ", the test run on " + toString(t)
        + ": kernel and runtime names differ between vendors, so most GPU names show as added or deleted";
}

TraceComparison compareTraces(const Run& control, const Run& test, const TraceDiffOptions& options)
{
    TraceComparison result;
    result.shortNames = options.shortNames;
    result.htaCompat = options.htaCompat;

    if (options.allRanks) {
        commonRanks(control, test, result);
        if (result.controlRanks.empty()) {
            result.error = control.ranks.empty() ? "the control run has no rank" : "the test run has no rank";
            return result;
        }
    } else if (!pickRanks(control, options.controlRanks, "control", result.controlRanks, result.error)
               || !pickRanks(test, options.testRanks, "test", result.testRanks, result.error)) {
        return result;
    }
    if (options.allSteps) {
        commonSteps(control, test, result);
    } else if (!pickSteps(control, options.controlSteps, "control", options.htaCompat, result.controlSteps, result)
               || !pickSteps(test, options.testSteps, "test", options.htaCompat, result.testSteps, result)) {
        return result;
    }
    auto units = [&](const std::vector<int>& ranks, const std::vector<int>& steps) {
        const int64_t r = options.allRanks ? static_cast<int64_t>(ranks.size()) : 1;
        const int64_t s = options.allSteps ? std::max<int64_t>(1, static_cast<int64_t>(steps.size())) : 1;
        return r * s;
    };
    result.controlUnits = units(result.controlRanks, result.controlSteps);
    result.testUnits = units(result.testRanks, result.testSteps);
    if (result.averaged())
        result.notes.push_back("counts and durations are averages per rank and step (control over "
                               + std::to_string(result.controlUnits) + ", test over "
                               + std::to_string(result.testUnits) + " rank x step pairs)");

    std::deque<std::string> store;
    bool numbered = false;
    const std::vector<NameTotals> c = sideTotals(control, result.controlRanks, result.controlSteps, options, store, numbered);
    const std::vector<NameTotals> t = sideTotals(test, result.testRanks, result.testSteps, options, store, numbered);
    if (numbered)
        result.notes.push_back("numbered annotations are one name across runs (ProfilerStep#5 and #16 are "
                               "ProfilerStep#N; HTA keeps the numbers, so a step reads as deleted and added)");

    // Both sorted: control's rows in order, each with its test partner, then test's own rows.
    result.rows.reserve(c.size() + t.size());
    std::vector<const NameTotals*> testOnly;
    size_t j = 0;
    for (const NameTotals& row : c) {
        while (j < t.size() && t[j].name < row.name)
            testOnly.push_back(&t[j++]);
        OpDiffRow out{.name = std::string(row.name), .controlCount = row.count, .controlDurNs = row.durNs};
        if (j < t.size() && t[j].name == row.name) {
            out.testCount = t[j].count;
            out.testDurNs = t[j].durNs;
            ++j;
        }
        result.rows.push_back(std::move(out));
    }
    for (; j < t.size(); ++j)
        testOnly.push_back(&t[j]);
    for (const NameTotals* row : testOnly)
        result.rows.push_back({.name = std::string(row->name), .testCount = row->count, .testDurNs = row->durNs});
    for (OpDiffRow& row : result.rows) {
        // sign(test / tu - control / cu) = sign(test * cu - control * tu), exactly
        const int64_t lhs = row.testCount * result.controlUnits;
        const int64_t rhs = row.controlCount * result.testUnits;
        row.change = lhs > rhs ? '+' : lhs < rhs ? '-' : '=';
    }

    if (std::string note = deviceMismatchNote(control, test); !note.empty())
        result.notes.push_back(std::move(note));
    if (options.htaCompat) {
        if (!control.htaCompat || !test.htaCompat)
            result.notes.push_back("a run was loaded without HTA's normalisation: durations are exact, not HTA's "
                                   "rounded microseconds");
    } else {
        result.notes.push_back("durations are exact nanoseconds (HTA rounds each event to whole microseconds first)");
        if (options.device != DiffDevice::All)
            result.notes.push_back("device by category (HTA: by args.stream, so a cpu_op with a stream counts as GPU)");
    }
    if (result.rows.empty())
        result.notes.push_back("no event matched on either side");
    return result;
}

OpsDiff opsDiff(const TraceComparison& comparison)
{
    OpsDiff diff;
    diff.error = comparison.error;
    diff.notes = comparison.notes;
    for (const OpDiffRow& row : comparison.rows) {
        // HTA: added = control 0 & test > 0; deleted = control > 0 & test 0; then by diff_counts
        // (increased needs control > 0, decreased and unchanged test > 0).
        if (row.controlCount == 0 && row.testCount > 0)
            diff.added.push_back(row.name);
        if (row.controlCount > 0 && row.testCount == 0)
            diff.deleted.push_back(row.name);
        if (row.controlCount > 0 && row.change == '+')
            diff.increased.push_back(row.name);
        if (row.testCount > 0 && row.change == '-')
            diff.decreased.push_back(row.name);
        if (row.testCount > 0 && row.change == '=')
            diff.unchanged.push_back(row.name);
    }
    return diff;
}

double KernelChange::controlMeanNs() const
{
    return controlCount > 0 ? static_cast<double>(controlTotalNs) / static_cast<double>(controlCount)
                            : std::numeric_limits<double>::quiet_NaN();
}

double KernelChange::testMeanNs() const
{
    return testCount > 0 ? static_cast<double>(testTotalNs) / static_cast<double>(testCount)
                         : std::numeric_limits<double>::quiet_NaN();
}

double KernelChange::deltaPctg() const
{
    return controlTotalNs != 0 ? 100.0 * static_cast<double>(deltaNs()) / static_cast<double>(controlTotalNs)
                               : std::numeric_limits<double>::quiet_NaN();
}

} // namespace kscope
