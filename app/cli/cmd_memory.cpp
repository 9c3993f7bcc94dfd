// kinetoscope-cli memory RUN: allocated and reserved memory per device over time from the
// profiler's [memory] events (profile_memory=True): peaks, per step, per op, what stays
// allocated. RUN may also be PyTorch's export_memory_timeline file (HTA's MemoryAnalysis): the
// same curve by category.

#include "command.h"

#include "analysis/operators/memory.h"
#include "analysis/tables/memorytables.h"
#include "model/atomicfile.h"
#include "model/memorytimeline.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace kscope::cli {

namespace {

struct MemoryArgs {
    bool series = false;
    bool perOp = false;
    bool steps = false;
    bool unfreed = false;
    int64_t maxPoints = 0;
    int64_t top = 50;
};

int categoryTimelineCommand(const MemoryArgs& args, const Invocation& invocation)
{
    const std::string& output = invocation.common.outputFile;
    if (const std::string error = output.empty() ? std::string() : inputOverwriteError(output, {invocation.inputs.front()});
        !error.empty()) {
        std::cerr << "error: cannot write " << output << ": " << error << '\n';
        return kExitOutputFailed;
    }
    const MemoryTimelineFile file = readMemoryTimeline(invocation.inputs.front());
    if (!file.error.empty()) {
        std::cerr << "error: " << file.error << '\n';
        return kExitNoRank;
    }
    const CategoryTimeline timeline = categoryTimeline(file.rows, static_cast<size_t>(args.maxPoints));
    if (args.perOp || args.steps || args.unfreed)
        std::cerr << "note: a memory timeline file has no ops, steps or addresses: --per-op, --steps and --unfreed "
                     "need a Kineto trace recorded with profile_memory=True\n";
    return emitTable(args.series ? categoryTimelineTable(timeline) : categoryPeaksTable(timeline), invocation);
}

Action setupMemory(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<MemoryArgs>();
    CLI::Option* series = app.add_flag("--series", args->series, "allocated and reserved bytes after every event");
    CLI::Option* perOp = app.add_flag("--per-op", args->perOp, "allocations and bytes per enclosing operator");
    CLI::Option* steps = app.add_flag("--steps", args->steps, "the peak per ProfilerStep");
    CLI::Option* unfreed = app.add_flag("--unfreed", args->unfreed, "the largest allocations not freed in the trace");
    app.add_option("--max-points", args->maxPoints,
                   "--series: at most N points per device, keeping each stretch's lowest and highest value "
                   "(default: every event, exact)")
        ->check(wholeNumber(0, int64_t(1) << 40))
        ->type_name("N");
    app.add_option("--top", args->top, "--unfreed: this many allocations per device")
        ->check(wholeNumber(1, int64_t(1) << 40))
        ->type_name("N")
        ->capture_default_str();
    series->excludes(perOp)->excludes(steps)->excludes(unfreed);
    perOp->excludes(steps)->excludes(unfreed);
    steps->excludes(unfreed);
    return [args, &invocation] {
        if (invocation.inputs.size() == 1 && std::filesystem::is_regular_file(invocation.inputs.front())
            && looksLikeMemoryTimeline(invocation.inputs.front()))
            return categoryTimelineCommand(*args, invocation);
        MemoryOptions options;
        options.maxPoints = static_cast<size_t>(args->maxPoints);
        options.series = args->series;
        options.perOp = args->perOp || args->unfreed || args->series;
        options.topUnfreed = static_cast<size_t>(args->top);
        return runAnalysis(invocation, [&](const Run& run) {
            const MemoryTimeline result = memoryTimeline(run, options);
            if (args->series)
                return memorySeriesTable(run, result);
            if (args->perOp)
                return memoryOpsTable(run, result);
            if (args->steps)
                return memoryStepsTable(result);
            if (args->unfreed)
                return memoryUnfreedTable(run, result);
            return memorySummaryTable(run, result);
        });
    };
}

const CommandRegistrar kRegistrar{
    {"memory", "Memory per device over time from [memory] events, or an export_memory_timeline file",
     "From the [memory] instant events PyTorch writes with profile_memory=True: per rank and device\n"
     "the allocator's allocated and reserved bytes, their peaks, allocations and frees, and what is\n"
     "still allocated at the end (not_freed). --series: the curve (exact; --max-points N thins it,\n"
     "keeping peaks); --steps: the peak per ProfilerStep; --per-op: bytes allocated per enclosing\n"
     "operator; --unfreed: the largest allocations never freed in the window.\n"
     "RUN may be PyTorch's export_memory_timeline file (HTA's MemoryAnalysis input): peak bytes per\n"
     "category, or with --series the stacked curve HTA plots (time in ms, bytes per category).",
     &setupMemory}};

} // namespace

} // namespace kscope::cli
