#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

#include <filesystem>
#include <vector>

namespace kscope {

struct Table;

// The files of the runs the window shows: no export is ever written over one of them. The session
// sets them whenever a run is opened or closed.
void setFilesNotToOverwrite(std::vector<std::filesystem::path> files);
// Empty, or why `path` must not be written (it is one of those files, under any name).
QString overwriteRefusal(const QString& path);

// Writes to a temporary file beside `path` and renames it over the target: a reader never sees
// half a file, and a failure leaves the old file as it was. On failure *error says why.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);
// A result table as CSV, with the CLI's columns and number format.
bool writeCsvFile(const Table& table, const QString& path, QString* error = nullptr);
// Where a save dialog for `fileName` opens: in the folder of the last export (kept across
// sessions), else the working folder.
QString exportSuggestion(const QString& fileName);
// Remembers the folder of a file (or a folder) just exported.
void rememberExport(const QString& path);

// An image as PNG, written the same way.
bool writePngFile(const QImage& image, const QString& path, QString* error = nullptr);

} // namespace kscope
