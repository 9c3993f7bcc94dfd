#pragma once

#include <Qt>

namespace kscope {

// Roles shared by the item models: raw values sort numerically whatever the display text says.
enum ModelRole : int {
    kSortRole = Qt::UserRole + 1,
    kIdRole,    // what a row selects: a rank, or a kernel's StringId value
    kRankRole,  // the row's rank, for rank filters
};

} // namespace kscope
