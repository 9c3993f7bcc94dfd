#pragma once

// JSON string literals for everything Kinetoscope writes (tables as JSON, counter and overlay
// traces, events): one escaping rule. (HTA's own JSON, written the way Python's json.dumps
// writes it, keeps its rule in analysis/tables/difftables.cpp.)

#include <string>
#include <string_view>

namespace kscope {

// `text` as a quoted JSON string appended to out: \" \\ \n \r \t, other control characters as
// \u00XX, everything else (UTF-8 included) as it is.
void appendJsonString(std::string& out, std::string_view text);
std::string jsonString(std::string_view text);

} // namespace kscope
