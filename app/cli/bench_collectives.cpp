// `kinetoscope-cli bench load RUN` extra rows: collectives matched across ranks and every table of
// `collectives` built from the result, one thread (the budget: 0.2 s on a 64-rank run of 5 steps
// and on the 4-rank benchmark run).

#include "benchtimer.h"
#include "command.h"

#include "analysis/collectives/collectives.h"
#include "analysis/tables/collectivetables.h"

#include <algorithm>
#include <chrono>

namespace kscope::cli {

namespace {

std::vector<std::vector<Cell>> collectiveTimings(const Run& run, const Invocation& invocation)
{
    const bool hta = invocation.common.htaCompat;
    size_t instances = 0;
    const double best = bestSeconds([&] {
        const Collectives result = matchCollectives(run, {.htaCompat = hta});
        (void)collectivesTable(run, result);
        (void)collectiveArrivalsTable(run, result);
        (void)collectiveRanksTable(result);
        (void)collectiveRanksTable(result, true);
        (void)collectiveSummaryTable(run, result);
        instances = result.instances.size();
    });
    return {{std::string("analysis_collectives"), best * 1000.0, std::string("ms")},
            {std::string("collective_instances"), int64_t(instances), std::string("")}};
}

const bool kRegistered = (benchExtensions()["collectives"] = &collectiveTimings, true);

} // namespace

} // namespace kscope::cli
