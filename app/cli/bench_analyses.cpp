// `kinetoscope-cli bench load RUN` extra rows: each analysis timed on the loaded run, best of three
// (idle time runs the ranks on every core, the others on one thread).

#include "benchtimer.h"
#include "command.h"

#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/kerneldistribution.h"
#include "analysis/core/overlap.h"
#include "analysis/core/temporalbreakdown.h"

#include <chrono>

namespace kscope::cli {

namespace {

std::vector<std::vector<Cell>> analysisTimings(const Run& run, const Invocation& invocation)
{
    const bool hta = invocation.common.htaCompat;
    std::vector<std::pair<std::string, double>> timings = {
        {"analysis_temporal", bestSeconds([&] { (void)temporalBreakdown(run, {.htaCompat = hta}); })},
        {"analysis_kernel_breakdown", bestSeconds([&] { (void)kernelBreakdown(run, {.htaCompat = hta}); })},
        {"analysis_idle_time",
         bestSeconds([&] { (void)idleTimeBreakdown(run, {.htaCompat = hta, .intervalStats = true}); })},
        {"analysis_overlap", bestSeconds([&] { (void)commCompOverlap(run, {.htaCompat = hta}); })},
        {"analysis_kernel_distribution", bestSeconds([&] { (void)kernelDistributions(run, {}); })},
    };
    double total = 0.0;
    std::vector<std::vector<Cell>> rows;
    for (const auto& [name, seconds] : timings) {
        rows.push_back({name, seconds * 1000.0, std::string("ms")});
        total += seconds;
    }
    rows.push_back({std::string("analysis_all_five"), total * 1000.0, std::string("ms")});
    return rows;
}

const bool kRegistered = (benchExtensions()["analyses"] = &analysisTimings, true);

} // namespace

} // namespace kscope::cli
