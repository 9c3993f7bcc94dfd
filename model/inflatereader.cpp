#include "inflatereader.h"

#include <isa-l/igzip_lib.h>

#include <cerrno>
#include <cstring>

namespace kscope {

namespace {
constexpr size_t kInputBufferBytes = 1 << 20;
constexpr unsigned char kGzipId1 = 0x1f, kGzipId2 = 0x8b;

const char* inflateErrorText(int rc)
{
    switch (rc) {
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_NEED_DICT: return "a preset dictionary is needed";
    case ISAL_INCORRECT_CHECKSUM: return "checksum or length mismatch";
    default: return "inflate failed";
    }
}
}

// Each member's header is read here; the deflate data and the trailer (CRC-32 and length checked)
// are Intel's ISA-L (igzip): it inflates Kineto's JSON about 3x faster than zlib (0.08 s against
// 0.23 s for one 270 MB rank), which was a fifth of a load's CPU time.
struct InflateReader::ZState {
    inflate_state stream;
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
    isal_inflate_init(&m_z->stream);
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
    isal_inflate_reset(&m_z->stream);
    m_z->stream.crc_flag = ISAL_GZIP_NO_HDR_VER;  // the trailer follows the deflate data: checked
    return true;
}

bool InflateReader::finishMember()
{
    // igzip has checked the trailer and handed back what it read beyond it. Concatenated gzip
    // members form one stream; anything else after the end is ignored.
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

    inflate_state& zs = m_z->stream;
    zs.next_out = reinterpret_cast<uint8_t*>(dest);
    zs.avail_out = static_cast<uint32_t>(std::min<size_t>(maxBytes, 1u << 30));
    const uint32_t requested = zs.avail_out;
    while (zs.avail_out > 0 && !m_streamDone) {
        // At the end of the file igzip may still hold bits it read ahead: it is called once more
        // with no input, and the stream is truncated only if that yields nothing either.
        const bool haveInput = refillInput();
        if (!haveInput && failed())
            return 0;
        zs.next_in = haveInput ? m_input.get() + m_inputPos : nullptr;
        zs.avail_in = haveInput ? static_cast<uint32_t>(m_inputLen - m_inputPos) : 0;
        const uint32_t availBefore = zs.avail_in;
        uint8_t* const outBefore = zs.next_out;
        const int rc = isal_inflate(&zs);
        const size_t consumed = availBefore - zs.avail_in;
        const size_t produced = static_cast<size_t>(zs.next_out - outBefore);
        m_inputPos += consumed;
        m_compressedConsumed += consumed;
        // On an error the bytes already inflated by this call are still handed out (the caller
        // keeps the events before the damage); the next call returns 0 with failed() set.
        if (rc != ISAL_DECOMP_OK) {
            m_error = std::string("corrupt gzip data: ") + inflateErrorText(rc);
            break;
        }
        if (zs.block_state == ISAL_BLOCK_FINISH) {
            if (!finishMember())
                break;
            continue;
        }
        if (consumed == 0 && produced == 0) {
            if (!haveInput && requested == zs.avail_out)
                m_error = "gzip stream ends early (truncated file)";
            else if (haveInput)  // never seen; guards against spinning
                m_error = "corrupt gzip data: inflate makes no progress";
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
