#pragma once

#include "plots/plotdata.h"

namespace kscope {

struct ProfilerSteps;
struct Run;
struct Stragglers;

// Each step's GPU (or CPU) span per rank in ms, as a heat map: columns are the steps the
// analysis lists (xKeys: their numbers), rows its ranks (yKeys: rank chart ids), HTA's potential
// stragglers marked "⚑". `whole` is the run the steps were found in (it names the ranks).
HeatMapData stepTimeMap(const ProfilerSteps& steps, const Stragglers& stragglers, const Run& whole, bool gpu);

} // namespace kscope
