#include "analysis/tracerewrite.h"

#include "model/atomicfile.h"
#include "model/inflatereader.h"
#include "model/jsonwrite.h"
#include "model/rankbuilder.h"
#include "model/streamfile.h"
#include "model/timeconv.h"

namespace kscope {

namespace fs = std::filesystem;

namespace {

constexpr size_t kChunk = 4u << 20;

// The copy's output, written in pieces of about kChunk.
class Output {
public:
    explicit Output(StreamFileWriter& writer) : m_writer(writer) {}
    void add(std::string_view bytes)
    {
        m_pending += bytes;
        if (m_pending.size() >= kChunk)
            flush();
    }
    std::string flush()
    {
        if (m_error.empty() && !m_pending.empty())
            m_error = m_writer.write(m_pending);
        m_pending.clear();
        return m_error;
    }
    // The file's own bytes, straight through.
    void copy(std::string_view bytes)
    {
        flush();
        if (m_error.empty())
            m_error = m_writer.write(bytes);
    }

private:
    StreamFileWriter& m_writer;
    std::string m_pending;
    std::string m_error;
};

// Events added at the end of traceEvents, each after the separator it needs.
int64_t appendEvents(const TraceRewrite& how, Output& out, bool first)
{
    int64_t added = 0;
    if (how.append)
        how.append([&](std::string_view event) {
            out.add(first ? "\n  " : ",\n  ");
            first = false;
            out.add(event);
            ++added;
        });
    return added;
}

void addEdited(Output& out, const TraceElement& element, const ElementEdit& edit)
{
    const std::string_view text = element.text;
    if (edit.argsMembers.empty()) {
        out.add(text);
        return;
    }
    const std::string_view args = element.token("args");
    if (!args.empty() && args.front() == '{') {
        const size_t insertAt = static_cast<size_t>(args.data() + args.size() - 1 - text.data());  // its '}'
        bool blank = true;
        for (char c : args.substr(1, args.size() - 2))
            blank &= jsonscan::isSpace(c);
        out.add(text.substr(0, insertAt));
        out.add(blank ? "" : ", ");
        out.add(edit.argsMembers);
        out.add(text.substr(insertAt));
        return;
    }
    const size_t insertAt = text.size() - 1;  // the element's '}'
    out.add(text.substr(0, insertAt));
    out.add(element.members.empty() ? "\"args\": {" : ", \"args\": {");
    out.add(edit.argsMembers);
    out.add("}");
    out.add(text.substr(insertAt));
}

// The input as a window over its inflated stream: bytes before `at` are done with.
struct InputWindow {
    InflateReader& reader;
    std::string buf;
    size_t at = 0;
    uint64_t dropped = 0;  // bytes erased from the front
    bool eof = false;

