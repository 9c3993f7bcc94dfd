#pragma once

// The floor `kinetoscope-cli bench load` measures the loader against (here, in model/, to be
// compiled with the parser's instruction set): the same files read by the least any JSON
// trace loader must do (stream-inflate, cut traceEvents into events, take eight fields of each
// into columns), with none of ours (no interning, no validation, no args beyond correlation, no
// tables built). The loader's throughput as a fraction of this one holds on a noisy machine.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

struct BarePassResult {
    double seconds = 0.0;         // wall time of the whole pass
    uint64_t uncompressedBytes = 0;
    uint64_t events = 0;
    std::string error;            // the first file it could not read, and why
};

// Every file on `threads` threads (a file per thread at a time, as the loader spreads ranks);
// `batchBytes` of events parsed per simdjson document, as LoadOptions::chunkBytes.
BarePassResult barePass(const std::vector<std::filesystem::path>& files, unsigned threads, size_t batchBytes);

} // namespace kscope
