#pragma once

// Byte-level helpers for the streaming splitter: find where a JSON value ends without parsing it.
// The loader hands whole events to simdjson; this only has to respect strings and nesting.

#include <cstddef>
#include <string_view>

namespace kscope::jsonscan {

inline constexpr size_t kIncomplete = static_cast<size_t>(-1);
inline constexpr size_t kMalformed = static_cast<size_t>(-2);

inline bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Index just past the closing quote of the string whose opening quote is at start.
size_t stringEnd(const char* data, size_t start, size_t size);
// Index just past the JSON value starting at start (no leading whitespace), kIncomplete when the
// buffer ends first, kMalformed when the bytes cannot start or close a value.
size_t valueEnd(const char* data, size_t start, size_t size);

} // namespace kscope::jsonscan
