#pragma once

#include "analysis/resulttable.h"

#include <string>
#include <vector>

namespace kscope {

struct Findings;

// One row per finding, in the findings' order: severity, rule, ranks, steps, time at stake, title,
// detail, suggestion, the view and command that show the evidence, id; the result's notes.
Table findingsTable(const Findings& result);

struct FindingDiffRow;
// diff-summary's findings table: change, subject, each side's severity, ranks and time at stake,
// and the title (the test run's, the control's for one that disappeared).
Table findingsDiffTable(const std::vector<FindingDiffRow>& rows, const std::string& controlLabel,
                        const std::string& testLabel);

// "3 5 7": rank or step numbers as one cell.
std::string numberCell(const std::vector<int>& values);

} // namespace kscope
