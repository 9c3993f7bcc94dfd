#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace kscope {

// A typed index; 0 means "none" so a default-constructed id is always null.
template <typename Tag>
struct Id {
    uint32_t value = 0;
    explicit operator bool() const { return value != 0; }
    auto operator<=>(const Id&) const = default;
};

using StringId = Id<struct StringTag>;

// Index into RankTrace::threads, as events, flows and counter samples store it: 16 bits keep the
// event table small, so a trace with more (pid, tid) pairs folds the 65,536th and later into the last.
using ThreadIndex = uint16_t;
inline constexpr size_t kMaxThreads = size_t{std::numeric_limits<ThreadIndex>::max()} + 1;

// Row index into a rank's EventTable; -1 means "no event".
using EventIndex = int32_t;
inline constexpr EventIndex kNoEvent = -1;

// A rank trace's position in Run::ranks: its identity. The rank number a file claims is a label
// (two files may claim one number, and both are loaded); analyses select ranks and the GUI
// selects and names them by this. A step slice keeps every rank at its position.
struct RankIndex {
    uint32_t value = 0;
    auto operator<=>(const RankIndex&) const = default;
};

// One event of a run: which rank trace, which row of its EventTable.
struct EventRef {
    RankIndex rank;
    EventIndex event = kNoEvent;
    bool isNull() const { return event == kNoEvent; }
    auto operator<=>(const EventRef&) const = default;
};

} // namespace kscope

template <typename Tag>
struct std::hash<kscope::Id<Tag>> {
    size_t operator()(kscope::Id<Tag> id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};

template <>
struct std::hash<kscope::RankIndex> {
    size_t operator()(kscope::RankIndex id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};
