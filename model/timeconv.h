#pragma once

#include <cstdint>
#include <string_view>

namespace kscope {

// Kineto "ts"/"dur" number token to exact integer nanoseconds. False if not a number.
bool microsToNanos(std::string_view token, int64_t& nanos);

// A number token with a fraction or an exponent (pandas reads its column as float64). A plain
// loop: string_view::find_first_of(".eE") calls memchr once per byte of the token.
inline bool hasFractionOrExponent(std::string_view token)
{
    for (const char c : token)
        if (c == '.' || c == 'e' || c == 'E')
            return true;
    return false;
}

} // namespace kscope
