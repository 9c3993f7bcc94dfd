#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

// A file that could not be used (or only partly): tier 1 of the bad-input rules.
enum class LoadErrorKind : uint8_t {
    Unreadable,
    NotGzip,
    CorruptGzip,
    NotJson,
    Truncated,
    NoTraceEvents,
    TooLarge,
    Cancelled,
    NotATrace,  // well-formed JSON that is plainly no trace (config.json): skipped, not a failed rank
};

struct LoadError {
    std::filesystem::path file;
    int rank = -1;              // -1 when the file never got a rank
    uint64_t byteOffset = 0;    // offset in the uncompressed JSON
    LoadErrorKind kind = LoadErrorKind::NotJson;
    std::string message;
    bool partial = false;       // events before the error were kept
    bool inflated = false;      // the file is gzip: byteOffset counts bytes of the inflated stream
};

// "rank3.json.gz (rank 3): truncated at byte 1234 of the inflated stream: <message>", or
// "run/: no such file or folder" for errors that have no offset.
std::string describe(const LoadError& error);
// "byte 1234" or "byte 1234 of the inflated stream".
std::string offsetText(const LoadError& error);

// A file of the run folder that is not read as a rank, and why.
struct SkippedFile {
    std::filesystem::path file;
    std::string reason;
};

// A bad event, counted per kind with the first few samples: tier 2.
enum class BadEventKind : uint8_t {
    MissingTimestamp,
    BadTimestamp,
    NegativeDuration,
    UnknownPhase,
    WrongType,
    NotAnObject,
    AbsurdDuration,  // dur over 7 days (HTA caps there): dropped, never stretches a timeline
    Malformed,       // not valid JSON on its own (invalid UTF-8, raw control characters, ...)
    Count_
};

struct BadEventSample {
    uint64_t byteOffset = 0;
    std::string excerpt;
};

struct BadEventCounter {
    BadEventKind kind = BadEventKind::WrongType;
    uint64_t count = 0;
    std::vector<BadEventSample> samples;  // at most kMaxSamples
    static constexpr size_t kMaxSamples = 3;
};

// Non-fatal notes about how a file was read (rank guessed, duplicate rank, ...).
struct LoadWarning {
    std::filesystem::path file;
    int rank = -1;
    std::string message;
};

const char* toString(LoadErrorKind kind);
const char* toString(BadEventKind kind);

} // namespace kscope
