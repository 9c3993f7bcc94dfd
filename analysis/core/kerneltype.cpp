#include "analysis/core/kerneltype.h"

namespace kscope {

namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

// Python's ".*X" inside re.match: X somewhere on the first line ('.' does not match '\n').
bool onFirstLine(std::string_view firstLine, std::string_view needle, size_t from = 0)
{
    return firstLine.find(needle, from) != std::string_view::npos;
}

bool isCommunication(std::string_view name, std::string_view firstLine)
{
    // (^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)
    return startsWith(name, "nccl") || startsWith(name, "hip") || startsWith(name, "hccl")
        || onFirstLine(firstLine, "ncclKernel");
}

bool isMemory(std::string_view name)
{
    // (^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)
    return startsWith(name, "Memcpy") || startsWith(name, "hipMemcpy") || startsWith(name, "Memset")
        || startsWith(name, "hipMemset") || startsWith(name, "dma");
}

// The names HTA's inverted compute pattern rejects: everything else is COMPUTATION.
bool isExcludedFromComputation(std::string_view name, std::string_view firstLine)
{
    constexpr std::string_view kPrefixes[] = {
        "nccl",   "Stream Wait Event", "runFunction",       "hip",  "job_exe",
        "packet", "pe_exe",            "cpum_exe_subgraph", "hccl", "collective_subgraph_execution",
    };
    for (std::string_view prefix : kPrefixes)
        if (startsWith(name, prefix))
            return true;
    constexpr std::string_view kAnywhere[] = {"Memcpy", "Memset", "dma", "Sync"};
    for (std::string_view needle : kAnywhere)
        if (onFirstLine(firstLine, needle))
            return true;
    // (cuda.*LaunchKernel): anchored "cuda", then LaunchKernel later on the same line.
    return startsWith(name, "cuda") && onFirstLine(firstLine, "LaunchKernel", 4);
}

} // namespace

const char* toString(KernelType type)
{
    switch (type) {
    case KernelType::Communication:
        return "COMMUNICATION";
    case KernelType::Memory:
        return "MEMORY";
    case KernelType::Computation:
        return "COMPUTATION";
    case KernelType::Other:
        break;
    }
    return "OTHER";
}

KernelType classifyKernelName(std::string_view name)
{
    const std::string_view firstLine = name.substr(0, name.find('\n'));
    if (isCommunication(name, firstLine))
        return KernelType::Communication;
    if (isMemory(name))
        return KernelType::Memory;
    if (!isExcludedFromComputation(name, firstLine))
        return KernelType::Computation;
    return KernelType::Other;
}

KernelTypeCache::KernelTypeCache(const StringPool& strings)
    : m_strings(strings), m_types(strings.size(), kUnknown)
{
}

std::string shortenKernelName(std::string_view name)
{
    // HTA's is_memory_kernel (its memory pattern alone): "hipMemcpy..." is a memory kernel here
    // although classifyKernelName calls it COMMUNICATION (^hip is tried first).
    if (isMemory(name))
        return std::string(name);
    if (name.find('<') == std::string_view::npos && name.find('(') == std::string_view::npos)
        return std::string(name);
    // A stack of kept characters: a closing bracket pops back to its opener (HTA's loop).
    std::string kept;
    kept.reserve(name.size());
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '-' && i + 1 < name.size() && name[i + 1] == '>') {
            ++i;  // "->" is removed before matching
            continue;
        }
        if (c == '>' || c == ')') {
            const char opener = c == '>' ? '<' : '(';
            while (!kept.empty() && kept.back() != opener)
                kept.pop_back();
            if (!kept.empty())
                kept.pop_back();
        } else {
            kept.push_back(c);
        }
    }
    const size_t space = kept.rfind(' ');
    return space == std::string::npos ? kept : kept.substr(space + 1);
}

} // namespace kscope
