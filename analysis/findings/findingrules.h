#pragma once

// The rules of findings.h, one function each: each reads the inputs, compares them with its
// thresholds and appends what it finds (evaluateFindings calls them, then groups and sorts).

#include "analysis/findings/findings.h"

#include <string>
#include <vector>

namespace kscope::finding_rules {

void traceProblems(const FindingsInputs& in, std::vector<Finding>& out);
void launchBound(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void exposedCommunication(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void slowRanksAndSteps(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void collectiveStraggler(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void syncsInStep(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
// resourcerules.cpp: what the ranks' memory, critical paths and kernels look like.
void memoryNearCapacity(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void memoryGrowth(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void hostBoundCriticalPath(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void fusionCandidates(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);
void tensorCoreShare(const FindingsInputs& in, const FindingsThresholds& th, std::vector<Finding>& out);

// A finding's id about one rank: "launch_bound/rank3".
std::string rankId(const std::string& rule, int rank);

} // namespace kscope::finding_rules
