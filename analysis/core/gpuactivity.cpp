#include "analysis/core/gpuactivity.h"

namespace kscope {

RankGpuUnions gpuUnions(const RankTrace& rank, KernelTypeCache& types, bool htaCompat)
{
    const EventTable& events = rank.events;
    IntervalUnion all, computation, communication, memory;
    // Events are sorted by start, so each union is built in one pass without sorting.
    for (const EventIndex i : events.gpuRows) {
        if (!isGpuActivityRow(events, i, htaCompat))
            continue;
        const int64_t start = events.tsNs[i];
        const int64_t end = start + events.durNs[i];
        all.add(start, end);
        switch (types.typeOf(events.name[i])) {
        case KernelType::Computation:
            computation.add(start, end);
            break;
        case KernelType::Communication:
            communication.add(start, end);
            break;
        case KernelType::Memory:
            memory.add(start, end);
            break;
        case KernelType::Other:
            break;
        }
    }
    RankGpuUnions unions;
    unions.all = all.groups();
    unions.computation = computation.groups();
    unions.communication = communication.groups();
    unions.memory = memory.groups();
    return unions;
}

std::string rankLabel(int rank)
{
    return "rank " + std::to_string(rank);
}

} // namespace kscope
