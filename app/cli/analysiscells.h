#pragma once

// Cells for the analysis commands: the engine keeps integer nanoseconds, HTA's columns are
// microseconds; NaN prints as an empty cell, as pandas writes it.

#include "table.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace kscope::cli {

// Whole microseconds stay integers (HTA's sums); anything finer becomes a decimal.
inline Cell microsCell(int64_t ns)
{
    if (ns % 1000 == 0)
        return Cell{ns / 1000};
    return Cell{static_cast<double>(ns) / 1000.0};
}

inline Cell microsCell(double ns)
{
    return std::isfinite(ns) ? Cell{ns / 1000.0} : Cell{};
}

inline Cell numberCell(double value)
{
    return std::isfinite(value) ? Cell{value} : Cell{};
}

// An analysis that could not answer still prints its (empty) table, and says why.
inline void addOutcome(Table& table, const std::string& error, const std::vector<std::string>& notes)
{
    for (const std::string& note : notes)
        table.notes.push_back(note);
    if (!error.empty())
        table.notes.push_back("no result: " + error);
}

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
