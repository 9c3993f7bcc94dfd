#include "analysis/launch/opkernels.h"

#include "analysis/operators/calltree.h"
#include "analysis/core/gpuactivity.h"
#include "analysis/htanumerics.h"

#include <algorithm>
#include <climits>
#include <map>
#include <numeric>
#include <tuple>

namespace kscope {

namespace {

// One launch inside an operator (a row of HTA's launch_stats).
struct Launch {
    int64_t threadId = 0;  // the operator's tid
    StringId op;
    int64_t opStartNs = 0;
    EventIndex opRow = kNoEvent;
    StringId kernel;
    int64_t opDelayNs = 0;       // launch start - operator start
    int64_t runtimeDelayNs = 0;  // kernel start - launch start
};

// HTA's KERNEL_LAUNCH_CATEGORY_PATTERN with re.match: (cuda.*LaunchKernel)|(cuLaunchKernel)|(^runFunction).
bool htaLaunchName(std::string_view name)
{
    if (name.starts_with("cuLaunchKernel") || name.starts_with("runFunction"))
        return true;
    if (!name.starts_with("cuda"))
        return false;
    const size_t at = name.find("LaunchKernel", 4);
    return at != std::string_view::npos && name.substr(0, at).find('\n') == std::string_view::npos;
}

bool inHtaFrame(const EventTable& t, size_t i)
{
    return t.phase[i] == Phase::Complete && t.category[i] && t.kind[i] != EventKind::TraceSpan;
}

// Intervals sorted by start with a max-of-ends segment tree: every interval that starts at or
// before a time and ends at or after another, in output-sensitive time.
class Enclosers {
public:
    Enclosers(const EventTable& t, std::vector<EventIndex> rows) : m_t(t), m_rows(std::move(rows))
    {
        std::stable_sort(m_rows.begin(), m_rows.end(), [&t](EventIndex a, EventIndex b) { return t.tsNs[a] < t.tsNs[b]; });
        m_size = 1;
        while (m_size < m_rows.size())
            m_size *= 2;
        m_maxEnd.assign(2 * m_size, INT64_MIN);
        for (size_t i = 0; i < m_rows.size(); ++i)
            m_maxEnd[m_size + i] = t.endNs(m_rows[i]);
        for (size_t i = m_size - 1; i >= 1; --i)
            m_maxEnd[i] = std::max(m_maxEnd[2 * i], m_maxEnd[2 * i + 1]);
    }

    void find(int64_t startAtOrBefore, int64_t endAtOrAfter, std::vector<EventIndex>& out) const
    {
        out.clear();
        const auto last = std::upper_bound(m_rows.begin(), m_rows.end(), startAtOrBefore,
                                           [this](int64_t ts, EventIndex e) { return ts < m_t.tsNs[e]; });
        const size_t count = static_cast<size_t>(last - m_rows.begin());
        if (count)
            collect(1, 0, m_size, count, endAtOrAfter, out);
    }

private:
    void collect(size_t node, size_t lo, size_t hi, size_t count, int64_t end, std::vector<EventIndex>& out) const
    {
        if (lo >= count || m_maxEnd[node] < end)
            return;
        if (hi - lo == 1) {
            out.push_back(m_rows[lo]);
            return;
        }
        const size_t mid = (lo + hi) / 2;
        collect(2 * node, lo, mid, count, end, out);
        collect(2 * node + 1, mid, hi, count, end, out);
    }

