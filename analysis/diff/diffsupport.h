#pragma once

// Internal to the trace diff (tracediff.cpp, diffsummary.cpp): sorted-set helpers and a fast
// step-membership test.

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace kscope::diffsupport {

inline std::string joinNumbers(const std::vector<int>& values)
{
    std::string text;
    for (int v : values)
        text += (text.empty() ? "" : ", ") + std::to_string(v);
    return text;
}

// Sorted inputs, sorted outputs.
inline std::vector<int> intersect(const std::vector<int>& a, const std::vector<int>& b)
{
    std::vector<int> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

inline std::vector<int> minus(const std::vector<int>& a, const std::vector<int>& b)
{
    std::vector<int> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

// Membership of a step number: one byte per number of the covered range when that range is
// small (step numbers are dense in practice), else a binary search; no steps at all means every
// event, the whole trace.
class StepSet {
public:
    explicit StepSet(std::vector<int> steps) : m_any(steps.empty()), m_sorted(std::move(steps))
    {
        if (m_any)
            return;
        std::sort(m_sorted.begin(), m_sorted.end());
        m_min = m_sorted.front();
        const int64_t range = static_cast<int64_t>(m_sorted.back()) - m_min + 1;
        if (range > kMaxDenseRange)
            return;
        m_member.assign(static_cast<size_t>(range), 0);
        for (int s : m_sorted)
            m_member[static_cast<size_t>(static_cast<int64_t>(s) - m_min)] = 1;
    }
    bool has(int32_t step) const
    {
        if (m_any)
            return true;
        if (m_member.empty())
            return std::binary_search(m_sorted.begin(), m_sorted.end(), step);
        const int64_t at = static_cast<int64_t>(step) - m_min;
        return at >= 0 && at < static_cast<int64_t>(m_member.size()) && m_member[static_cast<size_t>(at)];
    }

private:
    static constexpr int64_t kMaxDenseRange = 1 << 20;
    bool m_any = true;
    std::vector<int> m_sorted;
    int m_min = 0;
    std::vector<uint8_t> m_member;
};

} // namespace kscope::diffsupport
