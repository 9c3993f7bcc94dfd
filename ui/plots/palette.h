#pragma once

#include "analysis/core/idlecauses.h"
#include "analysis/core/idletime.h"
#include "analysis/core/kerneltype.h"

#include <QColor>
#include <QString>

namespace kscope {
enum class CpBound : uint8_t;
}

namespace kscope::palette {

// One colour per category, shared by every panel, so "compute" looks the same in the temporal
// breakdown, the kernel-type chart and the legend. Hues follow HTA's plotly charts where users
// already know them (idle blue, compute red, non-compute green).
QColor idleTime();
QColor computeTime();
QColor nonComputeTime();
QColor kernelType(KernelType type);
// A kernel-type slice label as the analysis writes it: "COMPUTATION" or "A overlapping B".
QColor kernelTypeSlice(const QString& label);
QColor idleCategory(IdleCategory category);
// Host-side causes warm, GPU-side ones in the idle blues, nothing recorded grey.
QColor idleCause(IdleCause cause);
// What bounds a critical-path segment: compute, communication and launch share the colours above.
QColor criticalPathBound(CpBound bound);
QColor overlap();
QColor selectionBand();
QColor selectionOutline();
QColor boxFill();
// The two runs of a comparison and their difference.
QColor diffControl();
QColor diffTest();
QColor diffChange();
// The n-th of several lines (streams, copy kinds): distinct hues, cycling.
QColor series(int n);

} // namespace kscope::palette
