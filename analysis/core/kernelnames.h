#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kscope {

// Short names to show for a list of kernels: HTA's shortened name (shortenKernelName), except
// where two different kernels would read the same, e.g. NCCL's RING_LL and RING_SIMPLE variants
// or several at::native::vectorized_elementwise_kernel instantiations. Those get the part of
// their full name that tells them apart appended in brackets. Equal full names get equal
// short names; "::::" left by a dropped anonymous namespace reads "::".
std::vector<std::string> distinctShortNames(const std::vector<std::string_view>& fullNames);

struct Table;
// The table with a "short_name" column after `nameColumn` (its names' distinctShortNames): an
// exported kernel table reads like the screen and still carries the full names. Unchanged when
// it has no such column or already has short names.
Table withShortNameColumn(Table table, const std::string& nameColumn);

} // namespace kscope
