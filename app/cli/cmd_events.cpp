// kinetoscope-cli events RUN: the event table itself, filtered by rank, step, kind, name and
// time, streamed as CSV or JSON (rows are written as they are formatted, never held as a table);
// --hta-compat: HTA's parsed frame (t.get_trace(rank)) with its column names and defaults;
// --format sqlite: the run as SQLite tables (eventsqlite.cpp).

#include "command.h"
#include "eventsink.h"

#include "analysis/operators/calltree.h"
#include "analysis/operators/eventquery.h"
#include "model/atomicfile.h"
#include "model/jsonwrite.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <climits>
#include <cmath>
#include <iostream>
#include <memory>

namespace kscope::cli {

namespace {

constexpr double kMaxWindowUs = 9e15;

struct EventsArgs {
    int rank = -1;
    std::vector<std::string> kinds;
    std::string name;
    double fromUs = -INFINITY;
    double toUs = INFINITY;
    std::string format = "csv";
    std::string output;
};

// Appends text fast: numbers through to_chars, strings quoted only when they must be.
class RowWriter {
public:
    RowWriter(EventSink& sink, const Run& run, bool json) : m_sink(sink), m_run(run), m_json(json)
    {
        m_quote.assign(run.strings.size() + 1, 0);
    }

    void begin()
    {
        if (m_json)
            m_out += m_rows++ ? ",\n{" : "{";
        m_field = 0;
    }
    void end()
    {
        m_out += m_json ? "}" : "\n";
        if (m_out.size() >= (1u << 20)) {
            m_sink.write(m_out);
            m_out.clear();
        }
    }
    void finish()
    {
        if (m_json)
            m_out += m_rows ? "\n]\n" : "]\n";
        m_sink.write(m_out);
        m_out.clear();
    }
    void header(const std::vector<TableColumn>& columns)
    {
        m_columns.assign(columns.begin(), columns.end());
        if (m_json) {
            m_out += "[";
            return;
        }
        for (size_t i = 0; i < columns.size(); ++i) {
            if (i)
                m_out += ',';
            m_out += columns[i];
        }
        m_out += '\n';
    }

    void integer(int64_t v)
    {
        key();
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_out.append(buf, r.ptr);
    }
    // ns as microseconds: whole values as integers, else exactly three decimals trimmed.
    void micros(int64_t ns)
    {
        key();
        appendMicros(ns);
    }
    // HTA's float columns: whole microseconds written "12.0".
    void microsFloat(int64_t ns)
    {
        key();
        appendMicros(ns);
        if (ns % 1000 == 0)
            m_out += ".0";
    }
    void number(double v)
    {
        key();
        if (!std::isfinite(v)) {
            m_out += m_json ? "null" : "";
            return;
        }
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_out.append(buf, r.ptr);
        if (std::floor(v) == v && std::abs(v) < 1e15 && std::string_view(buf, r.ptr).find_first_of(".e") == std::string_view::npos)
            m_out += ".0";
    }
    void text(std::string_view s)
    {
        key();
        if (m_json)
            appendJsonString(s);
        else
            appendCsv(s, needsQuote(s));
    }
    void string(StringId id)
    {
        key();
        const std::string_view s = m_run.str(id);
        if (m_json) {
            appendJsonString(s);
            return;
        }
        uint8_t& state = m_quote[id.value < m_quote.size() ? id.value : 0];
        if (id.value >= m_quote.size() || state == 0)
            state = needsQuote(s) ? 2 : 1;
        appendCsv(s, state == 2);
    }
    void empty()
    {
        key();
        if (m_json)
            m_out += "null";
    }

private:
    void key()
    {
        if (m_field)
            m_out += ',';
        if (m_json) {
            m_out += '"';
            m_out += m_columns[m_field];
            m_out += "\":";
        }
        ++m_field;
    }
    void appendMicros(int64_t ns)
    {
        if (ns < 0) {
            m_out += '-';
            ns = -ns;
        }
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, ns / 1000);
        m_out.append(buf, r.ptr);
        int64_t frac = ns % 1000;
        if (frac == 0)
            return;
        char digits[4] = {char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10), 0};
        size_t len = 3;
        while (digits[len - 1] == '0')
            --len;
        m_out += '.';
        m_out.append(digits, len);
    }
    static bool needsQuote(std::string_view s)
    {
        return s.find_first_of(",\"\n\r") != std::string_view::npos;
    }
    void appendCsv(std::string_view s, bool quote)
    {
        if (!quote) {
            m_out += s;
            return;
        }
        m_out += '"';
        for (char c : s) {
            if (c == '"')
                m_out += '"';
            m_out += c;
        }
        m_out += '"';
    }
    void appendJsonString(std::string_view s) { kscope::appendJsonString(m_out, s); }

