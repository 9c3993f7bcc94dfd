#include "intervals.h"

#include <algorithm>

namespace kscope {

int64_t totalLength(std::span<const Interval> groups)
{
    int64_t sum = 0;
    for (const Interval& g : groups)
        sum += g.length();
    return sum;
}

void sweepUnions(std::span<const std::span<const Interval>> sets,
                 const std::function<void(int64_t running, int64_t from, int64_t to)>& stretch)
{
    struct Edge {
        int64_t time;
        int64_t delta;
    };
    std::vector<Edge> edges;
    size_t count = 0;
    for (const auto& set : sets)
        count += set.size() * 2;
    edges.reserve(count);
    for (size_t k = 0; k < sets.size(); ++k) {
        const int64_t weight = int64_t{1} << k;
        for (const Interval& g : sets[k]) {
            edges.push_back({g.start, weight});
            edges.push_back({g.end, -weight});
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.time < b.time; });
    // The state after every edge at one instant is what holds until the next instant, whatever
    // order the edges of that instant were applied in.
    int64_t running = 0;
    for (size_t i = 0; i < edges.size();) {
        const int64_t time = edges[i].time;
        while (i < edges.size() && edges[i].time == time)
            running += edges[i++].delta;
        if (i < edges.size() && running != 0)
            stretch(running, time, edges[i].time);
    }
}

int64_t intersectionLength(std::span<const Interval> a, std::span<const Interval> b)
{
    const std::span<const Interval> sets[] = {a, b};
    int64_t overlap = 0;
    sweepUnions(sets, [&](int64_t running, int64_t from, int64_t to) {
        if (running == 3)
            overlap += to - from;
    });
    return overlap;
}

} // namespace kscope
