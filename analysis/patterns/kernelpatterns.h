#pragma once

#include "analysis/rankchoice.h"

// Frequent GPU kernel sequences (HTA's get_frequent_cuda_kernel_sequences): the operators whose
// name contains a given text, each with the GPU work launched beneath it in start order; equal
// sequences counted together, with their GPU kernel time and the operators' CPU time.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct KernelPatternOptions {
    bool htaCompat = false;
    // Substring of the operator's name ("aten::linear"); empty: the suggested operator
    // (suggestPatternOperator), said in a note.
    std::string operatorName;
    int minPatternLength = 3;  // at least this many GPU events beneath the operator
    int topK = 5;              // per rank: the patterns marked top (and overlaid); 0 = all
    RankChoice ranks;          // empty = every rank (HTA: one rank, 0 by default)
};

// One sequence on one rank.
struct KernelPattern {
    int rank = -1;
    RankIndex rankIndex;  // two files may claim one rank number
    std::vector<StringId> names;  // the operator's name, then its GPU events' names in start order
    int64_t count = 0;
    int64_t gpuNs = 0;  // Σ over the occurrences of their GPU events' durations
    int64_t cpuNs = 0;  // Σ of the operators' durations
    bool top = false;   // among the rank's topK
    // The operators that gave the sequence (rows of the rank's EventTable), in start order, and
    // their GPU events: occurrence i's are kernels[i * kernelCount() ...] in start order.
    std::vector<EventIndex> roots;
    std::vector<EventIndex> kernels;
    // Top patterns only: every event of the occurrences' subtrees (operators, nested CPU events,
    // GPU events), sorted: what the overlay marks.
    std::vector<EventIndex> members;

    size_t kernelCount() const { return names.empty() ? 0 : names.size() - 1; }
};

struct KernelPatterns {
    std::string operatorName;  // as asked, or the suggested one
    bool suggested = false;    // none was asked: operatorName is suggestPatternOperator's
    // Every pattern of every rank: by rank, then count descending, then the pattern text (HTA's
    // order). `top` marks each rank's first topK (HTA overlays those and returns them all).
    std::vector<KernelPattern> patterns;
    bool htaCompat = false;
    std::string error;
    std::vector<std::string> notes;
};

KernelPatterns frequentKernelSequences(const Run& run, const KernelPatternOptions& options);

// An operator worth asking about when the user names none: on the first rank asked for, among
// the most frequent CPU operators with minPatternLength or more GPU events beneath them, the one
// whose most frequent kernel sequence (as frequentKernelSequences finds it) repeats most. Empty
// when no sequence repeats.
struct PatternOperatorSuggestion {
    std::string operatorName;
    int64_t repeats = 0;  // occurrences of its most frequent sequence
    int rank = -1;
};
PatternOperatorSuggestion suggestPatternOperator(const Run& run, const KernelPatternOptions& options);

// HTA's pattern text: the names joined with '|'.
std::string patternText(const Run& run, const KernelPattern& pattern);

// The run's distinct CPU operator names containing `text` (for completion), sorted, at most `limit`.
std::vector<std::string> operatorNames(const Run& run, const std::string& text, size_t limit = 50);

} // namespace kscope
