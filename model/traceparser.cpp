// Streaming Kineto trace parser: inflate -> split traceEvents into whole events -> simdjson
// On-Demand per batch -> columns. Batches never exceed a few chunks, so files of any size
// (simdjson itself stops at 4 GiB per document) parse in bounded memory.

#include "bytebuffer.h"
#include "eventparse.h"
#include "inflatereader.h"
#include "jsonscan.h"
#include "loader.h"
#include "log.h"
#include "metadata.h"
#include "rankbuilder.h"
#include "timeconv.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>

namespace kscope {

namespace {

constexpr size_t kMaxMetadataValueBytes = 64u << 20;
constexpr uint64_t kMaxElementBytes = 256ull << 20;  // one event or top-level value

std::string mib(uint64_t bytes)
{
    return std::to_string(bytes >> 20) + " MiB";
}

// What a well-formed JSON file that is no Kineto trace is, from its first top-level key or value.
std::string knownNonTrace(std::string_view firstArrayElement)
{
    // PyTorch's export_memory_timeline raw data (HTA's memory_analysis): [[time, action, bytes, category], ...].
    if (firstArrayElement.size() > 2 && firstArrayElement.front() == '[') {
        size_t commas = 0;
        bool numeric = true;
        for (const char c : firstArrayElement.substr(1, firstArrayElement.size() - 2)) {
            if (c == ',')
                ++commas;
            else if (!jsonscan::isSpace(c) && c != '-' && c != '.' && c != 'e' && c != 'E' && c != '+'
                     && (c < '0' || c > '9'))
                numeric = false;
        }
        if (numeric && commas == 3)
            return "a PyTorch memory timeline (export_memory_timeline's [time, action, bytes, category] rows), not a "
                   "Kineto trace";
    }
    return {};
}

class TraceParser {
public:
    using ReadFn = std::function<size_t(char*, size_t)>;

    TraceParser(RankBuilder& builder, const LoadOptions& options, ReadFn read, LoadProgress* progress,
                std::function<uint64_t()> compressedDone, std::stop_token stop)
        : m_builder(builder), m_options(options), m_read(std::move(read)), m_progress(progress),
          m_compressedDone(std::move(compressedDone)), m_stop(stop), m_events(builder, options)
    {
        m_chunk = std::max<uint64_t>(options.chunkBytes, 1);
    }

    std::optional<LoadError> run();
    const std::map<std::string, std::string>& metadataJson() const { return m_metadata; }
    uint64_t bytesRead() const { return m_base + m_len; }
    std::function<std::optional<LoadError>()> sourceError;  // set by the caller for I/O errors
    // Set: whole traceEvents elements go here instead of the event parser (a scan that keeps
    // nothing, such as the earliest timestamp of a file left out of the load).
    std::function<void(const char* window, const std::vector<ElementSpan>& elements)> elementSink;
    void useHelperThread() { m_events.useHelperThread(); }
    uint64_t sizeHint = 0;  // expected uncompressed bytes, 0 = unknown
    bool isGzip = false;    // the compression-ratio guard applies
    // Accounts for the rest of the file's compressed bytes, however parsing ended.
    void completeProgress(uint64_t compressedTotal)
    {
        if (m_progress && compressedTotal > m_reportedCompressed)
            m_progress->bytesDone.fetch_add(compressedTotal - m_reportedCompressed, std::memory_order_relaxed);
        m_reportedCompressed = std::max(m_reportedCompressed, compressedTotal);
    }

private:
    bool fill();
    bool skipWhitespace();
    std::optional<LoadError> parseEvents();
    LoadError error(LoadErrorKind kind, uint64_t offset, std::string message, bool partial = false) const
    {
        LoadError e;
        e.kind = kind;
        e.byteOffset = offset;
        e.message = std::move(message);
        e.partial = partial;
        return e;
    }
    std::optional<LoadError> endOfInput(const char* where);
    void reportProgress();

    RankBuilder& m_builder;
    const LoadOptions& m_options;
    ReadFn m_read;
    LoadProgress* m_progress;
    std::function<uint64_t()> m_compressedDone;
    std::stop_token m_stop;
    EventBatchParser m_events;

