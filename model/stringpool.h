#pragma once

#include "ids.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kscope {

// Interns strings; ids are dense (1..size()) and views stay valid for the pool's lifetime.
class StringPool {
public:
    StringPool();
    StringPool(const StringPool&) = delete;
    StringPool& operator=(const StringPool&) = delete;
    StringPool(StringPool&&) noexcept;
    StringPool& operator=(StringPool&&) noexcept;
    ~StringPool();

    // A copy with the same ids (strings interned again in id order).
    StringPool clone() const;

    StringId intern(std::string_view text);
    // Returns the id of text if it was interned, else a null id.
    StringId find(std::string_view text) const;
    std::string_view view(StringId id) const { return m_views[id.value]; }
    // Number of strings including the null entry at 0.
    size_t size() const { return m_views.size(); }
    size_t residentBytes() const;

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept;
    };
    std::string_view store(std::string_view text);

    std::vector<std::unique_ptr<char[]>> m_blocks;
    size_t m_blockUsed = 0;
    size_t m_blockSize = 0;
    size_t m_storedBytes = 0;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, uint32_t, Hash, std::equal_to<>> m_index;
};

} // namespace kscope
