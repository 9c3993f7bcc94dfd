#pragma once

#include <cstdint>
#include <string_view>

namespace kscope {

// Kineto "ts"/"dur" number token to exact integer nanoseconds. False if not a number.
bool microsToNanos(std::string_view token, int64_t& nanos);

} // namespace kscope
