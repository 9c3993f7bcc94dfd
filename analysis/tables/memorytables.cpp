#include "analysis/tables/memorytables.h"

#include "analysis/operators/memory.h"
#include "analysis/tables/resulttables.h"

#include "model/trace.h"

#include <algorithm>

namespace kscope {

namespace {


Cell since(const Run& run, int64_t ns)
{
    return microsCell(ns - run.minTsNs);
}

// -1 marks what the trace does not tell: an empty cell.
Cell known(int64_t value)
{
    return value < 0 ? Cell{} : Cell{value};
}

std::string opName(const Run& run, StringId op)
{
    return op ? std::string(run.str(op)) : std::string("(outside any op)");
}

} // namespace

Table memorySummaryTable(const Run& run, const MemoryTimeline& result)
{
    Table table;
    table.columns = {"rank", "device", "events", "allocations", "frees", "bytes_allocated", "bytes_freed",
                     "peak_allocated", micros("peak_ts (us)"), "peak_reserved", "first_allocated", "last_allocated",
                     "not_freed", "not_freed_bytes", "freed_from_before", "device_memory"};
    for (const MemoryDevice& d : result.devices)
        table.addRow({int64_t(d.device.rank), toString(d.device), d.events, d.allocations, d.frees, d.bytesAllocated,
                      d.bytesFreed, d.peakAllocated, since(run, d.peakAllocatedNs), known(d.peakReserved), d.firstAllocated,
                      d.lastAllocated, known(d.notFreed), known(d.notFreedBytes), known(d.freedFromBefore),
                      known(d.capacityBytes)});
    return withNotes(std::move(table), result);
}

Table memorySeriesTable(const Run& run, const MemoryTimeline& result)
{
    Table table;
    table.columns = {"rank", "device", micros("ts (us)"), "allocated", "reserved", "op"};
    for (const MemoryDevice& d : result.devices) {
        const std::string device = toString(d.device);
        for (const MemoryPoint& p : d.series)
            table.addRow({int64_t(d.device.rank), device, since(run, p.tsNs), p.allocated, known(p.reserved),
                          p.op ? Cell{std::string(run.str(p.op))} : Cell{}});
    }
    return withNotes(std::move(table), result);
}

Table memoryStepsTable(const MemoryTimeline& result)
{
    Table table;
    table.columns = {"rank", "device", "step", "events", "start_allocated", "peak_allocated", "peak_reserved",
                     "end_allocated"};
    for (const MemoryStepPeak& s : result.stepPeaks)
        table.addRow({int64_t(s.device.rank), toString(s.device), int64_t(s.step), s.events, s.startAllocated,
                      s.peakAllocated, known(s.peakReserved), s.endAllocated});
    if (result.stepPeaks.empty() && result.error.empty())
        table.notes.push_back("no [memory] event falls inside a ProfilerStep");
    return withNotes(std::move(table), result);
}

Table memoryOpsTable(const Run& run, const MemoryTimeline& result)
{
    Table table;
    table.columns = {"rank", "device", "op", "allocations", "bytes", "not_freed_bytes"};
    for (const MemoryOpRow& r : result.ops)
        table.addRow({int64_t(r.device.rank), toString(r.device), opName(run, r.op), r.allocations, r.bytes,
                      known(r.notFreedBytes)});
    return withNotes(std::move(table), result);
}

Table memoryUnfreedTable(const Run& run, const MemoryTimeline& result)
{
    Table table;
    table.columns = {"rank", "device", micros("ts (us)"), "addr", "bytes", "op"};
    for (const MemoryAllocation& a : result.unfreed)
        table.addRow({int64_t(a.device.rank), toString(a.device), since(run, a.tsNs), a.addr, a.bytes, opName(run, a.op)});
    return withNotes(std::move(table), result);
}

Table categoryTimelineTable(const CategoryTimeline& result)
{
    Table table;
    table.columns = {"time (ms)"};
    for (int c = 0; c < 8; ++c)
        table.columns.emplace_back(memoryCategoryName(c));
    table.columns.emplace_back("total");
    const int64_t t0 = result.timesNs.empty() ? 0 : *std::min_element(result.timesNs.begin(), result.timesNs.end());
    for (size_t k = 0; k < result.timesNs.size(); ++k) {
        std::vector<Cell> row;
        row.emplace_back(static_cast<double>(result.timesNs[k] - t0) / 1e6);
        int64_t total = 0;
        for (int64_t b : result.bytes[k]) {
            row.emplace_back(b);
            total += b;
        }
        row.emplace_back(total);
        table.addRow(std::move(row));
    }
    return withNotes(std::move(table), result);
}

Table categoryPeaksTable(const CategoryTimeline& result)
{
    Table table;
    table.columns = {"category", "peak_bytes"};
    for (int c = 0; c < 8; ++c)
        table.addRow({std::string(memoryCategoryName(c)), result.peakBytes[static_cast<size_t>(c)]});
    table.addRow({std::string("total"), result.peakTotal});
    return withNotes(std::move(table), result);
}

} // namespace kscope