    ByteBuffer m_buf;
    size_t m_pos = 0;
    size_t m_len = 0;
    uint64_t m_base = 0;  // absolute offset of m_buf[0]
    uint64_t m_chunk = 0;
    bool m_eof = false;
    uint64_t m_reportedCompressed = 0;
    uint64_t m_reportedEvents = 0;
    std::map<std::string, std::string> m_metadata;
    std::string m_stopped;  // why fill() stopped reading before the end (a limit)
};

bool TraceParser::fill()
{
    if (m_eof)
        return false;
    // Compact to offset 1, not 0: the event batch parser needs one byte before the first event.
    if (m_pos > 1) {
        std::memmove(m_buf.data() + 1, m_buf.data() + m_pos, m_len - m_pos);
        m_base += m_pos - 1;
        m_len -= m_pos - 1;
        m_pos = 1;
    }
    // Read what is left of the file when its size is known and small, else a chunk.
    // An element still incomplete after a chunk doubles the read: it is rescanned log(n) times, not n/chunk.
    const uint64_t read = m_base + m_len;
    const uint64_t left = sizeHint > read ? sizeHint - read : 0;
    const uint64_t step = std::max<uint64_t>(m_chunk, m_len - m_pos);
    const size_t want = static_cast<size_t>(left ? std::min<uint64_t>(step, left + 1) : step);
    m_buf.ensure(m_len + want + simdjson::SIMDJSON_PADDING, m_len);
    size_t got = 0;
    while (got < want) {
        const size_t n = m_read(m_buf.data() + m_len + got, want - got);
        if (n == 0) {
            m_eof = true;
            break;
        }
        got += n;
    }
    m_len += got;
    if (m_base + m_len > m_options.maxUncompressedBytes) {
        m_stopped = "uncompressed size exceeds the limit of " + mib(m_options.maxUncompressedBytes)
            + " (--max-uncompressed-mb raises it)";
        m_eof = true;
        return false;
    }
    // A gzip bomb inflates about 1000:1, JSON traces 5-30:1: past 1 GiB, over 200:1 is a bomb.
    const uint64_t inflated = m_base + m_len;
    const uint64_t compressed = m_compressedDone ? m_compressedDone() : 0;
    if (isGzip && m_options.maxGzipRatio > 0 && inflated > (1ull << 30) && compressed > 0
        && inflated / compressed > m_options.maxGzipRatio) {
        m_stopped = "inflates more than " + std::to_string(m_options.maxGzipRatio)
            + " times its compressed size (a gzip bomb?): stopped after " + mib(inflated);
        m_eof = true;
        return false;
    }
    // One event or value this large is no trace (or a bomb): it would only be buffered.
    if (m_len - m_pos > std::max<uint64_t>(kMaxElementBytes, 2 * m_chunk)) {
        m_stopped = "a single JSON value larger than " + mib(kMaxElementBytes) + " starts at byte "
            + std::to_string(m_base + m_pos) + "; no trace event is that large";
        m_eof = true;
        return false;
    }
    return got > 0;
}

bool TraceParser::skipWhitespace()
{
    for (;;) {
        while (m_pos < m_len && jsonscan::isSpace(m_buf[m_pos]))
            ++m_pos;
        if (m_pos < m_len)
            return true;
        if (!fill())
            return false;
    }
}

std::optional<LoadError> TraceParser::endOfInput(const char* where)
{
    if (sourceError) {
        if (auto e = sourceError())
            return e;
    }
    if (!m_stopped.empty())
        return error(LoadErrorKind::TooLarge, m_base + m_len, m_stopped, true);
    return error(LoadErrorKind::Truncated, m_base + m_len, std::string("file ends ") + where, true);
}

void TraceParser::reportProgress()
{
    if (!m_progress)
        return;
    const uint64_t done = m_compressedDone();
    m_progress->bytesDone.fetch_add(done - m_reportedCompressed, std::memory_order_relaxed);
    m_reportedCompressed = done;
    const uint64_t events = m_builder.trace.eventsRead;
    m_progress->eventsDone.fetch_add(events - m_reportedEvents, std::memory_order_relaxed);
    m_reportedEvents = events;
}

std::optional<LoadError> TraceParser::run()
{
    if (!skipWhitespace()) {
        if (auto e = sourceError ? sourceError() : std::nullopt)
            return e;
        return error(LoadErrorKind::NotJson, 0, "file is empty");
    }
    // A UTF-8 byte order mark (Windows editors write one) is not JSON, but harmless.
    if (m_base + m_pos == 0 && m_len - m_pos >= 3 && std::memcmp(m_buf.data() + m_pos, "\xEF\xBB\xBF", 3) == 0) {
        m_pos += 3;
        if (!skipWhitespace())
            return error(LoadErrorKind::NotJson, 3, "file holds only a byte order mark");
    }
    if (m_buf[m_pos] == '[') {
        // Say whether it is JSON at all when that is cheap to know (a small file).
        size_t end;
        bool ended = false;
        while ((end = jsonscan::valueEnd(m_buf.data(), m_pos, m_len)) == jsonscan::kIncomplete && m_len < (1u << 20))
            if (!fill()) {
                ended = true;
                break;
            }
        if (end == jsonscan::kMalformed || (end == jsonscan::kIncomplete && ended))
            return error(LoadErrorKind::NotJson, m_base + m_pos, "starts like a JSON array but is not JSON");
        size_t first = m_pos + 1;
        while (first < m_len && jsonscan::isSpace(m_buf[first]))
            ++first;
        const size_t firstEnd = jsonscan::valueEnd(m_buf.data(), first, m_len);
        if (firstEnd < m_len) {
            const std::string what = knownNonTrace(std::string_view(m_buf.data() + first, firstEnd - first));
            if (!what.empty())
                return error(LoadErrorKind::NotATrace, m_base + m_pos, what);
        }
        return error(LoadErrorKind::NotATrace, m_base + m_pos,
                     std::string(end == jsonscan::kIncomplete ? "not a trace" : "JSON, but not a trace")
                         + ": the top level is an array, not an object with \"traceEvents\"");
    }
    if (m_buf[m_pos] != '{') {
        const unsigned char c = static_cast<unsigned char>(m_buf[m_pos]);
        char found[16];
        std::snprintf(found, sizeof found, c >= 0x20 && c < 0x7f ? "'%c'" : "byte 0x%02X", c);
        return error(LoadErrorKind::NotJson, m_base + m_pos,
                     std::string("expected '{' at the start of a Chrome trace, found ") + found);
    }
    ++m_pos;
    bool sawEvents = false;
    for (;;) {
        if (!skipWhitespace())
            return endOfInput("inside the top-level object");
        const char c = m_buf[m_pos];
        if (c == ',') {
            ++m_pos;
            continue;
        }
        if (c == '}') {
            ++m_pos;
            break;
        }
        if (c != '"')
            return error(LoadErrorKind::NotJson, m_base + m_pos, std::string("unexpected character '") + c + "' in the top-level object", sawEvents);
        size_t keyEnd;
        while ((keyEnd = jsonscan::stringEnd(m_buf.data(), m_pos, m_len)) == jsonscan::kIncomplete)
            if (!fill())
                return endOfInput("inside a top-level key");
        const std::string key(m_buf.data() + m_pos + 1, keyEnd - m_pos - 2);
        m_pos = keyEnd;
        if (!skipWhitespace())
            return endOfInput("after a top-level key");
        if (m_buf[m_pos] != ':')
            return error(LoadErrorKind::NotJson, m_base + m_pos, "expected ':' after key \"" + key + "\"", sawEvents);
        ++m_pos;
        if (!skipWhitespace())
            return endOfInput("after a top-level key");
        if (!sawEvents && key == "nodes" && m_metadata.count("schema")) {
            // PyTorch's execution trace (*_et.json: schema, pid, time, nodes): stop before its nodes.
            std::string schema = m_metadata["schema"];
            if (schema.size() >= 2 && schema.front() == '"')
                schema = schema.substr(1, schema.size() - 2);
            return error(LoadErrorKind::NotATrace, m_base + m_pos,
                         "a PyTorch execution trace (schema " + schema.substr(0, 40)
                             + "), not a Kineto trace; HTA reads it beside the Kineto trace, Kinetoscope does not");
        }
        if (key == "traceEvents") {
            if (m_buf[m_pos] != '[')
                return error(LoadErrorKind::NoTraceEvents, m_base + m_pos, "\"traceEvents\" is not an array");
            ++m_pos;
            if (auto e = parseEvents())
                return e;
            sawEvents = true;
            continue;
        }
        size_t valueEnd;
        while ((valueEnd = jsonscan::valueEnd(m_buf.data(), m_pos, m_len)) == jsonscan::kIncomplete)
            if (!fill())
                return endOfInput("inside top-level metadata");
        if (valueEnd == jsonscan::kMalformed)
            return error(LoadErrorKind::NotJson, m_base + m_pos, "malformed value for key \"" + key + "\"", sawEvents);
        if (valueEnd - m_pos <= kMaxMetadataValueBytes)
            m_metadata[key].assign(m_buf.data() + m_pos, valueEnd - m_pos);
        m_pos = valueEnd;
    }
    reportProgress();
    if (!sawEvents) {
        // A whole, well-formed object without events (config.json beside the traces): no trace.
        std::string keys;
        size_t listed = 0;
        for (const auto& [key, value] : m_metadata) {
            if (listed++ == 5) {
                keys += ", ...";
                break;
            }
            keys += (keys.empty() ? "" : ", ") + key;
        }
        return error(LoadErrorKind::NotATrace, 0,
                     "JSON, but not a trace: no \"traceEvents\" in the top-level object"
                         + (keys.empty() ? std::string(" (it is empty)") : " (its keys: " + keys + ")"));
    }
    return std::nullopt;
}

std::optional<LoadError> TraceParser::parseEvents()
{
    std::vector<ElementSpan> elements;
    for (;;) {
        if (m_stop.stop_requested())
            return error(LoadErrorKind::Cancelled, m_base + m_pos, "load cancelled");
        elements.clear();
        const jsonscan::SplitResult split = jsonscan::splitElements(m_buf.data(), m_pos, m_len, m_chunk, elements);
        if (!elements.empty()) {
            if (elementSink)
                elementSink(m_buf.data(), elements);
            else
                m_events.parse(m_buf.data(), m_buf.size(), m_base, elements);
        }
        m_pos = split.resume;
        if (split.closed) {
            m_builder.trace.traceEventsEndOffset = m_base + m_pos - 1;
            return std::nullopt;
        }
        if (split.irregular) {
            // Not an object: skip whitespace/commas, then take one value with the byte scanner.
            while (m_pos < m_len && (jsonscan::isSpace(m_buf[m_pos]) || m_buf[m_pos] == ','))
                ++m_pos;
            size_t end;
            while ((end = jsonscan::valueEnd(m_buf.data(), m_pos, m_len)) == jsonscan::kIncomplete)
                if (!fill())
                    return endOfInput("inside \"traceEvents\"");
            if (end == jsonscan::kMalformed) {
                if (m_buf[m_pos] == ']') {
                    m_builder.trace.traceEventsEndOffset = m_base + m_pos;
                    ++m_pos;
                    return std::nullopt;
                }
                return error(LoadErrorKind::NotJson, m_base + m_pos, "malformed JSON between events", true);
            }
            elements.assign(1, {m_pos, end});
            if (elementSink)
                elementSink(m_buf.data(), elements);
            else
                m_events.parse(m_buf.data(), m_buf.size(), m_base, elements);
            m_pos = end;
            continue;
        }
        reportProgress();
        // Parse what is complete before reading more; read when nothing complete is left.
        if (!elements.empty() && m_len - m_pos >= m_chunk)
            continue;
        if (!fill()) {
            // The split stops after about a chunk: the end of a file may already be in the buffer.
            if (!elements.empty() && m_pos < m_len)
                continue;
            return endOfInput("inside \"traceEvents\"");
        }
    }
}

ParsedFile finishParse(ParsedFile& parsed, RankBuilder& builder, TraceParser& parser, std::optional<LoadError> error,
                       const LoadOptions& options)
{
    applyMetadata(builder, parser.metadataJson(), parsed.rankFromContent);
    parsed.trace.uncompressedBytes = parser.bytesRead();
    if (error) {
        if (parsed.trace.eventsRead == 0)
            error->partial = false;  // nothing worth keeping
        parsed.error = std::move(error);
        if (!parsed.error->partial)
            return std::move(parsed);
    }
    builder.finalize(options);
    return std::move(parsed);
}

} // namespace

ParsedFile parseTraceFile(const std::filesystem::path& file, const LoadOptions& options, LoadProgress* progress,
                          std::stop_token stop, unsigned threads)
{
    ParsedFile parsed;
    parsed.trace.file = file;
    RankBuilder builder(parsed.strings, parsed.trace);
    InflateReader reader;
    if (!reader.open(file)) {
        LoadError e;
        e.file = file;
        e.kind = LoadErrorKind::Unreadable;
        e.message = reader.error();
        parsed.error = e;
        return parsed;
    }
    parsed.trace.compressedBytes = reader.compressedSize();
    parsed.trace.gzip = reader.isGzip();
    builder.reserveForJsonBytes(std::min(reader.expectedUncompressedSize(), options.maxUncompressedBytes));
    TraceParser parser(
        builder, options, [&reader](char* dest, size_t n) { return reader.read(dest, n); }, progress,
        [&reader] { return reader.compressedConsumed(); }, stop);
    parser.sizeHint = reader.expectedUncompressedSize();
    parser.isGzip = reader.isGzip();
    if (threads > 1)
        parser.useHelperThread();
    parser.sourceError = [&reader]() -> std::optional<LoadError> {
        if (!reader.failed())
            return std::nullopt;
        LoadError e;
        const bool truncated = reader.error().find("truncated") != std::string::npos;
        e.kind = truncated ? LoadErrorKind::Truncated : LoadErrorKind::CorruptGzip;
        e.byteOffset = reader.uncompressedProduced();
        e.message = reader.error();
        e.partial = true;
        return e;
    };
    auto error = parser.run();
    if (!error && parser.sourceError)
        error = parser.sourceError();  // a bad CRC after the last event: the events are kept, marked partial
    if (error && !reader.isGzip() && reader.compressedSize() > 0 && file.extension() == ".gz")
        error->message += " (the file is named .gz but is not gzip-compressed)";
    if (error) {
        error->file = file;
        error->inflated = reader.isGzip();
    }
    parser.completeProgress(reader.compressedSize());  // a failed file counts as done too
    return finishParse(parsed, builder, parser, std::move(error), options);
}

namespace {

// The value of the first "key": in one event's text: a string's content (up to the next quote),
// or a number's token; nullopt when the key is absent.
std::optional<std::string_view> keyValue(std::string_view event, std::string_view quotedKey)
{
    const size_t at = event.find(quotedKey);
    if (at == std::string_view::npos)
        return std::nullopt;
    size_t i = at + quotedKey.size();
    while (i < event.size() && (jsonscan::isSpace(event[i]) || event[i] == ':'))
        ++i;
    if (i < event.size() && event[i] == '"') {
        const size_t close = event.find('"', i + 1);
        return event.substr(i + 1, close == std::string_view::npos ? std::string_view::npos : close - i - 1);
    }
    size_t end = i;
    while (end < event.size() && (std::isdigit(static_cast<unsigned char>(event[end])) || event[end] == '.' ||
                                  event[end] == '-' || event[end] == '+' || event[end] == 'e' || event[end] == 'E'))
        ++end;
    return event.substr(i, end - i);
}

} // namespace

std::optional<int64_t> earliestEventTimestamp(const std::filesystem::path& file, const LoadOptions& options)
{
    InflateReader reader;
    if (!reader.open(file))
        return std::nullopt;
    StringPool strings;
    RankTrace trace;
    RankBuilder builder(strings, trace);
    TraceParser parser(
        builder, options, [&reader](char* dest, size_t n) { return reader.read(dest, n); }, nullptr,
        [&reader] { return reader.compressedConsumed(); }, {});
    parser.sizeHint = reader.expectedUncompressedSize();
    parser.isGzip = reader.isGzip();
    int64_t earliest = std::numeric_limits<int64_t>::max();
    bool fractional = false;
    // The events the loader keeps in its table (complete, instant, async; in HTA's mode only
    // those with dur and cat, and not the profiler's own span). Kineto writes these keys before
    // args, so the first of each key is the event's own.
    parser.elementSink = [&](const char* window, const std::vector<ElementSpan>& elements) {
        for (const ElementSpan& span : elements) {
            const std::string_view event(window + span.begin, span.end - span.begin);
            const std::optional<std::string_view> ph = keyValue(event, "\"ph\"");
            const std::optional<std::string_view> ts = keyValue(event, "\"ts\"");
            if (!ts || hasFractionOrExponent(*ts))
                fractional = true;  // as the loader decides HTA's rounding
            if (!ph || ph->size() != 1 || std::string_view("XiIbe").find((*ph)[0]) == std::string_view::npos)
                continue;
            if (options.htaCompat) {
                const std::optional<std::string_view> cat = keyValue(event, "\"cat\"");
                if (!cat || *cat == "Trace" || !keyValue(event, "\"dur\""))
                    continue;
            }
            int64_t ns = 0;
            if (ts && !ts->empty() && microsToNanos(*ts, ns))
                earliest = std::min(earliest, ns);
        }
    };
    if (parser.run() && earliest == std::numeric_limits<int64_t>::max())
        return std::nullopt;
    if (earliest == std::numeric_limits<int64_t>::max())
        return std::nullopt;
    if (options.htaCompat && fractional)  // HTA's ts = ceil(us), as RankBuilder::applyHtaRounding
        earliest = static_cast<int64_t>(std::ceil(htaMicros(earliest))) * 1000;
    return earliest;
}

ParsedFile parseTraceText(std::string_view json, const LoadOptions& options)
{
    ParsedFile parsed;
    RankBuilder builder(parsed.strings, parsed.trace);
    size_t offset = 0;
    TraceParser parser(
        builder, options,
        [&](char* dest, size_t n) {
            const size_t take = std::min(n, json.size() - offset);
            std::memcpy(dest, json.data() + offset, take);
            offset += take;
            return take;
        },
        nullptr, [&] { return static_cast<uint64_t>(offset); }, {});
    parsed.trace.compressedBytes = json.size();
    parser.sizeHint = json.size();
    auto error = parser.run();
    return finishParse(parsed, builder, parser, std::move(error), options);
}

} // namespace kscope
