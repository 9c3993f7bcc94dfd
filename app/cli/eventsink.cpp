#include "eventsink.h"

#include "model/atomicfile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace kscope::cli {

namespace fs = std::filesystem;

EventSink::EventSink(const std::string& target) : m_target(target)
{
    if (target.empty()) {
        m_fd = STDOUT_FILENO;
        return;
    }
    std::error_code ec;
    const fs::file_status status = fs::status(target, ec);
    if (!ec && fs::exists(status) && !fs::is_regular_file(status)) {
        m_inPlace = true;  // /dev/stdout, a pipe: written where it is
        m_fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    } else {
        const fs::path path(target);
        m_temporary = (path.parent_path() / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()))).string();
        guardTemporary(m_temporary);
        m_fd = ::open(m_temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
    if (m_fd < 0)
        m_error = std::strerror(errno);
}

EventSink::~EventSink()
{
    if (m_fd >= 0 && m_fd != STDOUT_FILENO)
        ::close(m_fd);
    if (!m_temporary.empty()) {
        ::unlink(m_temporary.c_str());
        releaseTemporary(m_temporary);
    }
}

void EventSink::write(std::string_view bytes)
{
    if (!m_error.empty() || bytes.empty())
        return;
    m_error = writeAll(m_fd, bytes);
    m_bytes += bytes.size();
}

std::string EventSink::finish()
{
    if (!m_error.empty() || m_target.empty() || m_inPlace)
        return m_error;
    // closed whether or not fsync worked; the first failure is the one reported
    const int synced = ::fsync(m_fd) == 0 ? 0 : errno;
    const int closed = ::close(m_fd) == 0 ? 0 : errno;
    m_fd = -1;
    if (synced != 0 || closed != 0)
        return m_error = std::strerror(synced != 0 ? synced : closed);
    if (::rename(m_temporary.c_str(), m_target.c_str()) != 0)
        return m_error = std::strerror(errno);
    releaseTemporary(m_temporary);
    m_temporary.clear();
    return {};
}

} // namespace kscope::cli
