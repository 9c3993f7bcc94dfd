#pragma once

// Reads the golden CSVs (pandas to_csv output, optionally gzipped): quoted fields, embedded
// commas, quotes and newlines.

#include "testsupport.h"

#include <map>
#include <string>
#include <vector>

namespace kscope::test {

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    int column(const std::string& name) const
    {
        for (size_t i = 0; i < header.size(); ++i)
            if (header[i] == name)
                return static_cast<int>(i);
        return -1;
    }
};

inline CsvTable parseCsv(const std::string& text)
{
    CsvTable table;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    bool any = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            any = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            any = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            if (any || !field.empty()) {
                row.push_back(std::move(field));
                field.clear();
                (table.header.empty() ? table.header : table.rows.emplace_back()) = std::move(row);
                row.clear();
            }
            any = false;
        } else {
            field += c;
            any = true;
        }
    }
    if (any || !field.empty()) {
        row.push_back(std::move(field));
        (table.header.empty() ? table.header : table.rows.emplace_back()) = std::move(row);
    }
    return table;
}

inline CsvTable readCsv(const std::filesystem::path& file)
{
    return parseCsv(readMaybeGzip(file));
}

} // namespace kscope::test
