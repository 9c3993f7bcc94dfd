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

StringPool::StringPool() : m_storage(std::make_shared<Storage>())
{
    m_storage->views.emplace_back();
}

StringPool::StringPool(StringPool&&) noexcept = default;
StringPool& StringPool::operator=(StringPool&&) noexcept = default;
StringPool::~StringPool() = default;

std::string_view StringPool::store(std::string_view text)
{
    if (text.empty())
        return {};
    Storage& st = *m_storage;
    if (text.size() > kBlockSize / 4) {
        auto block = std::unique_ptr<char[]>(new char[text.size()]);
        std::memcpy(block.get(), text.data(), text.size());
        std::string_view stored(block.get(), text.size());
        // Keep the current small block last so it keeps filling.
        st.blocks.insert(st.blocks.empty() ? st.blocks.end() : st.blocks.end() - 1, std::move(block));
        st.storedBytes += text.size();
        return stored;
    }
    if (st.blocks.empty() || st.blockUsed + text.size() > st.blockSize) {
        st.blocks.push_back(std::unique_ptr<char[]>(new char[kBlockSize]));  // not zero-filled
        st.blockSize = kBlockSize;
        st.blockUsed = 0;
        st.storedBytes += kBlockSize;
    }
    char* dest = st.blocks.back().get() + st.blockUsed;
    std::memcpy(dest, text.data(), text.size());
    st.blockUsed += text.size();
    return {dest, text.size()};
}

StringId StringPool::intern(std::string_view text)
{
    if (auto it = m_storage->index.find(text); it != m_storage->index.end())
        return StringId{it->second};
    if (m_storage.use_count() > 1)
        *this = clone();  // shared: write to a copy of its own
    std::string_view stored = store(text);
    const auto id = static_cast<uint32_t>(m_storage->views.size());
    m_storage->views.push_back(stored);
    m_storage->index.emplace(stored, id);
    return StringId{id};
}

StringPool StringPool::clone() const
{
    StringPool copy;
    copy.m_storage->index.reserve(size());
    for (size_t id = 1; id < size(); ++id)
        copy.intern(m_storage->views[id]);
    return copy;
}

StringPool StringPool::share() const
{
    StringPool shared;
    shared.m_storage = m_storage;
    return shared;
}

StringId StringPool::find(std::string_view text) const
{
    if (auto it = m_storage->index.find(text); it != m_storage->index.end())
        return StringId{it->second};
    return {};
}

size_t StringPool::residentBytes() const
{
    const Storage& st = *m_storage;
    return st.storedBytes + st.views.capacity() * sizeof(std::string_view)
        + st.index.size() * (sizeof(std::string_view) + sizeof(uint32_t) + 2 * sizeof(void*))
        + st.index.bucket_count() * sizeof(void*);
}

} // namespace kscope
