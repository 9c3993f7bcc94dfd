// kinetoscope-cli collectives RUN: every GPU collective matched across ranks (by process group
// and Seq, else by order), who arrived last, how long the others waited, what bandwidth the
// transfer reached; per rank, per rank and step, or summarised per collective and size.

#include "command.h"

#include "analysis/collectives/collectives.h"
#include "analysis/tables/collectivetables.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace kscope::cli {

namespace {

struct CollectiveArgsCli {
    bool perRank = false;
    bool perStep = false;
    bool summary = false;
    bool arrivals = false;
    bool alignClocks = false;
};

Action setupCollectives(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<CollectiveArgsCli>();
    CLI::Option* perRank = app.add_flag("--per-rank", args->perRank,
                                        "one row per rank: communication time split into wait and transfer, "
                                        "times arrived last, mean lateness, delay caused, straggler answers");
    CLI::Option* perStep = app.add_flag("--per-step", args->perStep, "as --per-rank, one row per rank and step");
    CLI::Option* summary = app.add_flag("--summary", args->summary,
                                        "per collective and size bucket (powers of two): count, median and p95 "
                                        "of transfer, busbw and skew");
    CLI::Option* arrivals = app.add_flag("--arrivals", args->arrivals,
                                         "one row per instance and rank: arrival, wait, lateness, last");
    app.add_flag("--align-clocks", args->alignClocks,
                 "beyond HTA: move each rank's kernels onto the reference rank's clock by the offsets "
                 "clock-skew estimates before reading waits, arrival order and the straggler");
    perRank->excludes(perStep)->excludes(summary)->excludes(arrivals);
    perStep->excludes(summary)->excludes(arrivals);
    summary->excludes(arrivals);
    return [args, &invocation] {
        const CollectiveOptions options{.htaCompat = invocation.common.htaCompat, .alignClocks = args->alignClocks};
        const TableStyle style{.dropFirst = {"name", "start (us)", "step", "above_link_bw", "match", "algbw (GB/s)",
                                             "missing_ranks", "kernels", "bucket_low_bytes"},
                               .keep = {"collective", "skew (us)", "comm (us)"}};
        return runAnalysis(
            invocation,
            [&](const Run& run) {
                const Collectives result = matchCollectives(run, options);
                if (args->perRank || args->perStep)
                    return collectiveRanksTable(result, args->perStep);
                if (args->summary)
                    return collectiveSummaryTable(run, result);
                if (args->arrivals)
                    return collectiveArrivalsTable(run, result);
                return collectivesTable(run, result);
            },
            style);
    };
}

const CommandRegistrar kRegistrar{
    {"collectives", "Every collective matched across ranks: who arrived last, wait, transfer, bandwidth",
     "One row per collective instance (NCCL / RCCL kernels; args from the kernel or the CPU op that\n"
     "launched it, record_param_comms): process group, Seq, the rule that matched it (seq: by process\n"
     "group and Seq; order: by position within the group on each rank, when the trace has no Seq),\n"
     "collective, bytes (elements x dtype size), ranks, ranks missing, first and last rank to arrive,\n"
     "skew (latest - earliest kernel start), total wait (sum over ranks of latest start - own start),\n"
     "transfer (end - latest start), algbw (bytes / transfer) and busbw (nccl-tests' factors:\n"
     "all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all (n-1)/n; broadcast, reduce 1),\n"
     "above_link_bw when busbw exceeds the GPU's NVLink bandwidth (known from deviceProperties' name).\n"
     "Times in us (ns exact), bandwidth in GB/s. Every rank by default; --ranks, --step N as usual.\n"
     "Ranks of a process group that are not in the run, or that lack an instance, make it partial:\n"
     "named in missing_ranks and left out of --per-rank's statistics and the straggler answer.\n"
     "--per-rank / --per-step: the straggler is the rank that arrived last most often, with the\n"
     "delay it caused (latest - second latest start); compared in a note with HTA's heuristic\n"
     "(`stragglers`). HTA has no per-collective analysis; --hta-compat only rounds times as HTA does.",
     &setupCollectives}};

} // namespace

} // namespace kscope::cli
