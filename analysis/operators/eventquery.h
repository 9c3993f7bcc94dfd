#pragma once

// The event table itself, filtered: what `kinetoscope-cli events` streams and the GUI's Events
// table shows (HTA users get it from t.get_trace(rank)). A matcher decides per row, so a caller
// can stream millions of rows without building a table; selectEvents() gives the matching rows
// of one rank for a virtual item model.

#include "analysis/resulttable.h"

#include "model/trace.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

// What the --kind filter names.
enum class EventClass : uint8_t { Kernel, CpuOp, Runtime, Memcpy, Memset, Annotation, Memory, Other };
const char* toString(EventClass c);  // "kernel", "cpu-op", "runtime", "memcpy", "memset", "annotation", "memory", "other"
bool parseEventClass(std::string_view text, EventClass& out);
// kernel: kernel events; cpu-op: cpu_op; runtime: cuda_runtime / cuda_driver; annotation: user and
// GPU user annotations; memory: the profiler's [memory] instant events; other: the rest.
EventClass eventClass(const EventTable& events, size_t row);

struct EventFilter {
    uint32_t classes = 0;      // bit (1 << EventClass); 0 = every class
    std::string nameRegex;     // ECMAScript, searched anywhere in the name; empty = every name
    // Time window in ns relative to the run's earliest event (Run::minTsNs): rows that overlap
    // [fromNs, toNs] (an instant event: its time inside it).
    int64_t fromNs = std::numeric_limits<int64_t>::min();
    int64_t toNs = std::numeric_limits<int64_t>::max();
    bool htaRows = false;      // only the rows HTA's parsed frame holds (complete events with a category)
};

class EventMatcher {
public:
    EventMatcher(const Run& run, const EventFilter& filter);
    const std::string& error() const { return m_error; }  // a bad regex
    bool matches(const EventTable& events, size_t row);

private:
    const Run& m_run;
    EventFilter m_filter;
    std::unique_ptr<std::regex> m_regex;
    std::vector<uint8_t> m_nameState;  // per string id: 0 unknown, 1 no, 2 yes
    std::string m_error;
};

std::vector<EventIndex> selectEvents(const Run& run, const RankTrace& rank, const EventFilter& filter);

// The columns `events` writes in the default mode, and one row's cells, for a GUI model that
// shows selectEvents() rows lazily (ts and dur in us, ts since the run's first event).
const std::vector<TableColumn>& eventColumns();
std::vector<Cell> eventCells(const Run& run, const RankTrace& rank, EventIndex row);

// HTA's row index of a row (its position in traceEvents) in a run loaded in HTA's mode; else
// the row itself.
int64_t htaRowIndex(const RankTrace& rank, size_t row);
// HTA's index_correlation: -1 without a correlation, 0 when the partner is missing, else the
// partner's HTA row index.
int64_t htaIndexCorrelation(const RankTrace& rank, size_t row);

} // namespace kscope
