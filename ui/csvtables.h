#pragma once

// The GUI's "Export as CSV": the engine's result tables (analysis/resulttables.h), written with
// the same columns and number format as kinetoscope-cli.

#include "analysis/resulttables.h"

#include <QString>

namespace kscope::csv {

bool write(const Table& table, const QString& path);

} // namespace kscope::csv
