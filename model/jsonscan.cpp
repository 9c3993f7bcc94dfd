#include "jsonscan.h"

#include <cstring>

namespace kscope::jsonscan {

size_t stringEnd(const char* data, size_t start, size_t size)
{
    size_t i = start + 1;
    while (i < size) {
        const void* hit = std::memchr(data + i, '"', size - i);
        if (!hit)
            return kIncomplete;
        const size_t quote = static_cast<const char*>(hit) - data;
        size_t backslashes = 0;
        while (quote - backslashes > start + 1 && data[quote - backslashes - 1] == '\\')
            ++backslashes;
        if ((backslashes & 1) == 0)
            return quote + 1;
        i = quote + 1;
    }
    return kIncomplete;
}

size_t valueEnd(const char* data, size_t start, size_t size)
{
    if (start >= size)
        return kIncomplete;
    const char first = data[start];
    if (first == '"')
        return stringEnd(data, start, size);
    if (first != '{' && first != '[') {
        if (first == '}' || first == ']' || first == ',' || first == ':')
            return kMalformed;
        size_t i = start;
        while (i < size) {
            const char c = data[i];
            if (c == ',' || c == '}' || c == ']' || isSpace(c))
                return i;
            ++i;
        }
        return kIncomplete;
    }
    int depth = 0;
    size_t i = start;
    while (i < size) {
        const char c = data[i];
        switch (c) {
        case '"': {
            const size_t e = stringEnd(data, i, size);
            if (e == kIncomplete)
                return kIncomplete;
            i = e;
            continue;
        }
        case '{':
        case '[':
            ++depth;
            break;
        case '}':
        case ']':
            if (--depth == 0)
                return i + 1;
            break;
        default:
            break;
        }
        ++i;
    }
    return kIncomplete;
}

} // namespace kscope::jsonscan
