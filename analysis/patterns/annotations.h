#pragma once

#include "analysis/rankchoice.h"

// User annotations (torch.profiler.record_function and the like).
// - The breakdown (HTA's get_gpu_user_annotation_breakdown): per rank and annotation name the
//   sum, max, min, mean and stddev of its durations; GPU-side annotations (category
//   gpu_user_annotation: the span of the GPU work under the annotation) or CPU-side ones
//   (user_annotation); beyond numKernels names or the durationRatio quantile of the running
//   total the rest fold into "others" (allowlisted names never do).
// - Annotated kernels (HTA's get_gpu_kernels_with_user_annotations): each GPU kernel with the
//   innermost GPU annotation on its stream that overlaps it.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct AnnotationOptions {
    bool htaCompat = false;
    bool cpu = false;             // user_annotation instead of gpu_user_annotation
    double durationRatio = 0.8;   // names past this quantile of the running total fold into "others"
    int numKernels = 1000;        // at most this many names per rank before folding
    std::vector<std::string> allow;  // names containing any of these (literally) never fold
    RankChoice ranks;             // empty = every rank
};

struct AnnotationRow {
    int rank = -1;
    StringId name;  // null for "others"
    int64_t count = 0;
    int64_t sumNs = 0;
    int64_t maxNs = 0;
    int64_t minNs = 0;
    double meanNs = 0.0;
    double stddevNs = 0.0;
    bool isOthers() const { return !name; }
};

struct AnnotationBreakdown {
    std::vector<AnnotationRow> rows;  // by rank, then name ("others" in its place)
    bool htaCompat = false;
    bool cpu = false;
    std::string error;
    std::vector<std::string> notes;
};

AnnotationBreakdown userAnnotationBreakdown(const Run& run, const AnnotationOptions& options);

// "others" or the annotation's name.
std::string_view annotationName(const Run& run, const AnnotationRow& row);

struct AnnotatedKernelsOptions {
    bool htaCompat = false;
    RankChoice ranks;        // empty = every rank (HTA: one rank)
};

struct AnnotatedKernel {
    int rank = -1;
    EventIndex kernel = kNoEvent;      // a row of the rank's EventTable
    EventIndex annotation = kNoEvent;  // its innermost GPU annotation, kNoEvent when none
};

struct AnnotatedKernels {
    // By rank, then in start order (HTA's mode: file order, as HTA's frame keeps it).
    std::vector<AnnotatedKernel> kernels;
    bool htaCompat = false;
    std::string error;
    std::vector<std::string> notes;
};

AnnotatedKernels kernelsWithAnnotations(const Run& run, const AnnotatedKernelsOptions& options);

} // namespace kscope