    EventSink& m_sink;
    const Run& m_run;
    bool m_json;
    std::string m_out;
    std::vector<std::string> m_columns;
    std::vector<uint8_t> m_quote;
    size_t m_field = 0;
    size_t m_rows = 0;
};

// A sparse args row for each row visited in ascending row order (default mode) or any order.
template <typename Row>
class SparseCursor {
public:
    explicit SparseCursor(const std::vector<Row>& rows) : m_rows(rows) {}
    const Row* at(EventIndex e, bool ascending)
    {
        if (!ascending)
            return findSparse(m_rows, e);
        while (m_pos < m_rows.size() && m_rows[m_pos].event < e)
            ++m_pos;
        return m_pos < m_rows.size() && m_rows[m_pos].event == e ? &m_rows[m_pos] : nullptr;
    }

private:
    const std::vector<Row>& m_rows;
    size_t m_pos = 0;
};

void threadCells(RowWriter& w, const RankTrace& rank, ThreadIndex thread)
{
    const ThreadKey& key = rank.threads[thread];
    if (key.pidName)
        w.string(key.pidName);
    else
        w.integer(key.pid);
    if (key.tidName)
        w.string(key.tidName);
    else
        w.integer(key.tid);
}

// HTA's list columns as pandas writes a Python list: "[[2, 3], []]", "['float', '']" (whitespace
// of the JSON dropped, ", " after commas, strings single-quoted unless they hold a quote).
std::string pythonList(std::string_view json)
{
    std::string out;
    out.reserve(json.size());
    for (size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '"') {
            size_t end = i + 1;
            while (end < json.size() && json[end] != '"')
                end += json[end] == '\\' ? 2 : 1;
            const std::string_view body = json.substr(i + 1, std::min(end, json.size()) - i - 1);
            const char quote = body.find('\'') == std::string_view::npos ? '\'' : '"';
            out += quote;
            out += body;
            out += quote;
            i = end;
        } else if (c == ',') {
            out += ", ";
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out += c;
        }
    }
    return out;
}

const std::vector<TableColumn> kHtaColumns = {
    "rank", "index", "s_name", "s_cat", "pid", "tid", "ts", "dur", "end", "stream", "correlation",
    "index_correlation", "iteration", "bytes", "memory_bw_gbps", "wait_on_stream",
    "wait_on_cuda_event_record_corr_id", "input_dims", "input_type", "external_id", "python_id",
    "python_parent_id", "collective_name", "in_msg_nelems", "out_msg_nelems", "msg_dtype", "group_size"};

