#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

struct Run;

// Writes `contents` to `target` so that a reader never sees half a file and a failure leaves the
// old file intact: a temporary file beside the target is written, flushed to disk and renamed
// over it (keeping the old file's permissions; a symbolic link is followed). A target that exists
// and is not a regular file (/dev/stdout, a pipe, /dev/full) is written in place, every byte
// checked. Returns an empty string on success, else the reason ("No space left on device").
std::string writeFileAtomically(const std::filesystem::path& target, std::string_view contents);

// Empty, or why `target` must not be written: it is one of `inputs` (the same path, or the same
// file under another name: a hard link, a symbolic link, "./x" for "x"). Exports and overlays
// check their targets against the run's trace files with it, so no output ever replaces an input.
std::string inputOverwriteError(const std::filesystem::path& target, const std::vector<std::filesystem::path>& inputs);
// Every file the load of `run` looked at: the ranks' traces, files that failed or were left out
// (a warning names them), files skipped as no trace.
std::vector<std::filesystem::path> inputFiles(const Run& run);

// write(2) until every byte is out; an empty string, or the reason it stopped.
std::string writeAll(int fd, std::string_view contents);

} // namespace kscope

namespace kscope {

// Temporary output files that an interrupted process must not leave behind. A signal handler may
// call only async-signal-safe functions, so the paths live in a fixed table of C strings that the
// handler unlinks before the signal takes its default course. Up to kMaxTemporaries at once; a
// path that does not fit is simply not guarded.
constexpr size_t kMaxTemporaries = 16;
void guardTemporary(const std::string& path);
void releaseTemporary(const std::string& path);
// SIGINT, SIGTERM, SIGHUP and SIGQUIT: remove every guarded temporary, then die of the signal.
void removeTemporariesOnSignal();

} // namespace kscope