    bool more()
    {
        if (eof)
            return false;
        const size_t old = buf.size();
        buf.resize(old + kChunk);
        const size_t got = reader.read(buf.data() + old, kChunk);
        buf.resize(old + got);
        eof = got == 0;
        return got > 0;
    }
    // At the next byte that is not blank; false at the end of the input.
    bool skipBlanks()
    {
        for (;;) {
            while (at < buf.size() && jsonscan::isSpace(buf[at]))
                ++at;
            if (at < buf.size() || !more())
                return at < buf.size();
        }
    }
    // Just past the value at `at`, reading on as far as it needs; kIncomplete / kMalformed.
    size_t valueEnd()
    {
        for (;;) {
            const size_t end = jsonscan::valueEnd(buf.data(), at, buf.size());
            if (end != jsonscan::kIncomplete || !more())
                return end;
        }
    }
    void compact()
    {
        if (at >= kChunk) {
            buf.erase(0, at);
            dropped += at;
            at = 0;
        }
    }
    uint64_t offset() const { return dropped + at; }
};

// Walks traceEvents element by element, as how.edit decides; the rest of the file as it is.
std::string rewriteElements(const RankTrace& rank, const TraceRewrite& how, InflateReader& reader, Output& out,
                            TraceRewriteResult& result)
{
    InputWindow in{reader, {}, 0, 0, false};
    const std::string where = rank.file.string() + ": ";
    if (!in.skipBlanks() || in.buf[in.at] != '{')
        return where + "not a JSON object";
    ++in.at;
    for (;;) {  // the members before traceEvents, copied as they are
        if (!in.skipBlanks())
            return where + "the file ends before traceEvents";
        const char c = in.buf[in.at];
        if (c == ',') {
            ++in.at;
            continue;
        }
        if (c == '}')
            return where + "no traceEvents array to rewrite";
        const size_t keyEnd = c == '"' ? in.valueEnd() : jsonscan::kMalformed;
        if (keyEnd == jsonscan::kIncomplete || keyEnd == jsonscan::kMalformed)
            return where + "malformed JSON at byte " + std::to_string(in.offset());
        const bool traceEvents = std::string_view(in.buf).substr(in.at, keyEnd - in.at) == "\"traceEvents\"";
        in.at = keyEnd;
        if (!in.skipBlanks() || in.buf[in.at] != ':')
            return where + "malformed JSON at byte " + std::to_string(in.offset());
        ++in.at;
        if (!in.skipBlanks())
            return where + "the file ends before traceEvents";
        if (traceEvents && in.buf[in.at] == '[') {
            ++in.at;
            out.copy(std::string_view(in.buf).substr(0, in.at));
            break;
        }
        const size_t end = in.valueEnd();
        if (end == jsonscan::kIncomplete || end == jsonscan::kMalformed)
            return where + "malformed JSON at byte " + std::to_string(in.offset());
        in.at = end;
    }
    bool first = true;
    TraceElement element;
    for (;;) {
        in.compact();
        if (!in.skipBlanks())
            return where + "traceEvents does not end (a partial file?)";
        const char c = in.buf[in.at];
        if (c == ',') {
            ++in.at;
            continue;
        }
        if (c == ']')
            break;
        const size_t end = in.valueEnd();
        if (end == jsonscan::kIncomplete || end == jsonscan::kMalformed)
            return where + "a malformed element of traceEvents at byte " + std::to_string(in.offset());
        element.text = std::string_view(in.buf).substr(in.at, end - in.at);
        if (!(element.text.front() == '{' && jsonscan::objectMembers(element.text, element.members)))
            element.members.clear();
        const ElementEdit edit = how.edit(element);
        ++element.position;
        in.at = end;
        if (!edit.keep)
            continue;
        out.add(first ? "\n  " : ",\n  ");
        first = false;
        addEdited(out, element, edit);
    }
    result.eventsAppended = appendEvents(how, out, first);
    out.add("\n");
    out.copy(std::string_view(in.buf).substr(in.at));  // from the ']' on
    result.bytesRead = in.dropped + in.buf.size();
    std::vector<char> rest(kChunk);
    while (const size_t got = reader.read(rest.data(), rest.size())) {
        out.copy(std::string_view(rest.data(), got));
        result.bytesRead += got;
    }
    return {};
}

// Copies the elements byte for byte up to the ']' the loader saw, then the added events.
std::string copyElements(const RankTrace& rank, const TraceRewrite& how, InflateReader& reader, Output& out,
                         TraceRewriteResult& result)
{
    if (rank.traceEventsEndOffset == 0)
        return "the end of its traceEvents was not seen when loading (a partial rank?): nothing written";
    std::vector<char> buffer(kChunk);
    uint64_t position = 0;
    char lastSolid = 0;  // whether the array had elements
    while (position < rank.traceEventsEndOffset) {
        const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, rank.traceEventsEndOffset - position));
        size_t got = 0;
        while (got < want)
            if (const size_t n = reader.read(buffer.data() + got, want - got))
                got += n;
            else
                break;
        if (got == 0)
            return reader.failed() ? reader.error() : "the file is shorter than when it was loaded";
        for (size_t k = got; k-- > 0;)
            if (!jsonscan::isSpace(buffer[k])) {
                lastSolid = buffer[k];
                break;
            }
        out.copy(std::string_view(buffer.data(), got));
        position += got;
    }
    char close = 0;
    if (reader.read(&close, 1) != 1 || close != ']')
        return "the file changed since it was loaded (no ']' where traceEvents ended)";
    ++position;
    result.eventsAppended = appendEvents(how, out, lastSolid == '[');
    out.add("\n]");
    while (const size_t got = reader.read(buffer.data(), buffer.size())) {
        out.copy(std::string_view(buffer.data(), got));
        position += got;
    }
    if (!reader.failed() && rank.uncompressedBytes != 0 && position != rank.uncompressedBytes)
        return "the file changed since it was loaded (" + std::to_string(rank.uncompressedBytes) + " bytes then, "
            + std::to_string(position) + " now)";
    result.bytesRead = position;
    return {};
}

} // namespace

TraceRewriteResult rewriteTrace(const Run& run, const RankTrace& rank, const TraceRewrite& how)
{
    TraceRewriteResult result;
    if (std::string e = inputOverwriteError(how.output, inputFiles(run)); !e.empty()) {
        result.error = "will not write " + how.output.string() + ": " + e;
        return result;
    }
    InflateReader reader;
    if (!reader.open(rank.file)) {
        result.error = "cannot read " + rank.file.string() + ": " + reader.error();
        return result;
    }
    StreamFileWriter writer;
    if (std::string e = writer.open(how.output, how.alwaysGzip || reader.isGzip(), how.gzipLevel); !e.empty()) {
        result.error = "cannot write " + how.output.string() + ": " + e;
        return result;
    }
    Output out(writer);
    std::string error = how.edit ? rewriteElements(rank, how, reader, out, result) : copyElements(rank, how, reader, out, result);
    if (error.empty() && reader.failed())
        error = "cannot read " + rank.file.string() + ": " + reader.error();
    if (error.empty())
        error = out.flush();
    if (error.empty())
        if (std::string e = writer.commit(); !e.empty())
            error = "cannot write " + how.output.string() + ": " + e;
    result.error = std::move(error);  // the writer, not committed, leaves nothing behind
    result.bytesWritten = result.error.empty() ? writer.bytesIn() : 0;
    return result;
}

bool storedSpan(const Run& run, const RankTrace& rank, const TraceElement& element, int64_t& tsNs, int64_t& durNs)
{
    if (!microsToNanos(element.token("ts"), tsNs) || !microsToNanos(element.token("dur"), durNs))
        return false;
    if (run.htaCompat && rank.metadata.fractionalTimestamps)
        htaRoundSpan(tsNs, durNs);  // how the loader stored it
    return true;
}

std::string threadToken(const Run& run, const ThreadKey& thread, bool pid)
{
    const StringId name = pid ? thread.pidName : thread.tidName;
    return name ? jsonString(run.str(name)) : std::to_string(pid ? thread.pid : thread.tid);
}

} // namespace kscope
