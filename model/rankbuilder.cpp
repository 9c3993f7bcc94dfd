#include "rankbuilder.h"

#include "correlationset.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kscope {

EventKind eventKindForCategory(std::string_view c)
{
    if (c == "kernel" || c == "Kernel")
        return EventKind::Kernel;
    if (c == "cpu_op" || c == "Operator")
        return EventKind::CpuOp;
    if (c == "cuda_runtime" || c == "Runtime")
        return EventKind::Runtime;
    if (c == "cuda_driver")
        return EventKind::Driver;
    if (c == "gpu_memcpy" || c == "Memcpy")
        return EventKind::Memcpy;
    if (c == "gpu_memset" || c == "Memset")
        return EventKind::Memset;
    if (c == "user_annotation")
        return EventKind::UserAnnotation;
    if (c == "gpu_user_annotation")
        return EventKind::GpuUserAnnotation;
    if (c == "python_function")
        return EventKind::PythonFunction;
    if (c == "cuda_sync")
        return EventKind::CudaSync;
    if (c == "Trace")
        return EventKind::TraceSpan;
    if (c == "mtia_ccp_events")
        return EventKind::MtiaCcp;
    return EventKind::Other;
}

bool isHtaGpuEvent(const EventTable& events, EventIndex i, StringId eventSync, StringId contextSync)
{
    if (events.stream[i] >= 0 && events.correlation[i] >= 0)
        return true;
    const StringId name = events.name[i];
    return name && (name == eventSync || name == contextSync);
}

ThreadIndex RankBuilder::lookUpThread(int64_t pid, StringId pidName, int64_t tid, StringId tidName)
{
    // String pids/tids get keys outside the numeric range by tagging them with their id.
    const int64_t pidKey = pidName ? (INT64_MIN + pidName.value) : pid;
    const int64_t tidKey = tidName ? (INT64_MIN + tidName.value) : tid;
    if (trace.threads.size() == kMaxThreads) {
        const auto known = m_threadIndex.find({pidKey, tidKey});
        return known != m_threadIndex.end() ? known->second : static_cast<ThreadIndex>(kMaxThreads - 1);
    }
    auto [it, inserted] = m_threadIndex.try_emplace({pidKey, tidKey}, static_cast<ThreadIndex>(trace.threads.size()));
    if (inserted) {
        ThreadKey key;
        key.pid = pid;
        key.tid = tid;
        key.pidName = pidName;
        key.tidName = tidName;
        trace.threads.push_back(key);
    }
    return it->second;
}

EventKind RankBuilder::classifyCategory(StringId category)
{
    if (!category)
        return EventKind::Other;
    if (m_kindOfString.size() <= category.value)
        m_kindOfString.resize(std::max<size_t>(category.value + 1, m_strings.size()), kUnknownKind);
    const EventKind kind = eventKindForCategory(m_strings.view(category));
    m_kindOfString[category.value] = static_cast<uint8_t>(kind);
    return kind;
}

uint32_t RankBuilder::inputShapeIndex(InputShape shape)
{
    const uint64_t key = uint64_t{shape.inputDims.value} << 32 | shape.inputTypes.value;
    std::vector<InputShape>& shapes = trace.events.inputShapes;
    auto [it, inserted] = m_shapeIndex.try_emplace(key, static_cast<uint32_t>(shapes.size()));
    if (inserted)
        shapes.push_back(shape);
    return it->second;
}

void RankBuilder::reserveForJsonBytes(uint64_t bytes)
{
    // Kineto writes 190-320 bytes per event, flows and metadata included; the sort's permutation
    // rebuilds every column at its exact size, so a generous guess costs nothing lasting.
    const size_t events = static_cast<size_t>(std::min<uint64_t>(bytes / 200, 1ull << 31));
    EventTable& t = trace.events;
    t.tsNs.reserve(events);
    t.durNs.reserve(events);
    t.name.reserve(events);
    t.category.reserve(events);
    t.thread.reserve(events);
    t.stream.reserve(events);
    t.correlation.reserve(events);
    t.externalId.reserve(events);
    t.phase.reserve(events);
    t.kind.reserve(events);
}

