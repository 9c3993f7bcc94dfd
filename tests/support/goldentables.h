#pragma once

// Comparing our result tables (analysis/resulttable.h) with HTA's CSVs column by column: numbers
// exactly or to 1e-6 relative, text exactly, empty for empty. Summary frames of pandas'
// describe() have three header lines; goldenDescribe() turns them into one.

#include "analysis/resulttable.h"
#include "goldencsv.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace kscope::test {

inline bool parseGoldenNumber(const std::string& text, double& value)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

// One column to compare: HTA's name, ours, and whether it must match exactly.
struct ColumnMatch {
    std::string golden;
    std::string ours;
    bool exact = false;
    // Optional: turns HTA's text into ours before comparing (e.g. a Python list into "a;b").
    std::function<std::string(const std::string&)> convert = {};
};

inline std::string cellText(const Cell& cell)
{
    return formatCell(cell);
}

// Empty when the golden rows (already reduced to the rows of interest) equal our rows in order.
inline std::string compareWithGolden(const GoldenCsv& golden, const std::vector<std::vector<std::string>>& goldenRows,
                                     const Table& ours, const std::vector<std::vector<Cell>>& ourRows,
                                     const std::vector<ColumnMatch>& columns)
{
    if (goldenRows.size() != ourRows.size())
        return "row count: HTA " + std::to_string(goldenRows.size()) + ", ours " + std::to_string(ourRows.size());
    for (const ColumnMatch& c : columns) {
        const int g = golden.column(c.golden);
        if (g < 0)
            return "HTA has no column " + c.golden;
        const auto it = std::find(ours.columns.begin(), ours.columns.end(), c.ours);
        if (it == ours.columns.end())
            return "we have no column " + c.ours;
        const size_t o = static_cast<size_t>(it - ours.columns.begin());
        for (size_t r = 0; r < goldenRows.size(); ++r) {
            std::string expected = static_cast<size_t>(g) < goldenRows[r].size() ? goldenRows[r][g] : std::string();
            if (c.convert)
                expected = c.convert(expected);
            const Cell& mine = o < ourRows[r].size() ? ourRows[r][o] : Cell{};
            const std::string where = "row " + std::to_string(r) + " column " + c.golden + ": HTA '" + expected
                + "', ours '" + cellText(mine) + "'";
            double want = 0.0;
            if (expected.empty()) {
                if (!std::holds_alternative<std::monostate>(mine) && cellText(mine) != "")
                    return where;
                continue;
            }
            if (const auto* text = std::get_if<std::string>(&mine)) {
                if (*text != expected)
                    return where;
                continue;
            }
            if (!parseGoldenNumber(expected, want))
                return where;
            double got = 0.0;
            if (const auto* i = std::get_if<int64_t>(&mine))
                got = static_cast<double>(*i);
            else if (const auto* d = std::get_if<double>(&mine))
                got = *d;
            else
                return where;
            const double tolerance = c.exact ? 0.0 : 1e-6 * std::max(std::abs(got), std::abs(want)) + 1e-12;
            if (!(std::abs(got - want) <= tolerance) && !(std::isnan(got) && std::isnan(want)))
                return where;
        }
    }
    return {};
}

inline std::string compareWithGolden(const GoldenCsv& golden, const Table& ours, const std::vector<ColumnMatch>& columns)
{
    return compareWithGolden(golden, golden.rows, ours, ours.rows, columns);
}

// pandas' describe() frame (two header lines of statistics, a third naming the index) as one
// header: index names, then count, mean, std, min, 25%, 50%, 75%, max.
inline GoldenCsv goldenDescribe(const GoldenCsv& csv)
{
    GoldenCsv out;
    out.found = csv.found;
    if (csv.rows.size() < 2) {  // an empty frame: the two statistics lines, no index line
        out.header = {"rank", "stream", "name", "count", "mean", "std", "min", "25%", "50%", "75%", "max"};
        return out;
    }
    const std::vector<std::string>& stats = csv.rows[0];
    const std::vector<std::string>& index = csv.rows[1];
    for (size_t c = 0; c < stats.size(); ++c)
        out.header.push_back(c < index.size() && !index[c].empty() ? index[c] : stats[c]);
    out.rows.assign(csv.rows.begin() + 2, csv.rows.end());
    return out;
}

// Python's str(list) of names, "['a', 'b']", as "a;b".
inline std::string pythonListToSemicolons(const std::string& text)
{
    std::string out;
    std::string item;
    bool inQuote = false;
    char quote = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inQuote) {
            if (c == '\\' && i + 1 < text.size()) {
                item += text[++i];
            } else if (c == quote) {
                inQuote = false;
                out += (out.empty() ? "" : ";") + item;
                item.clear();
            } else {
                item += c;
            }
        } else if (c == '\'' || c == '"') {
            inQuote = true;
            quote = c;
        }
    }
    return out;
}

} // namespace kscope::test
