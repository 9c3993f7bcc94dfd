#include "resulttable.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>

namespace kscope {

std::string formatCell(const Cell& cell)
{
    if (std::holds_alternative<int64_t>(cell))
        return std::to_string(std::get<int64_t>(cell));
    if (std::holds_alternative<double>(cell)) {
        const double d = std::get<double>(cell);
        if (!std::isfinite(d))
            return "";
        char buf[64];
        // Shortest text that round-trips: what pandas writes, and exact for golden comparisons.
        auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, d);
        std::string text(buf, ec == std::errc() ? ptr : buf);
        if (text.find_first_of(".en") == std::string::npos)
            text += ".0";
        return text;
    }
    if (std::holds_alternative<std::string>(cell))
        return std::get<std::string>(cell);
    return "";
}

namespace {

std::string csvEscape(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

void jsonString(std::ostream& out, const std::string& s)
{
    out << '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"': out << "\\\""; break;
        case '\\': out << "\\\\"; break;
        case '\n': out << "\\n"; break;
        case '\r': out << "\\r"; break;
        case '\t': out << "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out << buf;
            } else {
                out << c;
            }
        }
    }
    out << '"';
}

} // namespace

void writeCsv(const Table& table, std::ostream& out)
{
    for (size_t c = 0; c < table.columns.size(); ++c)
        out << (c ? "," : "") << csvEscape(table.columns[c]);
    out << '\n';
    for (const auto& row : table.rows) {
        for (size_t c = 0; c < row.size(); ++c)
            out << (c ? "," : "") << csvEscape(formatCell(row[c]));
        out << '\n';
    }
}

void writeJson(const Table& table, std::ostream& out)
{
    out << "{\"columns\": [";
    for (size_t c = 0; c < table.columns.size(); ++c) {
        out << (c ? ", " : "");
        jsonString(out, table.columns[c]);
    }
    out << "],\n \"rows\": [";
    for (size_t r = 0; r < table.rows.size(); ++r) {
        out << (r ? ",\n  {" : "\n  {");
        const auto& row = table.rows[r];
        for (size_t c = 0; c < row.size() && c < table.columns.size(); ++c) {
            out << (c ? ", " : "");
            jsonString(out, table.columns[c]);
            out << ": ";
            const Cell& cell = row[c];
            if (std::holds_alternative<std::string>(cell))
                jsonString(out, std::get<std::string>(cell));
            else if (std::holds_alternative<std::monostate>(cell)
                     || (std::holds_alternative<double>(cell) && !std::isfinite(std::get<double>(cell))))
                out << "null";
            else
                out << formatCell(cell);
        }
        out << '}';
    }
    out << "],\n \"notes\": [";
    for (size_t n = 0; n < table.notes.size(); ++n) {
        out << (n ? ", " : "");
        jsonString(out, table.notes[n]);
    }
    out << "]}\n";
}

void writeAligned(const Table& table, std::ostream& out)
{
    constexpr size_t kMaxWidth = 60;
    std::vector<size_t> width(table.columns.size());
    std::vector<std::vector<std::string>> text;
    for (size_t c = 0; c < table.columns.size(); ++c)
        width[c] = table.columns[c].size();
    for (const auto& row : table.rows) {
        auto& cells = text.emplace_back();
        for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
            std::string s = formatCell(row[c]);
            if (s.size() > kMaxWidth)
                s = s.substr(0, kMaxWidth - 3) + "...";
            width[c] = std::max(width[c], s.size());
            cells.push_back(std::move(s));
        }
    }
    auto line = [&](const std::vector<std::string>& cells, const std::vector<Cell>* raw) {
        for (size_t c = 0; c < cells.size(); ++c) {
            const bool numeric = raw && (std::holds_alternative<int64_t>((*raw)[c]) || std::holds_alternative<double>((*raw)[c]));
            const std::string pad(width[c] - cells[c].size(), ' ');
            out << (c ? "  " : "") << (numeric ? pad + cells[c] : cells[c] + (c + 1 < cells.size() ? pad : ""));
        }
        out << '\n';
    };
    line(table.columns, nullptr);
    for (size_t r = 0; r < text.size(); ++r)
        line(text[r], &table.rows[r]);
}

} // namespace kscope
