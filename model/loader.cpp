// Run loading: discover files, parse ranks on worker threads, assemble one immutable Run.

#include "loader.h"

#include "log.h"
#include "metadata.h"
#include "partialrun.h"
#include "parallelfor.h"
#include "rankbuilder.h"

#include <algorithm>
#include <cstdio>
#include <atomic>
#include <limits>
#include <map>
#include <set>
#include <thread>

#include <unistd.h>

namespace kscope {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isTraceFileName(const std::string& name)
{
    return endsWith(name, ".json") || endsWith(name, ".json.gz");
}

} // namespace

uint64_t defaultMaxUncompressedBytes()
{
    static const uint64_t bytes = [] {
        const long pages = sysconf(_SC_PHYS_PAGES);
        const long pageSize = sysconf(_SC_PAGESIZE);
        const uint64_t physical = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
        return std::max<uint64_t>(2 * physical, 8ull << 30);
    }();
    return bytes;
}

DiscoveredFiles discoverRunFiles(const fs::path& folderOrFile)
{
    DiscoveredFiles found;
    found.errorPath = folderOrFile;
    std::error_code ec;
    const fs::file_status status = fs::status(folderOrFile, ec);
    if (fs::is_regular_file(status)) {
        found.folder = folderOrFile.parent_path();
        found.traces.push_back({folderOrFile, fs::file_size(folderOrFile, ec)});
        return found;
    }
    if (!fs::exists(status)) {
        found.error = ec && ec != std::errc::no_such_file_or_directory ? "cannot read: " + ec.message()
                                                                          : "no such file or folder";
        return found;
    }
    if (!fs::is_directory(status)) {
        found.error = "not a folder or a trace file";
        return found;
    }
    found.folder = folderOrFile;
    fs::directory_iterator it(folderOrFile, ec);
    if (ec) {
        found.error = "cannot read the folder: " + ec.message();
        return found;
    }
    for (const fs::directory_entry& entry : it) {
        const std::string name = entry.path().filename().string();
        std::error_code statError;
        const fs::file_status entryStatus = entry.status(statError);
        if (!fs::is_regular_file(entryStatus)) {
            // Trace-like names that are no file are named, never silently left out.
            if (!isTraceFileName(name))
                continue;
            if (fs::is_directory(entryStatus))
                found.skipped.push_back({entry.path(), "a folder, not a trace file"});
            else if (statError || fs::is_symlink(entry.symlink_status(ec)))
                found.traces.push_back({entry.path(), 0});  // a dangling or looping link: the read names why
            else
                found.skipped.push_back({entry.path(), "not a regular file"});
            continue;
        }
        if (isTraceFileName(name))
            found.traces.push_back({entry.path(), entry.file_size(ec)});
        else
            found.skipped.push_back({entry.path(), "not a trace file name (*.json, *.json.gz)"});
    }
    std::sort(found.traces.begin(), found.traces.end(),
              [](const RunFile& a, const RunFile& b) { return a.path.filename() < b.path.filename(); });
    std::sort(found.skipped.begin(), found.skipped.end(),
              [](const SkippedFile& a, const SkippedFile& b) { return a.file < b.file; });
    return found;
}

DiscoveredFiles discoverRunFiles(const std::vector<fs::path>& inputs)
{
    if (inputs.size() == 1)
        return discoverRunFiles(inputs.front());
    DiscoveredFiles found;
    if (inputs.empty()) {
        found.error = "no run folder or trace file given";
        return found;
    }
    std::set<fs::path> seen;
    for (const fs::path& input : inputs) {
        std::error_code ec;
        if (fs::is_directory(input, ec)) {
            found.traces.clear();
            found.errorPath = input;
            found.error = "is a folder; a run is one folder or a list of trace files, not several folders";
            return found;
        }
        DiscoveredFiles one = discoverRunFiles(input);
        if (!one.error.empty())
            return one;
        const fs::path key = fs::weakly_canonical(input, ec);
        if (!seen.insert(ec ? input : key).second)
            continue;
        if (found.folder.empty())
            found.folder = one.folder;
        found.traces.push_back(one.traces.front());
    }
    return found;
}

