#include "analysis/core/kernelnames.h"

#include "analysis/core/kerneltype.h"
#include "analysis/resulttable.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <unordered_map>

namespace kscope {

namespace {

constexpr size_t kMaxHint = 28;
constexpr size_t kLongName = 56;  // longer names are elided in the middle on screen
constexpr size_t kShownEnd = 24;  // what an elided name keeps of each end

std::string tidied(std::string name)
{
    for (size_t at = name.find("::::"); at != std::string::npos; at = name.find("::::", at))
        name.erase(at, 2);
    return name;
}

// A mangled C++ name (HIP's composable-kernel launches, "_ZN7ck_tile6kentry..."), demangled;
// anything else as it is.
std::string demangled(std::string_view name)
{
    if (!name.starts_with("_Z"))
        return std::string(name);
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(std::string(name).c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && text ? std::string(text.get()) : std::string(name);
}

// `text` cut to kMaxHint characters, said with an ellipsis where it was cut.
std::string clipped(std::string_view text, bool fromStart)
{
    if (text.size() <= kMaxHint)
        return std::string(text);
    return fromStart ? std::string(text.substr(0, kMaxHint)) + "…" : "…" + std::string(text.substr(text.size() - kMaxHint));
}

// Where a long word leaves the others that share its start and end: the middle that differs
// (Tensile's "Cijk_Alik_Bljk_..._WG32_8_1" kernels differ deep inside one word).
std::string differingMiddle(std::string_view word, const std::vector<std::string_view>& others)
{
    size_t prefix = 0, suffix = 0;
    for (std::string_view o : others) {
        size_t p = 0;
        while (p < word.size() && p < o.size() && word[p] == o[p])
            ++p;
        size_t q = 0;
        while (q < word.size() - p && q < o.size() && word[word.size() - 1 - q] == o[o.size() - 1 - q])
            ++q;
        prefix = std::max(prefix, p);
        suffix = std::max(suffix, q);
    }
    // Back to the start of the '_'-separated field the difference lies in.
    size_t begin = std::min(prefix, word.size());
    while (begin > 0 && word[begin - 1] != '_')
        --begin;
    size_t end = std::max(begin, word.size() - std::min(suffix, word.size() - begin));
    while (end < word.size() && word[end] != '_')  // ... and on to that field's end
        ++end;
    std::string_view middle = word.substr(begin, std::max<size_t>(end - begin, 1));
    std::string hint = clipped(middle, true);
    return (begin > 0 ? "…" : "") + hint + (begin + middle.size() < word.size() && hint.size() == middle.size() ? "…" : "");
}

// Words of a full name: identifiers and numbers, the pieces a reader tells kernels apart by.
std::vector<std::string_view> words(std::string_view name)
{
    std::vector<std::string_view> out;
    size_t start = std::string_view::npos;
    for (size_t i = 0; i <= name.size(); ++i) {
        const bool word = i < name.size() && (std::isalnum(static_cast<unsigned char>(name[i])) || name[i] == '_');
        if (word && start == std::string_view::npos)
            start = i;
        if (!word && start != std::string_view::npos) {
            out.push_back(name.substr(start, i - start));
            start = std::string_view::npos;
        }
    }
    return out;
}

// What `name` has that none of the others has: its first word missing from every other name,
// else the tail where it leaves the longest shared prefix.
std::string hintFor(std::string_view name, const std::vector<std::string_view>& others)
{
    for (std::string_view w : words(name)) {
        const bool shared = std::any_of(others.begin(), others.end(), [w](std::string_view o) {
            for (std::string_view ow : words(o))
                if (ow == w)
                    return true;
            return false;
        });
        if (!shared) {
            if (w.size() <= kMaxHint)
                return std::string(w);
            // One long word: the part that differs from the other names' words (NCCL's variant
            // at its end, "..._RING_LL"; Tensile's somewhere inside).
            std::vector<std::string_view> otherWords;
            for (std::string_view o : others)
                for (std::string_view ow : words(o))
                    if (ow.size() > kMaxHint)
                        otherWords.push_back(ow);
            return otherWords.empty() ? clipped(w, false) : differingMiddle(w, otherWords);
        }
    }
    size_t common = 0;
    for (std::string_view o : others) {
        size_t n = 0;
        while (n < name.size() && n < o.size() && name[n] == o[n])
            ++n;
        common = std::max(common, n);
    }
    const std::string_view tail = name.substr(std::min(common, name.size()));
    return tail.empty() ? std::string("#") : clipped(tail, true);
}

} // namespace

std::vector<std::string> distinctShortNames(const std::vector<std::string_view>& fullNames)
{
    // Kernel tables repeat each name once per rank: shorten each distinct name once.
    std::unordered_map<std::string_view, size_t> indexOf;
    std::vector<std::string_view> distinct;
    std::vector<size_t> rowToDistinct;
    rowToDistinct.reserve(fullNames.size());
    for (std::string_view full : fullNames) {
        const auto [it, added] = indexOf.emplace(full, distinct.size());
        if (added)
            distinct.push_back(full);
        rowToDistinct.push_back(it->second);
    }
    std::vector<std::string> shortOfDistinct;
    shortOfDistinct.reserve(distinct.size());
    std::unordered_map<std::string, std::vector<size_t>> byShortName;  // distinct names per short name
    std::vector<std::string> readable;  // demangled where mangled: what hints are taken from
    readable.reserve(distinct.size());
    for (size_t d = 0; d < distinct.size(); ++d) {
        readable.push_back(demangled(distinct[d]));
        shortOfDistinct.push_back(tidied(shortenKernelName(readable.back())));
        byShortName[shortOfDistinct.back()].push_back(d);
    }
    for (const auto& [shortName, group] : byShortName) {
        if (group.size() < 2)
            continue;
        for (size_t d : group) {
            std::vector<std::string_view> others;
            for (size_t o : group)
                if (o != d)
                    others.push_back(readable[o]);
            shortOfDistinct[d] += " [" + hintFor(readable[d], others) + "]";
        }
    }
    // Long names are shown with their middle elided: two that differ only there read the same
    // ("Cijk_Alik_Bljk_B_BS_BH…0_WSGRB0_WS64_WG32_8_1"). Those get the differing part at the end,
    // where the elision keeps it.
    std::unordered_map<std::string, std::vector<size_t>> byEnds;
    for (size_t d = 0; d < distinct.size(); ++d) {
        const std::string& name = shortOfDistinct[d];
        if (name.size() > kLongName && name.back() != ']')
            byEnds[name.substr(0, kShownEnd) + '\n' + name.substr(name.size() - kShownEnd)].push_back(d);
    }
    for (const auto& [ends, group] : byEnds) {
        if (group.size() < 2)
            continue;
        std::vector<std::string> hints;
        for (size_t d : group) {
            std::vector<std::string_view> others;
            for (size_t o : group)
                if (o != d)
                    others.push_back(shortOfDistinct[o]);
            hints.push_back(hintFor(shortOfDistinct[d], others));
        }
        for (size_t k = 0; k < group.size(); ++k)
            shortOfDistinct[group[k]] += " [" + hints[k] + "]";
    }
    std::vector<std::string> shortNames;
    shortNames.reserve(fullNames.size());
    for (size_t d : rowToDistinct)
        shortNames.push_back(shortOfDistinct[d]);
    return shortNames;
}

Table withShortNameColumn(Table table, const std::string& nameColumn)
{
    const auto name = std::find(table.columns.begin(), table.columns.end(), nameColumn);
    if (name == table.columns.end() || std::find(table.columns.begin(), table.columns.end(), "short_name") != table.columns.end())
        return table;
    const size_t at = static_cast<size_t>(name - table.columns.begin());
    std::vector<std::string_view> names;
    names.reserve(table.rows.size());
    for (const std::vector<Cell>& row : table.rows) {
        const auto* text = at < row.size() ? std::get_if<std::string>(&row[at]) : nullptr;
        names.push_back(text ? std::string_view(*text) : std::string_view());
    }
    const std::vector<std::string> shortNames = distinctShortNames(names);
    table.columns.insert(table.columns.begin() + static_cast<std::ptrdiff_t>(at) + 1, TableColumn("short_name"));
    for (size_t r = 0; r < table.rows.size(); ++r)
        if (at < table.rows[r].size())
            table.rows[r].insert(table.rows[r].begin() + static_cast<std::ptrdiff_t>(at) + 1, Cell{shortNames[r]});
    return table;
}

} // namespace kscope
