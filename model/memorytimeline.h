#pragma once

// PyTorch's export_memory_timeline raw data (what HTA's MemoryAnalysis reads): a JSON array,
// plain or gzip, of [time, action, bytes, category] rows. Not a Kineto trace: the run loader
// skips it (and says what it is); this reader is for the memory command and view.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

struct MemoryTimelineRow {
    int64_t time = 0;     // ns; negative for blocks that existed before profiling
    int32_t action = 0;   // torch's Action: 1 preexisting, 2 create, 3 increment version, 4 destroy
    int64_t bytes = 0;    // signed
    int32_t category = 7; // 0 Parameter, 1 Optimizer state, 2 Input, 3 Temporary, 4 Activation,
                          // 5 Gradient, 6 Autograd, 7 Unknown (torch's and HTA's order)
};

struct MemoryTimelineFile {
    std::vector<MemoryTimelineRow> rows;
    std::string error;  // empty when read
};

// Reads the whole file (gzip or plain); an error names the byte offset of what is not a row.
MemoryTimelineFile readMemoryTimeline(const std::filesystem::path& file);
// The first non-blank bytes are "[[" followed by a number: cheap, for choosing a reader.
bool looksLikeMemoryTimeline(const std::filesystem::path& file);

} // namespace kscope
