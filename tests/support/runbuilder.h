#pragma once

// Builds small Runs in code for analysis unit tests: a few events per rank, times in
// microseconds (fractions allowed), correlations linking launches to GPU work.

#include "model/trace.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace kscope::test {

class RunBuilder {
public:
    RunBuilder() : m_run(std::make_shared<Run>()) {}

    // Starts a new rank; later events go to it.
    RunBuilder& rank(int number)
    {
        m_ranks.push_back({});
        m_ranks.back().number = number;
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

    std::shared_ptr<Run> build()
    {
        for (PendingRank& pending : m_ranks) {
            RankTrace trace;
            trace.rank = pending.number;
            trace.threads.push_back({});
            std::vector<size_t> order(pending.events.size());
            std::iota(order.begin(), order.end(), size_t{0});
            std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
                const auto& x = pending.events[a];
                const auto& y = pending.events[b];
                return x.tsNs != y.tsNs ? x.tsNs < y.tsNs : x.durNs > y.durNs;
            });
            EventTable& t = trace.events;
            for (size_t k : order) {
                const Pending& e = pending.events[k];
                t.tsNs.push_back(e.tsNs);
                t.durNs.push_back(e.durNs);
                t.name.push_back(m_run->strings.intern(e.name));
                t.category.push_back(m_run->strings.intern(e.category));
                t.thread.push_back(0);
                t.stream.push_back(e.stream);
                t.correlation.push_back(e.correlation);
                t.externalId.push_back(-1);
                t.link.push_back(kNoEvent);
                t.parent.push_back(kNoEvent);
                t.step.push_back(-1);
                t.phase.push_back(Phase::Complete);
                t.kind.push_back(kindOf(e.category));
                t.depth.push_back(0);
                t.fileIndex.push_back(static_cast<uint32_t>(k));
            }
            for (size_t g = 0; g < t.size(); ++g) {
                if (t.stream[g] < 0 || t.correlation[g] < 0)
                    continue;
                for (size_t c = 0; c < t.size(); ++c)
                    if (t.stream[c] < 0 && t.correlation[c] == t.correlation[g]) {
                        t.link[g] = static_cast<EventIndex>(c);
                        t.link[c] = static_cast<EventIndex>(g);
                    }
            }
            m_run->ranks.push_back(std::move(trace));
        }
        std::sort(m_run->ranks.begin(), m_run->ranks.end(),
                  [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; });
        m_ranks.clear();
        return m_run;
    }

private:
    struct Pending {
        std::string name;
        std::string category;
        int stream = -1;
        int64_t tsNs = 0;
        int64_t durNs = 0;
        int64_t correlation = -1;
    };
    struct PendingRank {
        int number = 0;
        std::vector<Pending> events;
    };

    static int64_t toNs(double us) { return static_cast<int64_t>(std::llround(us * 1000.0)); }

    static EventKind kindOf(const std::string& category)
    {
        if (category == "kernel")
            return EventKind::Kernel;
        if (category == "gpu_memcpy")
            return EventKind::Memcpy;
        if (category == "gpu_memset")
            return EventKind::Memset;
        if (category == "cuda_sync")
            return EventKind::CudaSync;
        if (category == "cuda_runtime")
            return EventKind::Runtime;
        if (category == "cpu_op")
            return EventKind::CpuOp;
        return EventKind::Other;
    }

    void add(const std::string& name, const std::string& category, int stream, double tsUs, double durUs,
             int64_t correlation)
    {
        if (m_ranks.empty())
            rank(0);
        m_ranks.back().events.push_back({name, category, stream, toNs(tsUs), toNs(durUs), correlation});
    }

    std::shared_ptr<Run> m_run;
    std::vector<PendingRank> m_ranks;
    int64_t m_nextCorrelation = 1000;
};

} // namespace kscope::test
