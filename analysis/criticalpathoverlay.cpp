#include "criticalpathoverlay.h"

#include "criticalpath.h"
#include "gpuactivity.h"

#include "model/atomicfile.h"
#include "model/inflatereader.h"
#include "model/jsonscan.h"
#include "model/rankbuilder.h"
#include "model/streamfile.h"
#include "model/timeconv.h"
#include "model/trace.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace kscope {

namespace fs = std::filesystem;

namespace {

size_t skipBlanks(const std::string& s, size_t at, size_t end)
{
    while (at < end && jsonscan::isSpace(s[at]))
        ++at;
    return at;
}

// The members of the object at [begin, end): key (without quotes) -> value span.
bool objectMembers(const std::string& s, size_t begin, size_t end, std::map<std::string_view, std::pair<size_t, size_t>>& out)
{
    out.clear();
    size_t at = skipBlanks(s, begin + 1, end);
    while (at < end && s[at] != '}') {
        if (s[at] != '"')
            return false;
        const size_t keyEnd = jsonscan::stringEnd(s.data(), at, end);
        if (keyEnd == jsonscan::kIncomplete || keyEnd == jsonscan::kMalformed)
            return false;
        const std::string_view key(s.data() + at + 1, keyEnd - at - 2);
        at = skipBlanks(s, keyEnd, end);
        if (at >= end || s[at] != ':')
            return false;
        at = skipBlanks(s, at + 1, end);
        const size_t valueEnd = jsonscan::valueEnd(s.data(), at, end);
        if (valueEnd == jsonscan::kIncomplete || valueEnd == jsonscan::kMalformed)
            return false;
        out[key] = {at, valueEnd};
        at = skipBlanks(s, valueEnd, end);
        if (at < end && s[at] == ',')
            at = skipBlanks(s, at + 1, end);
    }
    return true;
}

std::string quoted(std::string_view text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string threadToken(const Run& run, const ThreadKey& k, bool pid)
{
    const StringId name = pid ? k.pidName : k.tidName;
    if (name)
        return quoted(run.str(name));
    return std::to_string(pid ? k.pid : k.tid);
}

uint64_t keyOf(int64_t tsNs, int64_t durNs)
{
    return static_cast<uint64_t>(tsNs) * 1000003u ^ static_cast<uint64_t>(durNs);
}

bool readWhole(const fs::path& file, std::string& text, bool& gzip, std::string& error)
{
    InflateReader reader;
    if (!reader.open(file)) {
        error = "cannot read " + file.string() + ": " + reader.error();
        return false;
    }
    std::vector<char> buffer(16 << 20);
    while (const size_t got = reader.read(buffer.data(), buffer.size()))
        text.append(buffer.data(), got);
    if (reader.failed()) {
        error = "cannot read " + file.string() + ": " + reader.error();
        return false;
    }
    gzip = reader.isGzip();
    return true;
}

// Calls visit(position, fields) for every element of traceEvents; false when there is none.
template <typename Visit>
bool forEachElement(const std::string& text, size_t& arrayBegin, size_t& close, Visit visit)
{
    std::map<std::string_view, std::pair<size_t, size_t>> top;
    const size_t begin = skipBlanks(text, 0, text.size());
    if (begin >= text.size() || text[begin] != '{' || !objectMembers(text, begin, text.size(), top)
        || !top.count("traceEvents") || text[top["traceEvents"].first] != '[')
        return false;
    arrayBegin = top["traceEvents"].first;
    close = top["traceEvents"].second - 1;
    size_t at = arrayBegin + 1;
    uint32_t position = 0;
    std::map<std::string_view, std::pair<size_t, size_t>> fields;
    while (true) {
        at = skipBlanks(text, at, close);
        if (at < close && text[at] == ',')
            at = skipBlanks(text, at + 1, close);
        if (at >= close)
            break;
        const size_t elementEnd = jsonscan::valueEnd(text.data(), at, close);
        if (elementEnd == jsonscan::kIncomplete || elementEnd == jsonscan::kMalformed)
            break;
        const size_t elementBegin = at;
        at = elementEnd;
        const bool object = text[elementBegin] == '{' && objectMembers(text, elementBegin, elementEnd, fields);
        if (!object)
            fields.clear();
        visit(position++, elementBegin, elementEnd, fields);
    }
    return true;
}


} // namespace

CriticalPathOverlay writeCriticalPathOverlay(const Run& run, const CriticalPath& path, const fs::path& dir,
                                             const CriticalPathOverlayOptions& options)
{
    CriticalPathOverlay result;
    const RankTrace* rank = run.has(path.rankIndex) ? &run.at(path.rankIndex) : nullptr;
    if (!rank || !path.success) {
        result.error = path.error.empty() ? "no critical path" : path.error;
        return result;
    }
    const EventTable& t = rank->events;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) {
        result.error = dir.string() + " is not a folder";
        return result;
    }
    result.output = dir / ("overlaid_critical_path_" + rank->file.filename().string());

    // Events on the path, found in the file by position (HTA's mode keeps it) or by start, duration and name.
    std::unordered_set<EventIndex> critical;
    for (uint32_t n : path.path)
        critical.insert(path.nodes[n].event);
    const bool byPosition = !path.htaIndex.empty();
    std::unordered_set<uint32_t> positions;
    std::unordered_multimap<uint64_t, EventIndex> byKey;
    for (EventIndex e : critical) {
        if (byPosition)
            positions.insert(static_cast<uint32_t>(path.htaIndex[static_cast<size_t>(e)]));
        else
            byKey.emplace(keyOf(t.tsNs[e], t.durNs[e]), e);
    }

