#include "analysis/core/kernelnames.h"

#include "analysis/core/kerneltype.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace kscope {

namespace {

constexpr size_t kMaxHint = 28;

std::string tidied(std::string name)
{
    for (size_t at = name.find("::::"); at != std::string::npos; at = name.find("::::", at))
        name.erase(at, 2);
    return name;
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
            // NCCL's variant lives at the end of one long word ("..._RING_LL"): keep its tail.
            std::string hint(w.size() > kMaxHint ? w.substr(w.size() - kMaxHint) : w);
            return w.size() > kMaxHint ? "…" + hint : hint;
        }
    }
    size_t common = 0;
    for (std::string_view o : others) {
        size_t n = 0;
        while (n < name.size() && n < o.size() && name[n] == o[n])
            ++n;
        common = std::max(common, n);
    }
    std::string_view tail = name.substr(std::min(common, name.size()));
    if (tail.size() > kMaxHint)
        tail = tail.substr(0, kMaxHint);
    return tail.empty() ? std::string("#") : std::string(tail);
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
    for (size_t d = 0; d < distinct.size(); ++d) {
        shortOfDistinct.push_back(tidied(shortenKernelName(distinct[d])));
        byShortName[shortOfDistinct.back()].push_back(d);
    }
    for (const auto& [shortName, group] : byShortName) {
        if (group.size() < 2)
            continue;
        for (size_t d : group) {
            std::vector<std::string_view> others;
            for (size_t o : group)
                if (o != d)
                    others.push_back(distinct[o]);
            shortOfDistinct[d] += " [" + hintFor(distinct[d], others) + "]";
        }
    }
    std::vector<std::string> shortNames;
    shortNames.reserve(fullNames.size());
    for (size_t d : rowToDistinct)
        shortNames.push_back(shortOfDistinct[d]);
    return shortNames;
}

} // namespace kscope