void RankBuilder::noteBadEvent(BadEventKind kind, uint64_t byteOffset, std::string_view excerpt)
{
    auto it = std::find_if(trace.badEvents.begin(), trace.badEvents.end(),
                           [kind](const BadEventCounter& c) { return c.kind == kind; });
    if (it == trace.badEvents.end()) {
        trace.badEvents.push_back({kind, 0, {}});
        it = trace.badEvents.end() - 1;
    }
    ++it->count;
    if (it->samples.size() < BadEventCounter::kMaxSamples)
        it->samples.push_back({byteOffset, std::string(excerpt.substr(0, 160))});
}

void RankBuilder::finalize(const LoadOptions& options)
{
    for (const auto& [pid, pidName, name] : processNames)
        for (ThreadKey& thread : trace.threads)
            if (thread.pid == pid && thread.pidName == pidName)
                thread.processName = name;
    if (options.htaCompat && trace.metadata.fractionalTimestamps)
        applyHtaRounding();
    // HTA trims when the run has two or more ProfilerStep names. This file alone having two means
    // the run has them too, so trim now, inside the sort; otherwise assembly decides run-wide.
    std::vector<uint8_t> keep;
    if (distinctProfilerStepNames(m_strings) >= 2) {
        keep = completeStepsMask(trace.events, m_strings, trimRuleFor(options));
        countTrimmed(trace, keep);
        trace.trimmedToCompleteSteps = true;
    }
    sortByStart(keep);
    linkCorrelations();
    linkParents();
    assignSteps(options.htaCompat);
    detectDeviceType();
    recordStreamFileOrder(trace);
    trace.events.indexGpuRows();
    std::sort(trace.counters.begin(), trace.counters.end(),
              [](const CounterSample& a, const CounterSample& b) { return a.tsNs < b.tsNs; });
    trace.events.shrinkToFit();
}

double htaMicros(int64_t nanos)
{
    return static_cast<double>(static_cast<long double>(nanos) / 1000.0L);
}

void htaRoundSpan(int64_t& tsNs, int64_t& durNs)
{
    const double ts = htaMicros(tsNs);
    const double end = std::floor(ts + htaMicros(durNs));
    const double start = std::ceil(ts);
    tsNs = static_cast<int64_t>(start) * 1000;
    durNs = static_cast<int64_t>(end - start) * 1000;
}

void RankBuilder::applyHtaRounding()
{
    EventTable& t = trace.events;
    for (size_t i = 0; i < t.size(); ++i) {
        int64_t durNs = t.durNs[i];
        htaRoundSpan(t.tsNs[i], durNs);
        t.durNs.set(i, durNs);
    }
    for (CounterSample& c : trace.counters)
        c.tsNs = static_cast<int64_t>(std::ceil(htaMicros(c.tsNs))) * 1000;
}

namespace {

template <typename C>
void permute(C& column, const std::vector<EventIndex>& order)
{
    C sorted;
    sorted.reserve(order.size());  // exact size: the parse-time reserve's slack goes away here
    for (EventIndex i : order)
        sorted.push_back(column[i]);
    column.swap(sorted);
}

template <typename Row>
void remapSparse(std::vector<Row>& rows, const std::vector<EventIndex>& newIndex)
{
    size_t out = 0;
    for (Row& row : rows) {
        const EventIndex mapped = newIndex[row.event];
        if (mapped == kNoEvent)
            continue;
        row.event = mapped;
        rows[out++] = row;
    }
    rows.resize(out);
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.event < b.event; });
}

