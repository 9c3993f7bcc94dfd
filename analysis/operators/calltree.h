#pragma once

// The call tree of one rank as the kernel-pattern analysis sees it: CPU events nested per thread,
// the GPU work each launch started hung beneath its launch, and per event how many GPU events
// its subtree holds and how long they ran (HTA's CallGraph columns num_kernels, kernel_dur_sum).
//
// Default mode: each thread's own nesting (the model's parent/depth, exact nanoseconds); GPU work
// (kernels, memcpy, memset on any stream) under the runtime call that launched it.
// HTA's mode (hta/common/trace_call_graph.py, trace_call_stack.py): HTA's stack walk over its
// sorted start/end points per (pid, tid), threads HTA takes for GPU streams left out, kernels on
// streams > 0 only, the backward thread's top-level ops re-parented under the main thread's
// "## backward ##" annotations (else its ProfilerSteps), depths recounted from the roots.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct CallTree {
    std::vector<EventIndex> parent;  // per row: the enclosing event (a kernel's launch); kNoEvent at the top or outside
    std::vector<int32_t> depth;      // per row: 0 at the top of a thread, a kernel one below its launch; -1 outside
    std::vector<int32_t> kernels;    // per row: GPU events in its subtree (a GPU event counts itself)
    std::vector<int64_t> kernelNs;   // per row: their summed duration
    // HTA's mode: why HTA raises building this tree (its event sort meets a zero-length and a
    // negative-length event at one time: "Unexpected case"); empty when it does not.
    std::string htaError;

    bool inTree(EventIndex e) const { return depth[static_cast<size_t>(e)] >= 0; }
};

CallTree buildCallTree(const RankTrace& rank, const StringPool& strings, bool htaCompat);

// The rows in HTA's frame order: the file's (EventTable::fileIndex, kept in HTA's mode), else
// start order. Linear time.
std::vector<EventIndex> htaFrameOrder(const EventTable& events);

// GPU work that belongs in a call tree: on a stream, launched by a CPU event (its link).
bool isLaunchedGpuWork(const EventTable& events, EventIndex e);

} // namespace kscope
