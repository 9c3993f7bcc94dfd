#include "streamfile.h"

#include "atomicfile.h"

#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace kscope {

namespace fs = std::filesystem;

namespace {

constexpr size_t kBufferBytes = 4u << 20;

} // namespace

struct StreamFileWriter::ZState {
    z_stream stream{};
    bool initialised = false;
    std::vector<unsigned char> out = std::vector<unsigned char>(kBufferBytes);
    ~ZState()
    {
        if (initialised)
            deflateEnd(&stream);
    }
};

StreamFileWriter::StreamFileWriter() = default;

StreamFileWriter::~StreamFileWriter()
{
    discard();
}

void StreamFileWriter::discard()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_temp.empty()) {
        ::unlink(m_temp.c_str());
        m_temp.clear();
    }
}

std::string StreamFileWriter::open(const fs::path& target, bool gzip, int level)
{
    discard();
    m_error.clear();
    m_bytesIn = m_bytesOut = 0;
    m_buffer.clear();
    m_gzip = gzip;
    m_target = target;
    std::error_code ec;
    if (fs::is_directory(target, ec))
        return m_error = "is a folder";
    static std::atomic<unsigned> counter{0};
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    m_temp = dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-"
                    + std::to_string(counter.fetch_add(1)));
    m_fd = ::open(m_temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (m_fd < 0) {
        m_temp.clear();
        return m_error = std::string("cannot create a file in ") + dir.string() + ": " + std::strerror(errno);
    }
    if (gzip) {
        m_z = std::make_unique<ZState>();
        // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
        if (deflateInit2(&m_z->stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            discard();
            return m_error = "zlib could not start a gzip stream";
        }
        m_z->initialised = true;
    }
    m_buffer.reserve(kBufferBytes);
    return {};
}

std::string StreamFileWriter::flush(bool finish)
{
    if (!m_error.empty())
        return m_error;
    if (!m_gzip) {
        if (std::string e = writeAll(m_fd, m_buffer); !e.empty())
            return m_error = e;
        m_bytesOut += m_buffer.size();
        m_buffer.clear();
        return {};
    }
    z_stream& z = m_z->stream;
    z.next_in = reinterpret_cast<Bytef*>(m_buffer.data());
    z.avail_in = static_cast<uInt>(m_buffer.size());
    for (;;) {
        z.next_out = m_z->out.data();
        z.avail_out = static_cast<uInt>(m_z->out.size());
        const int rc = deflate(&z, finish ? Z_FINISH : Z_NO_FLUSH);
        if (rc == Z_STREAM_ERROR)
            return m_error = "zlib failed while compressing";
        const size_t produced = m_z->out.size() - z.avail_out;
        if (produced > 0) {
            if (std::string e = writeAll(m_fd, {reinterpret_cast<char*>(m_z->out.data()), produced}); !e.empty())
                return m_error = e;
            m_bytesOut += produced;
        }
        if (finish ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out != 0))
            break;
    }
    m_buffer.clear();
    return {};
}

std::string StreamFileWriter::write(std::string_view bytes)
{
    if (!m_error.empty())
        return m_error;
    if (m_fd < 0)
        return m_error = "not open";
    m_bytesIn += bytes.size();
    while (!bytes.empty()) {
        const size_t take = std::min(bytes.size(), kBufferBytes - m_buffer.size());
        m_buffer.append(bytes.data(), take);
        bytes.remove_prefix(take);
        if (m_buffer.size() == kBufferBytes)
            if (std::string e = flush(false); !e.empty())
                return e;
    }
    return {};
}

std::string StreamFileWriter::commit()
{
    if (m_fd < 0 && m_error.empty())
        return m_error = "not open";
    std::string error = flush(true);
    if (error.empty() && ::fsync(m_fd) != 0 && errno != EINVAL && errno != EROFS)
        error = std::strerror(errno);
    if (::close(m_fd) != 0 && error.empty())
        error = std::strerror(errno);
    m_fd = -1;
    if (error.empty() && ::rename(m_temp.c_str(), m_target.c_str()) != 0)
        error = std::strerror(errno);
    if (error.empty())
        m_temp.clear();
    discard();
    m_z.reset();
    m_error = error;
    return error;
}

} // namespace kscope
