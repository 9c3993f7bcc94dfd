#include "analysis/patterns/kernelpatterns.h"

#include "analysis/operators/calltree.h"
#include "analysis/core/gpuactivity.h"

#include <algorithm>
#include <map>
#include <set>

namespace kscope {

namespace {

// The nearest ancestor-or-self of every row that is marked a root, kNoEvent where none is.
std::vector<EventIndex> rootsAbove(const CallTree& tree, const std::vector<uint8_t>& isRoot)
{
    const size_t n = tree.parent.size();
    constexpr EventIndex kUnknown = -2;
    std::vector<EventIndex> rootOf(n, kUnknown);
    std::vector<EventIndex> path;
    for (size_t i = 0; i < n; ++i) {
        EventIndex e = static_cast<EventIndex>(i);
        EventIndex found = kNoEvent;
        while (true) {
            if (rootOf[static_cast<size_t>(e)] != kUnknown) {
                found = rootOf[static_cast<size_t>(e)];
                break;
            }
            path.push_back(e);
            if (isRoot[static_cast<size_t>(e)]) {
                found = e;
                break;
            }
            const EventIndex p = tree.parent[static_cast<size_t>(e)];
            if (p == kNoEvent || path.size() > n)
                break;
            e = p;
        }
        for (EventIndex p : path)
            rootOf[static_cast<size_t>(p)] = found;
        path.clear();
    }
    return rootOf;
}

struct Occurrence {
    EventIndex root = kNoEvent;
    std::vector<EventIndex> kernels;  // in start order
};

// One rank's patterns, unsorted; false (with why) when HTA raises on it.
bool rankPatterns(const Run& run, const RankTrace& rank, const CallTree& tree, const KernelPatternOptions& options,
                  const std::vector<uint8_t>& nameMatches, std::vector<KernelPattern>& out, std::string& why)
{
    const EventTable& t = rank.events;
    const size_t n = t.size();
    if (options.htaCompat && !tree.htaError.empty()) {
        why = tree.htaError;
        return false;
    }
    auto matches = [&](size_t i) { return t.name[i] && nameMatches[t.name[i].value]; };
    std::vector<uint8_t> isRoot(n, 0);
    if (options.htaCompat) {
        // HTA: the candidates (every event of its frame named like the operator) at the least
        // depth, where events outside the call graph count depth -1, with enough kernels.
        int32_t minDepth = INT32_MAX;
        for (size_t i = 0; i < n; ++i)
            if (matches(i) && t.phase[i] == Phase::Complete && t.category[i] && t.kind[i] != EventKind::TraceSpan)
                minDepth = std::min(minDepth, tree.depth[i]);
        for (size_t i = 0; i < n; ++i)
            isRoot[i] = matches(i) && tree.depth[i] == minDepth && tree.kernels[i] >= options.minPatternLength
                && t.stream[i] == -1;
    } else {
        // The outermost CPU events named like the operator with enough GPU work beneath them: a
        // nested one is part of its ancestor's occurrence, wherever in the stack either sits.
        std::vector<uint8_t> qualifies(n, 0);
        for (size_t i = 0; i < n; ++i)
            qualifies[i] = matches(i) && t.stream[i] < 0 && tree.inTree(static_cast<EventIndex>(i))
                && tree.kernels[i] >= options.minPatternLength;
        for (size_t i = 0; i < n; ++i) {
            if (!qualifies[i])
                continue;
            bool outermost = true;
            size_t steps = 0;
            for (EventIndex p = tree.parent[i]; p != kNoEvent && steps < n; p = tree.parent[static_cast<size_t>(p)], ++steps)
                if (qualifies[static_cast<size_t>(p)]) {
                    outermost = false;
                    break;
                }
            isRoot[i] = outermost;
        }
    }
    const std::vector<EventIndex> rootOf = rootsAbove(tree, isRoot);
    std::map<EventIndex, Occurrence> occurrences;
    for (size_t i = 0; i < n; ++i)
        if (isRoot[i])
            occurrences[static_cast<EventIndex>(i)].root = static_cast<EventIndex>(i);
    for (size_t i = 0; i < n; ++i) {
        const EventIndex root = rootOf[i];
        if (root == kNoEvent || t.stream[i] < 0 || !tree.inTree(static_cast<EventIndex>(i)))
            continue;
        occurrences[root].kernels.push_back(static_cast<EventIndex>(i));  // rows are in start order
    }

    std::map<std::vector<StringId>, size_t> index;
    const size_t firstOut = out.size();
    for (const auto& [root, occurrence] : occurrences) {
        std::vector<StringId> names{t.name[root]};
        for (EventIndex k : occurrence.kernels)
            names.push_back(t.name[k]);
        auto [it, inserted] = index.try_emplace(names, out.size());
        if (inserted) {
            KernelPattern& p = out.emplace_back();
            p.rank = rank.rank;
            p.rankIndex = run.indexOf(rank);
            p.names = std::move(names);
        }
        KernelPattern& p = out[it->second];
        ++p.count;
        p.gpuNs += tree.kernelNs[static_cast<size_t>(root)];
        p.cpuNs += t.durNs[root];
        p.roots.push_back(root);
        p.kernels.insert(p.kernels.end(), occurrence.kernels.begin(), occurrence.kernels.end());
    }
    std::vector<std::string> texts;
    for (size_t k = firstOut; k < out.size(); ++k)
        texts.push_back(patternText(run, out[k]));
    std::vector<size_t> order(out.size() - firstOut);
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const KernelPattern& x = out[firstOut + a];
        const KernelPattern& y = out[firstOut + b];
        if (x.count != y.count)
            return x.count > y.count;
        return texts[a] < texts[b];
    });
    std::vector<KernelPattern> sorted;
    for (size_t k : order)
        sorted.push_back(std::move(out[firstOut + k]));
    out.resize(firstOut);
    const size_t topK = options.topK > 0 ? static_cast<size_t>(options.topK) : sorted.size();
    for (size_t k = 0; k < sorted.size(); ++k) {
        KernelPattern& p = sorted[k];
        p.top = k < topK;
        if (!p.top)
            continue;
        std::set<EventIndex> roots(p.roots.begin(), p.roots.end());
        for (size_t i = 0; i < n; ++i)
            if (rootOf[i] != kNoEvent && roots.count(rootOf[i]))
                p.members.push_back(static_cast<EventIndex>(i));
    }
    for (KernelPattern& p : sorted)
        out.push_back(std::move(p));
    return true;
}