    const EventTable& m_t;
    std::vector<EventIndex> m_rows;
    size_t m_size = 1;
    std::vector<int64_t> m_maxEnd;
};

// HTA's launches of one rank, appended to `launches`; false with why where HTA raises.
bool htaLaunches(const Run& run, const RankTrace& rank, std::vector<Launch>& launches, std::string& why)
{
    const EventTable& t = rank.events;
    const size_t n = t.size();
    const std::vector<EventIndex> rows = htaFrameOrder(t);  // HTA's frame keeps the file's order
    std::vector<int8_t> nameKind(run.strings.size(), -1);  // 0 other, 1 aten::, 2 launch
    auto kindOf = [&](StringId name) {
        int8_t& k = nameKind[name.value];
        if (k < 0) {
            const std::string_view s = run.str(name);
            k = s.starts_with("aten::") ? 1 : htaLaunchName(s) ? 2 : 0;
        }
        return k;
    };
    std::vector<EventIndex> ops, launchRows;
    for (EventIndex e : rows) {
        if (!inHtaFrame(t, static_cast<size_t>(e)) || !t.name[e])
            continue;
        const int8_t k = kindOf(t.name[e]);
        if (k == 1)
            ops.push_back(e);
        else if (k == 2)
            launchRows.push_back(e);
    }
    std::vector<uint32_t> opOrder(n, 0);  // position in HTA's aten_operations frame
    for (size_t k = 0; k < ops.size(); ++k)
        opOrder[static_cast<size_t>(ops[k])] = static_cast<uint32_t>(k);
    // GPU events (stream != -1) per launch: HTA picks kernels[index_correlation == launch].
    std::vector<int32_t> gpuCount(n, 0);
    std::vector<EventIndex> gpuOf(n, kNoEvent);
    for (size_t i = 0; i < n; ++i) {
        if (t.stream[i] == -1 || !inHtaFrame(t, i) || t.link[i] == kNoEvent)
            continue;
        ++gpuCount[static_cast<size_t>(t.link[i])];
        gpuOf[static_cast<size_t>(t.link[i])] = static_cast<EventIndex>(i);
    }
    const Enclosers enclosers(t, ops);
    std::vector<EventIndex> found;
    std::vector<int64_t> keys;
    for (EventIndex rt : launchRows) {
        enclosers.find(t.tsNs[rt], t.endNs(rt), found);
        if (found.empty())
            continue;
        // The latest start; when several share it, pandas' quicksort (descending) picks one.
        int64_t latest = INT64_MIN;
        size_t atLatest = 0;
        EventIndex op = kNoEvent;
        for (EventIndex e : found) {
            if (t.tsNs[e] > latest) {
                latest = t.tsNs[e];
                atLatest = 0;
                op = e;
            }
            atLatest += t.tsNs[e] == latest;
        }
        if (atLatest > 1) {
            std::sort(found.begin(), found.end(), [&](EventIndex a, EventIndex b) {
                return opOrder[static_cast<size_t>(a)] < opOrder[static_cast<size_t>(b)];
            });
            keys.clear();
            for (EventIndex e : found)
                keys.push_back(t.tsNs[e]);
            op = found[hta::sortDescendingOrder(keys).front()];
        }
        if (gpuCount[static_cast<size_t>(rt)] != 1) {
            why = rankLabel(rank.rank) + ": a kernel launch (" + std::string(run.str(t.name[rt])) + ") inside "
                + std::string(run.str(t.name[op])) + " has " + std::to_string(gpuCount[static_cast<size_t>(rt)])
                + " GPU events; HTA raises ValueError (\"can only convert an array of size 1 to a Python scalar\")";
            return false;
        }
        const EventIndex kernel = gpuOf[static_cast<size_t>(rt)];
        const ThreadKey& thread = rank.threads[t.thread[op]];
        launches.push_back({thread.tid, t.name[op], t.tsNs[op], op, t.name[kernel], t.tsNs[rt] - t.tsNs[op],
                            t.tsNs[kernel] - t.tsNs[rt]});
    }
    return true;
}

// Default mode: each kernel launch and the nearest aten:: operator above it on its thread.
void threadLaunches(const Run& run, const RankTrace& rank, std::vector<Launch>& launches)
{
    const EventTable& t = rank.events;
    std::vector<int8_t> isAten(run.strings.size(), -1);
    auto aten = [&](StringId name) {
        int8_t& k = isAten[name.value];
        if (k < 0)
            k = run.str(name).starts_with("aten::") ? 1 : 0;
        return k == 1;
    };
    for (size_t i = 0; i < t.size(); ++i) {
        const auto g = static_cast<EventIndex>(i);
        if (t.kind[g] != EventKind::Kernel || t.stream[g] < 0 || t.phase[g] != Phase::Complete)
            continue;
        const EventIndex rt = t.link[g];
        if (rt == kNoEvent || t.stream[rt] >= 0)
            continue;
        EventIndex op = t.parent[rt];
        while (op != kNoEvent && !(t.name[op] && aten(t.name[op])))
            op = t.parent[op];
        if (op == kNoEvent)
            continue;
        launches.push_back({rank.threads[t.thread[op]].tid, t.name[op], t.tsNs[op], op, t.name[g],
                            t.tsNs[rt] - t.tsNs[op], t.tsNs[g] - t.tsNs[rt]});
    }
    // Launch order per operator: by the launch's start (rows are in start order already for
    // kernels of one operator only approximately: kernels may start out of launch order).
    std::stable_sort(launches.begin(), launches.end(), [](const Launch& a, const Launch& b) {
        return a.opRow != b.opRow ? a.opRow < b.opRow : a.opDelayNs < b.opDelayNs;
    });
}

// HTA's two groupings, kept up to date as launches arrive: per operator occurrence (HTA's
// groupby thread_id, aten_op_name, aten_op_start; the default mode keys on the operator event),
// its kernels in arrival order, and per (operator name, kernel sequence) the count and the sums of
// the occurrences' first delays. HTA regroups its whole, ever growing launch list for every
// rank; adding each rank's launches to the groups gives the same tables in linear time.
class Aggregator {
public:
    explicit Aggregator(bool hta) : m_hta(hta) {}

