#pragma once

#include "model/stringpool.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

// HTA's kernel classes, in the order its rules are tried.
enum class KernelType : uint8_t { Communication, Memory, Computation, Other };

// "COMMUNICATION", "MEMORY", "COMPUTATION", "OTHER": HTA's spelling, used in every output.
const char* toString(KernelType type);

// HTA's get_kernel_type on one name: its regexes (re.match, so anchored at the start, and
// ".*" never crosses a newline) reproduced with prefix and substring tests.
KernelType classifyKernelName(std::string_view name);

// HTA's shorten_name: drops template arguments, argument lists and "->", keeps the last word;
// memory kernels keep their name. "void at::native::foo<float>(int)" -> "at::native::foo".
std::string shortenKernelName(std::string_view name);

// Classifies each distinct name once; analyses ask per event, names repeat millions of times.
class KernelTypeCache {
public:
    explicit KernelTypeCache(const StringPool& strings);

    KernelType typeOf(StringId name)
    {
        uint8_t& slot = m_types[name.value];
        if (slot == kUnknown)
            slot = static_cast<uint8_t>(classifyKernelName(m_strings.view(name)));
        return static_cast<KernelType>(slot);
    }

private:
    static constexpr uint8_t kUnknown = 0xff;
    const StringPool& m_strings;
    std::vector<uint8_t> m_types;
};

} // namespace kscope