template <typename Fn>
void forEachSparse(EventTable& t, Fn&& fn)
{
    fn(t.memoryArgs);
    fn(t.collectiveArgs);
    fn(t.shapeArgs);
    fn(t.kernelLaunchArgs);
    fn(t.syncArgs);
    fn(t.callStackArgs);
    fn(t.memoryEvents);
}

} // namespace

void RankBuilder::sortByStart(const std::vector<uint8_t>& keep)
{
    EventTable& t = trace.events;
    const size_t n = t.size();
    // Rows dropped by HTA's trimming never enter the order: the permutation below then builds
    // every column at its final size in one pass.
    std::vector<EventIndex> order;
    order.reserve(n);
    for (size_t i = 0; i < n; ++i)
        if (keep.empty() || keep[i])
            order.push_back(static_cast<EventIndex>(i));
    // Longer events first on equal starts so an enclosing op precedes what it encloses.
    std::stable_sort(order.begin(), order.end(), [&t](EventIndex a, EventIndex b) {
        if (t.tsNs[a] != t.tsNs[b])
            return t.tsNs[a] < t.tsNs[b];
        return t.durNs[a] > t.durNs[b];
    });
    {
        permute(t.tsNs, order);
        permute(t.durNs, order);
        permute(t.name, order);
        permute(t.category, order);
        permute(t.thread, order);
        permute(t.stream, order);
        permute(t.correlation, order);
        permute(t.externalId, order);
        permute(t.phase, order);
        permute(t.kind, order);
        std::vector<EventIndex> newIndex(n, kNoEvent);
        for (size_t i = 0; i < order.size(); ++i)
            newIndex[order[i]] = static_cast<EventIndex>(i);
        forEachSparse(t, [&](auto& rows) { remapSparse(rows, newIndex); });
    }
    const size_t kept = order.size();
    t.link.assign(kept, kNoEvent);
    t.parent.assign(kept, kNoEvent);
    t.step.assign(kept, -1);
    t.depth.assign(kept, 0);
    t.fileIndex.assign(order.begin(), order.end());
}

void RankBuilder::linkCorrelations()
{
    EventTable& t = trace.events;
    const StringId eventSync = m_strings.find("Event Sync");
    const StringId contextSync = m_strings.find("Context Sync");
    std::vector<std::pair<int64_t, EventIndex>> cpuByCorrelation;
    std::vector<EventIndex> gpu;
    for (size_t i = 0; i < t.size(); ++i) {
        const auto e = static_cast<EventIndex>(i);
        if (t.correlation[e] == -1 || t.phase[e] != Phase::Complete)
            continue;
        if (isHtaGpuEvent(t, e, eventSync, contextSync))
            gpu.push_back(e);
        else
            cpuByCorrelation.emplace_back(t.correlation[e], e);
    }
    std::sort(cpuByCorrelation.begin(), cpuByCorrelation.end());
    for (EventIndex g : gpu) {
        auto it = std::upper_bound(cpuByCorrelation.begin(), cpuByCorrelation.end(),
                                   std::make_pair(t.correlation[g], std::numeric_limits<EventIndex>::max()));
        if (it == cpuByCorrelation.begin() || (it - 1)->first != t.correlation[g])
            continue;
        const EventIndex cpu = (it - 1)->second;
        t.link[g] = cpu;
        t.link[cpu] = g;
    }
}

void RankBuilder::linkParents()
{
    EventTable& t = trace.events;
    std::vector<std::vector<EventIndex>> stacks(trace.threads.size());
    for (size_t i = 0; i < t.size(); ++i) {
        const auto e = static_cast<EventIndex>(i);
        // GPU activity carries a stream; a host event may too (a Triton cpu_op) and still nests.
        if (t.phase[e] != Phase::Complete || (t.stream[e] >= 0 && !isHostKind(t.kind[e])))
            continue;
        auto& stack = stacks[t.thread[e]];
        while (!stack.empty() && t.endNs(stack.back()) <= t.tsNs[e])
            stack.pop_back();
        if (!stack.empty()) {
            t.parent[e] = stack.back();
            t.depth[e] = static_cast<uint8_t>(std::min<size_t>(stack.size(), UINT8_MAX));
        }
        stack.push_back(e);
    }
}

