#include "inflatereader.h"

#include <zlib.h>

#include <cstring>

namespace kscope {

namespace {
constexpr size_t kInputBufferBytes = 1 << 20;
}

struct InflateReader::ZState {
    z_stream stream{};
    bool initialised = false;
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
    m_input.resize(kInputBufferBytes);
    if (!refillInput() && failed())
        return false;
    m_gzip = m_inputLen >= 2 && m_input[0] == 0x1f && m_input[1] == 0x8b;
    m_expectedSize = m_compressedSize;
    if (m_gzip) {
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
        // 15 + 16: gzip wrapper only; a zlib stream is not what Kineto writes.
        if (inflateInit2(&m_z->stream, 15 + 16) != Z_OK) {
            m_error = "zlib initialisation failed";
            return false;
        }
        m_z->initialised = true;
    }
    return true;
}

bool InflateReader::refillInput()
{
    if (m_inputPos < m_inputLen)
        return true;
    if (m_inputEof)
        return false;
    m_inputPos = 0;
    m_inputLen = std::fread(m_input.data(), 1, m_input.size(), m_file);
    if (m_inputLen < m_input.size()) {
        if (std::ferror(m_file)) {
            m_error = std::string("read error: ") + std::strerror(errno);
            return false;
        }
        m_inputEof = true;
    }
    return m_inputLen > 0;
}

size_t InflateReader::read(char* dest, size_t maxBytes)
{
    if (m_end || failed() || maxBytes == 0)
        return 0;
    if (!m_gzip) {
        size_t done = 0;
        while (done < maxBytes && refillInput()) {
            const size_t n = std::min(maxBytes - done, m_inputLen - m_inputPos);
            std::memcpy(dest + done, m_input.data() + m_inputPos, n);
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
    while (zs.avail_out > 0) {
        if (!refillInput()) {
            if (failed())
                return 0;
            // Input ended inside a gzip member.
            if (requested == zs.avail_out) {
                m_error = "gzip stream ends early (truncated file)";
                return 0;
            }
            break;
        }
        zs.next_in = m_input.data() + m_inputPos;
        zs.avail_in = static_cast<uInt>(m_inputLen - m_inputPos);
        const uInt availBefore = zs.avail_in;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        const size_t consumed = availBefore - zs.avail_in;
        m_inputPos += consumed;
        m_compressedConsumed += consumed;
        if (rc == Z_STREAM_END) {
            // Concatenated gzip members form one stream; anything else after the end is ignored.
            if (!refillInput() || m_input[m_inputPos] != 0x1f) {
                m_streamDone = true;
                m_inputEof = true;
                m_inputPos = m_inputLen;
                break;
            }
            inflateReset(&zs);
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            m_error = std::string("corrupt gzip data: ") + (zs.msg ? zs.msg : "inflate failed");
            return 0;
        }
    }
    const size_t produced = requested - zs.avail_out;
    m_produced += produced;
    if (produced == 0 && m_streamDone)
        m_end = true;
    return produced;
}

} // namespace kscope
