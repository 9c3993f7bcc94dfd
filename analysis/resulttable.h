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

void writeCsv(const Table& table, std::ostream& out);
void writeJson(const Table& table, std::ostream& out);
void writeAligned(const Table& table, std::ostream& out);
std::string formatCell(const Cell& cell);

} // namespace kscope
