#pragma once

// A column of Wide values stored in the Narrow type that almost all of them fit: durations in
// 32 bits of nanoseconds (4.29 s), correlation ids under 2^31, stream and step numbers under
// 2^15. The rare value that does not fit (a multi-second ProfilerStep, a crafted id) is kept
// apart, sorted by row, behind a sentinel, so a read stays one load and one compare and every
// value survives exactly. Half the bytes of the wide column is half the memory traffic of every
// scan over it, and what brings an event under the 48 bytes the product budgets for it.

#include "column.h"
#include "ids.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace kscope {

template <typename Wide, typename Narrow>
class NarrowColumn {
    static_assert(std::numeric_limits<Wide>::is_integer && std::numeric_limits<Narrow>::is_integer);
    static_assert(sizeof(Narrow) < sizeof(Wide));

public:
    using value_type = Wide;
    static constexpr Narrow kEscape = std::numeric_limits<Narrow>::max();

    static constexpr bool fits(Wide value)
    {
        return value >= static_cast<Wide>(std::numeric_limits<Narrow>::min()) && value < static_cast<Wide>(kEscape);
    }

    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Wide;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Wide;

        const_iterator() = default;
        const_iterator(const NarrowColumn* column, size_t row) : m_column(column), m_row(row) {}
        Wide operator*() const { return (*m_column)[m_row]; }
        Wide operator[](difference_type n) const { return (*m_column)[m_row + n]; }
        const_iterator& operator++() { ++m_row; return *this; }
        const_iterator operator++(int) { const_iterator old = *this; ++m_row; return old; }
        const_iterator& operator--() { --m_row; return *this; }
        const_iterator operator--(int) { const_iterator old = *this; --m_row; return old; }
        const_iterator& operator+=(difference_type n) { m_row += n; return *this; }
        const_iterator& operator-=(difference_type n) { m_row -= n; return *this; }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const_iterator a, const_iterator b)
        {
            return static_cast<difference_type>(a.m_row) - static_cast<difference_type>(b.m_row);
        }
        friend bool operator==(const_iterator a, const_iterator b) { return a.m_row == b.m_row; }
        friend auto operator<=>(const_iterator a, const_iterator b) { return a.m_row <=> b.m_row; }

    private:
        const NarrowColumn* m_column = nullptr;
        size_t m_row = 0;
    };

    size_t size() const { return m_values.size(); }
    bool empty() const { return m_values.empty(); }
    Wide operator[](size_t row) const
    {
        const Narrow value = m_values[row];
        if (value != kEscape) [[likely]]
            return static_cast<Wide>(value);
        return escaped(row);
    }
    Wide front() const { return (*this)[0]; }
    Wide back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size()); }

    void push_back(Wide value)
    {
        if (fits(value)) [[likely]] {
            m_values.push_back(static_cast<Narrow>(value));
        } else {
            m_escapes.emplace_back(m_values.size(), value);
            m_values.push_back(kEscape);
        }
    }
    // Rare writes after loading (a step assigned to a row): an escape found or placed by bisection.
    void set(size_t row, Wide value)
    {
        const bool wasEscaped = m_values[row] == kEscape;
        if (fits(value) && !wasEscaped) [[likely]] {
            m_values[row] = static_cast<Narrow>(value);
            return;
        }
        auto it = escapeAt(row);
        if (fits(value)) {
            m_values[row] = static_cast<Narrow>(value);
            if (wasEscaped)
                m_escapes.erase(it);
        } else if (wasEscaped) {
            it->second = value;
        } else {
            m_values[row] = kEscape;
            m_escapes.insert(it, {row, value});
        }
    }
    void assign(size_t count, Wide value)
    {
        clear();
        if (fits(value)) {
            m_values.assign(count, static_cast<Narrow>(value));
            return;
        }
        reserve(count);
        for (size_t i = 0; i < count; ++i)
            push_back(value);
    }
    void reserve(size_t count) { m_values.reserve(count); }
    void clear()
    {
        m_values.clear();
        m_escapes.clear();
    }
    void shrink_to_fit()
    {
        m_values.shrink_to_fit();
        m_escapes.shrink_to_fit();
    }
    void swap(NarrowColumn& other) noexcept
    {
        m_values.swap(other.m_values);
        m_escapes.swap(other.m_escapes);
    }
    size_t escapedCount() const { return m_escapes.size(); }
    size_t residentBytes() const
    {
        return m_values.capacity() * sizeof(Narrow) + m_escapes.capacity() * sizeof(std::pair<size_t, Wide>);
    }
    // One representation per content: a value is escaped exactly when it does not fit.
    friend bool operator==(const NarrowColumn& a, const NarrowColumn& b)
    {
        return a.m_values == b.m_values && a.m_escapes == b.m_escapes;
    }