    void add(const Launch& l)
    {
        const Key key{m_hta ? l.threadId : 0, l.op, m_hta ? l.opStartNs : 0, m_hta ? kNoEvent : l.opRow};
        auto [it, fresh] = m_index.try_emplace(key, m_occurrences.size());
        if (fresh) {
            m_occurrences.push_back({l.op, {}, l.opDelayNs, l.runtimeDelayNs, nullptr});
        } else if (Occurrence& o = m_occurrences[it->second]; o.group) {
            unregister(o);  // its sequence grows: it moves to another group
        }
        Occurrence& o = m_occurrences[it->second];
        o.kernels.push_back(l.kernel);
        if (!o.pending) {
            o.pending = true;
            m_pending.push_back(it->second);
        }
    }

    // The groups as one rank's rows: by name and sequence text, then most frequent first.
    std::vector<OpKernelRow> rows(const Run& run, int rankNumber)
    {
        for (size_t k : m_pending) {
            Occurrence& o = m_occurrences[k];
            o.pending = false;
            Group& g = m_groups[{o.op, o.kernels}];
            ++g.count;
            g.opDelaySum += o.firstOpDelay;
            g.runtimeDelaySum += o.firstRuntimeDelay;
            o.group = &g;
        }
        m_pending.clear();
        std::vector<std::tuple<std::string_view, std::string, const std::pair<const GroupKey, Group>*>> sorted;
        for (const auto& entry : m_groups)
            if (entry.second.count > 0) {
                OpKernelRow probe;
                probe.kernels = entry.first.second;
                sorted.emplace_back(run.str(entry.first.first), kernelSequenceText(run, probe), &entry);
            }
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
            return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
        });
        std::vector<OpKernelRow> rows;
        std::vector<int64_t> counts;
        for (const auto& [name, sequence, entry] : sorted) {
            const Group& g = entry->second;
            OpKernelRow row;
            row.rank = rankNumber;
            row.op = entry->first.first;
            row.kernels = entry->first.second;
            row.count = g.count;
            row.avgOpLaunchDelayNs = static_cast<double>(g.opDelaySum) / static_cast<double>(g.count);
            row.avgRuntimeDelayNs = static_cast<double>(g.runtimeDelaySum) / static_cast<double>(g.count);
            if (m_hta) {  // HTA rounds the microsecond means to 3 decimals
                row.avgOpLaunchDelayNs = hta::round(row.avgOpLaunchDelayNs / 1000.0, 3) * 1000.0;
                row.avgRuntimeDelayNs = hta::round(row.avgRuntimeDelayNs / 1000.0, 3) * 1000.0;
            }
            counts.push_back(g.count);
            rows.push_back(std::move(row));
        }
        std::vector<uint32_t> byCount(rows.size());
        if (m_hta) {
            byCount = hta::sortDescendingOrder(counts);  // sort_values("occurrence_count", ascending=False)
        } else {
            std::iota(byCount.begin(), byCount.end(), 0u);
            std::stable_sort(byCount.begin(), byCount.end(), [&](uint32_t a, uint32_t b) { return counts[a] > counts[b]; });
        }
        std::vector<OpKernelRow> out;
        out.reserve(rows.size());
        for (uint32_t k : byCount)
            out.push_back(std::move(rows[k]));
        return out;
    }

private:
    using Key = std::tuple<int64_t, StringId, int64_t, EventIndex>;
    using GroupKey = std::pair<StringId, std::vector<StringId>>;
    struct Group {
        int64_t count = 0;
        int64_t opDelaySum = 0, runtimeDelaySum = 0;
    };
    struct Occurrence {
        StringId op;
        std::vector<StringId> kernels;
        int64_t firstOpDelay = 0, firstRuntimeDelay = 0;
        Group* group = nullptr;  // where it is counted (map nodes stay put)
        bool pending = false;
    };

