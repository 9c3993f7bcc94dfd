#pragma once

// The tables of the pattern, operator-kernel, annotation, step and straggler analyses, with HTA's
// column names (units added in the default mode where HTA's have none): what kinetoscope-cli
// prints and the GUI exports.

#include "analysis/resulttable.h"

namespace kscope {

struct Run;
struct KernelPatterns;
struct OpKernels;
struct AnnotationBreakdown;
struct AnnotatedKernels;
struct ProfilerSteps;
struct Stragglers;

// rank, pattern, count, GPU kernel duration (us), CPU op duration (us). HTA's mode lists every
// pattern (as HTA returns them); the default mode each rank's top ones, with a note on the rest.
Table patternsTable(const Run& run, const KernelPatterns& result);
// rank, aten_op_name, kernel_sequence, occurrence_count, avg_aten_op_launch_delay, avg_runtime_delay.
Table opKernelsTable(const Run& run, const OpKernels& result);
// name, sum (us), max (us), min (us), stddev, mean (us), rank (+ count in the default mode).
Table annotationsTable(const Run& run, const AnnotationBreakdown& result);
// One row per GPU kernel: rank, ts, dur, stream, correlation, name, user_annotation.
Table annotatedKernelsTable(const Run& run, const AnnotatedKernels& result);
// The step numbers (HTA's get_profiler_steps): one column, "step".
Table stepListTable(const ProfilerSteps& result);
// Per rank and step: the CPU span (its ProfilerStep) and the GPU span (what it launched).
Table stepSpansTable(const Run& run, const ProfilerSteps& result);
// Per rank and step: the chosen collective's normalised start and duration, flagged or not.
Table stragglersTable(const Run& run, const Stragglers& result);
// Per rank: how many steps flagged it, and whether it is among the stragglers returned.
Table stragglerRanksTable(const Stragglers& result);

} // namespace kscope
