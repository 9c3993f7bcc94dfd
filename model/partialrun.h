#pragma once

#include "loader.h"

#include <chrono>
#include <mutex>

namespace kscope {

// loadRun's progressive half: told by the workers as each file is read, it decides (by
// ProgressiveLoad's rations) when the files read so far make a snapshot, assembles that from
// copies on the worker that completed it (the files themselves stay untouched for the whole run)
// and delivers it. One snapshot is built at a time; a file done meanwhile waits for the next.
class PartialRunPublisher {
public:
    // `parsed` is loadRun's vector, one entry per file, each written by one worker before
    // fileRead(index); `head` holds what the run knows before any file is read (folder, mode,
    // skipped files, ranks left out).
    // `fileBytes`: each file's size on disk; `progress` (may be null): the bytes read so far of
    // files still being read, which count toward the fraction read.
    PartialRunPublisher(const ProgressiveLoad& progressive, const std::vector<ParsedFile>& parsed,
                        std::vector<uint64_t> fileBytes, const LoadProgress* progress, const Run& head,
                        const LoadOptions& options);

    void fileRead(size_t index);

private:
    bool due(std::chrono::steady_clock::time_point now) const;  // under m_mutex
    std::shared_ptr<Run> assemble(const std::vector<size_t>& files) const;

    const ProgressiveLoad& m_progressive;
    const std::vector<ParsedFile>& m_parsed;
    const std::vector<uint64_t> m_fileBytes;
    const LoadProgress* m_progress;
    uint64_t m_runBytes = 0;
    const Run& m_head;
    const LoadOptions& m_options;
    const std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();

    std::mutex m_mutex;
    std::vector<size_t> m_read;          // files read, in the order they were
    uint64_t m_readBytes = 0;            // their resident bytes
    uint64_t m_readFileBytes = 0;        // their sizes on disk
    size_t m_lastSnapshotFiles = 0;
    std::chrono::steady_clock::time_point m_lastSnapshot{};
    bool m_building = false;
};

} // namespace kscope
