#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <variant>
#include <vector>

namespace kscope {

// A cell: empty (printed as nothing / null), integer, floating point or text.
using Cell = std::variant<std::monostate, int64_t, double, std::string>;

// An analysis result as a table: what the CLI prints and the GUI's "Export as CSV" writes, with
// HTA's column names where HTA has the analysis.
struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<Cell>> rows;
    std::vector<std::string> notes;  // printed to stderr in table/csv mode, "notes" in JSON

    void addRow(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

// CSV and JSON keep full precision (the shortest text that round-trips) and full names.
void writeCsv(const Table& table, std::ostream& out);
void writeJson(const Table& table, std::ostream& out);

// The table format is for reading: floating-point columns rounded to at most 3 decimals (as many
// as the column needs, the same for every row), kernel names ("name") shortened the way the GUI
// shows them, other long text cut at 60 characters, and rows fitted to a width: first by cutting
// text columns in the middle (names to 24 characters at least, other text to 12), then by
// leaving columns out, text before numbers, from the right.
struct AlignedOptions {
    size_t width = 0;        // fit rows in this many characters; 0 = no limit
    bool fullNames = false;  // kernel names in full instead of HTA's short names, told apart
    // Columns to leave out first when a row is too wide, in this order (after a "partial"
    // column of zeros); after them any column but the first, "rank", "name" and "partial",
    // from the right.
    std::vector<std::string> dropFirst;
    // Columns never left out: what the rows are sorted by and what names them.
    std::vector<std::string> keep;
};
// The table with the result's notes and, when the analysis gave no result, why ("no result: ...").
template <typename Result>
Table withNotes(Table table, const Result& result)
{
    table.notes.insert(table.notes.end(), result.notes.begin(), result.notes.end());
    if (!result.error.empty())
        table.notes.push_back("no result: " + result.error);
    return table;
}

// A column's name with its unit in the default mode, HTA's unit-free name in its mode.
inline std::string usColumn(bool htaCompat, const std::string& name)
{
    return htaCompat ? name : name + " (us)";
}

// Returns the columns left out to fit the width.
std::vector<std::string> writeAligned(const Table& table, std::ostream& out, const AlignedOptions& options = {});

std::string formatCell(const Cell& cell);

} // namespace kscope