// Which string ids contain `text`.
std::vector<uint8_t> namesContaining(const Run& run, const std::string& text)
{
    std::vector<uint8_t> matches(run.strings.size(), 0);
    for (size_t id = 1; id < run.strings.size(); ++id)
        matches[id] = run.strings.view(StringId{static_cast<uint32_t>(id)}).find(text) != std::string_view::npos;
    return matches;
}

// How many candidate operators the suggestion tries: each costs one pattern pass over the rank.
constexpr size_t kSuggestionCandidates = 8;

} // namespace

PatternOperatorSuggestion suggestPatternOperator(const Run& run, const KernelPatternOptions& options)
{
    PatternOperatorSuggestion suggestion;
    const std::vector<const RankTrace*> ranks = ranksToRead(run, options.ranks);
    if (ranks.empty())
        return suggestion;
    const RankTrace& rank = *ranks.front();
    suggestion.rank = rank.rank;
    const EventTable& t = rank.events;
    const CallTree tree = buildCallTree(rank, run.strings, options.htaCompat);
    if (options.htaCompat && !tree.htaError.empty())
        return suggestion;
    // Candidates: CPU operators with enough GPU work beneath them, the most frequent first.
    std::vector<int64_t> launches(run.strings.size(), 0);
    for (size_t i = 0; i < t.size(); ++i)
        if (t.kind[i] == EventKind::CpuOp && t.name[i] && tree.inTree(static_cast<EventIndex>(i))
            && tree.kernels[i] >= options.minPatternLength)
            ++launches[t.name[i].value];
    std::vector<uint32_t> candidates;
    for (uint32_t id = 1; id < launches.size(); ++id)
        if (launches[id] > 1)
            candidates.push_back(id);
    std::sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
        return launches[a] != launches[b] ? launches[a] > launches[b] : run.strings.view(StringId{a}) < run.strings.view(StringId{b});
    });
    if (candidates.size() > kSuggestionCandidates)
        candidates.resize(kSuggestionCandidates);
    // Each candidate asked as frequentKernelSequences would ask it (its name as the text): the
    // one whose most frequent sequence repeats most wins; ties go to the more frequent operator.
    for (uint32_t id : candidates) {
        KernelPatternOptions asked = options;
        asked.operatorName = std::string(run.strings.view(StringId{id}));
        asked.topK = 1;
        std::vector<KernelPattern> patterns;
        std::string why;
        if (!rankPatterns(run, rank, tree, asked, namesContaining(run, asked.operatorName), patterns, why) || patterns.empty())
            continue;
        const int64_t repeats = patterns.front().count;  // sorted by count, descending
        if (repeats > 1 && repeats > suggestion.repeats) {
            suggestion.operatorName = asked.operatorName;
            suggestion.repeats = repeats;
        }
    }
    return suggestion;
}

