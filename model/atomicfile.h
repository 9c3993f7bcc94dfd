#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace kscope {

// Writes `contents` to `target` so that a reader never sees half a file and a failure leaves the
// old file intact: a temporary file beside the target is written, flushed to disk and renamed
// over it (keeping the old file's permissions; a symbolic link is followed). A target that exists
// and is not a regular file (/dev/stdout, a pipe, /dev/full) is written in place, every byte
// checked. Returns an empty string on success, else the reason ("No space left on device").
std::string writeFileAtomically(const std::filesystem::path& target, std::string_view contents);

// write(2) until every byte is out; an empty string, or the reason it stopped.
std::string writeAll(int fd, std::string_view contents);

} // namespace kscope