    void unregister(Occurrence& o)
    {
        --o.group->count;
        o.group->opDelaySum -= o.firstOpDelay;
        o.group->runtimeDelaySum -= o.firstRuntimeDelay;
        o.group = nullptr;
    }

    bool m_hta;
    std::map<Key, size_t> m_index;
    std::vector<Occurrence> m_occurrences;
    std::vector<size_t> m_pending;
    std::map<GroupKey, Group> m_groups;
};

} // namespace

std::string kernelSequenceText(const Run& run, const OpKernelRow& row)
{
    std::string text;
    for (size_t k = 0; k < row.kernels.size(); ++k) {
        if (k)
            text += " -> ";
        text += run.str(row.kernels[k]);
    }
    return text;
}

OpKernels opKernelDelays(const Run& run, const OpKernelsOptions& options)
{
    OpKernels result;
    result.htaCompat = options.htaCompat;
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(note + ": left out");
    const std::vector<const RankTrace*> ranks = ranksToRead(run, options.ranks);
    Aggregator accumulated(true);  // HTA's launch_stats, never cleared between ranks
    bool anyLaunch = false;
    for (const RankTrace* rank : ranks) {
        const int number = rank->rank;
        std::vector<Launch> launches;
        if (options.htaCompat) {
            std::string why;
            if (!htaLaunches(run, *rank, launches, why)) {
                result.rows.clear();
                result.error = why + "; no result";
                return result;
            }
            anyLaunch = anyLaunch || !launches.empty();
            if (!anyLaunch) {
                result.rows.clear();
                result.error = rankLabel(number) + " has no kernel launch inside an aten:: operator; HTA raises "
                                                   "KeyError ('thread_id'), no result";
                return result;
            }
            for (const Launch& l : launches)
                accumulated.add(l);
            for (OpKernelRow& row : accumulated.rows(run, number))
                result.rows.push_back(std::move(row));
            continue;
        }
        threadLaunches(run, *rank, launches);
        if (launches.empty()) {
            result.notes.push_back(rankLabel(number) + " has no kernel launched inside an aten:: operator");
            continue;
        }
        Aggregator own(false);
        for (const Launch& l : launches)
            own.add(l);
        for (OpKernelRow& row : own.rows(run, number))
            result.rows.push_back(std::move(row));
    }
    if (result.rows.empty() && result.error.empty())
        result.error = "no kernel is launched inside an aten:: operator";
    return result;
}

} // namespace kscope
