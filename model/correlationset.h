#pragma once

// A set of correlation ids, asked once per event: a bitmap over their range when that is dense
// (Kineto numbers them consecutively), else a flat open-addressing hash table. Built without
// sorting: the loader's trimming and the launch analyses build one per rank.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace kscope {

class CorrelationSet {
public:
    CorrelationSet() = default;
    explicit CorrelationSet(const std::vector<int64_t>& ids)
    {
        if (ids.empty())
            return;
        const auto [low, high] = std::minmax_element(ids.begin(), ids.end());
        // Unsigned: the span of any two int64 values, never an overflow.
        const uint64_t span = static_cast<uint64_t>(*high) - static_cast<uint64_t>(*low);
        if (span < 64 * static_cast<uint64_t>(ids.size()) + 4096) {
            m_low = *low;
            m_bits.assign(static_cast<size_t>(span / 64 + 1), 0);
            for (int64_t id : ids)
                m_bits[offset(id) / 64] |= uint64_t{1} << (offset(id) % 64);
            return;
        }
        size_t capacity = 16;
        while (capacity < ids.size() * 2)
            capacity *= 2;
        m_mask = capacity - 1;
        m_slots.assign(capacity, kEmpty);
        for (int64_t id : ids) {
            if (id == kEmpty) {
                m_hasEmptyKey = true;
                continue;
            }
            size_t at = slotOf(id);
            while (m_slots[at] != kEmpty && m_slots[at] != id)
                at = (at + 1) & m_mask;
            m_slots[at] = id;
        }
    }

    bool contains(int64_t id) const
    {
        if (!m_bits.empty()) {
            if (id < m_low || offset(id) / 64 >= m_bits.size())
                return false;
            return (m_bits[offset(id) / 64] >> (offset(id) % 64)) & 1;
        }
        if (id == kEmpty)
            return m_hasEmptyKey;
        if (m_slots.empty())
            return false;
        for (size_t at = slotOf(id);; at = (at + 1) & m_mask) {
            if (m_slots[at] == id)
                return true;
            if (m_slots[at] == kEmpty)
                return false;
        }
    }

private:
    static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();
    uint64_t offset(int64_t id) const { return static_cast<uint64_t>(id) - static_cast<uint64_t>(m_low); }
    size_t slotOf(int64_t id) const
    {
        return static_cast<size_t>((static_cast<uint64_t>(id) * 0x9E3779B97F4A7C15ull) >> 20) & m_mask;
    }

    int64_t m_low = 0;
    std::vector<uint64_t> m_bits;
    std::vector<int64_t> m_slots;
    size_t m_mask = 0;
    bool m_hasEmptyKey = false;
};

} // namespace kscope
