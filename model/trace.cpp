#include "trace.h"

#include "atomicfile.h"

#include <algorithm>

namespace kscope {

const char* toString(DeviceType type)
{
    switch (type) {
    case DeviceType::Nvidia: return "NVIDIA GPU";
    case DeviceType::Amd: return "AMD GPU";
    case DeviceType::Mtia: return "MTIA";
    case DeviceType::Unknown: break;
    }
    return "UNKNOWN GPU";
}

const char* toString(LoadErrorKind kind)
{
    switch (kind) {
    case LoadErrorKind::Unreadable: return "unreadable";
    case LoadErrorKind::NotGzip: return "not gzip";
    case LoadErrorKind::CorruptGzip: return "corrupt gzip";
    case LoadErrorKind::NotJson: return "not JSON";
    case LoadErrorKind::Truncated: return "truncated";
    case LoadErrorKind::NoTraceEvents: return "no traceEvents";
    case LoadErrorKind::TooLarge: return "too large";
    case LoadErrorKind::Cancelled: return "cancelled";
    case LoadErrorKind::NotATrace: return "not a trace";
    }
    return "error";
}

std::string offsetText(const LoadError& error)
{
    return "byte " + std::to_string(error.byteOffset) + (error.inflated ? " of the inflated stream" : "");
}

std::string describe(const LoadError& error)
{
    std::string text = error.file.string();
    if (error.rank >= 0)
        text += " (rank " + std::to_string(error.rank) + ")";
    switch (error.kind) {
    case LoadErrorKind::Unreadable:
    case LoadErrorKind::Cancelled:
    case LoadErrorKind::NotATrace:
        // No offset worth giving: the file or folder could not be opened, or is no trace at all.
        return text + ": " + error.message;
    default:
        return text + ": " + toString(error.kind) + " at " + offsetText(error) + ": " + error.message;
    }
}

const char* toString(BadEventKind kind)
{
    switch (kind) {
    case BadEventKind::MissingTimestamp: return "missing ts";
    case BadEventKind::BadTimestamp: return "bad ts/dur";
    case BadEventKind::NegativeDuration: return "negative dur";
    case BadEventKind::UnknownPhase: return "unknown ph";
    case BadEventKind::WrongType: return "wrong field type";
    case BadEventKind::NotAnObject: return "not an object";
    case BadEventKind::AbsurdDuration: return "dur over 7 days";
    case BadEventKind::Malformed: return "malformed JSON";
    case BadEventKind::Count_: break;
    }
    return "bad event";
}

template <typename V>
static size_t bytesOf(const V& v)
{
    if constexpr (requires { v.residentBytes(); })
        return v.residentBytes();
    else
        return v.capacity() * sizeof(typename V::value_type);
}

size_t EventTable::residentBytes() const
{
    return bytesOf(tsNs) + bytesOf(durNs) + bytesOf(name) + bytesOf(category) + bytesOf(thread) + bytesOf(stream)
        + bytesOf(correlation) + bytesOf(externalId) + bytesOf(link) + bytesOf(parent) + bytesOf(step)
        + bytesOf(phase) + bytesOf(kind) + bytesOf(depth) + bytesOf(fileIndex) + bytesOf(gpuRows) + bytesOf(memoryArgs) + bytesOf(collectiveArgs)
        + bytesOf(shapeArgs) + bytesOf(inputShapes) + bytesOf(kernelLaunchArgs) + bytesOf(syncArgs) + bytesOf(callStackArgs)
        + bytesOf(memoryEvents);
}

void EventTable::indexGpuRows()
{
    size_t count = 0;
    for (size_t i = 0; i < size(); ++i)
        count += visibleOnStream(i);
    gpuRows.clear();
    gpuRows.reserve(count);  // exactly: the table is final, no slack to give back later
    for (size_t i = 0; i < size(); ++i)
        if (visibleOnStream(i))
            gpuRows.push_back(static_cast<EventIndex>(i));
}

void EventTable::shrinkToFit()
{
    tsNs.shrink_to_fit();
    durNs.shrink_to_fit();
    name.shrink_to_fit();
    category.shrink_to_fit();
    thread.shrink_to_fit();
    stream.shrink_to_fit();
    correlation.shrink_to_fit();
    externalId.shrink_to_fit();
    link.shrink_to_fit();
    parent.shrink_to_fit();
    step.shrink_to_fit();
    phase.shrink_to_fit();
    kind.shrink_to_fit();
    depth.shrink_to_fit();
    fileIndex.shrink_to_fit();
    gpuRows.shrink_to_fit();
    memoryArgs.shrink_to_fit();
    collectiveArgs.shrink_to_fit();
    shapeArgs.shrink_to_fit();
    inputShapes.shrink_to_fit();
    kernelLaunchArgs.shrink_to_fit();
    syncArgs.shrink_to_fit();
    callStackArgs.shrink_to_fit();
    memoryEvents.shrink_to_fit();
}

EventIndex RankTrace::rowOfRunEvent(EventIndex runRow) const
{
    if (runRows.empty())
        return runRow >= 0 && size_t(runRow) < events.size() ? runRow : kNoEvent;
    const auto it = std::lower_bound(runRows.begin(), runRows.end(), runRow);
    return it != runRows.end() && *it == runRow ? static_cast<EventIndex>(it - runRows.begin()) : kNoEvent;
}

size_t RankTrace::residentBytes() const
{
    return events.residentBytes() + bytesOf(runRows) + bytesOf(threads) + bytesOf(flows) + bytesOf(counters) + bytesOf(steps);
}

const RankTrace* Run::findRank(int rank) const
{
    auto it = std::lower_bound(ranks.begin(), ranks.end(), rank,
                               [](const RankTrace& r, int value) { return r.rank < value; });
    return (it != ranks.end() && it->rank == rank) ? &*it : nullptr;
}

std::vector<RankIndex> Run::ranksNumbered(const std::vector<int>& numbers) const
{
    std::vector<RankIndex> found;
    for (const RankTrace& r : ranks)
        if (std::find(numbers.begin(), numbers.end(), r.rank) != numbers.end())
            found.push_back(indexOf(r));
    return found;
}

bool Run::numberShared(RankIndex index) const
{
    const int number = at(index).rank;
    const size_t i = index.value;
    return (i > 0 && ranks[i - 1].rank == number) || (i + 1 < ranks.size() && ranks[i + 1].rank == number);
}

std::string Run::rankName(RankIndex index) const
{
    const RankTrace& r = at(index);
    std::string name = std::to_string(r.rank);
    if (numberShared(index)) {
        // The file's name without what every trace file ends with, so ticks stay short.
        std::string file = r.file.filename().string();
        for (std::string_view suffix : {".gz", ".json", ".pt.trace"})
            if (file.size() > suffix.size() && file.ends_with(suffix))
                file.resize(file.size() - suffix.size());
        name += " (" + file + ")";
    }
    return name;
}

size_t Run::residentBytes() const
{
    size_t total = strings.residentBytes();
    for (const RankTrace& r : ranks)
        total += r.residentBytes();
    return total;
}

std::vector<std::filesystem::path> inputFiles(const Run& run)
{
    std::vector<std::filesystem::path> files;
    for (const RankTrace& rank : run.ranks)
        files.push_back(rank.file);
    for (const LoadError& error : run.errors)
        if (!error.file.empty())
            files.push_back(error.file);
    for (const LoadWarning& warning : run.warnings)  // e.g. a second file of the same rank, left out
        if (!warning.file.empty())
            files.push_back(warning.file);
    for (const SkippedFile& skipped : run.skippedFiles)
        files.push_back(skipped.file);
    return files;
}

} // namespace kscope