int64_t writeRank(RowWriter& w, const Run& run, const RankTrace& rank, EventMatcher& matcher, bool hta)
{
    const EventTable& t = rank.events;
    SparseCursor<MemoryArgs> memory(t.memoryArgs);
    SparseCursor<ShapeArgs> shapes(t.shapeArgs);
    SparseCursor<MemoryEventArgs> memoryEvents(t.memoryEvents);
    SparseCursor<SyncArgs> syncs(t.syncArgs);
    SparseCursor<CallStackArgs> stacks(t.callStackArgs);
    SparseCursor<CollectiveArgs> collectives(t.collectiveArgs);
    int64_t written = 0;
    auto one = [&](EventIndex e, bool ascending) {
        if (!matcher.matches(t, e))
            return;
        ++written;
        w.begin();
        w.integer(rank.rank);
        if (!hta) {
            const MemoryArgs* m = memory.at(e, ascending);
            const ShapeArgs* s = shapes.at(e, ascending);
            const MemoryEventArgs* me = memoryEvents.at(e, ascending);
            w.integer(e);
            w.text(toString(eventClass(t, e)));
            w.string(t.category[e]);
            w.string(t.name[e]);
            threadCells(w, rank, t.thread[e]);
            w.integer(t.stream[e]);
            w.micros(t.tsNs[e] - run.minTsNs);
            w.micros(t.durNs[e]);
            w.integer(t.correlation[e]);
            w.integer(t.externalId[e]);
            w.integer(t.step[e]);
            w.integer(t.link[e] == kNoEvent ? -1 : int64_t(t.link[e]));
            w.integer(t.parent[e] == kNoEvent ? -1 : int64_t(t.parent[e]));
            w.integer(t.depth[e]);
            if (me)
                w.integer(me->bytes);
            else if (m && m->bytes >= 0)
                w.integer(m->bytes);
            else
                w.empty();
            if (const StringId dims = s ? t.shapeOf(*s).inputDims : StringId{})
                w.string(dims);
            else
                w.empty();
            if (me) {
                w.integer(me->totalAllocated);
                w.integer(me->totalReserved);
                w.text(me->deviceType == 1 ? "cuda:" + std::to_string(me->deviceId)
                                           : me->deviceType == 0 ? std::string("cpu")
                                                                 : "type" + std::to_string(me->deviceType) + ":"
                                   + std::to_string(me->deviceId));
            } else {
                w.empty();
                w.empty();
                w.empty();
            }
        } else {
            const MemoryArgs* m = memory.at(e, ascending);
            const ShapeArgs* s = shapes.at(e, ascending);
            const SyncArgs* sync = syncs.at(e, ascending);
            const CallStackArgs* cs = stacks.at(e, ascending);
            const CollectiveArgs* c = collectives.at(e, ascending);
            w.integer(htaRowIndex(rank, e));
            w.string(t.name[e]);
            w.string(t.category[e]);
            threadCells(w, rank, t.thread[e]);
            w.micros(t.tsNs[e] - run.minTsNs);
            w.microsFloat(t.durNs[e]);
            w.microsFloat(t.tsNs[e] + t.durNs[e]);
            // CUPTI's "no stream" 4294967295 is clamped into the column's range.
            w.integer(t.stream[e] == INT32_MAX ? int64_t(4294967295) : int64_t(t.stream[e]));
            w.integer(t.correlation[e]);
            w.integer(htaIndexCorrelation(rank, e));
            // HTA gives GPU work on stream 0 (ROCm's default stream) no iteration: NaN.
            if (t.stream[e] == 0 && t.kind[e] != EventKind::CpuOp && t.step[e] == -1)
                w.empty();
            else
                w.integer(t.step[e]);
            w.integer(m ? m->bytes : -1);
            w.number(m ? m->bandwidthGBps : 0.0);
            w.integer(sync ? sync->waitOnStream : -1);
            w.integer(sync ? sync->waitOnEventRecordCorrelation : -1);
            const InputShape shape = s ? t.shapeOf(*s) : InputShape{};
            if (shape.inputDims)
                w.text(pythonList(run.str(shape.inputDims)));
            else
                w.integer(-1);
            if (shape.inputTypes)
                w.text(pythonList(run.str(shape.inputTypes)));
            else
                w.integer(-1);
            w.integer(t.externalId[e]);
            w.integer(cs ? cs->pythonId : -1);
            w.integer(cs ? cs->pythonParentId : -1);
            if (c && c->collectiveName)
                w.string(c->collectiveName);
            else
                w.text("");
            w.integer(c && c->inMsgNelems >= 0 ? c->inMsgNelems : 0);
            w.integer(c && c->outMsgNelems >= 0 ? c->outMsgNelems : 0);
            if (c && c->dtype)
                w.string(c->dtype);
            else
                w.text("");
            w.integer(c && c->groupSize >= 0 ? c->groupSize : 0);
        }
        w.end();
    };
    if (hta && !t.fileIndex.empty()) {
        for (EventIndex e : htaFrameOrder(t))
            one(e, false);
    } else {
        for (size_t i = 0; i < t.size(); ++i)
            one(static_cast<EventIndex>(i), true);
    }
    return written;
}

} // namespace

int64_t writeEventRows(const Run& run, EventMatcher& matcher, EventSink& sink, bool hta, bool json, int onlyRank)
{
    RowWriter writer(sink, run, json);
    writer.header(hta ? kHtaColumns : eventColumns());
    int64_t rows = 0;
    for (const RankTrace& rank : run.ranks)
        if (onlyRank < 0 || rank.rank == onlyRank)
            rows += writeRank(writer, run, rank, matcher, hta);
    writer.finish();
    return rows;
}

