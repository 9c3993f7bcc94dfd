#include "rankset.h"

#include <algorithm>
#include <charconv>
#include <climits>

namespace kscope {

RankSet::RankSet(std::initializer_list<int> ranks)
{
    for (int r : ranks)
        insert(r);
}

void RankSet::insert(int first, int last)
{
    if (last < first)
        return;
    // Merge with every range it overlaps or touches (64-bit sums: INT_MAX + 1 must not wrap).
    auto it = std::lower_bound(m_ranges.begin(), m_ranges.end(), first,
                               [](const Range& r, int value) { return int64_t{r.last} + 1 < value; });
    Range merged{first, last};
    auto end = it;
    while (end != m_ranges.end() && int64_t{end->first} <= int64_t{last} + 1) {
        merged.first = std::min(merged.first, end->first);
        merged.last = std::max(merged.last, end->last);
        ++end;
    }
    it = m_ranges.erase(it, end);
    m_ranges.insert(it, merged);
}

bool RankSet::contains(int rank) const
{
    auto it = std::lower_bound(m_ranges.begin(), m_ranges.end(), rank, [](const Range& r, int value) { return r.last < value; });
    return it != m_ranges.end() && it->first <= rank;
}

int64_t RankSet::count() const
{
    int64_t n = 0;
    for (const Range& r : m_ranges)
        n += int64_t{r.last} - r.first + 1;
    return n;
}

RankSet RankSet::minus(const RankSet& other) const
{
    RankSet out;
    for (Range r : m_ranges) {
        int64_t from = r.first;
        for (const Range& o : other.m_ranges) {
            if (o.last < from || o.first > r.last)
                continue;
            if (o.first > from)
                out.m_ranges.push_back({static_cast<int>(from), o.first - 1});
            from = int64_t{o.last} + 1;
        }
        if (from <= r.last)
            out.m_ranges.push_back({static_cast<int>(from), r.last});
    }
    return out;
}

std::string RankSet::toString(size_t maxRanges) const
{
    std::string text;
    size_t shown = 0;
    for (const Range& r : m_ranges) {
        if (maxRanges > 0 && shown == maxRanges) {
            RankSet rest;
            rest.m_ranges.assign(m_ranges.begin() + static_cast<std::ptrdiff_t>(shown), m_ranges.end());
            text += ", ... (" + std::to_string(rest.count()) + " more)";
            break;
        }
        text += (text.empty() ? "" : ", ") + std::to_string(r.first);
        if (r.last != r.first)
            text += "-" + std::to_string(r.last);
        ++shown;
    }
    return text;
}

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool parseRank(std::string_view s, int& value)
{
    s = trimmed(s);
    if (s.empty())
        return false;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && ptr == s.data() + s.size() && value >= 0;
}

} // namespace

std::optional<RankSet> RankSet::parse(std::string_view text, std::string* error)
{
    auto fail = [error](std::string why) -> std::optional<RankSet> {
        if (error)
            *error = std::move(why);
        return std::nullopt;
    };
    RankSet set;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string_view item = trimmed(text.substr(pos, comma - pos));
        pos = comma + 1;
        if (item.empty())
            return fail("expects ranks like 0,2-5; got an empty item in '" + std::string(text) + "'");
        const size_t dash = item.find('-', 1);
        int first = 0, last = 0;
        if (!parseRank(item.substr(0, dash), first)
            || (dash != std::string_view::npos && !parseRank(item.substr(dash + 1), last)))
            return fail("expects ranks like 0,2-5 (whole numbers from 0 to " + std::to_string(INT_MAX) + "); got '"
                        + std::string(item) + "'");
        if (dash == std::string_view::npos)
            last = first;
        if (last < first)
            return fail("the range '" + std::string(item) + "' ends before it starts");
        set.insert(first, last);
    }
    return set;
}

} // namespace kscope
