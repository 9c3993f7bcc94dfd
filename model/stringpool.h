#pragma once

#include "ids.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

// Interns strings; ids are dense (1..size()) and views stay valid for the pool's lifetime.
// share() gives a second pool over the same storage (a step slice's, at no copy); the first
// intern() of a new string into a shared pool copies the storage first (copy on write), so a
// pool read by other threads is never written.
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
    // The same strings and ids over the same storage, without copying.
    StringPool share() const;

    StringId intern(std::string_view text);
    // Returns the id of text if it was interned, else a null id.
    StringId find(std::string_view text) const;
    std::string_view view(StringId id) const { return m_storage->views[id.value]; }
    // Number of strings including the null entry at 0.
    size_t size() const { return m_storage->views.size(); }
    // What this pool holds; a shared storage counts in each pool that shares it.
    size_t residentBytes() const;
    bool sharesStorageWith(const StringPool& other) const { return m_storage == other.m_storage; }

private:
    static uint64_t hashOf(std::string_view s) noexcept;
    // Open addressing over a power-of-two table, at most half full: each slot keeps 32 bits of
    // its string's hash beside the id, so a probe compares strings only when those agree (the
    // loader interns a few strings per event; std::unordered_map spent a division and a string
    // compare per node walked).
    struct Slot {
        uint32_t hashTag = 0;
        uint32_t id = 0;  // 0: empty (id 0 is the null string, never indexed)
    };
    struct Storage {
        std::vector<std::unique_ptr<char[]>> blocks;
        size_t blockUsed = 0;
        size_t blockSize = 0;
        size_t storedBytes = 0;
        std::vector<std::string_view> views;
        std::vector<Slot> table;
        int tableBits = 0;
        size_t indexed = 0;
    };
    // The slot holding text, or the empty slot where it would go.
    size_t probe(const Storage& st, std::string_view text, uint64_t hash) const;
    void insertSlot(Storage& st, uint32_t id, uint64_t hash);
    std::string_view store(std::string_view text);

    std::shared_ptr<Storage> m_storage;
};

} // namespace kscope
