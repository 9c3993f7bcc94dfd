#include "testsupport.h"

#include <zlib.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace kscope::test {

namespace fs = std::filesystem;

fs::path sharedDir()
{
    return fs::path(KSCOPE_SHARED_DIR);
}

fs::path sourceDir()
{
    return fs::path(KSCOPE_SOURCE_DIR);
}

fs::path cliPath()
{
    return fs::path(KSCOPE_CLI_PATH);
}

fs::path scratchDir(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("kscope-test-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void writeFile(const fs::path& file, std::string_view content)
{
    std::ofstream out(file, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
}

void writeGzipFile(const fs::path& file, std::string_view content)
{
    gzFile gz = gzopen(file.c_str(), "wb");
    if (!gz)
        throw std::runtime_error("cannot write " + file.string());
    gzwrite(gz, content.data(), static_cast<unsigned>(content.size()));
    gzclose(gz);
}

std::string readMaybeGzip(const fs::path& file)
{
    gzFile gz = gzopen(file.c_str(), "rb");  // zlib reads plain files transparently
    if (!gz)
        return {};
    std::string text;
    std::array<char, 1 << 16> buf;
    int n;
    while ((n = gzread(gz, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
        text.append(buf.data(), static_cast<size_t>(n));
    gzclose(gz);
    return text;
}

std::string readFileBytes(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int runCommand(const std::string& command, std::string& output)
{
    output.clear();
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
        return -1;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
        output.append(buf.data(), n);
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

CommandResult runCli(const std::string& arguments)
{
    static int calls = 0;
    const fs::path errFile = fs::temp_directory_path()
        / ("kscope-test-stderr-" + std::to_string(::getpid()) + "-" + std::to_string(calls++));
    CommandResult result;
    result.exitCode = runCommand(cliPath().string() + " " + arguments + " 2>" + errFile.string(), result.out);
    result.err = readFileBytes(errFile);
    fs::remove(errFile);
    return result;
}

} // namespace kscope::test
