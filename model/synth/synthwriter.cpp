#include "synthwriter.h"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace kscope {

const char* toString(SynthCategory category)
{
    switch (category) {
    case SynthCategory::CpuOp: return "cpu_op";
    case SynthCategory::UserAnnotation: return "user_annotation";
    case SynthCategory::CudaRuntime: return "cuda_runtime";
    case SynthCategory::Kernel: return "kernel";
    case SynthCategory::GpuMemcpy: return "gpu_memcpy";
    case SynthCategory::GpuMemset: return "gpu_memset";
    case SynthCategory::CudaSync: return "cuda_sync";
    case SynthCategory::GpuUserAnnotation: return "gpu_user_annotation";
    case SynthCategory::Ac2g: return "ac2g";
    case SynthCategory::Trace: return "Trace";
    case SynthCategory::CpuInstantEvent: return "cpu_instant_event";
    case SynthCategory::Count_: break;
    }
    return "";
}

SynthCategory synthCategoryOf(std::string_view category)
{
    for (size_t i = 0; i < size_t(SynthCategory::Count_); ++i)
        if (category == toString(SynthCategory(i)))
            return SynthCategory(i);
    return SynthCategory::Kernel;
}

const char* toString(SynthPhase phase)
{
    switch (phase) {
    case SynthPhase::Complete: return "X";
    case SynthPhase::FlowStart: return "s";
    case SynthPhase::FlowEnd: return "f";
    case SynthPhase::Metadata: return "M";
    case SynthPhase::Instant: return "i";
    case SynthPhase::Count_: break;
    }
    return "";
}

struct SynthTraceWriter::Deflater {
    z_stream stream{};
    bool initialised = false;
    std::unique_ptr<unsigned char[]> out{new unsigned char[kOutBytes]};
    static constexpr size_t kOutBytes = 1u << 20;
    ~Deflater()
    {
        if (initialised)
            deflateEnd(&stream);
    }
};

SynthTraceWriter::SynthTraceWriter(const std::filesystem::path& file, bool gzip, int gzipLevel, bool nsTimestamps)
    : m_file(file), m_gzip(gzip), m_gzipLevel(std::clamp(gzipLevel, 1, 9)), m_ns(nsTimestamps),
      m_buffer(new char[kBufferBytes])
{
}

SynthTraceWriter::~SynthTraceWriter()
{
    if (m_out)
        std::fclose(m_out);
}

