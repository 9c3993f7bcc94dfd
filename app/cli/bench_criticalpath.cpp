// `kinetoscope-cli bench load RUN` extra rows: the critical path of the first ProfilerStep on the
// first rank (HTA's critical_path_analysis; in HTA's mode it reads the trace again for HTA's
// event indices), and across all ranks; best of three, one thread.

#include "benchtimer.h"
#include "command.h"

#include "analysis/criticalpath/criticalpath.h"

#include <algorithm>
#include <chrono>

namespace kscope::cli {

namespace {

std::vector<std::vector<Cell>> criticalPathTimings(const Run& run, const Invocation& invocation)
{
    std::vector<std::vector<Cell>> rows;
    if (run.ranks.empty())
        return rows;
    CriticalPathOptions options;
    options.htaCompat = invocation.common.htaCompat;
    options.rank = RankIndex{0};
    int64_t nodes = 0, segments = 0;
    const double one = bestSeconds([&] {
        const CriticalPath r = criticalPath(run, options);
        nodes = static_cast<int64_t>(r.nodes.size());
        segments = static_cast<int64_t>(r.segments.size());
    });
    rows.push_back({std::string("analysis_critical_path_rank") + std::to_string(run.ranks.front().rank) + "_step", one * 1000.0,
                    std::string("ms")});
    rows.push_back({std::string("analysis_critical_path_nodes"), nodes, std::string("nodes")});
    rows.push_back({std::string("analysis_critical_path_segments"), segments, std::string("segments")});
    if (run.ranks.size() > 1)
        rows.push_back({std::string("analysis_critical_path_all_ranks_step"),
                        bestSeconds([&] { (void)criticalPathAllRanks(run, options); }) * 1000.0, std::string("ms")});
    return rows;
}

const bool kRegistered = (benchExtensions()["critical_path"] = &criticalPathTimings, true);

} // namespace

} // namespace kscope::cli