namespace {

// Step number from "ProfilerStep#12" (HTA: ProfilerStep\s*#\s*(\d+)), or -1.
int32_t parseStepNumber(std::string_view name)
{
    constexpr std::string_view prefix = "ProfilerStep";
    if (name.substr(0, prefix.size()) != prefix)
        return -1;
    size_t i = prefix.size();
    while (i < name.size() && std::isspace(static_cast<unsigned char>(name[i])))
        ++i;
    if (i >= name.size() || name[i] != '#')
        return -1;
    ++i;
    while (i < name.size() && std::isspace(static_cast<unsigned char>(name[i])))
        ++i;
    int64_t number = 0;
    size_t digits = 0;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && digits < 10) {
        number = number * 10 + (name[i] - '0');
        ++i;
        ++digits;
    }
    return digits ? static_cast<int32_t>(std::min<int64_t>(number, INT32_MAX)) : -1;
}

} // namespace

void RankBuilder::assignSteps(bool stepsInFileOrder)
{
    EventTable& t = trace.events;
    trace.steps.clear();
    std::vector<int32_t> stepOfName(m_strings.size(), -2);
    for (size_t i = 0; i < t.size(); ++i) {
        const auto e = static_cast<EventIndex>(i);
        if (t.phase[e] != Phase::Complete || !t.name[e])
            continue;
        int32_t& cached = stepOfName[t.name[e].value];
        if (cached == -2)
            cached = parseStepNumber(m_strings.view(t.name[e]));
        if (cached >= 0)
            trace.steps.push_back({cached, e, t.tsNs[e], t.endNs(e)});
    }
    if (trace.steps.empty())
        return;

    // Elementary segments between step boundaries; each knows the last step containing it.
    std::vector<int64_t> bounds;
    for (const ProfilerStep& s : trace.steps) {
        bounds.push_back(s.startNs);
        bounds.push_back(s.endNs);
    }
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    // Where steps overlap the last matching one wins; HTA's list is in file order (add_iteration).
    std::vector<const ProfilerStep*> matchOrder;
    for (const ProfilerStep& s : trace.steps)
        matchOrder.push_back(&s);
    if (stepsInFileOrder && t.fileIndex.size() == t.size())
        std::stable_sort(matchOrder.begin(), matchOrder.end(), [&t](const ProfilerStep* a, const ProfilerStep* b) {
            return t.fileIndex[a->event] < t.fileIndex[b->event];
        });
    std::vector<int32_t> segmentStep(bounds.size(), -1);
    for (size_t k = 0; k < bounds.size(); ++k)
        for (const ProfilerStep* s : matchOrder)
            if (s->startNs <= bounds[k] && bounds[k] < s->endNs)
                segmentStep[k] = s->number;
    auto stepAt = [&](int64_t ts) {
        auto it = std::upper_bound(bounds.begin(), bounds.end(), ts);
        if (it == bounds.begin())
            return -1;
        return segmentStep[static_cast<size_t>(it - bounds.begin()) - 1];
    };

    const StringId cpuOp = m_strings.find("cpu_op");
    for (size_t i = 0; i < t.size(); ++i) {
        const auto e = static_cast<EventIndex>(i);
        if (t.stream[e] < 0 || (t.stream[e] == 0 && cpuOp && t.category[e] == cpuOp))
            t.step.set(e, stepAt(t.tsNs[e]));
    }
    // GPU work belongs to the step its launch belongs to (HTA: only streams > 0).
    for (size_t i = 0; i < t.size(); ++i) {
        const auto e = static_cast<EventIndex>(i);
        if (t.stream[e] > 0)
            t.step.set(e, t.link[e] != kNoEvent ? t.step[t.link[e]] : -1);
    }
}

