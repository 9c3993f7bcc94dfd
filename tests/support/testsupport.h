#pragma once

// Shared helpers for tests: where ../shared lives, scratch folders, small trace files.
//
// Never QCOMPARE an engine enum that has a `const char* toString(Enum)` (LoadErrorKind, DeviceType,
// ...): Qt Test finds it by ADL and delete[]s the literal when the comparison fails, which aborts
// the test instead of reporting. Compare with QVERIFY2(a == b, toString(a)).

#include <filesystem>
#include <string>
#include <string_view>

namespace kscope::test {

std::filesystem::path sharedDir();   // ../shared (traces/, golden/)
std::filesystem::path sourceDir();   // the project root
std::filesystem::path cliPath();     // the built kinetoscope-cli

// A fresh empty folder under the system temp dir, removed by the OS or the next run.
std::filesystem::path scratchDir(const std::string& name);
void writeFile(const std::filesystem::path& file, std::string_view content);
void writeGzipFile(const std::filesystem::path& file, std::string_view content);
std::string readMaybeGzip(const std::filesystem::path& file);
std::string readFileBytes(const std::filesystem::path& file);

// Runs a command line, captures stdout; returns the exit code.
int runCommand(const std::string& command, std::string& output);

// What a command line gave: exit code, stdout, stderr.
struct CommandResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};
// Runs kinetoscope-cli with `arguments` (a shell command line after the program's name).
CommandResult runCli(const std::string& arguments);

} // namespace kscope::test
