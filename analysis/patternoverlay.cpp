#include "patternoverlay.h"

#include "kernelpatterns.h"

#include "model/atomicfile.h"
#include "model/inflatereader.h"
#include "model/jsonscan.h"
#include "model/jsonwrite.h"
#include "model/rankbuilder.h"
#include "model/streamfile.h"
#include "model/timeconv.h"
#include "model/trace.h"

#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

namespace kscope {

namespace fs = std::filesystem;

namespace {

uint64_t keyOf(int64_t tsNs, int64_t durNs)
{
    return static_cast<uint64_t>(tsNs) * 1000003u ^ static_cast<uint64_t>(durNs);
}

// A JSON string token's text without quotes and escapes (\uXXXX as UTF-8).
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

size_t skipSpace(const std::string& s, size_t at)
{
    while (at < s.size() && jsonscan::isSpace(s[at]))
        ++at;
    return at;
}

// The top-level members of the object at [begin, end): key -> (value begin, value end).
bool members(const std::string& s, size_t begin, size_t end, std::map<std::string_view, std::pair<size_t, size_t>>& out)
{
    out.clear();
    size_t at = skipSpace(s, begin + 1);
    while (at < end && s[at] != '}') {
        if (s[at] != '"')
            return false;
        const size_t keyEnd = jsonscan::stringEnd(s.data(), at, end);
        if (keyEnd == jsonscan::kIncomplete || keyEnd == jsonscan::kMalformed)
            return false;
        const std::string_view key(s.data() + at + 1, keyEnd - at - 2);
        at = skipSpace(s, keyEnd);
        if (at >= end || s[at] != ':')
            return false;
        at = skipSpace(s, at + 1);
        const size_t valueEnd = jsonscan::valueEnd(s.data(), at, end);
        if (valueEnd == jsonscan::kIncomplete || valueEnd == jsonscan::kMalformed)
            return false;
        out[key] = {at, valueEnd};
        at = skipSpace(s, valueEnd);
        if (at < end && s[at] == ',')
            at = skipSpace(s, at + 1);
    }
    return true;
}

struct Mark {
    int64_t pid = 0, tid = 0;
    std::string pidName, tidName;  // set when the file has text there
    std::string name;
    std::string patterns;  // the Patterns object's members: "text": count, ...
};

bool sameThread(const Mark& m, std::string_view pidToken, std::string_view tidToken)
{
    auto same = [](int64_t number, const std::string& name, std::string_view token) {
        if (token.empty())
            return false;
        if (token.front() == '"')
            return !name.empty() && unescaped(token) == name;
        int64_t v = 0;
        const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
        return name.empty() && ec == std::errc() && v == number;
    };
    return same(m.pid, m.pidName, pidToken) && same(m.tid, m.tidName, tidToken);
}

PatternOverlayFile writeOne(const Run& run, const RankTrace& rank, const std::vector<const KernelPattern*>& top,
                            const fs::path& dir)
{
    PatternOverlayFile file;
    file.rank = rank.rank;
    file.input = rank.file;
    file.output = dir / ("overlaid_" + rank.file.filename().string());
    const EventTable& t = rank.events;
    std::unordered_multimap<uint64_t, Mark> marks;
    std::unordered_map<EventIndex, size_t> markOf;
    std::vector<Mark> pending;
    for (const KernelPattern* p : top) {
        const std::string entry = jsonString(patternText(run, *p)) + ": " + std::to_string(p->count);
        for (EventIndex e : p->members) {
            auto [it, fresh] = markOf.try_emplace(e, pending.size());
            if (fresh) {
                Mark& m = pending.emplace_back();
                const ThreadKey& thread = rank.threads[t.thread[e]];
                m.pid = thread.pid;
                m.tid = thread.tid;
                if (thread.pidName)
                    m.pidName = run.str(thread.pidName);
                if (thread.tidName)
                    m.tidName = run.str(thread.tidName);
                m.name = run.str(t.name[e]);
                m.patterns = entry;
            } else {
                pending[it->second].patterns += ", " + entry;
            }
        }
    }
    for (const auto& [e, at] : markOf)
        marks.emplace(keyOf(t.tsNs[e], t.durNs[e]), pending[at]);
    const bool rounded = run.htaCompat && rank.metadata.fractionalTimestamps;

    InflateReader reader;
    if (!reader.open(rank.file)) {
        file.error = "cannot read " + rank.file.string() + ": " + reader.error();
        return file;
    }
    std::string text;
    std::vector<char> buffer(16 << 20);
    while (const size_t got = reader.read(buffer.data(), buffer.size()))
        text.append(buffer.data(), got);
    if (reader.failed()) {
        file.error = "cannot read " + rank.file.string() + ": " + reader.error();
        return file;
    }
    std::map<std::string_view, std::pair<size_t, size_t>> top_level;
    const size_t begin = skipSpace(text, 0);
    if (begin >= text.size() || text[begin] != '{' || !members(text, begin, text.size(), top_level)
        || !top_level.count("traceEvents") || text[top_level["traceEvents"].first] != '[') {
        file.error = rank.file.string() + ": no traceEvents array to overlay";
        return file;
    }
    const auto [arrayBegin, arrayEnd] = top_level["traceEvents"];
    if (std::string e = inputOverwriteError(file.output, inputFiles(run)); !e.empty()) {
        file.error = "will not write " + file.output.string() + ": " + e;
        return file;
    }
    StreamFileWriter out;
    if (std::string e = out.open(file.output, reader.isGzip()); !e.empty()) {
        file.error = "cannot write " + file.output.string() + ": " + e;
        return file;
    }
    out.write(std::string_view(text.data(), arrayBegin + 1));
    size_t at = arrayBegin + 1, copied = arrayBegin + 1;
    std::map<std::string_view, std::pair<size_t, size_t>> fields;
    while (true) {
        at = skipSpace(text, at);
        if (at < arrayEnd && text[at] == ',')
            at = skipSpace(text, at + 1);
        if (at >= arrayEnd - 1)
            break;
        const size_t elementEnd = jsonscan::valueEnd(text.data(), at, arrayEnd);
        if (elementEnd == jsonscan::kIncomplete || elementEnd == jsonscan::kMalformed)
            break;
        const size_t elementBegin = at;
        at = elementEnd;
        if (text[elementBegin] != '{' || !members(text, elementBegin, elementEnd, fields))
            continue;
        auto token = [&](std::string_view key) {
            const auto it = fields.find(key);
            return it == fields.end() ? std::string_view()
                                      : std::string_view(text.data() + it->second.first, it->second.second - it->second.first);
        };
        int64_t tsNs = 0, durNs = 0;
        if (token("ph") != "\"X\"" || !microsToNanos(token("ts"), tsNs) || !microsToNanos(token("dur"), durNs))
            continue;
        if (rounded)
            htaRoundSpan(tsNs, durNs);  // how the loader stored it
        const auto [first, last] = marks.equal_range(keyOf(tsNs, durNs));
        const Mark* mark = nullptr;
        std::string name;
        for (auto it = first; it != last && !mark; ++it) {
            if (name.empty())
                name = unescaped(token("name"));
            if (it->second.name == name && sameThread(it->second, token("pid"), token("tid")))
                mark = &it->second;
        }
        if (!mark)
            continue;
        const std::string patterns = "\"Patterns\": {" + mark->patterns + "}";
        size_t insertAt = elementEnd - 1;  // before the element's '}'
        std::string insert = ", \"args\": {" + patterns + "}";
        if (const auto it = fields.find("args"); it != fields.end() && text[it->second.first] == '{') {
            insertAt = it->second.second - 1;  // before the args' '}'
            const size_t inner = skipSpace(text, it->second.first + 1);
            insert = (inner == insertAt ? "" : ", ") + patterns;
        }
        out.write(std::string_view(text.data() + copied, insertAt - copied));
        out.write(insert);
        copied = insertAt;
        ++file.eventsMarked;
    }
    out.write(std::string_view(text.data() + copied, text.size() - copied));
    if (std::string e = out.commit(); !e.empty())
        file.error = "cannot write " + file.output.string() + ": " + e;
    return file;
}

} // namespace

PatternOverlay writePatternOverlays(const Run& run, const KernelPatterns& patterns, const fs::path& dir)
{
    PatternOverlay result;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) {
        result.error = "cannot create the folder " + dir.string() + (ec ? ": " + ec.message() : "");
        return result;
    }
    std::map<int, std::vector<const KernelPattern*>> top;
    for (const KernelPattern& p : patterns.patterns)
        if (p.top)
            top[p.rank].push_back(&p);
    for (const auto& [rankNumber, list] : top) {
        const RankTrace* rank = run.findRank(rankNumber);
        if (!rank)
            continue;
        if (fs::equivalent(rank->file.parent_path(), dir, ec)) {
            result.files.push_back({rankNumber, rank->file, {}, 0, "the overlay folder is the run's own: choose another"});
            continue;
        }
        result.files.push_back(writeOne(run, *rank, list, dir));
    }
    if (top.empty())
        result.notes.push_back("no pattern to overlay: no trace written");
    return result;
}

} // namespace kscope
