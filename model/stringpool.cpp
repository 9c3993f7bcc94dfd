#include "stringpool.h"

#include <cstring>

namespace kscope {

namespace {
constexpr size_t kBlockSize = 256 * 1024;
}

size_t StringPool::Hash::operator()(std::string_view s) const noexcept
{
    // FNV-1a over 8-byte words: names are long (templated kernel names) and hashed per event.
    uint64_t h = 1469598103934665603ull;
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < s.size(); ++i)
        h = (h ^ static_cast<unsigned char>(s[i])) * 1099511628211ull;
    return static_cast<size_t>(h ^ (h >> 32));
}

StringPool::StringPool()
{
    m_views.emplace_back();
}

StringPool::StringPool(StringPool&&) noexcept = default;
StringPool& StringPool::operator=(StringPool&&) noexcept = default;
StringPool::~StringPool() = default;

std::string_view StringPool::store(std::string_view text)
{
    if (text.empty())
        return {};
    if (text.size() > kBlockSize / 4) {
        auto block = std::unique_ptr<char[]>(new char[text.size()]);
        std::memcpy(block.get(), text.data(), text.size());
        std::string_view stored(block.get(), text.size());
        // Keep the current small block last so it keeps filling.
        m_blocks.insert(m_blocks.empty() ? m_blocks.end() : m_blocks.end() - 1, std::move(block));
        m_storedBytes += text.size();
        return stored;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        m_blocks.push_back(std::unique_ptr<char[]>(new char[kBlockSize]));  // not zero-filled
        m_blockSize = kBlockSize;
        m_blockUsed = 0;
        m_storedBytes += kBlockSize;
    }
    char* dest = m_blocks.back().get() + m_blockUsed;
    std::memcpy(dest, text.data(), text.size());
    m_blockUsed += text.size();
    return {dest, text.size()};
}

StringId StringPool::intern(std::string_view text)
{
    if (auto it = m_index.find(text); it != m_index.end())
        return StringId{it->second};
    std::string_view stored = store(text);
    const auto id = static_cast<uint32_t>(m_views.size());
    m_views.push_back(stored);
    m_index.emplace(stored, id);
    return StringId{id};
}

StringPool StringPool::clone() const
{
    StringPool copy;
    copy.m_index.reserve(m_views.size());
    for (size_t id = 1; id < m_views.size(); ++id)
        copy.intern(m_views[id]);
    return copy;
}

StringId StringPool::find(std::string_view text) const
{
    if (auto it = m_index.find(text); it != m_index.end())
        return StringId{it->second};
    return {};
}

size_t StringPool::residentBytes() const
{
    return m_storedBytes + m_views.capacity() * sizeof(std::string_view)
        + m_index.size() * (sizeof(std::string_view) + sizeof(uint32_t) + 2 * sizeof(void*))
        + m_index.bucket_count() * sizeof(void*);
}

} // namespace kscope
