#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace kscope {

// A typed index; 0 means "none" so a default-constructed id is always null.
template <typename Tag>
struct Id {
    uint32_t value = 0;
    explicit operator bool() const { return value != 0; }
    auto operator<=>(const Id&) const = default;
};

using StringId = Id<struct StringTag>;

// Row index into a rank's EventTable; -1 means "no event".
using EventIndex = int32_t;
inline constexpr EventIndex kNoEvent = -1;

} // namespace kscope

template <typename Tag>
struct std::hash<kscope::Id<Tag>> {
    size_t operator()(kscope::Id<Tag> id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};
