#pragma once

// Where the host waits for the GPU inside the training step: synchronising runtime calls
// (cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize, a blocking cudaMemcpy, and
// their HIP and driver forms) and device-to-host copies, per rank, grouped by the call and by the
// operator that made it (the outermost CPU op above it: aten::item for loss.item()). Only events
// inside a ProfilerStep count; a run without steps has none.

#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

// One synchronising call name under one calling op, on one rank.
struct HostSyncGroup {
    int rank = -1;
    RankIndex rankIndex;
    StringId call;    // cudaStreamSynchronize, ...
    StringId caller;  // the outermost CPU op above the call; null when it has none
    std::string callName, callerName;  // their names (callerName empty when it has none)
    int64_t calls = 0;
    int64_t totalNs = 0;
    int64_t longestNs = 0;
    EventIndex longest = kNoEvent;  // the longest call, in the rank's event table
    int steps = 0;                  // distinct steps it happened in
};

// Device-to-host copies inside steps, one rank.
struct DeviceToHostCopies {
    int rank = -1;
    RankIndex rankIndex;
    int64_t copies = 0;
    int64_t totalNs = 0;
    int64_t bytes = 0;  // of the copies whose size the trace records
    int steps = 0;
};

struct HostSyncs {
    std::vector<HostSyncGroup> groups;        // by rank, then total time, longest first
    std::vector<DeviceToHostCopies> copies;   // by rank; ranks without any left out
    std::string error;
    std::vector<std::string> notes;
};

HostSyncs hostSyncs(const Run& run);

} // namespace kscope
