#pragma once

// Formats synthetic Kineto events into one rank's trace file: std::to_chars into a large
// buffer, flushed to the file directly or through a streaming zlib deflate (gzip framing).

#include "synthprogram.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace kscope {

// Categories the generator writes, counted per event for the truth.
enum class SynthCategory : uint8_t {
    CpuOp, UserAnnotation, CudaRuntime, Kernel, GpuMemcpy, GpuMemset, CudaSync, GpuUserAnnotation, Ac2g, Trace,
    CpuInstantEvent, Count_
};
const char* toString(SynthCategory category);
SynthCategory synthCategoryOf(std::string_view category);

// Kineto's phases we write, counted per event for the truth.
enum class SynthPhase : uint8_t { Complete, FlowStart, FlowEnd, Metadata, Instant, Count_ };
const char* toString(SynthPhase phase);

struct SynthRankIdentity {
    int rank = 0;
    int worldSize = 1;
    int64_t pid = 0;
    int64_t mainTid = 0;
    int64_t autogradTid = 0;
    int device = 0;
    bool amd = false;
};

class SynthTraceWriter {
public:
    SynthTraceWriter(const std::filesystem::path& file, bool gzip, int gzipLevel, bool nsTimestamps);
    ~SynthTraceWriter();
    SynthTraceWriter(const SynthTraceWriter&) = delete;
    SynthTraceWriter& operator=(const SynthTraceWriter&) = delete;

    // False (with error()) when the file cannot be created. An empty path only counts bytes.
    bool open();
    // What this rank's clock adds to the true time (SynthOptions::clockSkewNs): every timestamp
    // written after this, baseTimeNanoseconds included, is shifted by it; durations are not.
    void setClockOffset(int64_t ns) { m_clockOffsetNs = ns; }
    void writeHeader(const SynthRankIdentity& identity, int64_t baseTimeNs, const std::string& traceName);

    void cpuEvent(SynthCategory category, std::string_view name, int64_t tid, int64_t tsNs, int64_t durNs,
                  int64_t externalId, int64_t evIdx, std::string_view argsTail);
    void stepEvent(int stepNumber, int64_t tid, int64_t tsNs, int64_t durNs, int64_t externalId, int64_t evIdx);
    void runtimeEvent(std::string_view name, int64_t tid, int64_t tsNs, int64_t durNs, int64_t externalId,
                      int64_t correlation, std::string_view argsTail);
    void flowStart(int64_t tid, int64_t tsNs, int64_t correlation);
    void flowEnd(int stream, int64_t tsNs, int64_t correlation);
    void gpuEvent(const SynthGpuOp& op, int64_t tsNs, int64_t durNs, int64_t externalId, int64_t correlation);
    void gpuAnnotation(std::string_view name, int64_t tsNs, int64_t durNs, int64_t externalId);
    // A "[memory]" instant (profile_memory=True): bytes > 0 allocates at addr, < 0 frees it;
    // the allocator's totals after it; device type 1 (CUDA; ROCm builds of PyTorch write it too).
    void memoryEvent(int64_t tid, int64_t tsNs, int64_t addr, int64_t bytes, int64_t totalAllocated,
                     int64_t totalReserved, int device);

    // Metadata events, the profiler span, the closing instants; flushes and closes the file.
    bool finish(int64_t spanStartNs, int64_t spanEndNs);

    const std::string& error() const { return m_error; }
    uint64_t jsonBytes() const { return m_jsonBytes; }
    uint64_t fileBytes() const { return m_fileBytes; }
    uint64_t events() const { return m_events; }
    const std::array<uint64_t, size_t(SynthPhase::Count_)>& phaseCounts() const { return m_phaseCounts; }
    const std::array<uint64_t, size_t(SynthCategory::Count_)>& categoryCounts() const { return m_categoryCounts; }

private:
    void beginEvent(SynthPhase phase, SynthCategory category);
    void metadataEvent(std::string_view name, int64_t pid, int64_t tid, int64_t tsNs, std::string_view argKey,
                       std::string_view textValue, int64_t numberValue, bool numeric);
    void append(std::string_view text);
    void appendInt(int64_t value);
    void appendTime(int64_t ns);  // microseconds, with 3 decimals in ns mode
    void appendTimestamp(int64_t ns) { appendTime(ns + m_clockOffsetNs); }  // on this rank's clock
    void appendKey(std::string_view quotedKeyColonSpace, int64_t value)
    {
        append(quotedKeyColonSpace);
        appendInt(value);
    }
    void maybeFlush()
    {
        if (m_size >= kFlushBytes)
            flush(false);
    }
    void flush(bool last);

    static constexpr size_t kFlushBytes = 4u << 20;
    static constexpr size_t kBufferBytes = kFlushBytes + (256u << 10);  // room for one event past the mark

    std::filesystem::path m_file;
    bool m_gzip = false;
    int m_gzipLevel = 1;
    bool m_ns = false;
    int64_t m_clockOffsetNs = 0;
    bool m_discard = false;
    SynthRankIdentity m_identity;
    std::FILE* m_out = nullptr;
    struct Deflater;
    std::unique_ptr<Deflater> m_deflater;
    std::unique_ptr<char[]> m_buffer;
    size_t m_size = 0;
    bool m_firstEvent = true;
    std::string m_error;
    uint64_t m_jsonBytes = 0;
    uint64_t m_fileBytes = 0;
    uint64_t m_events = 0;
    int64_t m_firstTsNs = 0;
    std::array<uint64_t, size_t(SynthPhase::Count_)> m_phaseCounts{};
    std::array<uint64_t, size_t(SynthCategory::Count_)> m_categoryCounts{};
};

} // namespace kscope
