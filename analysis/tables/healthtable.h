#pragma once

#include "analysis/resulttable.h"

namespace kscope {

struct TraceHealth;

// One row per problem: rank, check, severity, count, the analyses it degrades, an example.
Table healthTable(const TraceHealth& result);

} // namespace kscope
