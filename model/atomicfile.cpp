#include "atomicfile.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kscope {

namespace fs = std::filesystem;

std::string writeAll(int fd, std::string_view contents)
{
    size_t done = 0;
    while (done < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return std::strerror(errno);
        }
        if (n == 0)
            return "the device took no more bytes";
        done += static_cast<size_t>(n);
    }
    return {};
}

namespace {

std::array<std::atomic<char*>, kMaxTemporaries> g_temporaries{};

extern "C" void removeTemporariesAndDie(int signal)
{
    for (auto& slot : g_temporaries)
        if (char* path = slot.exchange(nullptr))
            ::unlink(path);  // the strings leak: the process is ending
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

std::string writeInPlace(const fs::path& target, std::string_view contents)
{
    const int fd = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return std::strerror(errno);
    std::string error = writeAll(fd, contents);
    if (::close(fd) != 0 && error.empty())
        error = std::strerror(errno);
    return error;
}

} // namespace

std::string inputOverwriteError(const fs::path& target, const std::vector<fs::path>& inputs)
{
    std::error_code ec;
    if (!fs::exists(target, ec))
        return {};
    for (const fs::path& input : inputs) {
        std::error_code ignored;
        if (fs::equivalent(target, input, ignored))
            return "it is an input trace of this run (" + input.string() + "): choose another name";
    }
    return {};
}

void guardTemporary(const std::string& path)
{
    char* copy = ::strdup(path.c_str());
    if (!copy)
        return;
    for (auto& slot : g_temporaries) {
        char* expected = nullptr;
        if (slot.compare_exchange_strong(expected, copy))
            return;
    }
    std::free(copy);
}

void releaseTemporary(const std::string& path)
{
    for (auto& slot : g_temporaries) {
        char* current = slot.load();
        if (current && path == current && slot.compare_exchange_strong(current, nullptr)) {
            std::free(current);
            return;
        }
    }
}

void removeTemporariesOnSignal()
{
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
        struct sigaction action {};
        action.sa_handler = removeTemporariesAndDie;
        sigemptyset(&action.sa_mask);
        ::sigaction(signal, &action, nullptr);
    }
}

std::string writeFileAtomically(const fs::path& target, std::string_view contents)
{
    std::error_code ec;
    fs::path real = target;
    if (fs::is_symlink(fs::symlink_status(target, ec))) {
        real = fs::weakly_canonical(target, ec);
        if (ec)
            return "cannot follow the link: " + ec.message();
    }
    struct stat old {};
    const bool exists = ::stat(real.c_str(), &old) == 0;
    if (exists && S_ISDIR(old.st_mode))
        return "is a folder";
    if (exists && !S_ISREG(old.st_mode))
        return writeInPlace(real, contents);

    static std::atomic<unsigned> counter{0};
    const fs::path dir = real.has_parent_path() ? real.parent_path() : fs::path(".");
    const fs::path temp = dir / ("." + real.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-"
                                 + std::to_string(counter.fetch_add(1)));
    guardTemporary(temp.string());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        releaseTemporary(temp.string());
        return std::string("cannot create a temporary file in ") + dir.string() + ": " + std::strerror(errno);
    }
    std::string error;
    if (exists && ::fchmod(fd, old.st_mode & 07777) != 0)
        error = std::string("cannot keep the file's permissions: ") + std::strerror(errno);
    if (error.empty())
        error = writeAll(fd, contents);
    if (error.empty() && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        error = std::strerror(errno);
    if (::close(fd) != 0 && error.empty())
        error = std::strerror(errno);
    if (error.empty() && ::rename(temp.c_str(), real.c_str()) != 0)
        error = std::strerror(errno);
    if (!error.empty())
        ::unlink(temp.c_str());
    releaseTemporary(temp.string());
    return error;
}

} // namespace kscope
