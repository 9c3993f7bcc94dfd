#include "analysis/patterns/patternoverlay.h"

#include "analysis/patterns/kernelpatterns.h"
#include "analysis/tracerewrite.h"

#include "model/jsonwrite.h"
#include "model/trace.h"

#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

namespace kscope {

namespace fs = std::filesystem;

namespace {

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
            return !name.empty() && jsonscan::unescaped(token) == name;
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
        marks.emplace(spanKey(t.tsNs[e], t.durNs[e]), pending[at]);

    TraceRewrite how;
    how.output = file.output;
    how.edit = [&](const TraceElement& element) {
        ElementEdit edit;
        int64_t tsNs = 0, durNs = 0;
        if (!element.isComplete() || !storedSpan(run, rank, element, tsNs, durNs))
            return edit;
        const auto [first, last] = marks.equal_range(spanKey(tsNs, durNs));
        std::string name;
        for (auto it = first; it != last; ++it) {
            if (name.empty())
                name = jsonscan::unescaped(element.token("name"));
            if (it->second.name == name && sameThread(it->second, element.token("pid"), element.token("tid"))) {
                edit.argsMembers = "\"Patterns\": {" + it->second.patterns + "}";
                ++file.eventsMarked;
                break;
            }
        }
        return edit;
    };
    if (const TraceRewriteResult written = rewriteTrace(run, rank, how); !written.error.empty()) {
        file.error = written.error;
        file.eventsMarked = 0;
    }
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
    std::map<RankIndex, std::vector<const KernelPattern*>> top;
    for (const KernelPattern& p : patterns.patterns)
        if (p.top)
            top[p.rankIndex].push_back(&p);
    for (const auto& [index, list] : top) {
        if (!run.has(index))
            continue;
        const RankTrace* rank = &run.at(index);
        if (fs::equivalent(rank->file.parent_path(), dir, ec)) {
            result.files.push_back({rank->rank, rank->file, {}, 0, "the overlay folder is the run's own: choose another"});
            continue;
        }
        result.files.push_back(writeOne(run, *rank, list, dir));
    }
    if (top.empty())
        result.notes.push_back("no pattern to overlay: no trace written");
    return result;
}

} // namespace kscope
