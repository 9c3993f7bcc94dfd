// events --format sqlite --output FILE: the run as SQLite tables, so any question can be asked in
// SQL (as Nsight Systems users do with its SQLite export). Tables (times in ns since the run's
// first event; rows, link_row, parent_row, op_row count rows of one file):
//   files(file, rank, path)                   the run's trace files; two files may claim one rank
//   strings(id, value)                        every name and category
//   kinds(id, name)                           kernel, cpu-op, runtime, ...
//   threads(rank, file, thread, pid, tid, thread_name)
//   events(rank, file, row, kind, cat_id, name_id, thread, stream, ts_ns, dur_ns, correlation,
//          external_id, step, link_row, parent_row, depth)   the rows `events` would print
//   kernels(rank, file, row, kind, name_id, stream, ts_ns, dur_ns, launch_row, op_row, tensor_cores)
//          kernels, memcpys and memsets (kind tells which); op_row: the innermost cpu_op around the launch
//   ops(rank, name, calls, host_total_ns, host_self_ns, device_total_ns, device_self_ns)
//   memory(rank, file, row, ts_ns, device, addr, bytes, total_allocated, total_reserved)
//   view events_named: events with kind, category and name as text.

#include "command.h"
#include "eventsink.h"

#include "analysis/operators/eventquery.h"
#include "analysis/operators/memory.h"
#include "analysis/operators/operators.h"
#include "model/atomicfile.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace kscope::cli {

