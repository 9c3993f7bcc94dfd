#pragma once

// The golden material in ../shared: which trace folders are runs, what HTA returned for them
// (pandas to_csv files, gzipped when large) and with which arguments (params.json).

#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope::test {

struct GoldenCsv {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    bool found = false;

    int column(const std::string& name) const
    {
        const auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : static_cast<int>(it - header.begin());
    }
};

// RFC 4180 as pandas writes it: quoted fields may hold commas, quotes ("") and newlines.
inline GoldenCsv parseGoldenCsv(const std::string& text)
{
    GoldenCsv csv;
    csv.found = true;
    std::vector<std::string> record;
    std::string field;
    bool inQuotes = false;
    bool recordStarted = false;
    auto endRecord = [&] {
        record.push_back(std::move(field));
        field.clear();
        if (csv.header.empty())
            csv.header = std::move(record);
        else
            csv.rows.push_back(std::move(record));
        record.clear();
        recordStarted = false;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inQuotes) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                inQuotes = false;
            } else {
                field += c;
            }
            continue;
        }
        if (c == '"') {
            inQuotes = true;
            recordStarted = true;
        } else if (c == ',') {
            record.push_back(std::move(field));
            field.clear();
            recordStarted = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            if (recordStarted || !field.empty())
                endRecord();
        } else {
            field += c;
            recordStarted = true;
        }
    }
    if (recordStarted || !field.empty())
        endRecord();
    return csv;
}

// golden/<case>/<stem>.csv or .csv.gz; found == false when HTA wrote neither.
inline GoldenCsv readGoldenCsv(const std::filesystem::path& caseDir, const std::string& stem)
{
    for (const char* suffix : {".csv", ".csv.gz"}) {
        const std::filesystem::path file = caseDir / (stem + suffix);
        if (std::filesystem::exists(file))
            return parseGoldenCsv(readMaybeGzip(file));
    }
    return {};
}

struct GoldenCase {
    std::string name;                 // trace folder path with '/' -> "__"
    std::filesystem::path traceDir;   // ../shared/traces/<path>
    std::filesystem::path goldenDir;  // ../shared/golden/<name>
};

// Every folder under traces/ that directly holds trace files and has a golden folder. Parents of
// runs (trace_diff/, trace_compare/) hold only folders and so are not runs themselves.
inline std::vector<GoldenCase> goldenCases()
{
    namespace fs = std::filesystem;
    const fs::path traces = sharedDir() / "traces";
    std::vector<GoldenCase> cases;
    if (!fs::exists(traces))
        return cases;
    for (const auto& entry : fs::recursive_directory_iterator(traces)) {
        if (!entry.is_directory())
            continue;
        bool hasTrace = false;
        for (const auto& file : fs::directory_iterator(entry.path())) {
            const std::string n = file.path().filename().string();
            if (file.is_regular_file() && (n.ends_with(".json") || n.ends_with(".gz")))
                hasTrace = true;
        }
        if (!hasTrace)
            continue;
        std::string name = fs::relative(entry.path(), traces).generic_string();
        for (size_t at = name.find('/'); at != std::string::npos; at = name.find('/', at))
            name.replace(at, 1, "__");
        const fs::path golden = sharedDir() / "golden" / name;
        if (fs::exists(golden / "params.json"))
            cases.push_back({name, entry.path(), golden});
    }
    std::sort(cases.begin(), cases.end(), [](const GoldenCase& a, const GoldenCase& b) { return a.name < b.name; });
    return cases;
}

// One HTA call from params.json: its step name, arguments and outcome.
struct GoldenCall {
    bool found = false;
    QJsonObject kwargs;
    QString status;  // "ok" or "error"
    QString error;
};

inline GoldenCall goldenCall(const std::filesystem::path& goldenDir, const QString& step)
{
    GoldenCall call;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(readMaybeGzip(goldenDir / "params.json")));
    for (const QJsonValue& value : doc.object().value("calls").toArray()) {
        const QJsonObject object = value.toObject();
        if (object.value("step").toString() != step)
            continue;
        call.found = true;
        call.kwargs = object.value("kwargs").toObject();
        call.status = object.value("status").toString();
        call.error = object.value("error").toString();
        break;
    }
    return call;
}

} // namespace kscope::test
