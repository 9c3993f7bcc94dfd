#pragma once

// JSON string literals for everything Kinetoscope writes (tables as JSON, counter and overlay
// traces, events), and for the JSON HTA writes (its ops diff), the way Python's json.dumps does.

#include <string>
#include <string_view>

namespace kscope {

// `text` as a quoted JSON string appended to out: \" \\ \n \r \t \b \f, other control characters
// as \u00XX, everything else (UTF-8 included) as it is.
void appendJsonString(std::string& out, std::string_view text);
// As Python's json.dumps writes a str (ensure_ascii): the same for ASCII, every other character
// as \uXXXX (UTF-16 surrogate pairs past U+FFFF); a malformed UTF-8 byte as its Latin-1 code point.
void appendPythonJsonString(std::string& out, std::string_view text);
std::string jsonString(std::string_view text);

} // namespace kscope
