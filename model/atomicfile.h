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
