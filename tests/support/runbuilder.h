#pragma once

// Builds small Runs in code for analysis unit tests: a few events per rank, times in
// microseconds (fractions allowed), correlations linking launches to GPU work. The events go
// through the loader's own rank builder and assembly, so a run built here is what loading a
// trace with those events would give.

#include "model/loader.h"
#include "model/rankbuilder.h"
#include "model/trace.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace kscope::test {

class RunBuilder {
public:
    // Starts a new rank; later events go to it.
    RunBuilder& rank(int number)
    {
        m_ranks.push_back({});
        m_ranks.back().number = number;
        return *this;
    }

    // Later events of the current rank go to this (pid, tid); (0, 0) until then.
    RunBuilder& onThread(int64_t pid, int64_t tid)
    {
        if (m_ranks.empty())
            rank(0);
        m_ranks.back().pid = pid;
        m_ranks.back().tid = tid;
        return *this;
    }

    // A CPU-side event (runtime call by default).
    RunBuilder& cpu(const std::string& name, double tsUs, double durUs, int64_t correlation = -1,
                    const std::string& category = "cuda_runtime")
    {
        add(name, category, -1, tsUs, durUs, correlation);
        return *this;
    }

    // GPU work on a stream: kernel by default; category "gpu_memcpy", "cuda_sync"... as needed.
    RunBuilder& gpu(const std::string& name, int stream, double tsUs, double durUs, int64_t correlation = -1,
                    const std::string& category = "kernel")
    {
        add(name, category, stream, tsUs, durUs, correlation);
        return *this;
    }

    // A kernel with its launch: the runtime call starts at launchUs and lasts 1 µs.
    RunBuilder& launched(const std::string& name, int stream, double launchUs, double tsUs, double durUs)
    {
        const int64_t correlation = ++m_nextCorrelation;
        cpu("cudaLaunchKernel", launchUs, 1.0, correlation);
        return gpu(name, stream, tsUs, durUs, correlation);
    }

    // Builds the run the way the loader does: each rank through the rank builder (sort, links,
    // steps, stream file order), then assembled into one run (string pool, rank order, trimming).
    std::shared_ptr<Run> build()
    {
        const LoadOptions options;
        std::vector<ParsedFile> files;
        for (const PendingRank& pending : m_ranks) {
            ParsedFile& file = files.emplace_back();
            file.rankFromContent = pending.number;
            RankBuilder builder(file.strings, file.trace);
            for (const Pending& e : pending.events) {
                const ThreadIndex thread = builder.threadIndex(e.pid, {}, e.tid, {});
                const StringId category = file.strings.intern(e.category);
                builder.appendEvent({.tsNs = e.tsNs,
                                     .durNs = e.durNs,
                                     .name = file.strings.intern(e.name),
                                     .category = category,
                                     .thread = thread,
                                     .stream = e.stream,
                                     .correlation = e.correlation,
                                     .kind = builder.kindOf(category)});
            }
            builder.finalize(options);
        }
        m_ranks.clear();
        auto run = std::make_shared<Run>();
        assembleRun(*run, std::move(files), options);
        return run;
    }

private:
    struct Pending {
        std::string name;
        std::string category;
        int stream = -1;
        int64_t tsNs = 0;
        int64_t durNs = 0;
        int64_t correlation = -1;
        int64_t pid = 0;
        int64_t tid = 0;
    };
    struct PendingRank {
        int number = 0;
        int64_t pid = 0;
        int64_t tid = 0;
        std::vector<Pending> events;
    };

    static int64_t toNs(double us) { return static_cast<int64_t>(std::llround(us * 1000.0)); }

    void add(const std::string& name, const std::string& category, int stream, double tsUs, double durUs,
             int64_t correlation)
    {
        if (m_ranks.empty())
            rank(0);
        PendingRank& r = m_ranks.back();
        r.events.push_back({name, category, stream, toNs(tsUs), toNs(durUs), correlation, r.pid, r.tid});
    }

    std::vector<PendingRank> m_ranks;
    int64_t m_nextCorrelation = 1000;
};

} // namespace kscope::test
