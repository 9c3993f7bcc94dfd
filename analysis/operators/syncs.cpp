#include "analysis/operators/syncs.h"

#include "analysis/core/idlecauses.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace kscope {

namespace {

// The outermost CPU op above row i on its thread (what the user's code called).
StringId outermostCaller(const EventTable& t, EventIndex i)
{
    StringId caller;
    for (EventIndex p = t.parent[i]; p != kNoEvent; p = t.parent[p])
        if (t.kind[p] == EventKind::CpuOp)
            caller = t.name[p];
    return caller;
}

} // namespace

HostSyncs hostSyncs(const Run& run)
{
    HostSyncs result;
    for (const RankTrace& rank : run.ranks) {
        const EventTable& t = rank.events;
        // Which names synchronise, decided once per distinct name.
        std::vector<std::pair<uint32_t, bool>> decided;
        auto synchronizing = [&](StringId name) {
            for (const auto& [id, yes] : decided)
                if (id == name.value)
                    return yes;
            const bool yes = isSynchronizingCall(run.str(name));
            decided.emplace_back(name.value, yes);
            return yes;
        };
        struct Key {
            uint32_t call, caller;
            auto operator<=>(const Key&) const = default;
        };
        std::vector<std::pair<Key, HostSyncGroup>> groups;
        std::vector<std::set<int>> groupSteps;
        DeviceToHostCopies copies;
        copies.rank = rank.rank;
        copies.rankIndex = run.indexOf(rank);
        std::set<int> copySteps;
        for (size_t row = 0; row < t.size(); ++row) {
            const auto i = static_cast<EventIndex>(row);
            const int step = t.step[row];
            if (step < 0 || t.phase[row] != Phase::Complete)
                continue;
            const EventKind kind = t.kind[row];
            if (kind == EventKind::Memcpy) {
                if (run.str(t.name[row]).find("DtoH") == std::string_view::npos)
                    continue;
                ++copies.copies;
                copies.totalNs += t.durNs[row];
                if (const MemoryArgs* args = findSparse(t.memoryArgs, i); args && args->bytes > 0)
                    copies.bytes += args->bytes;
                copySteps.insert(step);
                continue;
            }
            if ((kind != EventKind::Runtime && kind != EventKind::Driver) || !synchronizing(t.name[row]))
                continue;
            const Key key{t.name[row].value, outermostCaller(t, i).value};
            auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
            if (it == groups.end()) {
                HostSyncGroup g;
                g.rank = rank.rank;
                g.rankIndex = run.indexOf(rank);
                g.call = t.name[row];
                g.caller = StringId{key.caller};
                g.callName = std::string(run.str(g.call));
                g.callerName = key.caller ? std::string(run.str(g.caller)) : std::string();
                groups.emplace_back(key, g);
                groupSteps.emplace_back();
                it = groups.end() - 1;
            }
            HostSyncGroup& g = it->second;
            const int64_t dur = t.durNs[row];
            ++g.calls;
            g.totalNs += dur;
            if (g.longest == kNoEvent || dur > g.longestNs) {
                g.longestNs = dur;
                g.longest = i;
            }
            groupSteps[static_cast<size_t>(it - groups.begin())].insert(step);
        }
        std::vector<HostSyncGroup> ofRank;
        for (size_t k = 0; k < groups.size(); ++k) {
            groups[k].second.steps = static_cast<int>(groupSteps[k].size());
            ofRank.push_back(groups[k].second);
        }
        std::stable_sort(ofRank.begin(), ofRank.end(),
                         [](const HostSyncGroup& a, const HostSyncGroup& b) { return a.totalNs > b.totalNs; });
        result.groups.insert(result.groups.end(), ofRank.begin(), ofRank.end());
        if (copies.copies > 0) {
            copies.steps = static_cast<int>(copySteps.size());
            result.copies.push_back(copies);
        }
    }
    if (run.ranks.empty())
        result.error = "the run has no rank";
    return result;
}

} // namespace kscope
