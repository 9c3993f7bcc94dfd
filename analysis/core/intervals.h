#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace kscope {

struct Interval {
    int64_t start = 0;
    int64_t end = 0;
    int64_t length() const { return end - start; }
};

// Union of intervals fed in ascending start order, merged the way HTA's merge_kernel_intervals
// does: a new group starts only when a start lies strictly after every end seen so far, so
// touching intervals merge. Negative-length intervals (HTA's rounding of sub-µs kernels) are
// kept as HTA keeps them: they can shorten the union.
class IntervalUnion {
public:
    void add(int64_t start, int64_t end)
    {
        if (m_open && start <= m_maxEnd) {
            m_current.end = std::max(m_current.end, end);
        } else {
            close();
            m_current = {start, end};
            m_open = true;
        }
        m_maxEnd = m_maxEndValid ? std::max(m_maxEnd, end) : end;
        m_maxEndValid = true;
    }
    // The merged groups, in start order.
    const std::vector<Interval>& groups()
    {
        close();
        return m_groups;
    }
    void clear()
    {
        m_groups.clear();
        m_open = false;
        m_maxEndValid = false;
    }

private:
    void close()
    {
        if (m_open)
            m_groups.push_back(m_current);
        m_open = false;
    }

    std::vector<Interval> m_groups;
    Interval m_current;
    int64_t m_maxEnd = 0;
    bool m_open = false;
    bool m_maxEndValid = false;
};

// Σ (end - start) over the groups.
int64_t totalLength(std::span<const Interval> groups);

// Sweeps several unions at once: set k weighs 1 << k, and the callback gets each stretch of time
// between consecutive distinct edge times with the running sum of weights (HTA's "running"
// column; a bit mask as long as each union is disjoint and well formed). Returns how many
// instants had more than one edge (where an unstable sort could show zero-length states).
size_t sweepUnions(std::span<const std::span<const Interval>> sets,
                 const std::function<void(int64_t running, int64_t from, int64_t to)>& stretch);

// Length of time covered by both unions (HTA's comm/comp "running == 3" sweep).
int64_t intersectionLength(std::span<const Interval> a, std::span<const Interval> b);

} // namespace kscope
