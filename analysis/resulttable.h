#pragma once

#include "model/ids.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kscope {

// A cell: empty (printed as nothing / null), integer, floating point or text.
using Cell = std::variant<std::monostate, int64_t, double, std::string>;

// What a column's numbers measure, declared by the table that has it (never read off its name):
// the GUI formats and labels by it, in HTA's mode too, where HTA's names carry no unit.
enum class Unit : uint8_t {
    None,      // text, counts, ids
    Micros,    // microseconds
    Percent,   // 0..100
    Fraction,  // 0..1
};

// A column: its name as the CLI, CSV and JSON write it, and its unit. Reads as its name.
struct TableColumn {
    std::string name;
    Unit unit = Unit::None;

    TableColumn(std::string columnName, Unit columnUnit = Unit::None) : name(std::move(columnName)), unit(columnUnit) {}
    TableColumn(const char* columnName, Unit columnUnit = Unit::None) : name(columnName), unit(columnUnit) {}
    operator const std::string&() const { return name; }
    bool operator==(std::string_view other) const { return name == other; }
};
std::ostream& operator<<(std::ostream& out, const TableColumn& column);

// An analysis result as a table: what the CLI prints and the GUI's "Export as CSV" writes, with
// HTA's column names where HTA has the analysis.
struct Table {
    std::vector<TableColumn> columns;
    std::vector<std::vector<Cell>> rows;
    std::vector<std::string> notes;  // printed to stderr in table/csv mode, "notes" in JSON
    // Per-rank tables: the rank trace each row is about (its "rank" column is only the number a
    // file claims, which two files may share). Empty when rows are not per rank. Not written.
    std::vector<RankIndex> rowRanks;

    void addRow(std::vector<Cell> row) { rows.push_back(std::move(row)); }
    std::vector<std::string> columnNames() const { return {columns.begin(), columns.end()}; }
};

// CSV and JSON keep full precision (the shortest text that round-trips) and full names.
void writeCsv(const Table& table, std::ostream& out);
// {"columns": [names], "units": {name: "us" | "percent" | "fraction"} for the columns with a unit
// (HTA's names carry none), "rows": [{name: value}], "notes": [text]}; empty and non-finite
// cells are null.
void writeJson(const Table& table, std::ostream& out);
// The columns, units and rows members of that object, for documents holding several tables (each
// row on its own line after rowIndent).
void writeJsonTableMembers(const Table& table, std::ostream& out, std::string_view rowIndent);
// "us", "percent", "fraction"; "" for Unit::None.
const char* unitName(Unit unit);

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

// A column of microseconds: its name with the unit in the default mode, HTA's name in its mode.
inline TableColumn usColumn(bool htaCompat, const std::string& name)
{
    return {htaCompat ? name : name + " (us)", Unit::Micros};
}
// A column named by the table, of microseconds ("sum (us)", or HTA's "dur").
inline TableColumn micros(std::string name) { return {std::move(name), Unit::Micros}; }
inline TableColumn percent(std::string name) { return {std::move(name), Unit::Percent}; }
inline TableColumn fraction(std::string name) { return {std::move(name), Unit::Fraction}; }

// Returns the columns left out to fit the width.
std::vector<std::string> writeAligned(const Table& table, std::ostream& out, const AlignedOptions& options = {});

std::string formatCell(const Cell& cell);

} // namespace kscope
