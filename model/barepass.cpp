#include "model/barepass.h"

#include "model/inflatereader.h"
#include "model/jsonscan.h"
#include "model/parallelfor.h"

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string_view>

namespace kscope {

namespace {

namespace ondemand = simdjson::ondemand;

// The eight fields, as columns.
struct BareColumns {
    std::vector<char> phase;
    std::vector<uint32_t> nameLength, categoryLength;  // the strings' sizes: no pool
    std::vector<double> tsUs, durUs;
    std::vector<int64_t> pid, tid, correlation;

    void clear()
    {
        phase.clear();
        nameLength.clear();
        categoryLength.clear();
        tsUs.clear();
        durUs.clear();
        pid.clear();
        tid.clear();
        correlation.clear();
    }
    size_t size() const { return phase.size(); }
};

void takeEvent(ondemand::object event, BareColumns& columns)
{
    char phase = 0;
    uint32_t name = 0, category = 0;
    double ts = 0, dur = 0;
    int64_t pid = 0, tid = 0, correlation = -1;
    for (auto field : event) {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return;
        ondemand::value value = field.value();
        std::string_view text;
        if (key == "ph") {
            if (!value.get_string().get(text) && !text.empty())
                phase = text.front();
        } else if (key == "name") {
            if (!value.get_string().get(text))
                name = static_cast<uint32_t>(text.size());
        } else if (key == "cat") {
            if (!value.get_string().get(text))
                category = static_cast<uint32_t>(text.size());
        } else if (key == "ts") {
            if (value.get_double().get(ts))
                ts = 0;
        } else if (key == "dur") {
            if (value.get_double().get(dur))
                dur = 0;
        } else if (key == "pid") {
            if (value.get_int64().get(pid))
                pid = 0;  // a text pid: not a column here
        } else if (key == "tid") {
            if (value.get_int64().get(tid))
                tid = 0;
        } else if (key == "args") {
            ondemand::object args;
            if (!value.get_object().get(args))
                for (auto arg : args) {
                    std::string_view argKey;
                    if (!arg.unescaped_key().get(argKey) && argKey == "correlation")
                        if (arg.value().get_int64().get(correlation))
                            correlation = -1;
                }
        }
    }
    columns.phase.push_back(phase);
    columns.nameLength.push_back(name);
    columns.categoryLength.push_back(category);
    columns.tsUs.push_back(ts);
    columns.durUs.push_back(dur);
    columns.pid.push_back(pid);
    columns.tid.push_back(tid);
    columns.correlation.push_back(correlation);
}

// The events of one batch of whole elements, parsed in place as one array document.
void takeBatch(ondemand::parser& parser, char* data, size_t capacity, const std::vector<jsonscan::Span>& spans,
               BareColumns& columns)
{
    const size_t first = spans.front().begin, last = spans.back().end;
    char* doc = data + first - 1;  // the buffer keeps a byte before every batch
    const char before = *doc, after = data[last];
    *doc = '[';
    data[last] = ']';
    ondemand::document document;
    ondemand::array array;
    if (!parser.iterate(doc, last - first + 2, capacity - (first - 1)).get(document) && !document.get_array().get(array))
        for (auto item : array) {
            ondemand::object event;
            if (item.get_object().get(event))
                break;
            takeEvent(event, columns);
        }
    *doc = before;
    data[last] = after;
}

// One file; false with why when it cannot be read to the end of traceEvents.
bool passFile(const std::filesystem::path& file, size_t batchBytes, std::vector<char>& buffer, BareColumns& columns,
              uint64_t& bytes, uint64_t& events, std::string& why)
{
    InflateReader in;
    if (!in.open(file)) {
        why = in.error();
        return false;
    }
    thread_local ondemand::parser parser;
    const size_t chunk = std::max<size_t>(batchBytes, 1 << 20);
    std::vector<jsonscan::Span> spans;
    size_t pos = 1, len = 1;  // buffer[0]: the byte a batch's '[' goes in
    bool inEvents = false, closed = false;
    while (!closed) {
        // Keep the unread tail, then append a chunk (and simdjson's padding after it).
        const size_t tail = len - pos;
        if (buffer.size() < 1 + tail + chunk + simdjson::SIMDJSON_PADDING)
            buffer.resize(1 + tail + chunk + simdjson::SIMDJSON_PADDING);
        if (tail)
            std::memmove(buffer.data() + 1, buffer.data() + pos, tail);
        len = 1 + tail;
        pos = 1;
        const size_t got = in.read(buffer.data() + len, chunk);
        len += got;
        if (in.failed()) {
            why = in.error();
            return false;
        }
        if (!inEvents) {
            const std::string_view text(buffer.data() + pos, len - pos);
            const size_t key = text.find("\"traceEvents\"");
            const size_t open = key == std::string_view::npos ? key : text.find('[', key);
            if (open == std::string_view::npos) {
                if (got == 0) {
                    why = "no traceEvents array";
                    return false;
                }
                pos = len - std::min<size_t>(len - pos, 32);  // the key may straddle the chunks
                continue;
            }
            pos += open + 1;
            inEvents = true;
        }
        for (;;) {
            spans.clear();
            const jsonscan::SplitResult split = jsonscan::splitElements(buffer.data(), pos, len, batchBytes, spans);
            if (!spans.empty()) {
                const size_t before = columns.size();
                takeBatch(parser, buffer.data(), buffer.size(), spans, columns);
                events += columns.size() - before;
                if (columns.size() > (1u << 20))
                    columns.clear();  // columns as the loader fills them, without holding a whole run
            }
            pos = split.resume;
            if (split.closed || split.irregular) {
                closed = true;  // the bare pass stops at the first non-object element
                break;
            }
            if (spans.empty())
                break;  // an incomplete element: read on
        }
        if (!closed && got == 0) {
            why = "the file ends inside traceEvents";
            return false;
        }
    }
    bytes += in.uncompressedProduced();
    return true;
}

} // namespace

BarePassResult barePass(const std::vector<std::filesystem::path>& files, unsigned threads, size_t batchBytes)
{
    BarePassResult result;
    std::atomic<uint64_t> bytes{0}, events{0};
    std::mutex errorLock;
    const auto start = std::chrono::steady_clock::now();
    parallelFor(files.size(), std::max(1u, threads), {}, [&](size_t i) {
        thread_local std::vector<char> buffer;  // reused across this thread's files, as the loader's
        thread_local BareColumns columns;
        uint64_t fileBytes = 0, fileEvents = 0;
        std::string why;
        if (!passFile(files[i], batchBytes, buffer, columns, fileBytes, fileEvents, why)) {
            const std::lock_guard lock(errorLock);
            if (result.error.empty())
                result.error = files[i].string() + ": " + why;
        }
        bytes += fileBytes;
        events += fileEvents;
        columns.clear();
    });
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.uncompressedBytes = bytes;
    result.events = events;
    return result;
}

} // namespace kscope
