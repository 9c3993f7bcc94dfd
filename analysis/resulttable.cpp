#include "analysis/resulttable.h"

#include "analysis/core/kernelnames.h"

#include "model/jsonwrite.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <set>

namespace kscope {

std::ostream& operator<<(std::ostream& out, const TableColumn& column)
{
    return out << column.name;
}

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
    out << kscope::jsonString(s);
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

const char* unitName(Unit unit)
{
    switch (unit) {
    case Unit::Micros: return "us";
    case Unit::Percent: return "percent";
    case Unit::Fraction: return "fraction";
    case Unit::None: break;
    }
    return "";
}

void writeJsonCell(const Cell& cell, std::ostream& out)
{
    if (const auto* text = std::get_if<std::string>(&cell))
        jsonString(out, *text);
    else if (const std::string number = formatCell(cell); number.empty())
        out << "null";  // empty, or not finite
    else
        out << number;
}

void writeJsonTableMembers(const Table& table, std::ostream& out, std::string_view rowIndent)
{
    out << "\"columns\": [";
    for (size_t c = 0; c < table.columns.size(); ++c) {
        out << (c ? ", " : "");
        jsonString(out, table.columns[c]);
    }
    out << "], \"units\": {";
    bool first = true;
    for (const TableColumn& column : table.columns)
        if (column.unit != Unit::None) {
            out << (first ? "" : ", ");
            jsonString(out, column.name);
            out << ": \"" << unitName(column.unit) << '"';
            first = false;
        }
    out << "},\n" << rowIndent << "\"rows\": [";
    for (size_t r = 0; r < table.rows.size(); ++r) {
        out << (r ? ",\n" : "\n") << rowIndent << " {";
        const auto& row = table.rows[r];
        for (size_t c = 0; c < table.columns.size(); ++c) {
            out << (c ? ", " : "");
            jsonString(out, table.columns[c]);
            out << ": ";
            writeJsonCell(c < row.size() ? row[c] : Cell{}, out);
        }
        out << '}';
    }
    out << ']';
}

void writeJson(const Table& table, std::ostream& out)
{
    out << '{';
    writeJsonTableMembers(table, out, " ");
    out << ",\n \"notes\": [";
    for (size_t n = 0; n < table.notes.size(); ++n) {
        out << (n ? ", " : "");
        jsonString(out, table.notes[n]);
    }
    out << "]}\n";
}

namespace {

// Characters on screen: UTF-8 continuation bytes take no column ("…" is one).
size_t displayWidth(const std::string& s)
{
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

// The fewest decimals (0 to 3) that show every value of a column as rounding to 3 would.
int decimalsFor(const std::vector<double>& values)
{
    int decimals = 0;
    for (double v : values) {
        const double scaled = std::round(v * 1000.0);
        while (decimals < 3 && std::fmod(scaled, std::pow(10.0, 3 - decimals)) != 0.0)
            ++decimals;
    }
    return decimals;
}

// s cut to `width` characters on screen: its first `head` characters, "…", and as many of its
// last as fit. UTF-8 sequences are kept whole.
std::string fitText(const std::string& s, size_t width, size_t head)
{
    std::vector<size_t> starts;  // byte offset of each character
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
            starts.push_back(i);
    if (starts.size() <= width || width < 2)
        return s;
    head = std::min(head, width - 1);
    const size_t tail = width - 1 - head;
    return s.substr(0, starts[head]) + "\u2026" + (tail ? s.substr(starts[starts.size() - tail]) : std::string());
}

std::string fitText(const std::string& s, size_t width)
{
    return fitText(s, width, width > 1 ? (width - 1) * 2 / 3 : 0);
}

// A column's cells cut to `width`, choosing where the "…" goes so that cells that differed still
// differ (two kernels told apart only by their tails keep their tails).
void fitColumn(std::vector<std::vector<std::string>>& text, size_t c, size_t width)
{
    std::set<std::string> before;
    for (const auto& cells : text)
        before.insert(cells[c]);
    std::vector<std::string> best;
    size_t bestDistinct = 0;
    for (const size_t sixths : {4u, 3u, 2u, 1u, 0u, 5u}) {
        std::vector<std::string> cut;
        std::set<std::string> after;
        for (const auto& cells : text) {
            cut.push_back(fitText(cells[c], width, width > 1 ? (width - 1) * sixths / 6 : 0));
            after.insert(cut.back());
        }
        if (after.size() > bestDistinct || best.empty()) {
            best = std::move(cut);
            bestDistinct = after.size();
        }
        if (bestDistinct == before.size())
            break;
    }
    for (size_t r = 0; r < text.size(); ++r)
        text[r][c] = std::move(best[r]);
}

std::string fixed(double value, int decimals)
{
    if (std::round(value * std::pow(10.0, decimals)) == 0.0)
        value = 0.0;  // no "-0.000"
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

} // namespace

std::vector<std::string> writeAligned(const Table& table, std::ostream& out, const AlignedOptions& options)
{
    constexpr size_t kMaxText = 60;
    constexpr size_t kMinNameWidth = 24;  // a kernel or op name cut shorter no longer says which
    constexpr size_t kMinTextWidth = 12;
    const size_t columns = table.columns.size();
    std::vector<std::vector<std::string>> text(table.rows.size(), std::vector<std::string>(columns));
    std::vector<bool> numeric(columns, false);
    for (size_t c = 0; c < columns; ++c) {
        std::vector<double> doubles;
        for (const auto& row : table.rows)
            if (c < row.size())
                if (const auto* d = std::get_if<double>(&row[c]); d && std::isfinite(*d))
                    doubles.push_back(*d);
        const int decimals = decimalsFor(doubles);
        const bool names = table.columns[c] == "name" && !options.fullNames;
        std::vector<std::string_view> fullNames;
        for (size_t r = 0; r < table.rows.size(); ++r) {
            if (c >= table.rows[r].size())
                continue;
            const Cell& cell = table.rows[r][c];
            if (std::holds_alternative<int64_t>(cell) || std::holds_alternative<double>(cell))
                numeric[c] = true;
            if (const auto* d = std::get_if<double>(&cell); d && std::isfinite(*d))
                text[r][c] = fixed(*d, decimals);
            else
                text[r][c] = formatCell(cell);
            if (names)
                fullNames.push_back(std::get_if<std::string>(&cell) ? std::string_view(std::get<std::string>(cell))
                                                                    : std::string_view());
            else if (table.columns[c] != "name" && displayWidth(text[r][c]) > kMaxText)
                text[r][c] = fitText(text[r][c], kMaxText);
        }
        if (names) {
            const std::vector<std::string> shortNames = distinctShortNames(fullNames);
            for (size_t r = 0, k = 0; r < table.rows.size(); ++r)
                if (c < table.rows[r].size())
                    text[r][c] = shortNames[k++];
        }
    }
    std::vector<size_t> width(columns);
    for (size_t c = 0; c < columns; ++c) {
        width[c] = displayWidth(table.columns[c]);
        for (const auto& cells : text)
            width[c] = std::max(width[c], displayWidth(cells[c]));
    }

    // Leave columns out until a row fits: the table's own low-value columns first, then from
    // the right, never the first column, rank, name or partial.
    std::vector<bool> shown(columns, true);
    std::vector<std::string> dropped;
    auto rowWidth = [&] {
        size_t total = 0, count = 0;
        for (size_t c = 0; c < columns; ++c)
            if (shown[c]) {
                total += width[c];
                ++count;
            }
        return total + (count ? 2 * (count - 1) : 0);
    };
    auto drop = [&](size_t c) {
        shown[c] = false;
        dropped.push_back(table.columns[c]);
    };
    if (options.width > 0) {
        // Text gives way before numbers: the widest text column is cut (in the middle) until the
        // row fits or every text column is down to its floor, and only then are columns left out.
        auto shrinkText = [&](size_t floor) {
            while (rowWidth() > options.width) {
                size_t widest = columns;
                for (size_t c = 0; c < columns; ++c)
                    if (shown[c] && !numeric[c] && width[c] > std::max(floor, displayWidth(table.columns[c])) &&
                        (widest == columns || width[c] > width[widest]))
                        widest = c;
                if (widest == columns)
                    return;
                const size_t excess = rowWidth() - options.width;
                const size_t least = std::max(floor, displayWidth(table.columns[widest]));
                width[widest] = std::max(least, width[widest] - std::min(excess, width[widest]));
                fitColumn(text, widest, width[widest]);
            }
        };
        shrinkText(kMinNameWidth);
        // A "partial" column of zeros says nothing a reader needs (the notes name partial ranks).
        for (size_t c = 1; c < columns && rowWidth() > options.width; ++c) {
            if (table.columns[c] != "partial")
                continue;
            const bool allZero = std::all_of(table.rows.begin(), table.rows.end(), [c](const std::vector<Cell>& row) {
                return c >= row.size() || row[c] == Cell{int64_t{0}};
            });
            if (allZero)
                drop(c);
        }
        for (const std::string& name : options.dropFirst) {
            if (rowWidth() <= options.width)
                break;
            for (size_t c = 1; c < columns; ++c)
                if (shown[c] && table.columns[c] == name)
                    drop(c);
        }
        // Then from the right: text columns before numbers, whose leftmost (what a table leads
        // with and is sorted by) go last.
        for (const bool numbers : {false, true})
            for (size_t c = columns; c-- > 1 && rowWidth() > options.width;) {
                const std::string& name = table.columns[c];
                const bool kept = std::find(options.keep.begin(), options.keep.end(), name) != options.keep.end();
                if (shown[c] && !kept && numeric[c] == numbers && name != "rank" && name != "name" && name != "partial")
                    drop(c);
            }
        shrinkText(kMinTextWidth);  // what is left and still too wide: its text, to the bone
    }

    auto line = [&](const std::vector<std::string>& cells) {
        std::string row;
        size_t last = columns;
        while (last > 0 && !shown[last - 1])
            --last;
        bool first = true;
        for (size_t c = 0; c < last; ++c) {
            if (!shown[c])
                continue;
            const std::string pad(width[c] - displayWidth(cells[c]), ' ');
            row += first ? "" : "  ";
            first = false;
            if (numeric[c])
                row += pad + cells[c];
            else
                row += cells[c] + (c + 1 < last ? pad : "");
        }
        out << row << '\n';
    };
    line(std::vector<std::string>(table.columns.begin(), table.columns.end()));
    for (const auto& cells : text)
        line(cells);
    return dropped;
}

} // namespace kscope
