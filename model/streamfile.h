#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace kscope {

// Writes a file too large to hold in memory, in pieces, with writeFileAtomically's guarantees: the
// bytes go to a temporary file beside the target, renamed over it by commit(); a writer destroyed
// or failed before commit() leaves no file behind and the old one intact. With gzip the stream is
// compressed as one gzip member (zlib; level 1 is about 480 MB/s of JSON per core).
class StreamFileWriter {
public:
    StreamFileWriter();
    ~StreamFileWriter();
    StreamFileWriter(const StreamFileWriter&) = delete;
    StreamFileWriter& operator=(const StreamFileWriter&) = delete;

    // Empty string on success, else the reason. target must not be a folder.
    std::string open(const std::filesystem::path& target, bool gzip, int level = 1);
    // Empty string, or the reason (the first error sticks: later writes do nothing).
    std::string write(std::string_view bytes);
    // Finishes the stream, flushes it to disk and renames it over the target.
    std::string commit();

    uint64_t bytesIn() const { return m_bytesIn; }    // as given to write()
    uint64_t bytesOut() const { return m_bytesOut; }  // as written to the file

private:
    std::string flush(bool finish);
    void discard();

    struct ZState;
    std::unique_ptr<ZState> m_z;
    std::string m_buffer;  // pending uncompressed bytes (plain files: pending output)
    std::filesystem::path m_target;
    std::filesystem::path m_temp;
    int m_fd = -1;
    bool m_gzip = false;
    std::string m_error;
    uint64_t m_bytesIn = 0;
    uint64_t m_bytesOut = 0;
};

} // namespace kscope
