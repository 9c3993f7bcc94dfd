#include "inflatereader.h"

#include <libdeflate.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace kscope {

namespace {
constexpr size_t kInputBufferBytes = 1 << 20;
constexpr unsigned char kGzipId1 = 0x1f, kGzipId2 = 0x8b;
}

// The gzip wrapper is read here and the deflate data inflated raw: zlib's own CRC-32 costs about
// 5% of a load, libdeflate's (carry-less multiply) next to nothing.
struct InflateReader::ZState {
    z_stream stream{};
    bool initialised = false;
    uint32_t crc = 0;
    uint64_t memberBytes = 0;
    ~ZState()
    {
        if (initialised)
            inflateEnd(&stream);
    }
};

InflateReader::InflateReader() : m_z(std::make_unique<ZState>()) {}

InflateReader::~InflateReader()
{
    if (m_file)
        std::fclose(m_file);
}

bool InflateReader::open(const std::filesystem::path& file)
{
    std::error_code ec;
    m_compressedSize = std::filesystem::file_size(file, ec);
    m_file = std::fopen(file.c_str(), "rb");
    if (!m_file) {
        m_error = std::string("cannot open: ") + std::strerror(errno);
        return false;
    }
    m_input.reset(new unsigned char[kInputBufferBytes]);
    if (!refillInput() && failed())
        return false;
    m_gzip = m_inputLen >= 2 && m_input[0] == kGzipId1 && m_input[1] == kGzipId2;
    m_expectedSize = m_compressedSize;
    if (!m_gzip)
        return true;
    unsigned char trailer[4] = {0, 0, 0, 0};
    const long here = std::ftell(m_file);
    if (m_compressedSize >= 18 && std::fseek(m_file, -4, SEEK_END) == 0 && std::fread(trailer, 1, 4, m_file) == 4) {
        uint64_t isize = trailer[0] | (trailer[1] << 8) | (trailer[2] << 16) | (uint64_t(trailer[3]) << 24);
        // ISIZE wraps at 4 GiB: add the wraps that the compression ratio implies (traces gzip ~20x).
        while (isize < m_compressedSize * 4)
            isize += 1ull << 32;
        m_expectedSize = isize;
    }
    std::fseek(m_file, here, SEEK_SET);
    if (inflateInit2(&m_z->stream, -15) != Z_OK) {
        m_error = "zlib initialisation failed";
        return false;
    }
    m_z->initialised = true;
    return readMemberHeader();
}

bool InflateReader::refillInput()
{
    if (m_inputPos < m_inputLen)
        return true;
    if (m_inputEof)
        return false;
    m_inputPos = 0;
    m_inputLen = std::fread(m_input.get(), 1, kInputBufferBytes, m_file);
    if (m_inputLen < kInputBufferBytes) {
        if (std::ferror(m_file)) {
            m_error = std::string("read error: ") + std::strerror(errno);
            return false;
        }
        m_inputEof = true;
    }
    return m_inputLen > 0;
}

bool InflateReader::ensureInput(size_t bytes)
{
    if (m_inputLen - m_inputPos >= bytes)
        return true;
    // Keep the unread tail and append: headers and trailers may straddle two reads.
    std::memmove(m_input.get(), m_input.get() + m_inputPos, m_inputLen - m_inputPos);
    m_inputLen -= m_inputPos;
    m_inputPos = 0;
    while (m_inputLen < bytes && !m_inputEof) {
        const size_t n = std::fread(m_input.get() + m_inputLen, 1, kInputBufferBytes - m_inputLen, m_file);
        if (n == 0) {
            if (std::ferror(m_file)) {
                m_error = std::string("read error: ") + std::strerror(errno);
                return false;
            }
            m_inputEof = true;
        }
        m_inputLen += n;
    }
    return m_inputLen >= bytes;
}

bool InflateReader::skipInput(size_t bytes)
{
    if (!ensureInput(bytes))
        return false;
    m_inputPos += bytes;
    m_compressedConsumed += bytes;
    return true;
}