private:
    using Escapes = std::vector<std::pair<size_t, Wide>>;

    typename Escapes::iterator escapeAt(size_t row)
    {
        return std::lower_bound(m_escapes.begin(), m_escapes.end(), row,
                                [](const std::pair<size_t, Wide>& e, size_t r) { return e.first < r; });
    }
    [[gnu::noinline]] Wide escaped(size_t row) const
    {
        auto it = std::lower_bound(m_escapes.begin(), m_escapes.end(), row,
                                   [](const std::pair<size_t, Wide>& e, size_t r) { return e.first < r; });
        return it->second;
    }

    Column<Narrow> m_values;
    Escapes m_escapes;
};

// A column of string ids drawn from few distinct values (an event's category: about fifteen per
// rank) as one-byte codes into the column's own dictionary. Past 255 distinct values the rest
// are escaped like NarrowColumn's, so any trace loads exactly, only slower.
class DictionaryColumn {
public:
    using value_type = StringId;
    using Code = uint8_t;
    static constexpr size_t kMaxCodes = std::numeric_limits<Code>::max();  // the last is the escape

    size_t size() const { return m_codes.size(); }
    bool empty() const { return m_codes.empty(); }
    StringId operator[](size_t row) const
    {
        const Code code = m_codes[row];
        if (code < m_dictionary.size()) [[likely]]
            return m_dictionary[code];
        return StringId{m_overflow.find(row)->second};
    }

    void push_back(StringId id)
    {
        if (id == m_lastId && m_lastCode != kNone) [[likely]] {
            m_codes.push_back(m_lastCode);
            return;
        }
        const auto found = std::find(m_dictionary.begin(), m_dictionary.end(), id);
        if (found != m_dictionary.end()) {
            remember(id, static_cast<Code>(found - m_dictionary.begin()));
        } else if (m_dictionary.size() < kMaxCodes) {
            m_dictionary.push_back(id);
            remember(id, static_cast<Code>(m_dictionary.size() - 1));
        } else {
            m_overflow.insert_or_assign(m_codes.size(), id.value);
            m_codes.push_back(static_cast<Code>(kMaxCodes));
            return;
        }
        m_codes.push_back(m_lastCode);
    }
    // Renames every value (a file's string ids into the run's pool): one call per distinct id.
    // `rename` must keep distinct ids distinct.
    template <typename Rename>
    void renameValues(Rename&& rename)
    {
        for (StringId& id : m_dictionary)
            rename(id);
        for (auto& [row, value] : m_overflow) {
            StringId id{value};
            rename(id);
            value = id.value;
        }
        m_lastCode = kNone;
    }
    void reserve(size_t count) { m_codes.reserve(count); }
    void clear()
    {
        m_codes.clear();
        m_dictionary.clear();
        m_overflow.clear();
        m_lastId = StringId{};
        m_lastCode = kNone;
    }
    void shrink_to_fit() { m_codes.shrink_to_fit(); }
    void swap(DictionaryColumn& other) noexcept
    {
        m_codes.swap(other.m_codes);
        m_dictionary.swap(other.m_dictionary);
        m_overflow.swap(other.m_overflow);
        std::swap(m_lastId, other.m_lastId);
        std::swap(m_lastCode, other.m_lastCode);
    }
    size_t residentBytes() const
    {
        return m_codes.capacity() * sizeof(Code) + m_dictionary.capacity() * sizeof(StringId)
            + m_overflow.size() * 2 * sizeof(size_t);
    }
    // Equal values, whatever codes each column happened to assign.
    friend bool operator==(const DictionaryColumn& a, const DictionaryColumn& b)
    {
        if (a.size() != b.size())
            return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i])
                return false;
        return true;
    }

private:
    static constexpr Code kNone = std::numeric_limits<Code>::max();
    void remember(StringId id, Code code)
    {
        m_lastId = id;
        m_lastCode = code;
    }

    Column<Code> m_codes;
    std::vector<StringId> m_dictionary;
    std::map<size_t, uint32_t> m_overflow;  // row -> id, past kMaxCodes distinct ids
    StringId m_lastId;  // the id pushed last and its code: runs of one category cost no search
    Code m_lastCode = kNone;
};

} // namespace kscope
