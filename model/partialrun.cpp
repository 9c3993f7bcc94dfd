#include "partialrun.h"

#include "log.h"

#include <unistd.h>

namespace kscope {

uint64_t ProgressiveLoad::defaultMaxSnapshotBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    const uint64_t physical = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
    return std::max<uint64_t>(physical / 8, 256ull << 20);
}

PartialRunPublisher::PartialRunPublisher(const ProgressiveLoad& progressive, const std::vector<ParsedFile>& parsed,
                                         std::vector<uint64_t> fileBytes, const LoadProgress* progress,
                                         const Run& head, const LoadOptions& options)
    : m_progressive(progressive), m_parsed(parsed), m_fileBytes(std::move(fileBytes)), m_progress(progress),
      m_head(head), m_options(options)
{
    for (uint64_t bytes : m_fileBytes)
        m_runBytes += bytes;
}

bool PartialRunPublisher::due(std::chrono::steady_clock::time_point now) const
{
    using Seconds = std::chrono::duration<double>;
    if (m_building || m_read.size() >= m_parsed.size())
        return false;  // one at a time; the whole run follows the last file
    if (m_readBytes > m_progressive.maxBytes)
        return false;
    // The progress counts the files in flight too: two big files finishing together give none.
    const uint64_t bytesRead = m_progress ? std::max(m_readFileBytes, m_progress->bytesDone.load()) : m_readFileBytes;
    if (m_runBytes > 0 && double(bytesRead) > m_progressive.maxFractionRead * double(m_runBytes))
        return false;
    if (Seconds(now - m_start).count() < m_progressive.firstAfterSeconds)
        return false;
    if (m_lastSnapshotFiles > 0 && Seconds(now - m_lastSnapshot).count() < m_progressive.minIntervalSeconds)
        return false;
    return m_read.size() >= std::max<size_t>(1, 2 * m_lastSnapshotFiles);
}

void PartialRunPublisher::fileRead(size_t index)
{
    std::vector<size_t> files;
    {
        const std::lock_guard lock(m_mutex);
        m_read.push_back(index);
        m_readBytes += m_parsed[index].trace.residentBytes();
        m_readFileBytes += m_fileBytes[index];
        if (!due(std::chrono::steady_clock::now()))
            return;
        m_building = true;
        files = m_read;
    }
    const auto building = std::chrono::steady_clock::now();
    std::shared_ptr<Run> snapshot = assemble(files);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - building).count();
    KSCOPE_LOG(Model, Info, "snapshot of " << files.size() << " of " << m_parsed.size() << " files assembled in " << ms << " ms");
    {
        const std::lock_guard lock(m_mutex);
        m_building = false;
        m_lastSnapshotFiles = files.size();
        m_lastSnapshot = std::chrono::steady_clock::now();
    }
    m_progressive.deliver(std::move(snapshot));
}

std::shared_ptr<Run> PartialRunPublisher::assemble(const std::vector<size_t>& files) const
{
    std::vector<ParsedFile> copies;
    copies.reserve(files.size());
    for (size_t index : files) {
        const ParsedFile& file = m_parsed[index];
        ParsedFile& copy = copies.emplace_back();
        copy.trace = file.trace;
        copy.strings = file.strings.share();  // read only: assembling interns into the snapshot's own pool
        copy.error = file.error;
        copy.rankFromContent = file.rankFromContent;
    }
    auto snapshot = std::make_shared<Run>();
    snapshot->folder = m_head.folder;
    snapshot->htaCompat = m_head.htaCompat;
    snapshot->skippedFiles = m_head.skippedFiles;
    snapshot->ranksNotLoaded = m_head.ranksNotLoaded;
    // One thread: the other workers are still reading files.
    assembleRun(*snapshot, std::move(copies), m_options, 1);
    snapshot->filesStillLoading = static_cast<uint32_t>(m_parsed.size() - files.size());
    return snapshot;
}

} // namespace kscope