namespace {

void remapIds(RankTrace& trace, const std::vector<StringId>& map)
{
    auto remap = [&map](StringId& id) {
        if (id)
            id = map[id.value];
    };
    EventTable& t = trace.events;
    for (StringId& id : t.name)
        remap(id);
    t.category.renameValues(remap);
    for (CollectiveArgs& c : t.collectiveArgs) {
        remap(c.collectiveName);
        remap(c.dtype);
        remap(c.processGroupName);
        remap(c.processGroupRanks);
    }
    for (InputShape& s : t.inputShapes) {  // renaming keeps distinct pairs distinct
        remap(s.inputDims);
        remap(s.inputTypes);
    }
    for (CounterSample& c : trace.counters) {
        remap(c.series);
        remap(c.field);
    }
    for (ThreadKey& k : trace.threads) {
        remap(k.pidName);
        remap(k.tidName);
        remap(k.threadName);
        remap(k.processName);
    }
}

// HTA's ranks (trace_file.create_rank_to_trace_dict): the regex's rank (rankFromContent here),
// else 0; of two files with one rank the later (in name order) replaces the earlier; then a file
// without analyzable events (only metadata, or every event dropped) loses its rank (#337).
void assignHtaRanks(std::vector<ParsedFile>& parsed, Run& run)
{
    std::map<int, size_t> byRank;
    std::vector<uint8_t> replaced(parsed.size(), 0);
    for (size_t i = 0; i < parsed.size(); ++i) {
        ParsedFile& p = parsed[i];
        const int rank = std::max(p.rankFromContent, 0);
        if (p.rankFromContent < 0)
            run.warnings.push_back({p.trace.file, 0, "no \"rank\": N in the file; rank 0, as HTA"});
        p.trace.rank = rank;
        const auto [it, fresh] = byRank.try_emplace(rank, i);
        if (!fresh) {
            run.warnings.push_back({p.trace.file, rank,
                                    parsed[it->second].trace.file.filename().string() + " and "
                                        + p.trace.file.filename().string() + " have rank " + std::to_string(rank)
                                        + "; HTA uses " + p.trace.file.filename().string()});
            replaced[it->second] = 1;
            it->second = i;
        }
    }
    std::vector<ParsedFile> kept;
    for (size_t i = 0; i < parsed.size(); ++i) {
        if (replaced[i])
            continue;
        if (parsed[i].trace.events.size() == 0) {
            run.warnings.push_back({parsed[i].trace.file, parsed[i].trace.rank,
                                    "no analyzable events; HTA leaves rank " + std::to_string(parsed[i].trace.rank) + " out"});
            continue;
        }
        kept.push_back(std::move(parsed[i]));
    }
    parsed = std::move(kept);
}

void assignRanks(std::vector<ParsedFile>& parsed, Run& run)
{
    std::set<int> used;
    std::vector<ParsedFile*> unresolved;
    for (ParsedFile& p : parsed) {
        int rank = p.rankFromContent;
        if (rank < 0) {
            rank = rankFromFileName(p.trace.file.filename().string());
            if (rank >= 0)
                run.warnings.push_back({p.trace.file, rank,
                                        "no distributedInfo.rank; rank " + std::to_string(rank) + " taken from the file name"});
        }
        if (rank < 0) {
            unresolved.push_back(&p);
            continue;
        }
        if (!used.insert(rank).second)
            run.warnings.push_back({p.trace.file, rank,
                                    "rank " + std::to_string(rank) + " appears in more than one file; both are loaded"});
        p.trace.rank = rank;
    }
    int next = 0;
    for (ParsedFile* p : unresolved) {
        while (used.count(next))
            ++next;
        p->trace.rank = next;
        used.insert(next);
        run.warnings.push_back({p->trace.file, next,
                                "no rank in distributedInfo or file name; assigned rank " + std::to_string(next)});
    }
}

} // namespace