bool InflateReader::readMemberHeader()
{
    // RFC 1952: ID1 ID2 CM FLG MTIME(4) XFL OS, then optional EXTRA, NAME, COMMENT, HCRC.
    if (!ensureInput(10)) {
        m_error = "gzip stream ends early (truncated file)";
        return false;
    }
    const unsigned char* h = m_input.get() + m_inputPos;
    if (h[0] != kGzipId1 || h[1] != kGzipId2 || h[2] != 8) {
        m_error = "not a gzip deflate stream";
        return false;
    }
    const unsigned flags = h[3];
    skipInput(10);
    if (flags & 4) {
        if (!ensureInput(2)) {
            m_error = "gzip header truncated";
            return false;
        }
        const size_t extra = m_input[m_inputPos] | (m_input[m_inputPos + 1] << 8);
        if (!skipInput(2 + extra)) {
            m_error = "gzip header truncated";
            return false;
        }
    }
    for (unsigned flag : {8u, 16u}) {  // zero-terminated file name, then comment
        if (!(flags & flag))
            continue;
        for (;;) {
            if (!ensureInput(1)) {
                m_error = "gzip header truncated";
                return false;
            }
            const bool end = m_input[m_inputPos] == 0;
            skipInput(1);
            if (end)
                break;
        }
    }
    if ((flags & 2) && !skipInput(2)) {
        m_error = "gzip header truncated";
        return false;
    }
    inflateReset(&m_z->stream);
    m_z->crc = 0;
    m_z->memberBytes = 0;
    return true;
}

bool InflateReader::finishMember()
{
    if (!ensureInput(8)) {
        m_error = "gzip stream ends early (truncated file)";
        return false;
    }
    const unsigned char* t = m_input.get() + m_inputPos;
    const uint32_t crc = t[0] | (t[1] << 8) | (t[2] << 16) | (uint32_t(t[3]) << 24);
    const uint32_t size = t[4] | (t[5] << 8) | (t[6] << 16) | (uint32_t(t[7]) << 24);
    skipInput(8);
    if (crc != m_z->crc || size != static_cast<uint32_t>(m_z->memberBytes)) {
        m_error = "corrupt gzip data: checksum or length mismatch";
        return false;
    }
    // Concatenated gzip members form one stream; anything else after the end is ignored.
    if (ensureInput(2) && m_input[m_inputPos] == kGzipId1 && m_input[m_inputPos + 1] == kGzipId2)
        return readMemberHeader();
    m_streamDone = true;
    return true;
}

size_t InflateReader::read(char* dest, size_t maxBytes)
{
    if (m_end || failed() || maxBytes == 0)
        return 0;
    if (!m_gzip) {
        size_t done = 0;
        while (done < maxBytes && refillInput()) {
            const size_t n = std::min(maxBytes - done, m_inputLen - m_inputPos);
            std::memcpy(dest + done, m_input.get() + m_inputPos, n);
            m_inputPos += n;
            done += n;
            m_compressedConsumed += n;
        }
        if (done == 0)
            m_end = true;
        m_produced += done;
        return done;
    }
    if (m_streamDone) {
        m_end = true;
        return 0;
    }

    z_stream& zs = m_z->stream;
    zs.next_out = reinterpret_cast<Bytef*>(dest);
    zs.avail_out = static_cast<uInt>(std::min<size_t>(maxBytes, 1u << 30));
    const uInt requested = zs.avail_out;
    while (zs.avail_out > 0 && !m_streamDone) {
        if (!refillInput()) {
            if (failed())
                return 0;
            if (requested == zs.avail_out) {
                m_error = "gzip stream ends early (truncated file)";
                return 0;
            }
            break;
        }
        zs.next_in = m_input.get() + m_inputPos;
        zs.avail_in = static_cast<uInt>(m_inputLen - m_inputPos);
        const uInt availBefore = zs.avail_in;
        Bytef* const outBefore = zs.next_out;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        const size_t consumed = availBefore - zs.avail_in;
        const size_t produced = static_cast<size_t>(zs.next_out - outBefore);
        m_inputPos += consumed;
        m_compressedConsumed += consumed;
        m_z->crc = static_cast<uint32_t>(libdeflate_crc32(m_z->crc, outBefore, produced));
        m_z->memberBytes += produced;
        // On an error the bytes already inflated by this call are still handed out (the caller
        // keeps the events before the damage); the next call returns 0 with failed() set.
        if (rc == Z_STREAM_END) {
            if (!finishMember())
                break;
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            m_error = std::string("corrupt gzip data: ") + (zs.msg ? zs.msg : "inflate failed");
            break;
        }
    }
    const size_t produced = requested - zs.avail_out;
    m_produced += produced;
    if (produced == 0 && m_streamDone)
        m_end = true;
    return produced;
}

} // namespace kscope