namespace {

int streamEvents(const EventsArgs& args, const Invocation& given)
{
    // --rank filters the rows, not the load: ts counts from the earliest event of every rank, as
    // in HTA (which aligns every rank to one start).
    const Invocation& invocation = given;
    int exitCode = kExitOk;
    const auto loaded = loadRunForCommand(invocation, exitCode);
    if (!loaded)
        return exitCode;
    const Run& run = *loaded->run;

    EventFilter filter;
    for (const std::string& kind : args.kinds) {
        EventClass c;
        parseEventClass(kind, c);
        filter.classes |= 1u << static_cast<unsigned>(c);
    }
    filter.nameRegex = args.name;
    if (std::isfinite(args.fromUs))
        filter.fromNs = std::llround(args.fromUs * 1000.0);
    if (std::isfinite(args.toUs))
        filter.toNs = std::llround(args.toUs * 1000.0);
    filter.htaRows = invocation.common.htaCompat;
    EventMatcher matcher(run, filter);
    if (!matcher.error().empty()) {
        std::cerr << "error: " << matcher.error() << '\n';
        return kExitUsage;
    }

    auto rankMissing = [&] {
        if (args.rank < 0 || run.findRank(args.rank))
            return false;
        std::cerr << "note: rank " << args.rank << " is not in the run\n";
        return true;
    };
    if (args.format == "sqlite") {
        if (const int written = writeSqlite(run, matcher, args.output, *loaded, args.rank); written != kExitOk)
            return written;
        if (rankMissing())
            return kExitIncomplete;
        return loaded->incomplete && !invocation.common.allowPartial ? kExitIncomplete : kExitOk;
    }

    std::string targetError = args.output.empty() ? std::string() : inputOverwriteError(args.output, inputFiles(run));
    if (!targetError.empty()) {
        std::cerr << "error: cannot write " << args.output << ": " << targetError << '\n';
        return kExitOutputFailed;
    }
    EventSink sink(args.output);
    if (!sink.error().empty()) {
        std::cerr << "error: cannot write " << args.output << ": " << sink.error() << '\n';
        return kExitOutputFailed;
    }
    const int64_t rows =
        writeEventRows(run, matcher, sink, invocation.common.htaCompat, args.format == "json", args.rank);
    if (const std::string error = sink.finish(); !error.empty()) {
        std::cerr << "error: cannot write " << (args.output.empty() ? std::string("standard output") : args.output)
                  << ": " << error << '\n';
        return kExitOutputFailed;
    }
    for (const std::string& note : loaded->notes)
        std::cerr << "note: " << note << '\n';
    if (rankMissing())
        return kExitIncomplete;
    if (rows == 0)
        std::cerr << "note: no event matched\n";
    return loaded->incomplete && !invocation.common.allowPartial ? kExitIncomplete : kExitOk;
}

Action setupEvents(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<EventsArgs>();
    app.add_option("--rank", args->rank, "only rank R (as --ranks R)")->check(wholeNumber(0, INT32_MAX))->type_name("R");
    app.add_option("--kind", args->kinds,
                   "only these kinds: kernel, cpu-op, runtime, memcpy, memset, annotation, memory, other "
                   "(repeat or comma-separate)")
        ->delimiter(',')
        ->check(oneOf({"kernel", "cpu-op", "runtime", "memcpy", "memset", "annotation", "memory", "other"}))
        ->type_name("KIND");
    app.add_option("--name", args->name, "only events whose name matches this regular expression (anywhere)")
        ->type_name("REGEX");
    // bounded so that A * 1000 ns fits int64 (9e15 us: 285 years)
    app.add_option("--from-us", args->fromUs, "only events that end at or after A us after the run's first event")
        ->check(numberFrom(-kMaxWindowUs, kMaxWindowUs))
        ->type_name("A");
    app.add_option("--to-us", args->toUs, "only events that start at or before B us after the run's first event")
        ->check(numberFrom(-kMaxWindowUs, kMaxWindowUs))
        ->type_name("B");
    app.add_option("--format", args->format, "csv, json (an array of objects) or sqlite (needs --output)")
        ->check(oneOf({"csv", "json", "sqlite"}))
        ->type_name("FMT")
        ->capture_default_str();
    app.add_option("-o,--output", args->output, "write to FILE (a temporary file renamed over it) instead of stdout")
        ->type_name("FILE");
    return [args, &invocation] {
        if (args->format == "sqlite" && args->output.empty()) {
            std::cerr << "error: --format sqlite needs --output FILE\n";
            return int(kExitUsage);
        }
        return streamEvents(*args, invocation);
    };
}

const CommandRegistrar kRegistrar{
    {"events", "The event table itself, filtered, streamed as CSV, JSON or SQLite (HTA's get_trace)",
     "One row per event of every rank (--rank R, --ranks, --step N narrow it), in start order: kind,\n"
     "category, name, thread, stream, ts and dur in us (ts since the run's first event, exact ns),\n"
     "correlation, step, the rows of its launch partner and enclosing CPU event, bytes, input shapes\n"
     "and the allocator's totals of [memory] events. Rows are written as they are made: any size.\n"
     "--hta-compat: HTA's parsed frame (t.get_trace(rank)): the events it keeps, its columns\n"
     "(s_name, s_cat, pid, tid, ts, dur, stream, correlation, index_correlation, iteration and its\n"
     "args columns with its defaults), index = HTA's row index, its row order.\n"
     "--format sqlite --output FILE: tables events, kernels, ops, strings and threads with indexes.",
     &setupEvents, kRunInput | kLoadOptions | kStep}};

} // namespace

} // namespace kscope::cli
