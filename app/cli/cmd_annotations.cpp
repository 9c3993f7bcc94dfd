// kinetoscope-cli annotations RUN: time per user annotation and rank (HTA's
// get_gpu_user_annotation_breakdown); annotated-kernels RUN: each GPU kernel with its innermost
// GPU annotation (HTA's get_gpu_kernels_with_user_annotations).

#include "command.h"

#include "analysis/patterns/annotations.h"
#include "analysis/tables/patterntables.h"

#include <CLI/CLI.hpp>

#include <climits>
#include <memory>

namespace kscope::cli {

namespace {

Action setupAnnotations(CLI::App& app, const Invocation& invocation)
{
    auto options = std::make_shared<AnnotationOptions>();
    app.add_flag("--cpu", options->cpu,
                 "CPU-side annotations (category user_annotation) instead of their GPU spans (gpu_user_annotation)");
    app.add_option("--duration-ratio", options->durationRatio,
                   "annotations past this quantile of the running total fold into \"others\"")
        ->check(numberFrom(0.0, 1.0))
        ->type_name("R")
        ->capture_default_str();
    app.add_option("--num-kernels", options->numKernels, "at most N annotation names per rank before folding")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("N")
        ->capture_default_str();
    app.add_option("--allow", options->allow,
                   "names containing TEXT never fold into \"others\" (literal text, as HTA matches it; repeatable)")
        ->type_name("TEXT");
    return [options, &invocation] {
        options->htaCompat = invocation.common.htaCompat;
        return runAnalysis(
            invocation, [&](const Run& run) { return annotationsTable(run, userAnnotationBreakdown(run, *options)); },
            {.dropFirst = {"stddev (us)", "stddev", "count", "min (us)", "max (us)"}});
    };
}

Action setupAnnotatedKernels(CLI::App& app, const Invocation& invocation)
{
    auto rank = std::make_shared<int>(-1);
    app.add_option("--rank", *rank, "only rank R (HTA's rank argument; the same as --ranks R)")
        ->check(wholeNumber(0, INT_MAX))
        ->type_name("R");
    return [rank, &invocation] {
        AnnotatedKernelsOptions options;
        options.htaCompat = invocation.common.htaCompat;
        return runAnalysis(
            withRank(invocation, *rank), [&](const Run& run) { return annotatedKernelsTable(run, kernelsWithAnnotations(run, options)); },
            {.dropFirst = {"correlation"}});
    };
}

const CommandRegistrar kAnnotationsRegistrar{
    {"annotations", "Time per user annotation (record_function) and rank: sum, max, min, mean, stddev (HTA)",
     "GPU-side annotations by default (gpu_user_annotation: the span of the GPU work under a\n"
     "record_function), --cpu for the CPU side (user_annotation). Per rank and name, in us; past\n"
     "--num-kernels names or the --duration-ratio quantile of the running total the rest fold into\n"
     "\"others\" (--allow keeps names). Every rank. Default mode: every row's statistics are over its\n"
     "annotations (--hta-compat, where a rank folds: kept rows show only their sum, \"others\" the\n"
     "statistics of the folded names' sums, as HTA).",
     &setupAnnotations}};

const CommandRegistrar kAnnotatedKernelsRegistrar{
    {"annotated-kernels", "Each GPU kernel with its innermost GPU user annotation (HTA)",
     "One row per GPU kernel (memcpy, memset): its start since the run's first event, duration,\n"
     "stream, correlation, name, and the shortest gpu_user_annotation on its stream that overlaps it\n"
     "(empty when none). Every rank by default (HTA: one rank, --rank R). --hta-compat: HTA's\n"
     "short names, its file order, and its GPU events (syncs with a correlation count too).",
     &setupAnnotatedKernels}};

} // namespace

} // namespace kscope::cli
