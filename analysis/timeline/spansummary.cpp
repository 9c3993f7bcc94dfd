#include "analysis/timeline/spansummary.h"

#include <algorithm>

namespace kscope {

SpanSummary summarizeSpan(const Run& run, const SpanSummaryOptions& options)
{
    SpanSummary result;
    result.fromNs = options.fromNs;
    result.toNs = options.toNs;
    if (options.toNs <= options.fromNs) {
        result.error = "the span is empty";
        return result;
    }
    const int64_t from = run.minTsNs + options.fromNs, to = run.minTsNs + options.toNs;
    KernelTypeCache types(run.strings);
    std::vector<int32_t> slotOfName(run.strings.size(), -1);
    for (const RankTrace& rank : run.ranks) {
        const EventTable& t = rank.events;
        // Events are by start: those starting at or after the span's end are past it.
        const auto last = std::lower_bound(t.tsNs.begin(), t.tsNs.end(), to);
        for (size_t i = 0; i < size_t(last - t.tsNs.begin()); ++i) {
            const EventKind kind = t.kind[i];
            if ((kind != EventKind::Kernel && kind != EventKind::Memcpy && kind != EventKind::Memset) || t.stream[i] < 0)
                continue;
            const int64_t end = t.endNs(static_cast<EventIndex>(i));
            if (end <= from && !(end == t.tsNs[i] && t.tsNs[i] >= from))
                continue;
            int32_t& slot = slotOfName[t.name[i].value];
            if (slot < 0) {
                slot = int32_t(result.rows.size());
                result.rows.push_back({t.name[i], types.typeOf(t.name[i]), 0, 0, 0});
            }
            SpanSummaryRow& row = result.rows[size_t(slot)];
            ++row.count;
            row.insideNs += std::min(end, to) - std::max(t.tsNs[i], from);
            row.durationNs += t.durNs[i];
            ++result.events;
        }
    }
    std::sort(result.rows.begin(), result.rows.end(), [&run](const SpanSummaryRow& a, const SpanSummaryRow& b) {
        if (a.insideNs != b.insideNs)
            return a.insideNs > b.insideNs;
        return run.str(a.name) < run.str(b.name);
    });
    if (result.rows.empty())
        result.notes.push_back("no kernel, memcpy or memset overlaps the span");
    return result;
}

} // namespace kscope
