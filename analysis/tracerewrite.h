#pragma once

// A copy of one rank's trace file with changes: the one way Kinetoscope writes traces (counter
// tracks, kernel-pattern overlays, critical-path overlays). The input is read and the copy written
// as streams, never whole in memory; what it adds is escaped once (model/jsonwrite.h); events are
// found again by their start and duration as the loader stored them (one htaRoundSpan).

#include "model/jsonscan.h"
#include "model/trace.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

// One element of traceEvents as read back from the file.
struct TraceElement {
    uint32_t position = 0;  // in traceEvents (HTA's event index)
    std::string_view text;  // the element as written
    std::vector<jsonscan::Member> members;  // empty when it is not an object
    std::string_view token(std::string_view key) const { return jsonscan::memberValue(members, key); }
    bool isComplete() const { return token("ph") == "\"X\""; }
};

// What becomes of one element in the copy.
struct ElementEdit {
    bool keep = true;
    std::string argsMembers;  // JSON members added to its args ("\"critical\": 1"), args made if absent
};

struct TraceRewrite {
    std::filesystem::path output;
    bool alwaysGzip = false;  // else the copy is gzipped when the input is
    int gzipLevel = 1;
    // Each element in file order; unset: the elements are copied byte for byte up to where the
    // loader saw traceEvents end (fast: nothing is scanned).
    std::function<ElementEdit(const TraceElement&)> edit;
    // Events added at the end of traceEvents: calls emit once per event (a JSON object).
    std::function<void(const std::function<void(std::string_view)>& emit)> append;
};

struct TraceRewriteResult {
    std::string error;  // nothing is left at output when set
    uint64_t bytesRead = 0;     // of the inflated input
    uint64_t bytesWritten = 0;  // before compression
    int64_t eventsAppended = 0;
};

// Refuses to overwrite a file of the run.
TraceRewriteResult rewriteTrace(const Run& run, const RankTrace& rank, const TraceRewrite& how);

// The start and duration in ns of a complete element as the loader stored them for this rank
// (HTA's rounding where the loader applied it); false when they are not numbers.
bool storedSpan(const Run& run, const RankTrace& rank, const TraceElement& element, int64_t& tsNs, int64_t& durNs);
// A hash key of (start, duration) to find a table's events among the file's elements.
inline uint64_t spanKey(int64_t tsNs, int64_t durNs)
{
    return static_cast<uint64_t>(tsNs) * 1000003u ^ static_cast<uint64_t>(durNs);
}
// The pid (or tid) of a thread as a trace writes it: the number, or the quoted name.
std::string threadToken(const Run& run, const ThreadKey& thread, bool pid);

} // namespace kscope
