#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

// A set of rank numbers kept as sorted, disjoint, non-adjacent ranges: "--ranks 0-2000000000"
// is one range, never two billion numbers, and is checked against a run without expanding it.
class RankSet {
public:
    struct Range {
        int first = 0;
        int last = 0;
        bool operator==(const Range&) const = default;
    };

    RankSet() = default;
    RankSet(std::initializer_list<int> ranks);
    template <typename Ints>
    static RankSet of(const Ints& ranks)
    {
        RankSet set;
        for (int r : ranks)
            set.insert(r);
        return set;
    }
    // "0,2-5" (whitespace around items allowed); nullopt with *error set on a syntax error.
    static std::optional<RankSet> parse(std::string_view text, std::string* error = nullptr);

    void insert(int first, int last);
    void insert(int rank) { insert(rank, rank); }
    bool contains(int rank) const;
    bool empty() const { return m_ranges.empty(); }
    int64_t count() const;
    const std::vector<Range>& ranges() const { return m_ranges; }
    RankSet minus(const RankSet& other) const;
    // "0-3, 9"; with maxRanges > 0 at most that many ranges, then ", ..." and how many more ranks.
    std::string toString(size_t maxRanges = 0) const;

    bool operator==(const RankSet&) const = default;

private:
    std::vector<Range> m_ranges;
};

} // namespace kscope