void RankBuilder::detectDeviceType()
{
    const auto& dist = trace.metadata.distributed;
    if (dist && dist->backend.find("mtia:hccl") != std::string::npos)
        trace.deviceType = DeviceType::Mtia;
    else if (m_strings.find("cudaLaunchKernel"))
        trace.deviceType = DeviceType::Nvidia;
    else if (m_strings.find("hipLaunchKernel"))
        trace.deviceType = DeviceType::Amd;
    else if (m_strings.find("runFunction - job_prep_and_submit_for_execution"))
        trace.deviceType = DeviceType::Mtia;
    else if (m_strings.find("hipExtModuleLaunchKernel"))
        trace.deviceType = DeviceType::Amd;
    else
        trace.deviceType = DeviceType::Unknown;
}

void recordStreamFileOrder(RankTrace& trace)
{
    const EventTable& t = trace.events;
    std::vector<std::pair<uint32_t, int32_t>> firstSeen;  // (file index, stream)
    for (size_t i = 0; i < t.size(); ++i) {
        const EventKind kind = t.kind[i];
        if (t.stream[i] < 0 || t.phase[i] != Phase::Complete
            || (kind != EventKind::Kernel && kind != EventKind::Memcpy && kind != EventKind::Memset && kind != EventKind::MtiaCcp))
            continue;
        auto it = std::find_if(firstSeen.begin(), firstSeen.end(), [&](const auto& p) { return p.second == t.stream[i]; });
        if (it == firstSeen.end())
            firstSeen.emplace_back(t.fileIndex[i], t.stream[i]);
        else
            it->first = std::min(it->first, t.fileIndex[i]);
    }
    std::sort(firstSeen.begin(), firstSeen.end());
    trace.streamsInFileOrder.clear();
    for (const auto& [index, stream] : firstSeen)
        trace.streamsInFileOrder.push_back(stream);
}

namespace {

// The kept rows of `from` into `to`, links, parents, steps and sparse args remapped. `to` may be
// `from` (compaction in place: a row only moves to a lower index).
void selectRows(const RankTrace& from, RankTrace& to, const std::vector<uint8_t>& keep)
{
    const EventTable& f = from.events;
    EventTable& t = to.events;
    const bool inPlace = &from == &to;
    const size_t n = f.size();
    std::vector<EventIndex> newIndex(n, kNoEvent);
    EventIndex next = 0;
    for (size_t i = 0; i < n; ++i)
        if (keep[i])
            newIndex[i] = next++;
    const auto kept = static_cast<size_t>(next);
    // Each column is rebuilt at its exact size and swapped in: a narrow column re-places its
    // escapes, and in place or not reads the same.
    auto gather = [&](const auto& source, auto& column) {
        std::decay_t<decltype(column)> rows;
        rows.reserve(kept);
        for (size_t i = 0; i < n; ++i)
            if (keep[i])
                rows.push_back(source[i]);
        column.swap(rows);
    };
    gather(f.tsNs, t.tsNs);
    gather(f.durNs, t.durNs);
    gather(f.name, t.name);
    gather(f.category, t.category);
    gather(f.thread, t.thread);
    gather(f.stream, t.stream);
    gather(f.correlation, t.correlation);
    gather(f.externalId, t.externalId);
    gather(f.link, t.link);
    gather(f.parent, t.parent);
    gather(f.step, t.step);
    gather(f.phase, t.phase);
    gather(f.kind, t.kind);
    gather(f.depth, t.depth);
    const bool hasFileIndex = f.fileIndex.size() == n;  // only while loading
    if (hasFileIndex)
        gather(f.fileIndex, t.fileIndex);
    for (EventIndex& link : t.link)
        if (link != kNoEvent)
            link = newIndex[link];
    for (EventIndex& parent : t.parent)
        if (parent != kNoEvent)
            parent = newIndex[parent];
    if (inPlace) {
        forEachSparse(t, [&](auto& rows) { remapSparse(rows, newIndex); });
    } else {
        // newIndex keeps the order of rows, so the copies stay sorted by event.
        auto copyKept = [&](const auto& source, auto& rows) {
            for (auto row : source)
                if (newIndex[row.event] != kNoEvent) {
                    row.event = newIndex[row.event];
                    rows.push_back(row);
                }
        };
        copyKept(f.memoryArgs, t.memoryArgs);
        copyKept(f.collectiveArgs, t.collectiveArgs);
        copyKept(f.shapeArgs, t.shapeArgs);
        t.inputShapes = f.inputShapes;
        copyKept(f.kernelLaunchArgs, t.kernelLaunchArgs);
        copyKept(f.syncArgs, t.syncArgs);
        copyKept(f.callStackArgs, t.callStackArgs);
        copyKept(f.memoryEvents, t.memoryEvents);
    }
    std::vector<ProfilerStep> steps;
    for (ProfilerStep s : from.steps) {
        if (newIndex[s.event] == kNoEvent)
            continue;
        s.event = newIndex[s.event];
        steps.push_back(s);
    }
    to.steps = std::move(steps);
    t.indexGpuRows();
    if (hasFileIndex) {
        recordStreamFileOrder(to);
    } else {
        // Keep the recorded order, minus streams with no events left.
        std::erase_if(to.streamsInFileOrder, [&t](int32_t stream) {
            return std::find(t.stream.begin(), t.stream.end(), stream) == t.stream.end();
        });
    }
}

} // namespace

