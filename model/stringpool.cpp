#include "stringpool.h"

#include <algorithm>
#include <cstring>

namespace kscope {

namespace {
constexpr size_t kBlockSize = 256 * 1024;
}

uint64_t StringPool::hashOf(std::string_view s) noexcept
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
    h ^= h >> 32;
    return h * 0x9E3779B97F4A7C15ull;  // the table takes the top bits: spread them
}

size_t StringPool::probe(const Storage& st, std::string_view text, uint64_t hash) const
{
    const size_t mask = st.table.size() - 1;
    const auto tag = static_cast<uint32_t>(hash);
    size_t at = static_cast<size_t>(hash >> (64 - st.tableBits));
    while (true) {
        const Slot& slot = st.table[at];
        if (slot.id == 0)
            return at;
        if (slot.hashTag == tag) {
            const std::string_view stored = st.views[slot.id];
            // The empty string is stored as a null view: memcmp must not see its pointer.
            if (stored.size() == text.size() && (text.empty() || std::memcmp(stored.data(), text.data(), text.size()) == 0))
                return at;
        }
        at = (at + 1) & mask;
    }
}

void StringPool::insertSlot(Storage& st, uint32_t id, uint64_t hash)
{
    if (2 * (st.indexed + 1) > st.table.size()) {
        std::vector<Slot> old = std::move(st.table);
        st.tableBits = std::max(st.tableBits + 1, 10);
        st.table.assign(size_t{1} << st.tableBits, Slot{});
        const size_t mask = st.table.size() - 1;
        for (const Slot& slot : old) {
            if (slot.id == 0)
                continue;
            size_t at = static_cast<size_t>(hashOf(st.views[slot.id]) >> (64 - st.tableBits));
            while (st.table[at].id != 0)
                at = (at + 1) & mask;
            st.table[at] = slot;
        }
    }
    st.table[probe(st, st.views[id], hash)] = {static_cast<uint32_t>(hash), id};
    ++st.indexed;
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
    const uint64_t hash = hashOf(text);
    if (!m_storage->table.empty()) {
        const Slot& slot = m_storage->table[probe(*m_storage, text, hash)];
        if (slot.id != 0)
            return StringId{slot.id};
    }
    if (m_storage.use_count() > 1)
        *this = clone();  // shared: write to a copy of its own
    std::string_view stored = store(text);
    const auto id = static_cast<uint32_t>(m_storage->views.size());
    m_storage->views.push_back(stored);
    insertSlot(*m_storage, id, hash);
    return StringId{id};
}

StringPool StringPool::clone() const
{
    StringPool copy;
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
    if (m_storage->table.empty())
        return {};
    return StringId{m_storage->table[probe(*m_storage, text, hashOf(text))].id};
}

size_t StringPool::residentBytes() const
{
    const Storage& st = *m_storage;
    return st.storedBytes + st.views.capacity() * sizeof(std::string_view)
        + st.table.capacity() * sizeof(Slot);
}

} // namespace kscope
