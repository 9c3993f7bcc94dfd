// `kinetoscope-cli bench load RUN` extra rows: the pattern, operator-kernel, annotation, step and
// straggler analyses timed on the loaded run, one thread (their budget: 0.3 s together on the
// 4-rank benchmark run).

#include "benchtimer.h"
#include "command.h"

#include "analysis/patterns/annotations.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/launch/opkernels.h"
#include "analysis/patterns/steps.h"

#include <algorithm>
#include <chrono>

namespace kscope::cli {

namespace {

std::vector<std::vector<Cell>> patternTimings(const Run& run, const Invocation& invocation)
{
    const bool hta = invocation.common.htaCompat;
    // The most common aten::linear-like operator: "aten::linear" when the run has it.
    KernelPatternOptions patterns{.htaCompat = hta, .operatorName = "aten::linear"};
    if (!run.strings.find("aten::linear"))
        patterns.operatorName = "aten::mm";
    std::vector<std::pair<std::string, double>> timings = {
        {"analysis_patterns", bestSeconds([&] { (void)frequentKernelSequences(run, patterns); })},
        {"analysis_op_kernels", bestSeconds([&] { (void)opKernelDelays(run, {.htaCompat = hta}); })},
        {"analysis_annotations", bestSeconds([&] {
             (void)userAnnotationBreakdown(run, {.htaCompat = hta});
             (void)userAnnotationBreakdown(run, {.htaCompat = hta, .cpu = true});
         })},
        {"analysis_step_spans", bestSeconds([&] { (void)profilerSteps(run); })},
    };
    double total = 0.0;
    std::vector<std::vector<Cell>> rows;
    for (const auto& [name, seconds] : timings) {
        rows.push_back({name, seconds * 1000.0, std::string("ms")});
        total += seconds;
    }
    rows.push_back({std::string("analysis_patterns_ops_annotations_steps"), total * 1000.0, std::string("ms")});
    rows.push_back({std::string("analysis_stragglers"),
                    bestSeconds([&] { (void)potentialStragglers(run, {.htaCompat = hta}); }) * 1000.0, std::string("ms")});
    return rows;
}

const bool kRegistered = (benchExtensions()["patterns"] = &patternTimings, true);

} // namespace

} // namespace kscope::cli