bool SynthTraceWriter::open()
{
    if (m_file.empty()) {
        m_discard = true;  // sizing run: count bytes, write nothing
        return true;
    }
    m_out = std::fopen(m_file.c_str(), "wb");
    if (!m_out) {
        m_error = "cannot create " + m_file.string() + ": " + std::strerror(errno);
        return false;
    }
    if (m_gzip) {
        m_deflater = std::make_unique<Deflater>();
        // windowBits 15 + 16: gzip framing, as `gzip` and Python's gzip module read it.
        if (deflateInit2(&m_deflater->stream, m_gzipLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            m_error = "zlib deflateInit2 failed for " + m_file.string();
            return false;
        }
        m_deflater->initialised = true;
    }
    return true;
}

void SynthTraceWriter::append(std::string_view text)
{
    std::memcpy(m_buffer.get() + m_size, text.data(), text.size());
    m_size += text.size();
}

void SynthTraceWriter::appendInt(int64_t value)
{
    const auto result = std::to_chars(m_buffer.get() + m_size, m_buffer.get() + kBufferBytes, value);
    m_size = size_t(result.ptr - m_buffer.get());
}

void SynthTraceWriter::appendTime(int64_t ns)
{
    appendInt(ns / 1000);
    if (m_ns) {
        const int64_t fraction = ns % 1000;
        char* p = m_buffer.get() + m_size;
        p[0] = '.';
        p[1] = char('0' + fraction / 100);
        p[2] = char('0' + fraction / 10 % 10);
        p[3] = char('0' + fraction % 10);
        m_size += 4;
    }
}

void SynthTraceWriter::flush(bool last)
{
    if (m_discard) {
        m_jsonBytes += m_size;
        m_size = 0;
        return;
    }
    if (!m_error.empty() || !m_out) {
        m_size = 0;
        return;
    }
    m_jsonBytes += m_size;
    if (!m_gzip) {
        if (m_size && std::fwrite(m_buffer.get(), 1, m_size, m_out) != m_size)
            m_error = "write failed for " + m_file.string() + ": " + std::strerror(errno);
        m_fileBytes += m_size;
        m_size = 0;
        return;
    }
    z_stream& zs = m_deflater->stream;
    zs.next_in = reinterpret_cast<Bytef*>(m_buffer.get());
    zs.avail_in = uInt(m_size);
    const int mode = last ? Z_FINISH : Z_NO_FLUSH;
    int status = Z_OK;
    do {
        zs.next_out = m_deflater->out.get();
        zs.avail_out = uInt(Deflater::kOutBytes);
        status = deflate(&zs, mode);
        if (status == Z_STREAM_ERROR) {
            m_error = "zlib deflate failed for " + m_file.string();
            break;
        }
        const size_t produced = Deflater::kOutBytes - zs.avail_out;
        if (produced && std::fwrite(m_deflater->out.get(), 1, produced, m_out) != produced) {
            m_error = "write failed for " + m_file.string() + ": " + std::strerror(errno);
            break;
        }
        m_fileBytes += produced;
    } while (zs.avail_out == 0 || (last && status != Z_STREAM_END));
    m_size = 0;
}

void SynthTraceWriter::writeHeader(const SynthRankIdentity& identity, int64_t baseTimeNs,
                                   const std::string& traceName)
{
    m_identity = identity;
    append("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
    const int devices = std::clamp(identity.worldSize, 1, 8);
    for (int d = 0; d < devices; ++d) {
        append(d ? ",\n    {\n" : "    {\n");
        appendKey("      \"id\": ", d);
        if (identity.amd)
            append(", \"name\": \"AMD Instinct MI250X\", \"totalGlobalMem\": 68702699520,\n"
                   "      \"computeMajor\": 9, \"computeMinor\": 0,\n"
                   "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                   "      \"regsPerBlock\": 65536, \"warpSize\": 64,\n"
                   "      \"sharedMemPerBlock\": 65536, \"numSms\": 110\n"
                   "    , \"maxSharedMemoryPerMultiProcessor\": 65536\n    }");
        else
            append(", \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85031714816,\n"
                   "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
                   "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                   "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
                   "      \"sharedMemPerBlock\": 49152, \"numSms\": 108\n"
                   "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 166912, "
                   "\"sharedMemPerMultiprocessor\": 167936\n    }");
        maybeFlush();
    }
    append("\n  ],\n");
    if (!identity.amd)
        append("  \"cuda_runtime_version\": 12010,\n  \"cuda_driver_version\": 12020,\n");
    // "rank": N with a space: HTA finds the rank with the regex "rank":\s+(\d+).
    appendKey("  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ", identity.rank);
    appendKey(", \"world_size\": ", identity.worldSize);
    append(", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
           "\"backend_config\": \"cuda:nccl\", ");
    appendKey("\"pg_size\": ", identity.worldSize);
    append(", \"ranks\": [");
    for (int r = 0; r < identity.worldSize; ++r) {
        if (r)
            append(", ");
        appendInt(r);
        maybeFlush();
    }
    append("]}], \"nccl_version\": \"2.18.6\"},\n");
    append("  \"record_shapes\": 1,\n  \"with_stack\": 0,\n  \"trace_id\": \"");
    char hex[17];
    const uint64_t id = uint64_t(baseTimeNs) * 31 + uint64_t(identity.rank) * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 16; ++i)
        hex[i] = "0123456789ABCDEF"[(id >> (60 - 4 * i)) & 0xF];
    hex[16] = 0;
    append(hex);
    append("\",\n  \"displayTimeUnit\": \"ms\",\n");
    appendKey("  \"baseTimeNanoseconds\": ", baseTimeNs + m_clockOffsetNs);
    append(",\n  \"traceName\": \"");
    append(traceName);
    append("\",\n  \"traceEvents\": [");
}

void SynthTraceWriter::beginEvent(SynthPhase phase, SynthCategory category)
{
    maybeFlush();
    append(m_firstEvent ? "\n  {\"ph\": \"" : ",\n  {\"ph\": \"");
    m_firstEvent = false;
    append(toString(phase));
    append("\"");
    ++m_events;
    ++m_phaseCounts[size_t(phase)];
    if (category != SynthCategory::Count_)
        ++m_categoryCounts[size_t(category)];
}

void SynthTraceWriter::cpuEvent(SynthCategory category, std::string_view name, int64_t tid, int64_t tsNs,
                                int64_t durNs, int64_t externalId, int64_t evIdx, std::string_view argsTail)
{
    beginEvent(SynthPhase::Complete, category);
    append(", \"cat\": \"");
    append(toString(category));
    append("\", \"name\": \"");
    append(name);
    appendKey("\", \"pid\": ", m_identity.pid);
    appendKey(", \"tid\": ", tid);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    append(", \"dur\": ");
    appendTime(durNs);
    appendKey(", \"args\": {\"External id\": ", externalId);
    appendKey(", \"Ev Idx\": ", evIdx);
    append(argsTail);
    append("}}");
}

void SynthTraceWriter::stepEvent(int stepNumber, int64_t tid, int64_t tsNs, int64_t durNs, int64_t externalId,
                                 int64_t evIdx)
{
    beginEvent(SynthPhase::Complete, SynthCategory::UserAnnotation);
    appendKey(", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#", stepNumber);
    appendKey("\", \"pid\": ", m_identity.pid);
    appendKey(", \"tid\": ", tid);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    append(", \"dur\": ");
    appendTime(durNs);
    appendKey(", \"args\": {\"External id\": ", externalId);
    appendKey(", \"Ev Idx\": ", evIdx);
    append("}}");
}

void SynthTraceWriter::runtimeEvent(std::string_view name, int64_t tid, int64_t tsNs, int64_t durNs,
                                    int64_t externalId, int64_t correlation, std::string_view argsTail)
{
    beginEvent(SynthPhase::Complete, SynthCategory::CudaRuntime);
    append(", \"cat\": \"cuda_runtime\", \"name\": \"");
    append(name);
    appendKey("\", \"pid\": ", m_identity.pid);
    appendKey(", \"tid\": ", tid);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    append(", \"dur\": ");
    appendTime(durNs);
    appendKey(", \"args\": {\"External id\": ", externalId);
    append(argsTail);
    appendKey(", \"correlation\": ", correlation);
    append("}}");
}

void SynthTraceWriter::memoryEvent(int64_t tid, int64_t tsNs, int64_t addr, int64_t bytes, int64_t totalAllocated,
                                   int64_t totalReserved, int device)
{
    beginEvent(SynthPhase::Instant, SynthCategory::CpuInstantEvent);
    append(", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\"");
    appendKey(", \"pid\": ", m_identity.pid);
    appendKey(", \"tid\": ", tid);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    appendKey(", \"args\": {\"Total Reserved\": ", totalReserved);
    appendKey(", \"Total Allocated\": ", totalAllocated);
    appendKey(", \"Bytes\": ", bytes);
    appendKey(", \"Addr\": ", addr);
    appendKey(", \"Device Id\": ", device);
    append(", \"Device Type\": 1}}");
}

void SynthTraceWriter::flowStart(int64_t tid, int64_t tsNs, int64_t correlation)
{
    beginEvent(SynthPhase::FlowStart, SynthCategory::Ac2g);
    appendKey(", \"id\": ", correlation);
    appendKey(", \"pid\": ", m_identity.pid);
    appendKey(", \"tid\": ", tid);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    append(", \"cat\": \"ac2g\", \"name\": \"ac2g\"}");
}

void SynthTraceWriter::flowEnd(int stream, int64_t tsNs, int64_t correlation)
{
    beginEvent(SynthPhase::FlowEnd, SynthCategory::Ac2g);
    appendKey(", \"id\": ", correlation);
    appendKey(", \"pid\": ", m_identity.device);
    appendKey(", \"tid\": ", stream);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    append(", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}");
}

void SynthTraceWriter::gpuEvent(const SynthGpuOp& op, int64_t tsNs, int64_t durNs, int64_t externalId,
                                int64_t correlation)
{
    const SynthCategory category = synthCategoryOf(op.category);
    const int stream = streamNumber(op.stream);
    beginEvent(SynthPhase::Complete, category);
    append(", \"cat\": \"");
    append(op.category);
    append("\", \"name\": \"");
    append(op.name);
    appendKey("\", \"pid\": ", m_identity.device);
    appendKey(", \"tid\": ", stream);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    append(", \"dur\": ");
    appendTime(durNs);
    appendKey(", \"args\": {\"External id\": ", externalId);
    if (category == SynthCategory::CudaSync) {
        appendKey(", \"cuda_sync_kind\": \"Stream Sync\", \"stream\": ", stream);
        appendKey(", \"correlation\": ", correlation);
        appendKey(", \"device\": ", m_identity.device);
        append(", \"context\": 1}}");
        return;
    }
    if (category == SynthCategory::Kernel && !m_identity.amd)
        append(", \"queued\": 0");
    appendKey(", \"device\": ", m_identity.device);
    if (!m_identity.amd)
        append(", \"context\": 1");
    appendKey(", \"stream\": ", stream);
    appendKey(", \"correlation\": ", correlation);
    if (category == SynthCategory::Kernel) {
        append(op.constArgs);
    } else {
        appendKey(", \"bytes\": ", op.bytes);
        // bytes per ns is GB/s; to_chars of a double is exact and the same on every platform.
        const double bandwidth = durNs > 0 ? double(op.bytes) / double(durNs) : 0.0;
        append(", \"memory bandwidth (GB/s)\": ");
        const auto result = std::to_chars(m_buffer.get() + m_size, m_buffer.get() + kBufferBytes, bandwidth);
        m_size = size_t(result.ptr - m_buffer.get());
    }
    append("}}");
}

void SynthTraceWriter::gpuAnnotation(std::string_view name, int64_t tsNs, int64_t durNs, int64_t externalId)
{
    beginEvent(SynthPhase::Complete, SynthCategory::GpuUserAnnotation);
    append(", \"cat\": \"gpu_user_annotation\", \"name\": \"");
    append(name);
    appendKey("\", \"pid\": ", m_identity.device);
    appendKey(", \"tid\": ", kComputeStream);
    append(", \"ts\": ");
    appendTimestamp(tsNs);
    append(", \"dur\": ");
    appendTime(durNs);
    appendKey(", \"args\": {\"External id\": ", externalId);
    append("}}");
}

void SynthTraceWriter::metadataEvent(std::string_view name, int64_t pid, int64_t tid, int64_t tsNs,
                                     std::string_view argKey, std::string_view textValue, int64_t numberValue,
                                     bool numeric)
{
    beginEvent(SynthPhase::Metadata, SynthCategory::Count_);
    append(", \"name\": \"");
    append(name);
    append("\", \"ts\": ");
    appendTimestamp(tsNs);
    appendKey(", \"pid\": ", pid);
    appendKey(", \"tid\": ", tid);
    append(", \"args\": {\"");
    append(argKey);
    append("\": ");
    if (numeric) {
        appendInt(numberValue);
    } else {
        append("\"");
        append(textValue);
        append("\"");
    }
    append("}}");
}

bool SynthTraceWriter::finish(int64_t spanStartNs, int64_t spanEndNs)
{
    const SynthRankIdentity& id = m_identity;
    const std::string processName = "python3.10";
    metadataEvent("process_name", id.pid, 0, spanStartNs, "name", processName, 0, false);
    metadataEvent("process_labels", id.pid, 0, spanStartNs, "labels", "CPU", 0, false);
    metadataEvent("process_sort_index", id.pid, 0, spanStartNs, "sort_index", {}, id.pid, true);
    metadataEvent("process_name", id.device, 0, spanStartNs, "name", processName, 0, false);
    const std::string gpuLabel = "GPU " + std::to_string(id.device);
    metadataEvent("process_labels", id.device, 0, spanStartNs, "labels", gpuLabel, 0, false);
    metadataEvent("process_sort_index", id.device, 0, spanStartNs, "sort_index", {}, 16777216 + id.device, true);
    for (int stream : {kComputeStream, kCommStream}) {
        const std::string label = "stream " + std::to_string(stream) + " ";
        metadataEvent("thread_name", id.device, stream, spanStartNs, "name", label, 0, false);
        metadataEvent("thread_sort_index", id.device, stream, spanStartNs, "sort_index", {}, stream, true);
    }
    const std::string mainName = "thread " + std::to_string(id.mainTid) + " (python3.10)";
    const std::string autogradName = "thread " + std::to_string(id.autogradTid) + " (pt_autograd_0)";
    metadataEvent("thread_name", id.pid, id.mainTid, spanStartNs, "name", mainName, 0, false);
    metadataEvent("thread_sort_index", id.pid, id.mainTid, spanStartNs, "sort_index", {}, id.mainTid, true);
    metadataEvent("thread_name", id.pid, id.autogradTid, spanStartNs, "name", autogradName, 0, false);
    metadataEvent("thread_sort_index", id.pid, id.autogradTid, spanStartNs, "sort_index", {}, id.autogradTid, true);

    beginEvent(SynthPhase::Complete, SynthCategory::Trace);
    append(", \"cat\": \"Trace\", \"ts\": ");
    appendTimestamp(spanStartNs);
    append(", \"dur\": ");
    appendTime(spanEndNs - spanStartNs);
    append(", \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"name\": \"PyTorch Profiler (0)\", "
           "\"args\": {\"Op count\": 0}}");
    beginEvent(SynthPhase::Metadata, SynthCategory::Count_);
    append(", \"name\": \"process_sort_index\", \"ts\": ");
    appendTimestamp(spanStartNs);
    append(", \"pid\": \"Spans\", \"tid\": 0, \"args\": {\"sort_index\": 536870912}}");
    beginEvent(SynthPhase::Instant, SynthCategory::Count_);
    append(", \"name\": \"Iteration Start: PyTorch Profiler\", \"s\": \"g\", \"pid\": \"Traces\", "
           "\"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
    appendTimestamp(spanStartNs);
    append("}");
    beginEvent(SynthPhase::Instant, SynthCategory::Count_);
    append(", \"name\": \"Record Window End\", \"s\": \"g\", \"pid\": \"\", \"tid\": \"\", \"ts\": ");
    appendTimestamp(spanEndNs);
    append("}\n  ]\n}\n");
    flush(true);
    if (m_out) {
        if (std::fclose(m_out) != 0 && m_error.empty())
            m_error = "closing " + m_file.string() + " failed: " + std::strerror(errno);
        m_out = nullptr;
    }
    return m_error.empty();
}

} // namespace kscope
