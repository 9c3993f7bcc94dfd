#include "jsonscan.h"

#include <charconv>
#include <cstdint>
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

bool objectMembers(std::string_view object, std::vector<Member>& out)
{
    out.clear();
    const char* data = object.data();
    const size_t end = object.size();
    auto skip = [&](size_t at) {
        while (at < end && isSpace(data[at]))
            ++at;
        return at;
    };
    if (end < 2 || data[0] != '{')
        return false;
    size_t at = skip(1);
    while (at < end && data[at] != '}') {
        if (data[at] != '"')
            return false;
        const size_t keyEnd = stringEnd(data, at, end);
        if (keyEnd == kIncomplete || keyEnd == kMalformed)
            return false;
        const std::string_view key(data + at + 1, keyEnd - at - 2);
        at = skip(keyEnd);
        if (at >= end || data[at] != ':')
            return false;
        at = skip(at + 1);
        const size_t close = valueEnd(data, at, end);
        if (close == kIncomplete || close == kMalformed)
            return false;
        out.push_back({key, std::string_view(data + at, close - at)});
        at = skip(close);
        if (at < end && data[at] == ',')
            at = skip(at + 1);
    }
    return at < end;
}

std::string_view memberValue(const std::vector<Member>& members, std::string_view key)
{
    for (const Member& m : members)
        if (m.key == key)
            return m.value;
    return {};
}

std::string unescaped(std::string_view token)
{
    std::string out;
    if (token.size() < 2)
        return out;
    token = token.substr(1, token.size() - 2);
    for (size_t i = 0; i < token.size(); ++i) {
        const char c = token[i];
        if (c != '\\' || i + 1 >= token.size()) {
            out += c;
            continue;
        }
        const char e = token[++i];
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
            auto hex = [&](size_t at, uint32_t& v) {
                return at + 4 <= token.size()
                    && std::from_chars(token.data() + at, token.data() + at + 4, v, 16).ptr == token.data() + at + 4;
            };
            uint32_t cp = 0;
            if (!hex(i + 1, cp))
                break;
            i += 4;
            uint32_t low = 0;
            if (cp >= 0xD800 && cp < 0xDC00 && i + 2 < token.size() && token[i + 1] == '\\' && token[i + 2] == 'u'
                && hex(i + 3, low)) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                i += 6;
            }
            if (cp < 0x80) {
                out += static_cast<char>(cp);
            } else if (cp < 0x800) {
                out += static_cast<char>(0xC0 | (cp >> 6));
                out += static_cast<char>(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                out += static_cast<char>(0xE0 | (cp >> 12));
                out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                out += static_cast<char>(0x80 | (cp & 0x3F));
            } else {
                out += static_cast<char>(0xF0 | (cp >> 18));
                out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
                out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                out += static_cast<char>(0x80 | (cp & 0x3F));
            }
            break;
        }
        default: out += e; break;
        }
    }
    return out;
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

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace kscope::jsonscan {

namespace {

struct SplitState {
    int depth = 0;
    bool inString = false;
    bool escape = false;
    size_t elementStart = 0;
};

inline uint64_t prefixXor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// Bytes between elements may only be whitespace and commas.
inline bool gapIsClean(const char* data, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i)
        if (!isSpace(data[i]) && data[i] != ',')
            return false;
    return true;
}

} // namespace

