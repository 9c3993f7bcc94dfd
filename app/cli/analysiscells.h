#pragma once

// Helpers for the analysis commands; the result tables themselves are in analysis/resulttables.h.

#include "table.h"

#include "analysis/resulttables.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace kscope::cli {

// "7,20" into stream numbers; false on a syntax error.
inline bool parseIntList(const std::string& text, std::vector<int>& values)
{
    values.clear();
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string item = text.substr(pos, comma - pos);
        if (item.empty())
            return false;
        size_t used = 0;
        try {
            values.push_back(std::stoi(item, &used));
        } catch (...) {
            return false;
        }
        if (used != item.size())
            return false;
        pos = comma + 1;
    }
    return !values.empty();
}

} // namespace kscope::cli
