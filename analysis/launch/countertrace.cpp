#include "analysis/launch/countertrace.h"

#include "analysis/core/gpuactivity.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"

#include "analysis/tracerewrite.h"

#include "model/jsonwrite.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <chrono>
#include <cmath>
#include <thread>

namespace kscope {

namespace fs = std::filesystem;

namespace {

void appendMicros(std::string& out, int64_t ns)
{
    const bool negative = ns < 0;
    const uint64_t magnitude = negative ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
    if (negative)
        out += '-';
    out += std::to_string(magnitude / 1000);
    if (uint64_t frac = magnitude % 1000) {
        char digits[4] = {static_cast<char>('0' + frac / 100), static_cast<char>('0' + frac / 10 % 10),
                          static_cast<char>('0' + frac % 10), 0};
        std::string_view text(digits, 3);
        while (text.back() == '0')
            text.remove_suffix(1);
        out += '.';
        out += text;
    }
}

void appendNumber(std::string& out, double value)
{
    if (!std::isfinite(value))
        value = 0.0;
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    std::string_view text(buffer, static_cast<size_t>(end - buffer));
    out += text;
    // Python writes floats with a point ("0.0", "2.0"); to_chars writes "0" and "2".
    if (text.find_first_of(".en") == std::string_view::npos)
        out += ".0";
}

void appendPid(std::string& out, const Run& run, const RankTrace& rank, ThreadIndex thread)
{
    out += thread < rank.threads.size() ? threadToken(run, rank.threads[thread], true) : std::string("0");
}

void writeOne(const Run& run, const RankTrace& rank, const QueueLength* queue, const MemoryBandwidth* bandwidth,
              const CounterTraceOptions& options, CounterTraceFile& file)
{
    TraceRewrite how;
    how.output = file.output;
    how.alwaysGzip = options.htaCompat;  // HTA writes every copy with gzip.open, whatever its name (quirk)
    how.gzipLevel = options.gzipLevel;
    how.append = [&](const auto& emit) { forEachCounterEvent(run, rank, queue, bandwidth, emit); };
    const TraceRewriteResult written = rewriteTrace(run, rank, how);
    if (!written.error.empty()) {
        file.error = written.error + (written.error.starts_with("will not write") ? " (another --out folder or suffix)" : "");
        return;
    }
    file.counterEvents = written.eventsAppended;
    file.bytesRead = written.bytesRead;
    file.bytesWritten = written.bytesWritten;
}

} // namespace

fs::path counterTraceName(const fs::path& input, const std::string& suffix)
{
    std::string name = input.filename().string();
    const size_t at = name.rfind(".json");
    if (at == std::string::npos)
        return name + suffix + ".json";
    name.insert(at, suffix);
    return name;
}

int64_t forEachCounterEvent(const Run& run, const RankTrace& rank, const QueueLength* queue,
                            const MemoryBandwidth* bandwidth, const std::function<void(std::string_view)>& emit)
{
    int64_t count = 0;
    std::string event;
    if (queue) {
        for (const QueueSeries& s : queue->series) {
            if (s.rankIndex != run.indexOf(rank))
                continue;
            for (size_t i = 0; i < s.tsNs.size(); ++i) {
                event.assign(R"({"ph": "C", "name": "Queue Length", "id": )");
                event += std::to_string(s.stream);
                event += ", \"pid\": ";
                appendPid(event, run, rank, s.thread);
                event += ", \"ts\": ";
                appendMicros(event, s.tsNs[i]);
                event += R"(, "args": {"Queue Length": )";
                event += std::to_string(s.length[i]);
                event += "}}";
                emit(event);
                ++count;
            }
        }
    }
    if (bandwidth) {
        for (const MemoryBwSeries& s : bandwidth->series) {
            if (s.rankIndex != run.indexOf(rank))
                continue;
            for (size_t i = 0; i < s.tsNs.size(); ++i) {
                event.assign(R"({"ph": "C", "name": )");
                appendJsonString(event, s.kind);
                event += ", \"pid\": ";
                appendPid(event, run, rank, s.thread);
                event += ", \"ts\": ";
                appendMicros(event, s.tsNs[i]);
                event += R"(, "args": {"Memcpy BW": )";
                appendNumber(event, s.gbps[i]);
                event += "}}";
                emit(event);
                ++count;
            }
        }
    }
    return count;
}

CounterTraces writeTracesWithCounters(const Run& run, const CounterTraceOptions& options)
{
    CounterTraces result;
    QueueLength queue;
    MemoryBandwidth bandwidth;
    if (options.queueLength) {
        queue = queueLength(run, {.htaCompat = options.htaCompat, .ranks = options.ranks});
        result.notes.insert(result.notes.end(), queue.notes.begin(), queue.notes.end());
    }
    if (options.memoryBandwidth) {
        bandwidth = memoryBandwidth(run, {.htaCompat = options.htaCompat, .ranks = options.ranks});
        result.notes.insert(result.notes.end(), bandwidth.notes.begin(), bandwidth.notes.end());
    }
    std::vector<const RankTrace*> ranks;
    for (const RankTrace& rank : run.ranks) {
        if (!chosen(options.ranks, run.indexOf(rank)))
            continue;
        ranks.push_back(&rank);
        CounterTraceFile& file = result.files.emplace_back();
        file.rank = rank.rank;
        file.input = rank.file;
        file.output = options.outputDir / counterTraceName(rank.file, options.suffix);
    }
    if (ranks.empty()) {
        result.error = "no rank to write";
        return result;
    }
    std::error_code ec;
    fs::create_directories(options.outputDir, ec);
    if (ec) {
        result.error = "cannot create " + options.outputDir.string() + ": " + ec.message();
        return result;
    }
    // Ranks are independent files: one worker per core, each streaming whole files.
    const auto start = std::chrono::steady_clock::now();
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < ranks.size();)
            writeOne(run, *ranks[k], options.queueLength ? &queue : nullptr,
                     options.memoryBandwidth ? &bandwidth : nullptr, options, result.files[k]);
    };
    const size_t workers = std::min<size_t>(ranks.size(), std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> threads;
    for (size_t w = 1; w < workers; ++w)
        threads.emplace_back(work);
    work();
    for (std::thread& t : threads)
        t.join();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const CounterTraceFile& file : result.files)
        if (!file.error.empty())
            result.notes.push_back(rankLabel(file.rank) + ": " + file.input.string() + ": " + file.error);
    return result;
}

} // namespace kscope
