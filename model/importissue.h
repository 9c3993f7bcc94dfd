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
};

struct LoadError {
    std::filesystem::path file;
    int rank = -1;              // -1 when the file never got a rank
    uint64_t byteOffset = 0;    // offset in the uncompressed JSON
    LoadErrorKind kind = LoadErrorKind::NotJson;
    std::string message;
    bool partial = false;       // events before the error were kept
};

// A bad event, counted per kind with the first few samples: tier 2.
enum class BadEventKind : uint8_t {
    MissingTimestamp,
    BadTimestamp,
    NegativeDuration,
    UnknownPhase,
    WrongType,
    NotAnObject,
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