std::string patternText(const Run& run, const KernelPattern& pattern)
{
    std::string text;
    for (size_t k = 0; k < pattern.names.size(); ++k) {
        if (k)
            text += '|';
        text += run.str(pattern.names[k]);
    }
    return text;
}

KernelPatterns frequentKernelSequences(const Run& run, const KernelPatternOptions& options)
{
    KernelPatterns result;
    result.operatorName = options.operatorName;
    result.htaCompat = options.htaCompat;
    KernelPatternOptions asked = options;
    if (asked.operatorName.empty()) {
        const PatternOperatorSuggestion suggestion = suggestPatternOperator(run, options);
        if (suggestion.operatorName.empty()) {
            result.error = "no operator name given, and no operator launches a repeated sequence of "
                + std::to_string(options.minPatternLength) + " or more GPU events to suggest";
            return result;
        }
        asked.operatorName = suggestion.operatorName;
        result.operatorName = suggestion.operatorName;
        result.suggested = true;
        result.notes.push_back("no operator given: '" + suggestion.operatorName + "', whose kernel sequence repeats most ("
                               + std::to_string(suggestion.repeats) + " times) on " + rankLabel(suggestion.rank));
    }
    const std::vector<uint8_t> nameMatches = namesContaining(run, asked.operatorName);
    for (std::string& note : positionsNotInRun(run, options.ranks))
        result.notes.push_back(note + ": left out");
    const std::vector<const RankTrace*> ranks = ranksToRead(run, options.ranks);
    size_t failed = 0;
    for (const RankTrace* rank : ranks) {
        const int number = rank->rank;
        const size_t before = result.patterns.size();
        std::string why;
        const CallTree tree = buildCallTree(*rank, run.strings, asked.htaCompat);
        if (!rankPatterns(run, *rank, tree, asked, nameMatches, result.patterns, why)) {
            ++failed;
            result.notes.push_back(rankLabel(number) + ": " + why + "; no result for it");
            continue;
        }
        if (result.patterns.size() == before)
            result.notes.push_back(rankLabel(number) + ": no event named like '" + asked.operatorName + "' has "
                                   + std::to_string(options.minPatternLength) + " or more GPU events beneath it");
    }
    if (result.patterns.empty())
        result.error = failed && failed == ranks.size()
            ? "HTA raises on every rank asked for"
            : "no event named like '" + asked.operatorName + "' launches " + std::to_string(options.minPatternLength)
                + " or more GPU events (--min-pattern-len)";
    return result;
}

std::vector<std::string> operatorNames(const Run& run, const std::string& text, size_t limit)
{
    std::vector<uint8_t> used(run.strings.size(), 0);
    for (const RankTrace& rank : run.ranks) {
        const EventTable& t = rank.events;
        for (size_t i = 0; i < t.size(); ++i)
            if (t.kind[i] == EventKind::CpuOp || t.kind[i] == EventKind::UserAnnotation)
                used[t.name[i].value] = 1;
    }
    std::vector<std::string> names;
    for (size_t id = 1; id < used.size(); ++id) {
        if (!used[id])
            continue;
        const std::string_view name = run.strings.view(StringId{static_cast<uint32_t>(id)});
        if (name.find(text) != std::string_view::npos)
            names.emplace_back(name);
    }
    std::sort(names.begin(), names.end());
    if (names.size() > limit)
        names.resize(limit);
    return names;
}

} // namespace kscope