void keepRows(RankTrace& trace, const std::vector<uint8_t>& keep)
{
    selectRows(trace, trace, keep);
    // Giving back a little slack would copy every column into fresh memory: only worth it when
    // much was dropped (HTA's trimming usually drops one step of many).
    EventTable& t = trace.events;
    if (t.tsNs.capacity() > t.size() + t.size() / 8)
        t.shrinkToFit();
}

RankTrace copyRows(const RankTrace& trace, const std::vector<uint8_t>& keep)
{
    RankTrace copy;
    static_cast<RankTraceInfo&>(copy) = trace;  // all but the events
    selectRows(trace, copy, keep);
    copy.runRows.reserve(copy.events.size());
    for (size_t i = 0; i < keep.size(); ++i)
        if (keep[i])
            copy.runRows.push_back(trace.runRow(static_cast<EventIndex>(i)));
    return copy;
}

size_t distinctProfilerStepNames(const StringPool& strings)
{
    size_t count = 0;
    for (size_t id = 1; id < strings.size(); ++id) {
        const std::string_view s = strings.view(StringId{static_cast<uint32_t>(id)});
        if (s.size() > 13 && s.substr(0, 13) == "ProfilerStep#" && std::isdigit(static_cast<unsigned char>(s[13])))
            ++count;
    }
    return count;
}

void countTrimmed(RankTrace& trace, const std::vector<uint8_t>& keep)
{
    const EventTable& t = trace.events;
    trace.eventsTrimmed = trace.memoryEventsTrimmed = trace.gpuEventsTrimmed = 0;
    if (keep.size() != t.size())
        return;
    for (size_t i = 0; i < keep.size(); ++i) {
        if (keep[i])
            continue;
        ++trace.eventsTrimmed;
        const EventKind kind = t.kind[i];
        if (kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset)
            ++trace.gpuEventsTrimmed;
    }
    for (const MemoryEventArgs& m : t.memoryEvents)
        if (m.event >= 0 && size_t(m.event) < keep.size() && !keep[size_t(m.event)])
            ++trace.memoryEventsTrimmed;
}

