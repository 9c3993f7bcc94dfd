#pragma once

// The CLI prints the engine's result tables (analysis/resulttable.h).

#include "analysis/resulttable.h"

namespace kscope::cli {

enum class OutputFormat { Auto, Table, Csv, Json };

using kscope::Cell;
using kscope::formatCell;
using kscope::Table;
using kscope::writeAligned;
using kscope::writeCsv;
using kscope::writeJson;

} // namespace kscope::cli