    // Flow events: path edges of the shown kinds, or every edge.
    const bool allEdges = options.showAllEdges && !options.onlyCriticalEvents;
    std::string flows;
    auto endpoint = [&](const CpEdge& e, uint32_t node, int64_t id, bool start) {
        const CpNode& n = path.nodes[node];
        const EventIndex ev = n.event;
        int64_t tsNs = t.tsNs[ev];
        if (!n.isStart) {
            tsNs += t.durNs[ev];
            if (isGpuKind(t.kind[ev]))
                tsNs -= std::min<int64_t>(1000, t.durNs[ev]);
        }
        const ThreadKey& k = rank->threads[t.thread[ev]];
        const int64_t weight = e.weightNs / 1000;
        flows += ",\n  {\"ph\": \"" + std::string(start ? "s" : "f") + "\", \"id\": " + std::to_string(id)
            + ", \"pid\": " + threadToken(run, k, true) + ", \"tid\": " + threadToken(run, k, false)
            + ", \"ts\": " + std::to_string(tsNs / 1000) + ", \"cat\": \"critical_path\", \"name\": \"critical_path\", "
            + "\"args\": {\"weight\": " + std::to_string(weight) + ", \"critical\": " + (e.onPath ? "true" : "false")
            + ", \"type\": \"" + toString(e.type) + "\"}" + (start ? "" : ", \"bp\": \"e\"") + "}";
    };
    int64_t flowId = 0;
    for (const CpEdge& e : path.edges) {
        if (allEdges) {
            if (!path.options.showZeroWeightLaunchEdges && e.type == CpEdgeType::KernelLaunchDelay && e.weightNs == 0)
                continue;
        } else if (!e.onPath
                   || !(e.type == CpEdgeType::Dependency || e.type == CpEdgeType::KernelLaunchDelay
                        || e.type == CpEdgeType::SyncDependency)) {
            continue;
        }
        endpoint(e, e.src, flowId, true);
        endpoint(e, e.dst, flowId, false);
        ++flowId;
    }
    result.flows = flowId;

    std::string text;
    bool gzip = false;
    if (!readWhole(rank->file, text, gzip, result.error))
        return result;
    if (std::string e = inputOverwriteError(result.output, inputFiles(run)); !e.empty()) {
        result.error = "will not write " + result.output.string() + ": " + e;
        return result;
    }
    std::vector<std::pair<size_t, size_t>> kept;  // element spans, with the args insertion point
    std::vector<std::pair<size_t, std::string>> inserts;
    const bool rounded = run.htaCompat && rank->metadata.fractionalTimestamps;
    size_t arrayBegin = 0, close = 0;
    const bool found = forEachElement(text, arrayBegin, close, [&](uint32_t here, size_t elementBegin, size_t elementEnd,
                                                                  const auto& fields) {
        auto token = [&](std::string_view key) {
            const auto it = fields.find(key);
            return it == fields.end() ? std::string_view()
                                      : std::string_view(text.data() + it->second.first, it->second.second - it->second.first);
        };
        const bool complete = token("ph") == "\"X\"";
        bool mark = false;
        if (complete) {
            if (byPosition) {
                mark = positions.count(here) != 0;
            } else {
                int64_t tsNs = 0, durNs = 0;
                if (microsToNanos(token("ts"), tsNs) && microsToNanos(token("dur"), durNs)) {
                    if (rounded)
                        htaRoundSpan(tsNs, durNs);  // how the loader stored it
                    const auto [lo, hi] = byKey.equal_range(keyOf(tsNs, durNs));
                    for (auto it = lo; it != hi && !mark; ++it)
                        mark = quoted(run.str(t.name[it->second])) == token("name")
                            && threadToken(run, rank->threads[t.thread[it->second]], false) == token("tid");
                }
            }
        }
        if (options.onlyCriticalEvents && complete && !mark && token("cat") != "\"user_annotation\""
            && token("cat") != "\"python_function\"")
            return;
        kept.emplace_back(elementBegin, elementEnd);
        if (!mark) {
            inserts.emplace_back(elementEnd, std::string());
            return;
        }
        ++result.eventsMarked;
        size_t insertAt = elementEnd - 1;
        std::string insert = ", \"args\": {\"critical\": 1}";
        if (const auto it = fields.find("args"); it != fields.end() && text[it->second.first] == '{') {
            insertAt = it->second.second - 1;
            const size_t inner = skipBlanks(text, it->second.first + 1, insertAt);
            insert = std::string(inner == insertAt ? "" : ", ") + "\"critical\": 1";
        }
        inserts.emplace_back(insertAt, std::move(insert));
    });
    if (!found) {
        result.error = rank->file.string() + ": no traceEvents array to overlay";
        return result;
    }
    StreamFileWriter out;
    if (std::string e = out.open(result.output, gzip); !e.empty()) {
        result.error = "cannot write " + result.output.string() + ": " + e;
        return result;
    }
    out.write(std::string_view(text.data(), arrayBegin + 1));
    bool first = true;
    for (size_t k = 0; k < kept.size(); ++k) {
        const auto [b, e] = kept[k];
        const auto& [insertAt, insert] = inserts[k];
        out.write(first ? "\n  " : ",\n  ");
        first = false;
        out.write(std::string_view(text.data() + b, insertAt - b));
        out.write(insert);
        out.write(std::string_view(text.data() + insertAt, e - insertAt));
    }
    out.write(first && !flows.empty() ? std::string_view(flows).substr(1) : std::string_view(flows));
    out.write("\n");
    out.write(std::string_view(text.data() + close, text.size() - close));
    if (std::string e = out.commit(); !e.empty())
        result.error = "cannot write " + result.output.string() + ": " + e;
    return result;
}

} // namespace kscope
