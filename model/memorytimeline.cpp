#include "memorytimeline.h"

#include <charconv>
#include <zlib.h>

namespace kscope {

namespace {

bool readAll(const std::filesystem::path& file, std::string& text, size_t limit)
{
    gzFile in = gzopen(file.c_str(), "rb");
    if (!in)
        return false;
    char buffer[1 << 16];
    int got = 0;
    while ((got = gzread(in, buffer, sizeof buffer)) > 0) {
        text.append(buffer, static_cast<size_t>(got));
        if (text.size() >= limit)
            break;
    }
    const bool ok = got >= 0;
    gzclose(in);
    return ok;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

} // namespace

bool looksLikeMemoryTimeline(const std::filesystem::path& file)
{
    std::string head;
    if (!readAll(file, head, 256))
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
    if (!readAll(file, text, size_t(1) << 34)) {
        result.error = "cannot read " + file.string() + " (not a file, or corrupt gzip)";
        return result;
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
        ++i;
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
