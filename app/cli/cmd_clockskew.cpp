// kinetoscope-cli clock-skew RUN: how far each rank's clock is off from the reference rank's,
// read from the ends of the collectives matched across ranks (analysis/collectives/clockskew.h).

#include "command.h"

#include "analysis/collectives/collectives.h"
#include "analysis/tables/collectivetables.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace kscope::cli {

namespace {

Action setupClockSkew(CLI::App& app, const Invocation& invocation)
{
    auto perGroup = std::make_shared<bool>(false);
    app.add_flag("--per-group", *perGroup, "one row per process group and member: offsets within that group's collectives");
    return [perGroup, &invocation] {
        const CollectiveOptions options{.htaCompat = invocation.common.htaCompat, .compareWithHta = false};
        const TableStyle style{.dropFirst = {"compared_with", "group_ranks", "exceeds_median_wait"},
                               .keep = {"rank", "offset (us)"}};
        return runAnalysis(
            invocation,
            [&](const Run& run) {
                return clockSkewTable(run, matchCollectives(run, options), *perGroup);
            },
            style);
    };
}

const CommandRegistrar kRegistrar{
    {"clock-skew", "How far each rank's clock is off, from the ends of collectives matched across ranks",
     "Every rank's trace has its own clock. A collective's kernels end together on every rank (the last\n"
     "rank to arrive releases them all), so within one matched instance the ranks' kernel ends differ by\n"
     "their clocks' offsets plus a few us of jitter. One row per rank: offset (its clock minus the\n"
     "reference rank's, the lowest rank that ran a collective), the median of its per-instance readings;\n"
     "spread, their median absolute deviation; instances used; compared_with, the rank it was read\n"
     "against (the reference, or for ranks in other groups a rank placed before it); reliable, at least\n"
     "3 instances on a reliable chain; exceeds_median_wait, the offset is larger than the median\n"
     "collective wait, so waits and arrival order across ranks may be the clocks, not the ranks.\n"
     "--per-group: the same per process group, against the group's lowest member. Matching needs Seq\n"
     "(record_param_comms) or order; a group matched by end time cannot show offsets past 20 us.",
     &setupClockSkew}};

} // namespace

} // namespace kscope::cli
