#include "kernelnames.h"

#include "kerneltype.h"

#include <algorithm>
#include <cctype>
#include <map>

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
    std::vector<std::string> shortNames;
    shortNames.reserve(fullNames.size());
    std::map<std::string, std::vector<std::string_view>> fullByShort;  // distinct full names per short name
    for (std::string_view full : fullNames) {
        shortNames.push_back(tidied(shortenKernelName(full)));
        auto& group = fullByShort[shortNames.back()];
        if (std::find(group.begin(), group.end(), full) == group.end())
            group.push_back(full);
    }
    for (size_t i = 0; i < fullNames.size(); ++i) {
        const auto& group = fullByShort[shortNames[i]];
        if (group.size() < 2)
            continue;
        std::vector<std::string_view> others;
        for (std::string_view o : group)
            if (o != fullNames[i])
                others.push_back(o);
        shortNames[i] += " [" + hintFor(fullNames[i], others) + "]";
    }
    return shortNames;
}

} // namespace kscope
