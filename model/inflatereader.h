#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kscope {

// Reads a trace file as a stream of uncompressed bytes: gzip (detected by its magic bytes,
// concatenated members included) is inflated on the fly (ISA-L), anything else passes through.
// Streaming keeps memory flat and avoids whole-buffer inflaters' size and 4 GiB-trailer limits.
class InflateReader {
public:
    InflateReader();
    ~InflateReader();
    InflateReader(const InflateReader&) = delete;
    InflateReader& operator=(const InflateReader&) = delete;

    bool open(const std::filesystem::path& file);
    // Reads up to maxBytes into dest; returns bytes read, 0 at end or on error (see failed()).
    size_t read(char* dest, size_t maxBytes);

    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }
    bool isGzip() const { return m_gzip; }
    bool atEnd() const { return m_end; }
    uint64_t compressedConsumed() const { return m_compressedConsumed; }
    uint64_t compressedSize() const { return m_compressedSize; }
    uint64_t uncompressedProduced() const { return m_produced; }
    // A guess of the inflated size before reading (gzip's trailer holds it modulo 4 GiB).
    uint64_t expectedUncompressedSize() const { return m_expectedSize; }

private:
    bool refillInput();
    bool ensureInput(size_t bytes);
    bool skipInput(size_t bytes);
    bool readMemberHeader();
    bool finishMember();

    std::FILE* m_file = nullptr;
    struct ZState;
    std::unique_ptr<ZState> m_z;
    std::unique_ptr<unsigned char[]> m_input;  // not zero-filled: a fresh one per file
    size_t m_inputPos = 0;
    size_t m_inputLen = 0;
    bool m_gzip = false;
    bool m_end = false;
    bool m_inputEof = false;
    bool m_streamDone = false;
    std::string m_error;
    uint64_t m_compressedConsumed = 0;
    uint64_t m_compressedSize = 0;
    uint64_t m_produced = 0;
    uint64_t m_expectedSize = 0;
};

} // namespace kscope
