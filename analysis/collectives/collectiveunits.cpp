#include "analysis/collectives/collectivematch.h"

#include "model/trace.h"

#include <string_view>
#include <unordered_map>

namespace kscope::collective_detail {

namespace {

constexpr int kMaxParentWalk = 32;

bool isCollectiveKernelName(std::string_view name)
{
    return name.starts_with("nccl") || name.starts_with("rccl") || name.find("ncclKernel") != std::string_view::npos ||
           name.find("ncclDevKernel") != std::string_view::npos;
}

// "ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)" -> "AllReduce"; "ncclKernel_SendRecv_..." -> "SendRecv".
std::string nameFromKernel(std::string_view kernel)
{
    const size_t underscore = kernel.find('_');
    if (underscore == std::string_view::npos)
        return std::string(kernel.substr(0, kernel.find('(')));
    std::string_view rest = kernel.substr(underscore + 1);
    const size_t end = rest.find_first_of("_(<");
    return std::string(rest.substr(0, end));
}

struct Merged {
    StringId name, dtype, pgName, pgRanks;
    int64_t inNelems = -1, outNelems = -1, seq = -1;
    int32_t groupSize = -1;

    void fillFrom(const CollectiveArgs& a)
    {
        if (!name)
            name = a.collectiveName;
        if (!dtype)
            dtype = a.dtype;
        if (!pgName)
            pgName = a.processGroupName;
        if (!pgRanks)
            pgRanks = a.processGroupRanks;
        if (inNelems < 0)
            inNelems = a.inMsgNelems;
        if (outNelems < 0)
            outNelems = a.outMsgNelems;
        if (seq < 0)
            seq = a.seq;
        if (groupSize <= 0)
            groupSize = a.groupSize;
    }
};

} // namespace

std::vector<Unit> collectUnits(const Run& run, const RankTrace& rank, std::vector<uint8_t>& nameIsCollective,
                               std::map<GroupKey, uint32_t>& groupIndex, std::vector<GroupKey>& groupKeys,
                               int64_t& kernels, int64_t& oversized)
{
    const EventTable& t = rank.events;
    std::vector<Unit> units;
    std::unordered_map<EventIndex, uint32_t> unitOfOp;
    for (size_t row = 0; row < t.size(); ++row) {
        const auto k = static_cast<EventIndex>(row);
        if (t.kind[k] != EventKind::Kernel || t.stream[k] < 0)
            continue;
        const StringId kernelName = t.name[k];
        uint8_t& cached = nameIsCollective[kernelName.value];
        if (cached == 2)
            cached = isCollectiveKernelName(run.str(kernelName)) ? 1 : 0;
        const CollectiveArgs* own = t.collectiveArgs.empty() ? nullptr : findSparse(t.collectiveArgs, k);
        if (!cached && !own)
            continue;
        ++kernels;
        Merged m;
        if (own)
            m.fillFrom(*own);
        // The CPU side: the op enclosing the launch that carries collective args, and its nccl:* annotation.
        EventIndex op = kNoEvent;
        std::string_view annotation;
        EventIndex p = t.link[k];
        for (int depth = 0; p != kNoEvent && depth < kMaxParentWalk; ++depth, p = t.parent[p]) {
            if (t.stream[p] >= 0 && !isHostKind(t.kind[p]))
                break;
            if (const CollectiveArgs* a = findSparse(t.collectiveArgs, p)) {
                m.fillFrom(*a);
                op = p;
                break;
            }
            const std::string_view n = run.str(t.name[p]);
            if (annotation.empty() && n.starts_with("nccl:")) {
                annotation = n.substr(5);
                op = p;
            }
        }
        const GroupKey key{m.pgName.value, m.pgRanks.value};
        auto [groupIt, added] = groupIndex.try_emplace(key, uint32_t(groupKeys.size()));
        if (added)
            groupKeys.push_back(key);

        const int64_t endNs = t.endNs(k);
        if (op != kNoEvent) {
            auto it = unitOfOp.find(op);
            if (it != unitOfOp.end() && units[it->second].group == groupIt->second) {
                Unit& u = units[it->second];
                ++u.kernels;
                u.endNs = std::max(u.endNs, endNs);
                continue;
            }
        }
        Unit u;
        u.group = groupIt->second;
        u.seq = m.seq;
        u.firstKernel = k;
        u.kernels = 1;
        // The step that launched it (as step slices count GPU work), else the one it ran in.
        u.step = t.link[k] != kNoEvent && t.step[t.link[k]] >= 0 ? t.step[t.link[k]] : t.step[k];
        u.startNs = t.tsNs[k];
        u.endNs = endNs;
        u.groupSize = m.groupSize;
        u.dtype = m.dtype;
        const int64_t nelems = std::max(m.inNelems, m.outNelems);
        const int size = m.dtype ? dtypeBytes(run.str(m.dtype)) : -1;
        if (nelems >= 0 && size > 0) {
            if (nelems <= std::numeric_limits<int64_t>::max() / size)
                u.bytes = nelems * size;
            else
                ++oversized;  // a crafted size: unknown rather than overflowed
        }
        if (m.name)
            u.name = std::string(run.str(m.name));
        else if (!annotation.empty())
            u.name = std::string(annotation);
        else
            u.name = nameFromKernel(run.str(kernelName));
        if (op != kNoEvent)
            unitOfOp.emplace(op, uint32_t(units.size()));
        units.push_back(std::move(u));
    }
    return units;
}

} // namespace kscope::collective_detail
