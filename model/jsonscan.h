#pragma once

// Byte-level helpers for the streaming splitter: find where a JSON value ends without parsing it.
// The loader hands whole events to simdjson; this only has to respect strings and nesting.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

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

// One member of a JSON object: its key as written (without quotes) and its value's raw token.
struct Member {
    std::string_view key;
    std::string_view value;
};
// The members of the whole object `object` (from '{' to '}'), in order; false when it is not one.
bool objectMembers(std::string_view object, std::vector<Member>& out);
// The raw token of key's value among members, empty when absent.
std::string_view memberValue(const std::vector<Member>& members, std::string_view key);
// A JSON string token's text without quotes and escapes (\uXXXX as UTF-8).
std::string unescaped(std::string_view token);

} // namespace kscope::jsonscan

namespace kscope::jsonscan {

struct Span {
    size_t begin = 0;
    size_t end = 0;
};

struct SplitResult {
    size_t resume = 0;       // where the next scan starts (start of an incomplete element, or past the last one)
    bool closed = false;     // the array's closing ']' was reached at resume - 1
    bool irregular = false;  // at resume sits something that is not an object/array element: scan it with valueEnd
};

// Splits the content of a JSON array of objects (the traceEvents elements) starting at start,
// appending complete element spans until about maxBytes are covered. 64 bytes per step with AVX2
// where the build allows (quotes, escapes, braces as bit masks), byte by byte otherwise.
// data must stay readable for 64 bytes past size (the loader's buffers carry simdjson's padding).
SplitResult splitElements(const char* data, size_t start, size_t size, size_t maxBytes, std::vector<Span>& out);

} // namespace kscope::jsonscan
