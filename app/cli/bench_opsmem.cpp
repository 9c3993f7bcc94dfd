// `kinetoscope-cli bench load RUN` extra rows: the operator table, the memory series and the
// events CSV stream timed on the loaded run (one thread, best of three).

#include "benchtimer.h"
#include "command.h"
#include "eventsink.h"

#include "analysis/operators/eventquery.h"
#include "analysis/operators/memory.h"
#include "analysis/tables/memorytables.h"
#include "analysis/operators/operators.h"
#include "analysis/tables/operatortables.h"

#include <chrono>

namespace kscope::cli {

namespace {

std::vector<std::vector<Cell>> opsMemTimings(const Run& run, const Invocation&)
{
    const double ops = bestSeconds([&] { (void)operatorsTable(run, operatorStats(run)); });
    const double stacks = bestSeconds([&] { (void)operatorsTable(run, operatorStats(run, {.groupBy = OpGroupBy::Stack})); });
    int64_t memoryEvents = 0;
    for (const RankTrace& r : run.ranks)
        memoryEvents += static_cast<int64_t>(r.events.memoryEvents.size());
    const double series =
        bestSeconds([&] { (void)memoryTimeline(run, {.series = true, .perOp = false}); });
    const double memoryFull = bestSeconds([&] { (void)memoryTimeline(run, {.series = true, .perOp = true}); });
    uint64_t bytes = 0;
    const double csv = bestSeconds([&] {
        EventSink sink("/dev/null");
        EventMatcher matcher(run, {});
        writeEventRows(run, matcher, sink, false, false);
        bytes = sink.bytesWritten();
    });
    return {
        {std::string("analysis_operators"), ops * 1000.0, std::string("ms")},
        {std::string("analysis_operators_by_stack"), stacks * 1000.0, std::string("ms")},
        {std::string("memory_events"), memoryEvents, std::string("")},
        {std::string("analysis_memory_series"), series * 1000.0, std::string("ms")},
        {std::string("analysis_memory_series_per_op"), memoryFull * 1000.0, std::string("ms")},
        {std::string("events_csv_bytes"), static_cast<double>(bytes) / (1024.0 * 1024.0), std::string("MB")},
        {std::string("events_csv_throughput"), static_cast<double>(bytes) / (1024.0 * 1024.0) / csv, std::string("MB/s")},
    };
}

const bool kRegistered = (benchExtensions()["ops_memory_events"] = &opsMemTimings, true);

} // namespace

} // namespace kscope::cli