std::vector<uint8_t> completeStepsMask(const EventTable& t, const StringPool& strings, const TrimRule& rule)
{
    const bool includeLastStep = rule.includeLastStep;
    const StringId eventSync = strings.find("Event Sync");
    const StringId contextSync = strings.find("Context Sync");
    const size_t n = t.size();
    std::vector<uint8_t> isGpu(n);
    std::vector<int8_t> isStepName(strings.size(), -1);  // per string id: ^ProfilerStep#(\d+)
    bool anyCpu = false;
    int64_t cpuMinTs = INT64_MAX, cpuMaxEnd = INT64_MIN;
    int64_t lastStart = INT64_MIN, lastEnd = INT64_MIN;
    for (size_t i = 0; i < n; ++i) {
        const auto e = static_cast<EventIndex>(i);
        isGpu[i] = isHtaGpuEvent(t, e, eventSync, contextSync);
        if (isGpu[i])
            continue;
        anyCpu = true;
        cpuMinTs = std::min(cpuMinTs, t.tsNs[i]);
        cpuMaxEnd = std::max(cpuMaxEnd, t.endNs(e));
        if (t.phase[i] != Phase::Complete || !t.name[i])
            continue;
        int8_t& step = isStepName[t.name[i].value];
        if (step < 0) {
            const std::string_view name = strings.view(t.name[i]);
            step = name.size() > 13 && name.substr(0, 13) == "ProfilerStep#" && std::isdigit(static_cast<unsigned char>(name[13]));
        }
        if (step) {
            lastStart = std::max(lastStart, t.tsNs[i]);
            lastEnd = std::max(lastEnd, t.endNs(e));
        }
    }
    if (!anyCpu)
        return {};
    if (lastStart == INT64_MIN) {
        if (rule.keepRankWithoutSteps)
            return {};
        lastStart = cpuMinTs;
        lastEnd = cpuMaxEnd;
    }
    std::vector<uint8_t> keep(n, 0);
    // The correlations of the CPU events kept, and of every CPU event: -1 (none) apart, so the
    // sets hold only the launches' ids. GPU work without a correlation matches a kept CPU event
    // without one, as in HTA's join.
    std::vector<int64_t> keptCorrelations, allCorrelations;
    bool keptWithout = false, anyWithout = false;
    auto inWindow = [&](size_t i) { return includeLastStep ? t.tsNs[i] <= lastEnd : t.tsNs[i] < lastStart; };
    for (size_t i = 0; i < n; ++i) {
        if (isGpu[i])
            continue;
        keep[i] = inWindow(i);
        const int64_t correlation = t.correlation[i];
        if (keep[i])
            correlation == -1 ? void(keptWithout = true) : keptCorrelations.push_back(correlation);
        if (rule.keepGpuWithoutLaunch)
            correlation == -1 ? void(anyWithout = true) : allCorrelations.push_back(correlation);
    }
    const CorrelationSet kept(keptCorrelations), all(allCorrelations);
    for (size_t i = 0; i < n; ++i) {
        if (!isGpu[i])
            continue;
        const int64_t correlation = t.correlation[i];
        keep[i] = correlation == -1 ? keptWithout : kept.contains(correlation);
        // HTA drops GPU work whose launch is not in the trace; the default mode keeps it by its
        // own start, so its GPU time is not lost.
        if (!keep[i] && rule.keepGpuWithoutLaunch && !(correlation == -1 ? anyWithout : all.contains(correlation)))
            keep[i] = inWindow(i);
    }
    return keep;
}

uint64_t trimToCompleteSteps(RankTrace& trace, const StringPool& strings, const TrimRule& rule)
{
    const std::vector<uint8_t> keep = completeStepsMask(trace.events, strings, rule);
    countTrimmed(trace, keep);
    const uint64_t dropped = trace.eventsTrimmed;
    if (dropped > 0)
        keepRows(trace, keep);
    trace.trimmedToCompleteSteps = true;
    return dropped;
}

} // namespace kscope
