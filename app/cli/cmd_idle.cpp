// kinetoscope-cli idle RUN / idle-hist RUN: why GPU streams sit idle (HTA idle time breakdown),
// and the distribution of the gaps.

#include "analysiscells.h"
#include "command.h"

#include "analysis/idletime.h"

#include <iostream>

namespace kscope::cli {

namespace {

bool readStreams(const Arguments& args, std::vector<int>& streams)
{
    const auto text = args.value("streams");
    if (text && !parseIntList(*text, streams)) {
        std::cerr << "error: --streams takes a comma-separated list of stream numbers\n";
        return false;
    }
    return true;
}

int runIdle(const Arguments& args)
{
    IdleTimeOptions options;
    options.htaCompat = args.common.htaCompat;
    options.ranks = args.common.ranks;
    options.consecutiveKernelDelayUs = args.number("consecutive-kernel-delay", options.consecutiveKernelDelayUs);
    options.intervalStats = args.flag("stats");
    if (!readStreams(args, options.streams))
        return kExitUsage;
    return runAnalysis(args, [&](const Run& run) {
        const IdleTime result = idleTimeBreakdown(run, options);
        return options.intervalStats ? idleStatsTable(result) : idleTable(result);
    });
}

int runIdleHistogram(const Arguments& args)
{
    IdleHistogramOptions options;
    // --ranks (the ranks loaded) picks the rank when --rank is not given.
    options.rank = static_cast<int>(args.number("rank", args.common.ranks.empty() ? options.rank : args.common.ranks.front()));
    options.bins = static_cast<int>(args.number("bins", options.bins));
    options.logScale = args.flag("log");
    options.consecutiveKernelDelayUs = args.number("consecutive-kernel-delay", options.consecutiveKernelDelayUs);
    if (!readStreams(args, options.streams))
        return kExitUsage;
    if (options.bins < 1 || options.bins > 100000) {
        std::cerr << "error: --bins must lie in [1, 100000]\n";
        return kExitUsage;
    }
    return runAnalysis(args, [&](const Run& run) { return idleHistogramTable(idleHistogram(run, options)); });
}

const CommandRegistrar kIdleRegistrar{
    {"idle", "Idle time per rank and stream by cause: host wait, kernel wait, other (HTA)",
     "RUN_DIR [--ranks LIST] [--streams LIST] [--consecutive-kernel-delay US] [--stats]\n"
     "  Each gap before a kernel, memcpy or memset on a stream is host wait (its launch came after the\n"
     "  previous kernel ended), kernel wait (shorter than the delay, "
         + shownDefault(IdleTimeOptions{}.consecutiveKernelDelayUs)
         + " us) or other.\n"
           "  --ranks defaults to every rank (HTA: rank 0). --stats prints count/mean/std/quartiles of the\n"
           "  gaps per category instead of their sums.",
     &runIdle, {"stats"}}};

const CommandRegistrar kHistogramRegistrar{
    {"idle-hist", "Histogram of the idle gaps of one rank, per cause",
     "RUN_DIR --rank R [--bins " + shownDefault(IdleHistogramOptions{}.bins)
         + "] [--log] [--streams LIST] [--consecutive-kernel-delay US]\n"
           "  Shared bin edges for the three categories; --log bins geometrically (gaps <= 0 are counted\n"
           "  in a note only).",
     &runIdleHistogram, {"log"}}};

} // namespace

} // namespace kscope::cli
