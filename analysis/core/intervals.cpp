#include "analysis/core/intervals.h"

#include <algorithm>

namespace kscope {

int64_t totalLength(std::span<const Interval> groups)
{
    int64_t sum = 0;
    for (const Interval& g : groups)
        sum += g.length();
    return sum;
}

namespace {

struct Edge {
    int64_t time;
    int64_t delta;
};

// Groups from IntervalUnion are disjoint and in order; only negative-length groups (HTA's
// rounding) can put an end before its start.
bool wellFormed(std::span<const Interval> groups)
{
    for (const Interval& g : groups)
        if (g.end < g.start)
            return false;
    return true;
}

} // namespace

size_t sweepUnions(std::span<const std::span<const Interval>> sets,
                 const std::function<void(int64_t running, int64_t from, int64_t to)>& stretch)
{
    std::vector<Edge> edges, merged, next;
    bool ordered = true;
    for (size_t k = 0; k < sets.size(); ++k) {
        ordered = ordered && wellFormed(sets[k]);
        const int64_t weight = int64_t{1} << k;
        next.clear();
        next.reserve(sets[k].size() * 2);
        for (const Interval& g : sets[k]) {
            next.push_back({g.start, weight});
            next.push_back({g.end, -weight});
        }
        // Well-formed unions give edges already in time order: merge instead of sorting.
        merged.resize(edges.size() + next.size());
        auto byTime = [](const Edge& a, const Edge& b) { return a.time < b.time; };
        if (ordered)
            std::merge(edges.begin(), edges.end(), next.begin(), next.end(), merged.begin(), byTime);
        else
            std::copy(next.begin(), next.end(), std::copy(edges.begin(), edges.end(), merged.begin()));
        edges.swap(merged);
    }
    if (!ordered)
        std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.time < b.time; });
    // The state after every edge at one instant is what holds until the next instant, whatever
    // order the edges of that instant were applied in.
    int64_t running = 0;
    size_t crowdedInstants = 0;
    for (size_t i = 0; i < edges.size();) {
        const int64_t time = edges[i].time;
        const size_t first = i;
        while (i < edges.size() && edges[i].time == time)
            running += edges[i++].delta;
        crowdedInstants += i - first > 1;
        if (i < edges.size() && running != 0)
            stretch(running, time, edges[i].time);
    }
    return crowdedInstants;
}

int64_t intersectionLength(std::span<const Interval> a, std::span<const Interval> b)
{
    if (wellFormed(a) && wellFormed(b)) {
        // Two sorted disjoint lists: walk them together.
        int64_t overlap = 0;
        size_t i = 0, j = 0;
        while (i < a.size() && j < b.size()) {
            const int64_t from = std::max(a[i].start, b[j].start);
            const int64_t to = std::min(a[i].end, b[j].end);
            if (to > from)
                overlap += to - from;
            if (a[i].end < b[j].end)
                ++i;
            else
                ++j;
        }
        return overlap;
    }
    const std::span<const Interval> sets[] = {a, b};
    int64_t overlap = 0;
    sweepUnions(sets, [&](int64_t running, int64_t from, int64_t to) {
        if (running == 3)
            overlap += to - from;
    });
    return overlap;
}
} // namespace kscope
