#include "memorytimeline.h"

#include <charconv>
#include <cmath>
#include <new>
#include <zlib.h>

namespace kscope {

namespace {

enum class Read { Ok, Failed, TooLarge, OutOfMemory };

// Up to `limit` bytes (inflated); TooLarge when there are more.
Read readAll(const std::filesystem::path& file, std::string& text, size_t limit)
{
    gzFile in = gzopen(file.c_str(), "rb");
    if (!in)
        return Read::Failed;
    char buffer[1 << 16];
    int got = 0;
    Read result = Read::Ok;
    try {
        while ((got = gzread(in, buffer, sizeof buffer)) > 0) {
            if (text.size() + static_cast<size_t>(got) > limit) {
                text.append(buffer, limit - text.size());
                result = Read::TooLarge;
                break;
            }
            text.append(buffer, static_cast<size_t>(got));
        }
    } catch (const std::bad_alloc&) {
        result = Read::OutOfMemory;
    }
    gzclose(in);
    return result == Read::Ok && got < 0 ? Read::Failed : result;
}

// Finite and within [lowest, highest] (from_chars takes nan, inf and 1e300).
bool inRange(double v, double lowest, double highest)
{
    return std::isfinite(v) && v >= lowest && v <= highest;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

} // namespace

bool looksLikeMemoryTimeline(const std::filesystem::path& file)
{
    std::string head;
    if (readAll(file, head, 256) == Read::Failed)
        return false;
    size_t i = 0;
    auto skip = [&] {
        while (i < head.size() && isBlank(head[i]))
            ++i;
    };
    skip();
    if (i >= head.size() || head[i++] != '[')
        return false;
    skip();
    if (i >= head.size() || head[i++] != '[')
        return false;
    skip();
    return i < head.size() && (head[i] == '-' || (head[i] >= '0' && head[i] <= '9'));
}

MemoryTimelineFile readMemoryTimeline(const std::filesystem::path& file)
{
    MemoryTimelineFile result;
    std::string text;
    constexpr size_t kLimit = size_t(1) << 34;
    switch (readAll(file, text, kLimit)) {
    case Read::Ok: break;
    case Read::Failed: result.error = "cannot read " + file.string() + " (not a file, or corrupt gzip)"; return result;
    case Read::TooLarge:
        result.error = "cannot read " + file.string() + ": larger than the reader's limit of 16 GiB";
        return result;
    case Read::OutOfMemory: result.error = "cannot read " + file.string() + ": out of memory"; return result;
    }
    size_t i = 0;
    const size_t n = text.size();
    auto skip = [&] {
        while (i < n && isBlank(text[i]))
            ++i;
    };
    auto fail = [&](const char* what) {
        result.rows.clear();
        result.error = file.filename().string() + ": " + what + " at byte " + std::to_string(i);
        return result;
    };
    skip();
    if (i >= n || text[i] != '[')
        return fail("not a JSON array");
    ++i;
    skip();
    if (i < n && text[i] == ']')
        return result;
    while (true) {
        skip();
        if (i >= n || text[i] != '[')
            return fail("expected a [time, action, bytes, category] row");
        const size_t rowStart = i++;
        double values[4] = {0, 0, 0, 0};
        for (int k = 0; k < 4; ++k) {
            skip();
            const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + n, values[k]);
            if (ec != std::errc())
                return fail("expected a number");
            i = static_cast<size_t>(ptr - text.data());
            skip();
            if (i >= n || text[i] != (k == 3 ? ']' : ','))
                return fail(k == 3 ? "expected ']' after four values" : "expected ','");
            ++i;
        }
        // times within +-2^62 ns (epoch times are ~2^60), bytes within +-2^53 (8 PiB: sums stay
        // far from int64's limits), an int32 action
        constexpr double kMaxTime = 4611686018427387904.0, kMaxBytes = 9007199254740992.0;
        if (!inRange(values[0], -kMaxTime, kMaxTime) || !inRange(values[1], INT32_MIN, INT32_MAX)
            || !inRange(values[2], -kMaxBytes, kMaxBytes) || !std::isfinite(values[3])) {
            i = rowStart;
            return fail("a value out of range (not finite, or too large) in the row");
        }
        MemoryTimelineRow row;
        row.time = static_cast<int64_t>(values[0]);
        row.action = static_cast<int32_t>(values[1]);
        row.bytes = static_cast<int64_t>(values[2]);
        row.category = values[3] >= 0 && values[3] <= 7 ? static_cast<int32_t>(values[3]) : 7;
        result.rows.push_back(row);
        skip();
        if (i < n && text[i] == ',') {
            ++i;
            continue;
        }
        if (i < n && text[i] == ']')
            return result;
        return fail("expected ',' or ']'");
    }
}

} // namespace kscope
