#pragma once

#include "analysis/resulttable.h"

#include <optional>

namespace kscope {

struct Run;
struct IdleCauses;

// Time per cause: per rank, per rank and step, or per rank and stream (IdleCauses::byRank /
// byStep / byStream).
enum class IdleCauseGrouping : uint8_t { Rank, Step, Stream };
Table idleCausesTable(const IdleCauses& result, IdleCauseGrouping grouping = IdleCauseGrouping::Rank);
// One row per gap (IdleCauses::gaps): where it starts (since the run's first event), how long it
// lasts, its cause and the op that names it, the GPU op after it. `only`: the gaps of one cause.
enum class IdleCause : uint8_t;
Table idleCauseGapsTable(const Run& run, const IdleCauses& result, std::optional<IdleCause> only = std::nullopt);

} // namespace kscope
