#pragma once

#include <QByteArray>
#include <QString>

namespace kscope {

struct Table;

// Writes to a temporary file beside `path` and renames it over the target: a reader never sees
// half a file, and a failure leaves the old file as it was. On failure *error says why.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);
// A result table as CSV, with the CLI's columns and number format.
bool writeCsvFile(const Table& table, const QString& path, QString* error = nullptr);

} // namespace kscope
