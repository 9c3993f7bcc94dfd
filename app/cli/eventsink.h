#pragma once

// Where `events` streams its rows: standard output, or a file written through a temporary file
// beside it and renamed over it once complete (a failed write leaves the old file intact).

#include <cstdint>
#include <string>
#include <string_view>

namespace kscope {
struct Run;
class EventMatcher;
} // namespace kscope

namespace kscope::cli {

struct LoadedRun;

class EventSink {
public:
    explicit EventSink(const std::string& target);  // empty: standard output
    ~EventSink();
    EventSink(const EventSink&) = delete;
    EventSink& operator=(const EventSink&) = delete;

    void write(std::string_view bytes);  // the first failure is kept; later writes do nothing
    std::string finish();                // renames the temporary file; empty, or why it failed
    const std::string& error() const { return m_error; }
    uint64_t bytesWritten() const { return m_bytes; }

private:
    std::string m_target;
    std::string m_temporary;
    int m_fd = -1;
    bool m_inPlace = false;
    std::string m_error;
    uint64_t m_bytes = 0;
};

// The rows of `events` (CSV, or JSON objects) of every rank or of onlyRank (>= 0) that match;
// HTA's frame in its mode. Returns the rows written; the sink keeps any write error.
int64_t writeEventRows(const Run& run, EventMatcher& matcher, EventSink& sink, bool hta, bool json, int onlyRank = -1);

// events --format sqlite: the run's events (matching `matcher`), kernels and ops as SQLite tables
// with indexes, of every rank or of onlyRank (>= 0), into `file` (eventsqlite.cpp). kExitOk or
// kExitOutputFailed.
int writeSqlite(const Run& run, EventMatcher& matcher, const std::string& file, const LoadedRun& loaded,
                int onlyRank = -1);

} // namespace kscope::cli