namespace {

// Other ranks have ProfilerSteps, so the run is trimmed to complete steps, but these have none.
void warnRanksWithoutSteps(Run& run)
{
    for (const RankTrace& r : run.ranks) {
        if (!r.steps.empty() || r.eventsRead == 0)
            continue;
        run.warnings.push_back(
            {r.file, r.rank,
             // A rank without CPU events is not trimmed, in HTA's mode too.
             run.htaCompat && r.eventsTrimmed > 0 ? "no ProfilerStep on this rank while other ranks have them: as HTA does, every event of "
                             "the rank is dropped by last-step trimming (" +
                                 std::to_string(r.eventsTrimmed) + " events)"
                           : "no ProfilerStep on this rank while other ranks have them: the rank is kept whole, "
                             "not trimmed to complete steps, and has no step to select"});
    }
}

// Files of one run share a clock, a world size and (nearly always) a GPU model. Traces of two
// runs load as one without complaint otherwise, and every cross-rank answer is then nonsense.
void warnIfNotOneRun(Run& run)
{
    constexpr int64_t kClockApartNs = 3'600'000'000'000;  // an hour: no job starts its ranks that far apart
    const RankTrace* earliest = nullptr;
    const RankTrace* latest = nullptr;
    const RankTrace* worldFirst = nullptr;
    const RankTrace* deviceFirst = nullptr;
    for (const RankTrace& r : run.ranks) {
        if (!r.events.tsNs.empty()) {
            if (!earliest || r.events.tsNs.front() < earliest->events.tsNs.front())
                earliest = &r;
            if (!latest || r.events.tsNs.front() > latest->events.tsNs.front())
                latest = &r;
        }
        if (r.metadata.distributed && r.metadata.distributed->worldSize > 0) {
            if (!worldFirst)
                worldFirst = &r;
            else if (worldFirst->metadata.distributed->worldSize != r.metadata.distributed->worldSize)
                run.warnings.push_back({r.file, r.rank,
                                        "world_size " + std::to_string(r.metadata.distributed->worldSize) + " but " +
                                            worldFirst->file.filename().string() + " says " +
                                            std::to_string(worldFirst->metadata.distributed->worldSize) +
                                            ": the files do not look like one run"});
        }
        if (!r.metadata.devices.empty() && !r.metadata.devices.front().name.empty()) {
            if (!deviceFirst)
                deviceFirst = &r;
            else if (deviceFirst->metadata.devices.front().name != r.metadata.devices.front().name)
                run.warnings.push_back({r.file, r.rank,
                                        "its GPU is " + r.metadata.devices.front().name + " but " +
                                            deviceFirst->file.filename().string() + "'s is " +
                                            deviceFirst->metadata.devices.front().name +
                                            ": the files may not be one run"});
        }
    }
    if (earliest && latest && latest->events.tsNs.front() - earliest->events.tsNs.front() > kClockApartNs) {
        const double hours = double(latest->events.tsNs.front() - earliest->events.tsNs.front()) / 3.6e12;
        char apart[64];
        std::snprintf(apart, sizeof apart, "%.3g hours", hours);
        run.warnings.push_back({latest->file, latest->rank,
                                "its first event is " + std::string(apart) + " after " +
                                    earliest->file.filename().string() +
                                    "'s: clocks that far apart are not one run (every cross-rank figure would be "
                                    "wrong); load the files of one run"});
    }
}

} // namespace

