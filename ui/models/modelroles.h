#pragma once

#include <Qt>

namespace kscope {

// Roles of the result-table model: raw values sort numerically whatever the display text says.
enum ModelRole : int {
    kSortRole = Qt::UserRole + 1,
    kIdRole,      // what a row selects: a rank, or a kernel's StringId value
    kRankRole,    // the row's rank number (its "rank" column); -1 without one
    kRankIndexRole,  // the row's rank trace (a RankIndex value) where the table says; -1 otherwise
    kFilterRole,  // the text the search box matches: full names, not their shortened display
};

} // namespace kscope