SplitResult splitElements(const char* data, size_t start, size_t size, size_t maxBytes, std::vector<Span>& out)
{
    SplitState s;
    SplitResult result;
    size_t lastEnd = start;  // end of the last accepted element (or the scan start)
    const size_t firstIndex = out.size();

    // Handles one structural byte outside strings; returns true when the scan must stop.
    auto structural = [&](size_t pos, char c) -> bool {
        if (c == '{' || c == '[') {
            if (s.depth == 0) {
                if (!gapIsClean(data, lastEnd, pos)) {
                    result.resume = lastEnd;
                    result.irregular = true;
                    return true;
                }
                s.elementStart = pos;
            }
            ++s.depth;
            return false;
        }
        // '}' or ']'
        if (s.depth == 0) {
            if (!gapIsClean(data, lastEnd, pos) || c != ']') {
                result.resume = lastEnd;
                result.irregular = true;
                return true;
            }
            result.closed = true;
            result.resume = pos + 1;
            return true;
        }
        if (--s.depth == 0) {
            out.push_back({s.elementStart, pos + 1});
            lastEnd = pos + 1;
            if (lastEnd - start >= maxBytes) {
                result.resume = lastEnd;
                return true;
            }
        }
        return false;
    };
    auto scalarRange = [&](size_t from, size_t to) -> bool {
        for (size_t i = from; i < to; ++i) {
            const char c = data[i];
            if (s.inString) {
                if (s.escape)
                    s.escape = false;
                else if (c == '\\')
                    s.escape = true;
                else if (c == '"')
                    s.inString = false;
                continue;
            }
            if (c == '"') {
                if (s.depth == 0) {  // a string element: not ours to split
                    result.resume = lastEnd;
                    result.irregular = true;
                    return true;
                }
                s.inString = true;
            } else if (c == '{' || c == '[' || c == '}' || c == ']') {
                if (structural(i, c))
                    return true;
            }
        }
        return false;
    };

    size_t pos = start;
#if defined(__AVX2__)
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i openBrace = _mm256_set1_epi8('{');
    const __m256i closeBrace = _mm256_set1_epi8('}');
    // '[' = 0x5B and ']' = 0x5D differ from '{' and '}' by 0x20: OR-ing 0x20 folds them together.
    const __m256i fold = _mm256_set1_epi8(0x20);
    auto mask64 = [](__m256i lo, __m256i hi) {
        return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(lo)))
            | (static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(hi))) << 32);
    };
    while (pos < size) {
        const size_t valid = std::min<size_t>(64, size - pos);
        const uint64_t validMask = valid == 64 ? ~0ull : ((1ull << valid) - 1);
        const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + pos));
        const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + pos + 32));
        const uint64_t backslashes = mask64(_mm256_cmpeq_epi8(lo, backslash), _mm256_cmpeq_epi8(hi, backslash)) & validMask;
        if (backslashes || s.escape) {
            if (scalarRange(pos, pos + valid))
                return result;
            pos += valid;
            continue;
        }
        const uint64_t quotes = mask64(_mm256_cmpeq_epi8(lo, quote), _mm256_cmpeq_epi8(hi, quote)) & validMask;
        const __m256i loFold = _mm256_or_si256(lo, fold);
        const __m256i hiFold = _mm256_or_si256(hi, fold);
        const uint64_t opens = mask64(_mm256_cmpeq_epi8(loFold, openBrace), _mm256_cmpeq_epi8(hiFold, openBrace));
        const uint64_t closes = mask64(_mm256_cmpeq_epi8(loFold, closeBrace), _mm256_cmpeq_epi8(hiFold, closeBrace));
        uint64_t inString = prefixXor(quotes);
        if (s.inString)
            inString = ~inString;
        // A quote opening a string at depth 0 would be a string element: leave it to the scalar path.
        uint64_t bits = (opens | closes) & ~inString & validMask;
        // Between elements (depth 0) only whitespace, commas and the next '{' or '[' may come: a
        // quote there would open a string element, which the byte-by-byte path reports. Quotes
        // past the next structural byte belong to the next element and keep the block on this path.
        auto quoteBeforeNextStructural = [&](unsigned from, uint64_t rest) {
            const unsigned next = rest ? static_cast<unsigned>(__builtin_ctzll(rest)) : static_cast<unsigned>(valid);
            const uint64_t below = next >= 64 ? ~0ull : (1ull << next) - 1;
            const uint64_t fromOn = from >= 64 ? 0 : ~((1ull << from) - 1);
            return (quotes & below & fromOn) != 0;
        };
        if (s.depth == 0 && quotes && quoteBeforeNextStructural(0, bits)) {
            if (scalarRange(pos, pos + valid))
                return result;
            pos += valid;
            continue;
        }
        const int closing = __builtin_popcountll(bits & closes);
        if (s.depth > closing) {
            // Fewer closes than open levels: no element ends in this block, only the depth moves.
            s.depth += __builtin_popcountll(bits & opens) - closing;
            s.inString = (inString >> (valid - 1)) & 1;
            pos += valid;
            continue;
        }
        while (bits) {
            const unsigned bit = static_cast<unsigned>(__builtin_ctzll(bits));
            bits &= bits - 1;
            const size_t at = pos + bit;
            if (structural(at, data[at]))
                return result;
            if (s.depth == 0 && quotes && quoteBeforeNextStructural(bit + 1, bits)) {
                // Back at depth 0 with a quote before the next element: finish the block byte by byte.
                s.inString = (inString >> bit) & 1;
                if (scalarRange(at + 1, pos + valid))
                    return result;
                bits = 0;
                inString = s.inString ? ~0ull : 0;
                break;
            }
        }
        s.inString = (inString >> (valid - 1)) & 1;
        pos += valid;
    }
#else
    if (scalarRange(pos, size))
        return result;
    pos = size;
#endif
    // Ran out of bytes: resume at the incomplete element, or after the last complete one.
    (void)firstIndex;
    result.resume = s.depth > 0 ? s.elementStart : lastEnd;
    if (s.depth == 0 && !gapIsClean(data, lastEnd, size)) {
        result.resume = lastEnd;
        result.irregular = true;
    } else if (s.depth == 0) {
        result.resume = size;  // only whitespace and commas since the last element: consumed, never rescanned
    }
    return result;
}

} // namespace kscope::jsonscan