void assembleRun(Run& run, std::vector<ParsedFile> parsed, const LoadOptions& options, unsigned workers)
{
    // Ranks first, then one string pool, then HTA's trimming, which needs the run-wide view.
    std::vector<ParsedFile> usable;
    for (ParsedFile& p : parsed) {
        if (p.error && p.error->kind == LoadErrorKind::NotATrace) {
            run.skippedFiles.push_back({p.trace.file, p.error->message});
            continue;
        }
        if (p.error) {
            LoadError e = *p.error;
            e.file = p.trace.file;
            if (p.error->partial) {
                e.rank = p.rankFromContent;
                e.message += "; kept " + std::to_string(p.trace.events.size()) + " events read before it";
            }
            run.errors.push_back(e);
            if (!p.error->partial)
                continue;
        }
        usable.push_back(std::move(p));
    }
    parsed.clear();
    if (options.htaCompat)
        assignHtaRanks(usable, run);
    else
        assignRanks(usable, run);
    for (LoadError& e : run.errors)
        for (const ParsedFile& p : usable)
            if (p.trace.file == e.file)
                e.rank = p.trace.rank;
    if (!options.onlyRanks.empty()) {
        std::erase_if(usable, [&](const ParsedFile& p) {
            if (options.onlyRanks.contains(p.trace.rank))
                return false;
            run.ranksNotLoaded.insert(p.trace.rank);
            return true;
        });
        // A broken file of an unwanted rank is not this run's problem.
        std::erase_if(run.errors, [&](const LoadError& e) { return e.rank >= 0 && !options.onlyRanks.contains(e.rank); });
    }
    std::sort(run.skippedFiles.begin(), run.skippedFiles.end(),
              [](const SkippedFile& a, const SkippedFile& b) { return a.file < b.file; });
    std::vector<std::vector<StringId>> maps;
    for (ParsedFile& p : usable) {
        std::vector<StringId>& map = maps.emplace_back(p.strings.size());
        for (size_t id = 1; id < p.strings.size(); ++id)
            map[id] = run.strings.intern(p.strings.view(StringId{static_cast<uint32_t>(id)}));
        run.ranks.push_back(std::move(p.trace));
    }
    parallelFor(run.ranks.size(), workers, {}, [&](size_t k) { remapIds(run.ranks[k], maps[k]); });
    usable.clear();
    std::stable_sort(run.ranks.begin(), run.ranks.end(),
                     [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; });

    // HTA aligns ranks on the earliest timestamp before it trims.
    int64_t minTs = INT64_MAX;
    for (const RankTrace& r : run.ranks)
        if (!r.events.tsNs.empty())
            minTs = std::min(minTs, r.events.tsNs.front());
    run.minTsNs = minTs == INT64_MAX ? 0 : minTs;
    warnIfNotOneRun(run);
    const bool trim = distinctProfilerStepNames(run.strings) >= 2;
    if (!trim && !run.ranks.empty())
        KSCOPE_LOG(Model, Info, "fewer than two ProfilerStep names in the run: nothing trimmed");
    parallelFor(run.ranks.size(), workers, {}, [&](size_t k) {
        RankTrace& r = run.ranks[k];
        if (trim && !r.trimmedToCompleteSteps)
            trimToCompleteSteps(r, run.strings, trimRuleFor(options));
        if (!options.htaCompat)
            Column<uint32_t>().swap(r.events.fileIndex);  // served its purpose: streamsInFileOrder
    });
    if (trim)
        warnRanksWithoutSteps(run);
}

std::shared_ptr<Run> loadRun(const fs::path& folderOrFile, const LoadOptions& options, LoadProgress* progress,
                             std::stop_token stop, const ProgressiveLoad* progressive)
{
    return loadRun(std::vector<fs::path>{folderOrFile}, options, progress, stop, progressive);
}