namespace {

class Db {
public:
    explicit Db(const std::string& file)
    {
        if (sqlite3_open(file.c_str(), &m_db) != SQLITE_OK)
            fail("open");
    }
    ~Db() { close(); }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    void exec(const char* sql)
    {
        if (ok() && sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
            fail(sql);
    }
    sqlite3_stmt* prepare(const char* sql)
    {
        sqlite3_stmt* s = nullptr;
        if (ok() && sqlite3_prepare_v2(m_db, sql, -1, &s, nullptr) != SQLITE_OK)
            fail(sql);
        if (s)
            m_statements.push_back(s);
        return s;
    }
    void step(sqlite3_stmt* s)
    {
        if (!ok())
            return;
        if (sqlite3_step(s) != SQLITE_DONE)
            fail("insert");
        sqlite3_reset(s);
    }
    // Finalizes the statements and closes the file; the first error so far, or close's.
    std::string close()
    {
        for (sqlite3_stmt* s : m_statements)
            sqlite3_finalize(s);
        m_statements.clear();
        if (m_db && sqlite3_close(m_db) != SQLITE_OK)
            fail("close");
        m_db = nullptr;
        return m_error;
    }

private:
    void fail(const char* what)
    {
        if (m_error.empty())
            m_error = std::string(what).substr(0, 60) + ": " + (m_db ? sqlite3_errmsg(m_db) : "out of memory");
    }

    sqlite3* m_db = nullptr;
    std::vector<sqlite3_stmt*> m_statements;
    std::string m_error;
};

void bind(sqlite3_stmt* s, int at, int64_t v)
{
    sqlite3_bind_int64(s, at, v);
}

void bindText(sqlite3_stmt* s, int at, std::string_view v)
{
    // an empty view may have no data pointer, which SQLite would store as NULL
    sqlite3_bind_text(s, at, v.empty() ? "" : v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

void bindOptional(sqlite3_stmt* s, int at, int64_t v, bool present)
{
    if (present)
        sqlite3_bind_int64(s, at, v);
    else
        sqlite3_bind_null(s, at);
}

const char* const kSchema = R"sql(
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE strings(id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE kinds(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE files(file INTEGER PRIMARY KEY, rank INTEGER, path TEXT);
CREATE TABLE threads(rank INTEGER, file INTEGER, thread INTEGER, pid TEXT, tid TEXT, thread_name TEXT,
  PRIMARY KEY(rank, file, thread));
CREATE TABLE events(rank INTEGER, file INTEGER, row INTEGER, kind INTEGER, cat_id INTEGER, name_id INTEGER,
  thread INTEGER, stream INTEGER, ts_ns INTEGER, dur_ns INTEGER, correlation INTEGER, external_id INTEGER,
  step INTEGER, link_row INTEGER, parent_row INTEGER, depth INTEGER, PRIMARY KEY(rank, file, row)) WITHOUT ROWID;
CREATE TABLE kernels(rank INTEGER, file INTEGER, row INTEGER, kind INTEGER, name_id INTEGER, stream INTEGER,
  ts_ns INTEGER, dur_ns INTEGER, launch_row INTEGER, op_row INTEGER, tensor_cores INTEGER,
  PRIMARY KEY(rank, file, row)) WITHOUT ROWID;
CREATE TABLE ops(rank INTEGER, name TEXT, calls INTEGER, host_total_ns INTEGER, host_self_ns INTEGER,
  device_total_ns INTEGER, device_self_ns INTEGER);
CREATE TABLE memory(rank INTEGER, file INTEGER, row INTEGER, ts_ns INTEGER, device TEXT, addr INTEGER, bytes INTEGER,
  total_allocated INTEGER, total_reserved INTEGER);
BEGIN;
)sql";

const char* const kIndexes = R"sql(
COMMIT;
CREATE INDEX events_by_time ON events(rank, ts_ns);
CREATE INDEX events_by_name ON events(name_id);
CREATE INDEX events_by_correlation ON events(rank, file, correlation);
CREATE INDEX events_by_step ON events(rank, step);
CREATE INDEX kernels_by_name ON kernels(name_id);
CREATE INDEX kernels_by_time ON kernels(rank, ts_ns);
CREATE INDEX ops_by_name ON ops(name);
CREATE INDEX memory_by_time ON memory(rank, device, ts_ns);
CREATE VIEW events_named AS
  SELECT e.rank, e.file, e.row, k.name AS kind, c.value AS cat, n.value AS name, e.thread, e.stream, e.ts_ns, e.dur_ns,
         e.correlation, e.external_id, e.step, e.link_row, e.parent_row, e.depth
  FROM events e JOIN kinds k ON k.id = e.kind LEFT JOIN strings c ON c.id = e.cat_id LEFT JOIN strings n ON n.id = e.name_id;
)sql";

std::string threadText(const Run& run, StringId name, int64_t number)
{
    return name ? std::string(run.str(name)) : std::to_string(number);
}

void fill(Db& db, const Run& run, EventMatcher& matcher, int onlyRank)
{
    db.exec(kSchema);
    sqlite3_stmt* str = db.prepare("INSERT INTO strings VALUES(?1, ?2)");
    for (uint32_t id = 1; id < run.strings.size() && db.ok(); ++id) {
        bind(str, 1, id);
        bindText(str, 2, run.str(StringId{id}));
        db.step(str);
    }
    sqlite3_stmt* kind = db.prepare("INSERT INTO kinds VALUES(?1, ?2)");
    for (int k = 0; k <= static_cast<int>(EventClass::Other) && db.ok(); ++k) {
        bind(kind, 1, k);
        bindText(kind, 2, toString(static_cast<EventClass>(k)));
        db.step(kind);
    }
    sqlite3_stmt* file = db.prepare("INSERT INTO files VALUES(?1, ?2, ?3)");
    sqlite3_stmt* thread = db.prepare("INSERT INTO threads VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    sqlite3_stmt* event = db.prepare("INSERT INTO events VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
    sqlite3_stmt* kernel = db.prepare("INSERT INTO kernels VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    sqlite3_stmt* memory = db.prepare("INSERT INTO memory VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    std::vector<uint8_t> tensorCores(run.strings.size() + 1, 0);
    for (size_t f = 0; f < run.ranks.size() && db.ok(); ++f) {
        const RankTrace& rank = run.ranks[f];
        if (onlyRank >= 0 && rank.rank != onlyRank)
            continue;
        const auto fileIndex = static_cast<int64_t>(f);
        bind(file, 1, fileIndex);
        bind(file, 2, rank.rank);
        bindText(file, 3, rank.file.string());
        db.step(file);
        for (size_t k = 0; k < rank.threads.size() && db.ok(); ++k) {
            const ThreadKey& key = rank.threads[k];
            bind(thread, 1, rank.rank);
            bind(thread, 2, fileIndex);
            bind(thread, 3, static_cast<int64_t>(k));
            bindText(thread, 4, threadText(run, key.pidName, key.pid));
            bindText(thread, 5, threadText(run, key.tidName, key.tid));
            bindText(thread, 6, key.threadName ? run.str(key.threadName) : std::string_view());
            db.step(thread);
        }
        const EventTable& t = rank.events;
        for (size_t i = 0; i < t.size() && db.ok(); ++i) {
            if (!matcher.matches(t, i))
                continue;
            const auto e = static_cast<EventIndex>(i);
            bind(event, 1, rank.rank);
            bind(event, 2, fileIndex);
            bind(event, 3, e);
            bind(event, 4, static_cast<int64_t>(eventClass(t, i)));
            bindOptional(event, 5, t.category[i].value, bool(t.category[i]));
            bindOptional(event, 6, t.name[i].value, bool(t.name[i]));
            bind(event, 7, t.thread[i]);
            bind(event, 8, t.stream[i]);
            bind(event, 9, t.tsNs[i] - run.minTsNs);
            bind(event, 10, t.durNs[i]);
            bindOptional(event, 11, t.correlation[i], t.correlation[i] != -1);
            bindOptional(event, 12, t.externalId[i], t.externalId[i] != -1);
            bindOptional(event, 13, t.step[i], t.step[i] >= 0);
            bindOptional(event, 14, t.link[i], t.link[i] != kNoEvent);
            bindOptional(event, 15, t.parent[i], t.parent[i] != kNoEvent);
            bind(event, 16, t.depth[i]);
            db.step(event);
            const EventKind k = t.kind[i];
            if ((k == EventKind::Kernel || k == EventKind::Memcpy || k == EventKind::Memset) && t.stream[i] >= 0) {
                uint8_t& tc = tensorCores[t.name[i].value];
                if (tc == 0)
                    tc = k == EventKind::Kernel && usesTensorCores(run.str(t.name[i])) ? 2 : 1;
                const EventIndex launch = t.link[i];
                const EventIndex op = launchingOp(t, e, false);  // as the ops table counts it
                bind(kernel, 1, rank.rank);
                bind(kernel, 2, fileIndex);
                bind(kernel, 3, e);
                bind(kernel, 4, static_cast<int64_t>(eventClass(t, i)));  // kernel, memcpy or memset (kinds)
                bindOptional(kernel, 5, t.name[i].value, bool(t.name[i]));
                bind(kernel, 6, t.stream[i]);
                bind(kernel, 7, t.tsNs[i] - run.minTsNs);
                bind(kernel, 8, t.durNs[i]);
                bindOptional(kernel, 9, launch, launch != kNoEvent);
                bindOptional(kernel, 10, op, op != kNoEvent);
                bind(kernel, 11, tc == 2 ? 1 : 0);
                db.step(kernel);
            }
        }
        for (const MemoryEventArgs& m : t.memoryEvents) {
            if (!db.ok())
                break;
            if (!matcher.matches(t, m.event))
                continue;
            bind(memory, 1, rank.rank);
            bind(memory, 2, fileIndex);
            bind(memory, 3, m.event);
            bind(memory, 4, t.tsNs[m.event] - run.minTsNs);
            bindText(memory, 5, toString(MemoryDeviceId{rank.rank, m.deviceType, m.deviceId}));
            bind(memory, 6, m.addr);
            bind(memory, 7, m.bytes);
            bindOptional(memory, 8, m.totalAllocated, m.totalAllocated >= 0);
            bindOptional(memory, 9, m.totalReserved, m.totalReserved >= 0);
            db.step(memory);
        }
    }
    sqlite3_stmt* op = db.prepare("INSERT INTO ops VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    OperatorOptions opOptions;
    if (onlyRank >= 0)
        opOptions.ranks = choiceOfNumbers(run, {onlyRank});
    const Operators ops = operatorStats(run, opOptions);
    for (const OperatorRow& r : ops.rows) {
        if (!db.ok())
            break;
        bind(op, 1, r.rank);
        bindText(op, 2, run.str(r.name));
        bind(op, 3, r.calls);
        bind(op, 4, r.hostTotalNs);
        bind(op, 5, r.hostSelfNs);
        bind(op, 6, r.deviceTotalNs);
        bind(op, 7, r.deviceSelfNs);
        db.step(op);
    }
    db.exec(kIndexes);
}

// fsync(2) of a written file, so that the rename publishes complete contents.
std::string syncFile(const std::filesystem::path& file)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::strerror(errno);
    std::string error;
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        error = std::strerror(errno);
    if (::close(fd) != 0 && error.empty())
        error = std::strerror(errno);
    return error;
}

} // namespace

int writeSqlite(const Run& run, EventMatcher& matcher, const std::string& file, const LoadedRun& loaded, int onlyRank)
{
    namespace fs = std::filesystem;
    if (const std::string error = inputOverwriteError(file, inputFiles(run)); !error.empty()) {
        std::cerr << "error: cannot write " << file << ": " << error << '\n';
        return kExitOutputFailed;
    }
    const fs::path target(file);
    const fs::path temporary = target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()));
    std::error_code ec;
    fs::remove(temporary, ec);
    // SQLite's rollback journal sits beside the database while it writes.
    const std::string journal = temporary.string() + "-journal";
    guardTemporary(temporary.string());
    guardTemporary(journal);
    struct Release {
        std::string a, b;
        ~Release()
        {
            releaseTemporary(a);
            releaseTemporary(b);
        }
    } release{temporary.string(), journal};
    std::string error;
    {
        Db db(temporary.string());
        if (db.ok())
            fill(db, run, matcher, onlyRank);
        error = db.close();
    }
    if (error.empty())
        error = syncFile(temporary);  // synchronous = OFF: nothing is on disk yet
    if (error.empty()) {
        fs::rename(temporary, target, ec);
        if (ec)
            error = ec.message();
    }
    if (!error.empty()) {
        fs::remove(temporary, ec);
        std::cerr << "error: cannot write " << file << ": " << error << '\n';
        return kExitOutputFailed;
    }
    for (const std::string& note : loaded.notes)
        std::cerr << "note: " << note << '\n';
    return kExitOk;
}

} // namespace kscope::cli
