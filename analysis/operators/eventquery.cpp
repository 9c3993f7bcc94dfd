#include "analysis/operators/eventquery.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/operators/memory.h"

#include <algorithm>
#include <array>

namespace kscope {

namespace {

constexpr std::array<std::string_view, 8> kClassNames = {"kernel", "cpu-op", "runtime", "memcpy",
                                                         "memset", "annotation", "memory", "other"};

} // namespace

const char* toString(EventClass c)
{
    return kClassNames[static_cast<size_t>(c)].data();
}

bool parseEventClass(std::string_view text, EventClass& out)
{
    for (size_t i = 0; i < kClassNames.size(); ++i)
        if (kClassNames[i] == text) {
            out = static_cast<EventClass>(i);
            return true;
        }
    return false;
}

EventClass eventClass(const EventTable& events, size_t row)
{
    switch (events.kind[row]) {
    case EventKind::Kernel: return EventClass::Kernel;
    case EventKind::CpuOp: return EventClass::CpuOp;
    case EventKind::Runtime:
    case EventKind::Driver: return EventClass::Runtime;
    case EventKind::Memcpy: return EventClass::Memcpy;
    case EventKind::Memset: return EventClass::Memset;
    case EventKind::UserAnnotation:
    case EventKind::GpuUserAnnotation: return EventClass::Annotation;
    default: break;
    }
    if (events.phase[row] == Phase::Instant && findSparse(events.memoryEvents, static_cast<EventIndex>(row)))
        return EventClass::Memory;
    return EventClass::Other;
}

EventMatcher::EventMatcher(const Run& run, const EventFilter& filter) : m_run(run), m_filter(filter)
{
    if (!filter.nameRegex.empty()) {
        try {
            m_regex = std::make_unique<std::regex>(filter.nameRegex, std::regex::ECMAScript | std::regex::optimize);
        } catch (const std::regex_error& e) {
            m_error = "--name '" + filter.nameRegex + "' is no regular expression: " + e.what();
        }
        m_nameState.assign(run.strings.size() + 1, 0);
    }
}

bool EventMatcher::matches(const EventTable& t, size_t i)
{
    if (m_filter.htaRows && !(isHtaVisible(t, i) && t.category[i]))
        return false;
    const int64_t start = t.tsNs[i] - m_run.minTsNs;
    if (start > m_filter.toNs || start + t.durNs[i] < m_filter.fromNs)
        return false;
    if (t.durNs[i] > 0 && start + t.durNs[i] == m_filter.fromNs && m_filter.fromNs != start)
        return false;  // ends exactly where the window starts: no overlap
    if (m_filter.classes && !(m_filter.classes & (1u << static_cast<unsigned>(eventClass(t, i)))))
        return false;
    if (m_regex) {
        const uint32_t id = t.name[i].value;
        if (id >= m_nameState.size())
            return false;
        uint8_t& state = m_nameState[id];
        if (state == 0) {
            const std::string_view name = m_run.str(t.name[i]);
            state = std::regex_search(name.begin(), name.end(), *m_regex) ? 2 : 1;
        }
        return state == 2;
    }
    return true;
}

std::vector<EventIndex> selectEvents(const Run& run, const RankTrace& rank, const EventFilter& filter)
{
    EventMatcher matcher(run, filter);
    std::vector<EventIndex> rows;
    if (!matcher.error().empty())
        return rows;
    const EventTable& t = rank.events;
    for (size_t i = 0; i < t.size(); ++i)
        if (matcher.matches(t, i))
            rows.push_back(static_cast<EventIndex>(i));
    return rows;
}

const std::vector<TableColumn>& eventColumns()
{
    static const std::vector<TableColumn> columns = {
        "rank", "row", "kind", "cat", "name", "pid", "tid", "stream", micros("ts (us)"), micros("dur (us)"), "correlation",
        "external_id", "step", "link_row", "parent_row", "depth", "bytes", "input_dims", "total_allocated",
        "total_reserved", "device"};
    return columns;
}

namespace {

Cell micros(int64_t ns)
{
    if (ns % 1000 == 0)
        return Cell{ns / 1000};
    return Cell{static_cast<double>(ns) / 1000.0};
}

Cell threadPart(const Run& run, StringId name, int64_t number)
{
    return name ? Cell{std::string(run.str(name))} : Cell{number};
}

} // namespace

std::vector<Cell> eventCells(const Run& run, const RankTrace& rank, EventIndex e)
{
    const EventTable& t = rank.events;
    const ThreadKey& key = rank.threads[t.thread[e]];
    const MemoryArgs* m = findSparse(t.memoryArgs, e);
    const ShapeArgs* s = findSparse(t.shapeArgs, e);
    const MemoryEventArgs* me = findSparse(t.memoryEvents, e);
    std::vector<Cell> row;
    row.reserve(eventColumns().size());
    row.emplace_back(int64_t(rank.rank));
    row.emplace_back(int64_t(e));
    row.emplace_back(std::string(toString(eventClass(t, e))));
    row.emplace_back(std::string(run.str(t.category[e])));
    row.emplace_back(std::string(run.str(t.name[e])));
    row.push_back(threadPart(run, key.pidName, key.pid));
    row.push_back(threadPart(run, key.tidName, key.tid));
    row.emplace_back(int64_t(t.stream[e]));
    row.push_back(micros(t.tsNs[e] - run.minTsNs));
    row.push_back(micros(t.durNs[e]));
    row.emplace_back(t.correlation[e]);
    row.emplace_back(int64_t(t.externalId[e]));
    row.emplace_back(int64_t(t.step[e]));
    row.emplace_back(t.link[e] == kNoEvent ? int64_t(-1) : int64_t(t.link[e]));
    row.emplace_back(t.parent[e] == kNoEvent ? int64_t(-1) : int64_t(t.parent[e]));
    row.emplace_back(int64_t(t.depth[e]));
    if (me)
        row.emplace_back(me->bytes);
    else if (m && m->bytes >= 0)
        row.emplace_back(m->bytes);
    else
        row.emplace_back();
    const StringId dims = s ? t.shapeOf(*s).inputDims : StringId{};
    row.push_back(dims ? Cell{std::string(run.str(dims))} : Cell{});
    if (me) {
        row.emplace_back(me->totalAllocated);
        row.emplace_back(me->totalReserved);
        // One naming of devices with the memory views ("hip:0" on ROCm, not "type6:0").
        row.emplace_back(toString(MemoryDeviceId{.type = static_cast<int8_t>(me->deviceType),
                                                 .index = static_cast<int8_t>(me->deviceId)}));
    } else {
        row.emplace_back();
        row.emplace_back();
        row.emplace_back();
    }
    return row;
}

int64_t htaRowIndex(const RankTrace& rank, size_t i)
{
    const EventTable& t = rank.events;
    if (t.fileIndex.size() != t.size())
        return static_cast<int64_t>(i);
    const uint32_t ordinal = t.fileIndex[i];
    const auto& runs = rank.elementOffsets;
    auto it = std::upper_bound(runs.begin(), runs.end(), ordinal,
                               [](uint32_t value, const std::pair<uint32_t, uint32_t>& run) { return value < run.first; });
    const uint32_t offset = it == runs.begin() ? 0 : (it - 1)->second;
    return int64_t(ordinal) + offset;
}

int64_t htaIndexCorrelation(const RankTrace& rank, size_t i)
{
    const EventTable& t = rank.events;
    if (t.correlation[i] == -1)
        return -1;
    const EventIndex partner = t.link[i];
    if (partner == kNoEvent)
        return 0;
    return htaRowIndex(rank, partner);
}

} // namespace kscope