std::shared_ptr<Run> loadRun(const std::vector<fs::path>& inputs, const LoadOptions& options, LoadProgress* progress,
                             std::stop_token stop, const ProgressiveLoad* progressive)
{
    auto run = std::make_shared<Run>();
    run->htaCompat = options.htaCompat;
    DiscoveredFiles files = discoverRunFiles(inputs);
    run->folder = inputs.size() == 1 ? inputs.front() : files.folder;
    run->skippedFiles = files.skipped;
    if (!files.error.empty()) {
        run->errors.push_back({files.errorPath, -1, 0, LoadErrorKind::Unreadable, files.error, false});
        return run;
    }
    if (options.htaCompat) {
        // HTA's directory scan takes every name ending in .gz, not only *.json.gz (read as gzip).
        std::erase_if(files.skipped, [&](const SkippedFile& f) {
            std::error_code ec;
            if (!endsWith(f.file.filename().string(), ".gz") || !fs::is_regular_file(f.file, ec))
                return false;
            const uintmax_t bytes = fs::file_size(f.file, ec);
            files.traces.push_back({f.file, ec ? 0 : static_cast<uint64_t>(bytes)});
            return true;
        });
        std::sort(files.traces.begin(), files.traces.end(),
                  [](const RunFile& a, const RunFile& b) { return a.path.filename() < b.path.filename(); });
        run->skippedFiles = files.skipped;
    }
    std::vector<fs::path> leftOut;
    if (!options.onlyRanks.empty()) {
        // --ranks on a 1,000-rank run should not parse 1,000 files: a file whose rank is known
        // from its head (or, lacking distributedInfo, its name) and not wanted is left unparsed.
        std::erase_if(files.traces, [&](const RunFile& f) {
            int rank = options.htaCompat ? std::max(htaRankFromContent(f.path), 0) : peekDeclaredRank(f.path);
            if (rank < 0)
                rank = rankFromFileName(f.path.filename().string());
            if (rank < 0 || options.onlyRanks.contains(rank))
                return false;
            run->ranksNotLoaded.insert(rank);
            leftOut.push_back(f.path);
            return true;
        });
    }
    if (progress) {
        uint64_t total = 0;
        for (const RunFile& f : files.traces)
            total += f.bytes;
        progress->bytesTotal = total;
        progress->filesTotal = static_cast<uint32_t>(files.traces.size());
    }

    // Largest files first so one big rank does not start last.
    std::vector<size_t> order(files.traces.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return files.traces[a].bytes > files.traces[b].bytes; });

    std::vector<ParsedFile> parsed(files.traces.size());
    unsigned workers = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    if (options.memoryBudgetBytes > 0) {
        // Each worker holds about four chunks at once: its window (up to two chunks while an
        // event straddles a read) and simdjson's buffers for one batch.
        const uint64_t perWorker = std::max<uint64_t>(options.chunkBytes * 4, 1);
        workers = static_cast<unsigned>(std::clamp<uint64_t>(options.memoryBudgetBytes / perWorker, 1, workers));
    }
    // With a core to spare for every file (the one-rank run users open most), each file is read
    // on two threads.
    const unsigned threadsPerFile = files.traces.size() * 2 <= workers ? 2 : 1;
    workers = static_cast<unsigned>(std::min<size_t>(workers, std::max<size_t>(files.traces.size(), 1)));
    std::optional<PartialRunPublisher> publisher;
    if (progressive && progressive->deliver && parsed.size() > 1) {
        std::vector<uint64_t> fileBytes;
        for (const RunFile& f : files.traces)
            fileBytes.push_back(f.bytes);
        publisher.emplace(*progressive, parsed, std::move(fileBytes), progress, *run, options);
    }
    parallelFor(order.size(), workers, stop, [&](size_t k) {
        const size_t i = order[k];
        parsed[i] = parseTraceFile(files.traces[i].path, options, progress, stop, threadsPerFile);
        if (options.htaCompat)
            parsed[i].rankFromContent = htaRankFromContent(files.traces[i].path);
        if (progress)
            progress->filesDone.fetch_add(1);
        if (publisher && !stop.stop_requested())
            publisher->fileRead(i);
    });
    if (stop.stop_requested()) {
        run->errors.push_back({run->folder, -1, 0, LoadErrorKind::Cancelled, "load cancelled", false});
        return run;
    }

    assembleRun(*run, std::move(parsed), options, workers);

    // The time origin is the whole run's, whichever ranks were asked for (as HTA aligns every
    // rank on the run's earliest event): the files left out are scanned for their earliest
    // timestamp, keeping nothing (a byte scan, several times faster than a parse).
    if (!leftOut.empty() && !run->ranks.empty()) {
        std::vector<int64_t> earliest(leftOut.size(), std::numeric_limits<int64_t>::max());
        const unsigned scanners = static_cast<unsigned>(std::min<size_t>(
            options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency()), leftOut.size()));
        parallelFor(leftOut.size(), scanners, stop, [&](size_t k) {
            if (const std::optional<int64_t> ts = earliestEventTimestamp(leftOut[k], options))
                earliest[k] = *ts;
        });
        for (int64_t ts : earliest)
            run->minTsNs = std::min(run->minTsNs, ts);
    }
    return run;
}

} // namespace kscope
